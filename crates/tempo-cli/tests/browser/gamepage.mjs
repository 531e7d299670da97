// The game page's controls (issue #25, item 2): only the buttons that
// apply (Abort before the first moves, no Claim draw without a claim),
// the app's own dialog instead of confirm(), a draw offer shown to both
// sides and its decline, the first-move timer (the clocks wait for the
// first moves), rematch with colours swapped into a new game for both,
// tenths under ten seconds, and the arbiter's link as a link.

import { apiAs, apiGame, assert, assertEqual, loggedInPage, PHONE, screenshot, sleep } from './lib.mjs';

// A page that fails the test on any native dialog (alert, confirm).
async function gamePage(browser, name, gameId, options) {
  const page = await loggedInPage(browser, name, options);
  page.nativeDialogs = [];
  page.on('dialog', (dialog) => {
    page.nativeDialogs.push(dialog.message());
    dialog.dismiss().catch(() => {});
  });
  await page.goto(`/game/${gameId}`);
  await page.locator('[data-square="e1"]').waitFor();
  return page;
}

const move = (api, gameId, uci) => api.post(`/api/board/game/${gameId}/move/${uci}`);

async function count(page, selector) {
  return page.locator(selector).count();
}

// Both sides' first moves through the API.
async function firstMoves(gameId) {
  await move(await apiAs('anna'), gameId, 'e2e4');
  await move(await apiAs('ben'), gameId, 'e7e5');
}

export const tests = [
  [
    'Abort only before the first moves, no Claim draw without a claim, the own dialog, the first-move timer',
    async (browser) => {
      const gameId = await apiGame('anna', 'ben', { variant: 'standard', clock: '300+3' });
      const page = await gamePage(browser, 'anna', gameId);
      await page.locator('[data-action="abort"]').waitFor();
      assertEqual(await count(page, '[data-action="claim-draw"]'), 0, 'no Claim draw without a claim');
      assertEqual(await count(page, '[data-action="resign"]'), 0, 'no Resign before the first moves');
      // The clocks stand; the first-move timer counts down instead.
      await page.locator('[data-first-move="white"]').waitFor();
      assert(/\d+ s/.test(await page.locator('[data-first-move]').innerText()), 'the first-move timer shows seconds');
      assertEqual(await count(page, '.clock.running'), 0, 'no clock runs before the first moves');
      await screenshot(page, 'game-first-move-timer-desktop');
      // Abort asks in the app's own dialog; "cancel" keeps the game.
      await page.click('[data-action="abort"]');
      const dialog = page.locator('dialog.ask[open]');
      await dialog.waitFor();
      await dialog.locator('[data-answer="no"]').click();
      await dialog.waitFor({ state: 'detached' });
      await firstMoves(gameId);
      await page.locator('[data-action="resign"]').waitFor();
      assertEqual(await count(page, '[data-action="abort"]'), 0, 'no Abort after the first moves');
      assertEqual(await count(page, '[data-action="claim-draw"]'), 0, 'still no Claim draw');
      assertEqual(await count(page, '[data-first-move]:visible'), 0, 'the first-move timer is gone');
      await page.locator('.clock.running').waitFor();
      assertEqual(page.nativeDialogs.length, 0, `no native dialog (${page.nativeDialogs.join('; ')})`);
      assertEqual(page.errors.length, 0, `no script errors (${page.errors.join('; ')})`);
    },
  ],
  [
    'Abort through the own dialog ends the game without a result',
    async (browser) => {
      const gameId = await apiGame('anna', 'ben', { variant: 'fairschach', clock: '300+3' });
      const page = await gamePage(browser, 'ben', gameId, { viewport: PHONE });
      await page.locator('[data-first-move="both"]').waitFor();
      await page.click('[data-action="abort"]');
      await page.locator('dialog.ask[open] [data-answer="yes"]').click();
      await page.locator('[data-result="*"]').waitFor();
      assertEqual(page.nativeDialogs.length, 0, 'no native dialog');
    },
  ],
  [
    'a draw offer: shown to the offerer until answered, offered to the opponent, declined',
    async (browser) => {
      const gameId = await apiGame('anna', 'ben', { variant: 'standard', clock: '300+3' });
      await firstMoves(gameId);
      const anna = await gamePage(browser, 'anna', gameId);
      const ben = await gamePage(browser, 'ben', gameId, { viewport: PHONE });
      await anna.click('[data-action="draw"]');
      await anna.locator('[data-draw="offered"]').waitFor();
      assertEqual(await count(anna, '[data-action="draw"]'), 0, 'no second offer while one is open');
      await ben.locator('[data-draw="incoming"]').waitFor();
      await ben.locator('[data-action="draw-yes"]').waitFor();
      await screenshot(ben, 'game-draw-offered-phone');
      await ben.click('[data-action="draw-no"]');
      await anna.locator('[data-draw="declined"]').waitFor();
      assertEqual(await count(anna, '[data-draw="offered"]'), 0, 'the offer is no longer shown');
      assertEqual(await count(ben, '[data-draw="incoming"]'), 0, 'the opponent no longer sees the offer');
    },
  ],
  [
    'rematch after the end: the same challenge with colours swapped, both land in the new game',
    async (browser) => {
      const gameId = await apiGame('anna', 'ben', { variant: 'fairschach', clock: '300+3', rules: { pause: 'capturable' } });
      const anna = await gamePage(browser, 'anna', gameId);
      const ben = await gamePage(browser, 'ben', gameId, { viewport: PHONE });
      await (await apiAs('ben')).post(`/api/board/game/${gameId}/resign`);
      await anna.locator('[data-action="new-game"]').waitFor();
      await ben.locator('[data-action="rematch"]').waitFor();
      await screenshot(anna, 'game-over-rematch-desktop');
      await anna.click('[data-action="rematch"]');
      await anna.locator('[data-rematch="sent"]').waitFor();
      await ben.locator('[data-rematch="incoming"]').waitFor({ timeout: 15_000 });
      await ben.click('[data-action="rematch-yes"]');
      await ben.waitForURL((url) => url.pathname.startsWith('/game/') && !url.pathname.endsWith(gameId));
      const next = new URL(ben.url()).pathname.split('/').pop();
      await anna.waitForURL(`**/game/${next}`, { timeout: 15_000 });
      const log = await (await apiAs('anna')).get(`/api/game/${next}/log`);
      // A log of one entry (the header) reads as JSON already.
      const header = typeof log === 'string' ? JSON.parse(log.split('\n')[0]) : log;
      assertEqual(header.white, 'ben', 'colours swapped: Ben plays White');
      assertEqual(header.black, 'anna', 'colours swapped: Anna plays Black');
      assertEqual(header.variant, 'fairschach', 'the same variant');
      assertEqual(header.clock, '300+3', 'the same clock');
      assert(header.rules.includes('pause=capturable'), `the same options (${header.rules})`);
      await anna.locator('[data-square="e1"]').waitFor();
      assertEqual(anna.nativeDialogs.length + ben.nativeDialogs.length, 0, 'no native dialog');
    },
  ],
  [
    'a declined rematch says so to its sender; a rematch keeps a custom start position',
    async (browser) => {
      const fen = 'r3k2r/pppq1ppp/2np1n2/4p3/4P3/2NP1N2/PPPQ1PPP/R3K2R w KQkq - 0 1';
      const gameId = await apiGame('anna', 'ben', { variant: 'synchronschach', clock: '300+3', fen });
      const anna = await gamePage(browser, 'anna', gameId);
      const ben = await gamePage(browser, 'ben', gameId);
      await (await apiAs('ben')).post(`/api/board/game/${gameId}/resign`);
      await anna.click('[data-action="rematch"]');
      await anna.locator('[data-rematch="sent"]').waitFor();
      await ben.locator('[data-rematch="incoming"]').waitFor({ timeout: 15_000 });
      const pending = await (await apiAs('ben')).get('/api/challenge');
      const offer = pending.in.find((c) => c.challenger.id === 'anna');
      assertEqual(offer?.fen, fen, 'the rematch starts from the game\'s position');
      await ben.click('[data-action="rematch-no"]');
      await anna.locator('[data-rematch="declined"]').waitFor({ timeout: 10_000 });
      assertEqual(await count(ben, '[data-rematch="incoming"]'), 0, 'the offer is gone for its receiver');
    },
  ],
  [
    'the tab says "Your turn" while the viewer\'s move is due, and not after it',
    async (browser) => {
      const gameId = await apiGame('anna', 'ben', { variant: 'standard', clock: '300+3' });
      const anna = await gamePage(browser, 'anna', gameId);
      await anna.waitForFunction(() => /^(\(\d+\) )?Your turn · anna – ben/.test(document.title));
      await (await apiAs('anna')).post(`/api/board/game/${gameId}/move/e2e4`);
      await anna.waitForFunction(() => !document.title.includes('Your turn') && document.title.includes('anna – ben'));
      const ben = await gamePage(browser, 'ben', gameId);
      await ben.waitForFunction(() => document.title.includes('Your turn'));
    },
  ],
  [
    'clocks show tenths under ten seconds and tick smoothly',
    async (browser) => {
      const gameId = await apiGame('anna', 'ben', { variant: 'standard', clock: '10+0' });
      const page = await gamePage(browser, 'ben', gameId);
      await firstMoves(gameId);
      const running = page.locator('.clock.running');
      await running.waitFor();
      const readings = [];
      for (let i = 0; i < 4; i++) {
        readings.push(await running.innerText());
        await sleep(250);
      }
      for (const r of readings) assert(/^00:0\d\.\d$/.test(r), `a reading under ten seconds with tenths: ${r}`);
      assert(new Set(readings).size >= 3, `the tenths tick (${readings.join(', ')})`);
    },
  ],
  [
    "the arbiter's link on the game page is a link",
    async (browser) => {
      const gameId = await apiGame('anna', 'ben', { variant: 'standard' });
      const page = await gamePage(browser, 'arbi', gameId);
      const link = page.locator('[data-action="arbiter"]');
      await link.waitFor();
      assertEqual(await link.evaluate((a) => a.tagName), 'A', 'the arbiter link is an <a>');
      assert((await link.getAttribute('href')).endsWith(`/arbiter?game=${gameId}`), 'it leads to the arbiter page for the game');
      const text = await page.locator('.exports').innerText();
      assert(!text.includes('http'), `no address as text: ${text}`);
    },
  ],
  [
    'the digit code on the page is the download\'s: the sources\' piece digit and ICCF, a line a step, kept up to date',
    async (browser) => {
      const gameId = await apiGame('anna', 'ben', { variant: 'fairschach', clock: '300+3' });
      const page = await gamePage(browser, 'anna', gameId);
      await firstMoves(gameId);
      await page.locator('[data-square="e4"] [data-piece]').waitFor();
      await page.click('[data-action="digits"]');
      const download = async () => (await (await apiAs('anna')).get(`/api/game/${gameId}/record?format=digits`));
      const lines = (text) => String(text).split('\n').filter((l) => l && !l.startsWith('#')).join('\n');
      const shown = () => page.locator('.digits').innerText();
      const want = lines(await download());
      // A pawn is the sources' digit 6: e2e4 is 65254.
      assert(want.includes('65254'), `the download's digit code has the piece digit: ${want}`);
      await page.waitForFunction((w) => document.querySelector('.digits')?.textContent === w, want).catch(async () => {
        throw new Error(`the page's digit code ${JSON.stringify(await shown())} is not the download's ${JSON.stringify(want)}`);
      });
      // The next pair while it is shown: it follows.
      await move(await apiAs('anna'), gameId, 'g1f3');
      await move(await apiAs('ben'), gameId, 'b8c6');
      await page.locator('[data-square="f3"] [data-piece]').waitFor();
      const next = lines(await download());
      assertEqual(next.split('\n').length, 2, `two steps in the download: ${next}`);
      await page.waitForFunction((w) => document.querySelector('.digits')?.textContent === w, next).catch(async () => {
        throw new Error(`after the second pair the page shows ${JSON.stringify(await shown())}, the download ${JSON.stringify(next)}`);
      });
      assertEqual(page.errors.length, 0, `no script errors (${page.errors.join('; ')})`);
    },
  ],
  [
    'an untimed game from a set-up position: no clock shown, the variant named, the arbiter sees its end',
    async (browser) => {
      // gameFull's variant is lichess's object (`fromPosition` here) and an
      // untimed game's times are lichess's 2147483647: the page shows
      // orthodox chess and no time.
      const gameId = await apiGame('anna', 'ben', { variant: 'standard', fen: 'k7/8/8/8/8/8/2Q5/4K3 w - - 0 1' });
      const page = await gamePage(browser, 'anna', gameId);
      await page.locator('h1', { hasText: 'anna – ben · Chess' }).waitFor();
      const clocks = await page.locator('.clock').allInnerTexts();
      assertEqual(clocks.join(' '), '– –', 'no time in an untimed game');
      assertEqual(await count(page, '.clock.running'), 0, 'no clock runs');
      await move(await apiAs('anna'), gameId, 'c2c7');
      const arbiter = await loggedInPage(browser, 'arbi');
      await arbiter.goto(`/arbiter?game=${gameId}`);
      // Stalemate: lichess's status, shown as over (not as running).
      await arbiter.locator('.game-info', { hasText: 'over: 1/2-1/2 (stalemate)' }).waitFor();
      assert(await arbiter.locator('.game-info', { hasText: 'Chess' }).isVisible(), 'the variant named');
    },
  ],
];
