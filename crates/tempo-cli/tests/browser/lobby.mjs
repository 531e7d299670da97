// The lobby (issue #25, items 4, 5, 7): an open challenge made in one
// browser and accepted by a third member in another (both land in the
// game), who is online, the games in play as small boards with clocks, a
// decline seen by the challenger at once, the Chess960 field only for
// Chess960, and the projector view fitting three screens with no menu.

import {
  apiAs, apiGame, assert, assertEqual, loggedInPage, newPage, screenshot,
} from './lib.mjs';

// Ends a game made by a test (so that later tests see no stray games).
async function resign(name, gameId) {
  const api = await apiAs(name);
  await api.post(`/api/board/game/${gameId}/resign`).catch(() => {});
}

// The box of `locator` lies inside the page's viewport.
async function inside(page, locator, what) {
  const box = await locator.boundingBox();
  const { width, height } = page.viewportSize();
  assert(box, `${what}: not shown`);
  assert(box.x >= 0 && box.y >= 0 && box.x + box.width <= width + 0.5 && box.y + box.height <= height + 0.5,
    `${what} at ${JSON.stringify(box)} is not inside ${width}x${height}`);
}

export const tests = [
  [
    'an open challenge made by Anna is accepted by Carl in his browser; both land in the game',
    async (browser) => {
      const anna = await loggedInPage(browser, 'anna');
      const carl = await loggedInPage(browser, 'carl');
      await anna.goto('/');
      await anna.locator('[data-section="online"]').waitFor();
      await carl.goto('/');
      // Anna's lobby has its stream open: Carl sees her online, with a challenge button.
      const online = carl.locator('[data-section="online"] [data-online="anna"]');
      await online.waitFor();
      await online.locator('[data-action="challenge-user"]').click();
      assertEqual(await carl.locator('select[name="opponent"]').inputValue(), 'anna', 'the button picks her');
      const form = anna.locator('[data-form="challenge"]');
      await form.locator('select[name="opponent"]').selectOption('*');
      await form.locator('select[name="variant"]').selectOption('standard');
      await form.locator('select[name="clock"]').selectOption('300+3');
      await form.locator('[data-action="challenge"]').click();
      // Anna's own open challenge: a link and a cancel, no accept.
      const mine = anna.locator('[data-open-challenge]');
      await mine.locator('[data-action="cancel"]').waitFor();
      assertEqual(await mine.locator('[data-action="accept"]').count(), 0, 'no accept of one\'s own');
      // Carl's lobby hears of it on its stream (no reload).
      const offer = carl.locator('[data-open-challenge]').filter({ hasText: 'anna' });
      await offer.locator('[data-action="accept"]').waitFor();
      await screenshot(carl, 'lobby-open-challenge-desktop');
      await offer.locator('[data-action="accept"]').click();
      await carl.waitForURL(/\/game\/[A-Za-z0-9]+$/);
      const gameId = new URL(carl.url()).pathname.split('/').pop();
      await anna.waitForURL(`**/game/${gameId}`);
      // The game's own board (the lobby's small boards may still be leaving).
      await carl.locator('.board-box [data-square="e1"] [data-piece]').waitFor();
      await anna.locator('.board-box [data-square="e1"] [data-piece]').waitFor();
      const api = await apiAs('carl');
      const open = await api.get('/api/challenge/open');
      assert(!open.challenges.some((c) => c.challenger === 'anna'), 'the accepted challenge left the list');
      await resign('anna', gameId);
      for (const page of [anna, carl]) assertEqual(page.errors.join('\n'), '', 'no script errors');
    },
  ],
  [
    'a game in play shows as a small board with both clocks; a click opens it',
    async (browser) => {
      const gameId = await apiGame('ben', 'carl', { variant: 'standard', clock: '600+5' });
      const ben = await apiAs('ben');
      await ben.post(`/api/board/game/${gameId}/move/e2e4`);
      const page = await loggedInPage(browser, 'anna');
      await page.goto('/');
      const mini = page.locator(`[data-watch="${gameId}"]`);
      await mini.waitFor();
      await mini.locator('[data-square="e4"] [data-piece="wP"]').waitFor();
      assertEqual(await mini.locator('[data-piece]').count(), 32, 'every piece on the small board');
      for (const color of ['white', 'black']) {
        const text = await mini.locator(`[data-clock="${color}"]`).textContent();
        // 10 minutes, less what passed, plus White's 5 s increment.
        assert(/^(10:0\d|9:[0-5]\d)$/.test(text), `${color}'s clock reads ${text}`);
      }
      await screenshot(page, 'lobby-running-desktop');
      await mini.locator('.board').click();
      await page.waitForURL(`**/game/${gameId}`);
      await page.locator('.board-box [data-square="e4"] [data-piece]').waitFor();
      await resign('ben', gameId);
      assertEqual(page.errors.join('\n'), '', 'no script errors');
    },
  ],
  [
    'bots carry a BOT badge and their Elo level in the online list and among the opponents, in German and English, at desktop and 360 px',
    async (browser) => {
      for (const locale of ['de-DE', 'en-GB']) {
        for (const viewport of [{ width: 1280, height: 800 }, { width: 360, height: 740 }]) {
          const page = await loggedInPage(browser, 'dora', { locale, viewport });
          await page.goto('/');
          // tempo serve's own computer opponents keep an event stream open.
          const bot = page.locator('[data-section="online"] [data-online^="bot-"]').first();
          await bot.waitFor();
          const badge = bot.locator('[data-bot]');
          assertEqual(await badge.textContent(), 'BOT', 'the badge');
          assert(await badge.getAttribute('title'), 'the badge says what it means');
          await bot.scrollIntoViewIfNeeded();
          await inside(page, badge, `the badge at ${viewport.width} px`);
          const name = await bot.getAttribute('data-online');
          // tempo's own bots name their strength on Stockfish's Elo scale.
          const level = bot.locator('.bot-level');
          const levelText = (await level.textContent()).trim();
          assert(/^Elo [~<]\d{3,4}$/.test(levelText), `the level beside the badge: ${levelText}`);
          assert(/Elo|Stockfish/.test(await level.getAttribute('title')), 'the level says what it means');
          const option = page.locator(`select[name="opponent"] option[value="${name}"]`);
          assertEqual(await option.textContent(), `${name} (BOT, ${levelText})`, 'the opponent list marks the bot with its level');
          const people = page.locator('[data-section="online"] [data-online]:not([data-online^="bot-"]) [data-bot]');
          assertEqual(await people.count(), 0, 'no badge beside a person');
          assertEqual(await page.locator('select[name="opponent"] option[value="anna"]').textContent(), 'anna', 'a person unmarked');
          await screenshot(page, `lobby-bot-badge-${locale.slice(0, 2)}-${viewport.width}`);
          assertEqual(page.errors.join('\n'), '', 'no script errors');
          await page.context().close();
        }
      }
    },
  ],
  [
    'a decline updates the challenger\'s lobby at once',
    async (browser) => {
      const page = await loggedInPage(browser, 'anna');
      await page.goto('/');
      await page.locator('[data-section="online"]').waitFor();
      const anna = await apiAs('anna');
      const { id } = await anna.post('/api/challenge/ben', { variant: 'fairschach', clock: '300+3' });
      const item = page.locator(`[data-challenge="${id}"]`);
      await item.waitFor();
      const ben = await apiAs('ben');
      await ben.post(`/api/challenge/${id}/decline`);
      // Well within the time a poll would take: the event removes it.
      await item.waitFor({ state: 'detached', timeout: 3000 });
      await page.locator('#toast.shown').filter({ hasText: 'ben declined' }).waitFor({ timeout: 3000 });
      assertEqual(page.errors.join('\n'), '', 'no script errors');
    },
  ],
  [
    'the Chess960 position field shows for Chess960 only',
    async (browser) => {
      const page = await loggedInPage(browser, 'anna');
      await page.goto('/');
      const form = page.locator('[data-form="challenge"]');
      const position = form.locator('input[name="chess960"]');
      const rules = form.locator('fieldset.rules-options');
      for (const [variant, shown, rulesShown] of [
        ['fairschach', false, true], ['chess960', true, false], ['standard', false, false], ['synchronschach', false, false],
      ]) {
        await form.locator('select[name="variant"]').selectOption(variant);
        assertEqual(await position.isVisible(), shown, `the position field for ${variant}`);
        assertEqual(await rules.isVisible(), rulesShown, `the Fairschach options for ${variant}`);
      }
    },
  ],
  [
    'the projector view shows the whole board and both clocks without the menu at 1024x768, 1366x768, 1920x1080',
    async (browser) => {
      const gameId = await apiGame('anna', 'ben', { variant: 'fairschach', clock: '600+5' });
      const anna = await apiAs('anna');
      const ben = await apiAs('ben');
      for (const [w, b] of [['e2e4', 'e7e5'], ['g1f3', 'b8c6'], ['f1c4', 'g8f6']]) {
        await anna.post(`/api/board/game/${gameId}/move/${w}`);
        await ben.post(`/api/board/game/${gameId}/move/${b}`);
      }
      for (const [width, height, locale] of [[1024, 768, 'de-DE'], [1366, 768, 'en-GB'], [1920, 1080, 'en-GB']]) {
        const page = await newPage(browser, { viewport: { width, height }, locale });
        await page.goto(`/game/${gameId}?view=big`);
        await page.locator('.board-box [data-square="e4"] [data-piece]').waitFor();
        const what = `${width}x${height}`;
        assert(!(await page.locator('header.top').isVisible()), `${what}: the menu bar is hidden`);
        await inside(page, page.locator('.board').first(), `${what}: the board`);
        const clocks = page.locator('.player .clock');
        assertEqual(await clocks.count(), 2, `${what}: two clocks`);
        for (let i = 0; i < 2; i++) await inside(page, clocks.nth(i), `${what}: clock ${i + 1}`);
        for (let i = 0; i < 2; i++) await inside(page, page.locator('.player .name').nth(i), `${what}: name ${i + 1}`);
        const scroll = await page.evaluate(() => [document.documentElement.scrollWidth, document.documentElement.scrollHeight]);
        assert(scroll[0] <= width && scroll[1] <= height, `${what}: the page scrolls (${scroll})`);
        const full = page.locator('[data-action="fullscreen"]');
        assertEqual(await full.textContent(), locale === 'de-DE' ? 'Vollbild' : 'Full screen', `${what}: the full-screen button`);
        await inside(page, full, `${what}: the full-screen button`);
        await full.click();
        await page.waitForFunction(() => document.fullscreenElement !== null);
        await page.locator('[data-action="fullscreen"]').filter({ hasText: locale === 'de-DE' ? 'Vollbild beenden' : 'Leave full screen' }).waitFor();
        await screenshot(page, `projector-${width}x${height}`);
        assertEqual(page.errors.join('\n'), '', `${what}: no script errors`);
        await page.context().close();
      }
      await resign('anna', gameId);
    },
  ],
];
