// The account page's e-mail card: a member sets the address for
// correspondence mails and their language, sees it again after a reload,
// and removes it; the texts are German on a German page.

import { apiAs, assert, assertEqual, loggedInPage } from './lib.mjs';

export const tests = [
  [
    'a member sets, sees and removes their e-mail address on the account page (German)',
    async (browser) => {
      const page = await loggedInPage(browser, 'carl', { locale: 'de-DE' });
      await page.goto('/account');
      const form = page.locator('[data-form="email"]');
      await form.waitFor();
      assert((await form.locator('h2').textContent()).includes('E-Mail'), 'a German heading');
      await form.locator('input[name="email"]').fill('carl@example.org');
      await form.locator('select[name="lang"]').selectOption('de');
      await form.locator('button[type="submit"]').click();
      await page.getByText('E-Mail-Adresse gespeichert.').waitFor();
      const api = await apiAs('carl');
      const stored = await api.get('/api/account/email');
      assertEqual(stored.email, 'carl@example.org', 'the stored address');
      assertEqual(stored.lang, 'de', 'the stored language');
      await page.reload();
      await form.waitFor();
      assertEqual(await form.locator('input[name="email"]').inputValue(), 'carl@example.org', 'the address after a reload');
      await form.locator('[data-action="remove-email"]').click();
      await page.getByText('E-Mail-Adresse gelöscht.').waitFor();
      assertEqual((await api.get('/api/account/email')).email, null, 'removed');
      assert(await form.locator('[data-action="remove-email"]').isHidden(), 'no remove button without an address');
      assertEqual(page.errors.length, 0, `no script errors (${page.errors.join('; ')})`);
    },
  ],
];
