// Logging in, a failed login, and the language switch (remembered).

import { assert, assertEqual, login, newPage } from './lib.mjs';

async function htmlLang(page) {
  return page.evaluate(() => document.documentElement.lang);
}

export const tests = [
  [
    'a wrong password is refused with a message; the right one opens the lobby',
    async (browser) => {
      const page = await newPage(browser);
      await page.goto('/');
      // The lobby needs a login: the page sends the visitor there.
      await page.waitForURL(/\/login/);
      await page.fill('input[name="username"]', 'anna');
      await page.fill('input[name="password"]', 'not-her-password');
      await page.click('[data-action="login"]');
      const alert = page.locator('form [role="alert"]');
      await alert.filter({ hasText: /\S/ }).waitFor();
      assert((await alert.textContent()).trim().length > 3, 'the failed login says why');
      assert(new URL(page.url()).pathname === '/login', 'a failed login stays on the login page');
      await login(page, 'anna');
      await page.waitForSelector('[data-form="challenge"]');
      assertEqual(new URL(page.url()).pathname, '/', 'after the login');
      assertEqual(page.errors.length, 0, `no script errors (${page.errors.join('; ')})`);
    },
  ],
  [
    'the language switch sets <html lang> and the texts, and is remembered after a reload',
    async (browser) => {
      const page = await newPage(browser, { locale: 'en-GB' });
      await page.goto('/login');
      await page.waitForSelector('input[name="username"]');
      assertEqual(await htmlLang(page), 'en', 'the browser says English');
      const english = await page.locator('main h1').textContent();
      await page.click('[data-lang="de"]');
      await page.waitForFunction(() => document.documentElement.lang === 'de');
      await page.waitForFunction((en) => document.querySelector('main h1')?.textContent !== en, english);
      const german = await page.locator('main h1').textContent();
      assert(german && german !== english, `the heading is translated (${english} / ${german})`);
      await page.reload();
      await page.waitForSelector('input[name="username"]');
      assertEqual(await htmlLang(page), 'de', 'German after a reload');
      assertEqual(await page.locator('main h1').textContent(), german, 'the German heading after a reload');
      assertEqual(await page.getAttribute('[data-lang="de"]', 'aria-pressed'), 'true', 'the DE button is pressed');
      // Logged in, on another page, back to English.
      await login(page, 'ben');
      await page.click('[data-lang="en"]');
      await page.waitForFunction(() => document.documentElement.lang === 'en');
      await page.reload();
      await page.waitForSelector('[data-form="challenge"]');
      assertEqual(await htmlLang(page), 'en', 'English after a reload');
      assertEqual(await page.getAttribute('[data-lang="en"]', 'aria-pressed'), 'true', 'the EN button is pressed');
    },
  ],
];
