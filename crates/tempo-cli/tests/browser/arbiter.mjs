// The arbiter's clock-correction calculator (/arbiter) gives the README's
// worked values (docs/clocks-and-arbiter.md, `tempo arbiter clock-reset`):
//   --control 5400+30 --white 40,35,20:00 --black 40,35,1:00:00
//   → white 0:28:45, black 1:03:45
// and shows the steps (2)-(4) and formula (5).

import { assert, loggedInPage } from './lib.mjs';

export const tests = [
  [
    'the clock-correction calculator gives the README values (white 0:28:45, black 1:03:45)',
    async (browser) => {
      const page = await loggedInPage(browser, 'arbi');
      await page.goto('/arbiter');
      const form = page.locator('main form').first();
      await form.waitFor();
      await form.locator('[name="control"]').fill('5400+30');
      for (const [color, played, legal, displayed] of [['white', '40', '35', '20:00'], ['black', '40', '35', '1:00:00']]) {
        await form.locator(`[name="${color}-played"]`).fill(played);
        await form.locator(`[name="${color}-legal"]`).fill(legal);
        await form.locator(`[name="${color}-displayed"]`).fill(displayed);
      }
      await form.locator('[type="submit"]').click().catch(() => {});
      for (const [color, want] of [['white', '0:28:45'], ['black', '1:03:45']]) {
        const result = page.locator(`[data-result="${color}"]`);
        await result.filter({ hasText: want }).first().waitFor({ timeout: 5000 }).catch(async () => {
          throw new Error(`[data-result="${color}"] shows ${JSON.stringify(await result.first().textContent().catch(() => null))}, expected ${want}`);
        });
      }
      const text = await page.locator('main').innerText();
      for (const step of ['(2)', '(3)', '(4)', '(5)']) assert(text.includes(step), `the page shows step ${step}`);
    },
  ],
];
