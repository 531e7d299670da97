// The arbiter's clock-correction calculator (/arbiter) gives the README's
// worked values (docs/clocks-and-arbiter.md, `tempo arbiter clock-reset`)
// and shows the steps (2)-(4) and formula (5):
//   --control 5400+30 --white 40,35,20:00 --black 40,35,1:00:00
//     → white 0:28:45, black 1:03:45
//   --control 40/5400+30:1800+30 --played 45 --legal 38 --displayed 25:00
//     → 0:09:47 (formula (5) would give 0:35:07)

import { assert, loggedInPage, screenshot } from './lib.mjs';

async function calculate(page, control, players) {
  const form = page.locator('form:has([name="control"])');
  await form.waitFor();
  await form.locator('[name="control"]').fill(control);
  for (const color of ['white', 'black']) {
    const [played, legal, displayed] = players[color] || ['', '', ''];
    await form.locator(`[name="${color}-played"]`).fill(played);
    await form.locator(`[name="${color}-legal"]`).fill(legal);
    await form.locator(`[name="${color}-displayed"]`).fill(displayed);
  }
  await form.locator('[data-action="calculate"], [type="submit"]').first().click();
}

async function expectResult(page, color, want) {
  const result = page.locator(`[data-result="${color}"]`);
  await result.filter({ hasText: want }).first().waitFor({ timeout: 5000 }).catch(async () => {
    const shown = await result.first().textContent({ timeout: 500 }).catch(() => null);
    const main = (await page.locator('main').innerText()).replace(/\s+/g, ' ').slice(0, 400);
    throw new Error(`[data-result="${color}"] shows ${JSON.stringify(shown)}, expected ${want}; the page says ${JSON.stringify(main)}`);
  });
}

export const tests = [
  [
    'the clock-correction calculator gives the README values (white 0:28:45, black 1:03:45) with steps (2)-(5)',
    async (browser) => {
      const page = await loggedInPage(browser, 'arbi');
      await page.goto('/arbiter');
      await calculate(page, '5400+30', { white: ['40', '35', '20:00'], black: ['40', '35', '1:00:00'] });
      await expectResult(page, 'white', '0:28:45');
      await expectResult(page, 'black', '1:03:45');
      const text = await page.locator('main').innerText();
      for (const step of ['(2)', '(3)', '(4)', '(5)']) assert(text.includes(step), `the page shows step ${step}`);
      await screenshot(page, 'arbiter-worked-desktop');
      // Several periods: (4) holds, (5) differs.
      await calculate(page, '40/5400+30:1800+30', { white: ['45', '38', '25:00'] });
      await expectResult(page, 'white', '0:09:47');
      // exact 0:35:06.667, rounded 0:35:07
      assert(/0:35:0(7|6\.667)/.test(await page.locator('main').innerText()), 'formula (5) gives 0:35:07 (shown for comparison)');
    },
  ],
];
