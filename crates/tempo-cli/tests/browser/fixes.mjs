// Review fixes of issue #25: a small board in the lobby runs no clock
// while the game's clocks stand (the first-move rule), and an open
// challenge told on the stream refreshes only the list of open ones.

import { apiAs, apiGame, assert, assertEqual, loggedInPage } from './lib.mjs';

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

export const tests = [
  [
    'a small board runs no clock before the first moves',
    async (browser) => {
      const gameId = await apiGame('ben', 'carl', { variant: 'standard', clock: '300+3' });
      const page = await loggedInPage(browser, 'anna');
      await page.goto('/');
      const mini = page.locator(`[data-watch="${gameId}"]`);
      await mini.waitFor();
      await sleep(2_500);
      for (const color of ['white', 'black']) {
        const clock = mini.locator(`[data-clock="${color}"]`);
        assertEqual(await clock.textContent(), '5:00', `${color}'s clock stands`);
        assertEqual(await clock.evaluate((el) => el.classList.contains('running')), false, `${color}'s clock not marked running`);
      }
      await (await apiAs('ben')).post(`/api/board/game/${gameId}/abort`).catch(() => {});
      assertEqual(page.errors.join('\n'), '', 'no script errors');
    },
  ],
  [
    'an open challenge refreshes only the open list',
    async (browser) => {
      const page = await loggedInPage(browser, 'carl');
      await page.goto('/');
      await page.locator('[data-section="online"]').waitFor();
      await sleep(800);
      const asked = [];
      page.on('request', (r) => asked.push(new URL(r.url()).pathname));
      const anna = await apiAs('anna');
      const { id } = await anna.post('/api/challenge/open', { variant: 'standard', clock: '300+3' });
      await page.locator(`[data-open-challenge="${id}"]`).waitFor();
      await sleep(800);
      assert(asked.includes('/api/challenge/open'), `the open list was read: ${asked}`);
      for (const other of ['/api/challenge', '/api/games', '/api/tournaments']) {
        assert(!asked.includes(other), `${other} not read again: ${asked}`);
      }
      await anna.post(`/api/challenge/${id}/cancel`);
      assertEqual(page.errors.join('\n'), '', 'no script errors');
    },
  ],
];
