// The app shell on every page: the member's event stream brings a
// challenge toast (data-notify="challenge") to the rules and archive
// pages, a count in the tab's title, a game that starts opens by itself
// (or, while another game of the member's is in play on screen, a
// data-notify="gameStart" toast), a data-notify="yourTurn" toast on
// another page; and the server's errors read in German in the German UI
// (by their machine code), with no English left.

import { createRequire } from 'node:module';
import { apiAs, apiGame, assert, assertEqual, loggedInPage, screenshot, sleep } from './lib.mjs';

const require = createRequire(import.meta.url);
const AXE = require.resolve('axe-core/axe.min.js');
const GERMAN = { locale: 'de-DE', bypassCSP: true };

// The count before the tab's title: "(2) Regeln · tempo" → 2.
async function titleCount(page) {
  const title = await page.title();
  return Number(/^\((\d+)\) /.exec(title)?.[1] ?? 0);
}

async function waitForCount(page, n, what) {
  await page.waitForFunction((want) => Number(/^\((\d+)\) /.exec(document.title)?.[1] ?? 0) === want, n)
    .catch(async () => assertEqual(await titleCount(page), n, `${what}: the title ${JSON.stringify(await page.title())}`));
}

// The event stream is open (the server has answered it): an event from
// now on reaches the page.
async function streamOpen(page) {
  await page.waitForFunction(() => document.documentElement.dataset.events === 'open');
}

async function noSeriousAxe(page, what) {
  await page.addScriptTag({ path: AXE });
  const result = await page.evaluate(() => window.axe.run(document, { resultTypes: ['violations'] }));
  const bad = result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  assert(!bad.length, `${what}: axe-core: ${bad.map((v) => `${v.id}: ${v.nodes.map((n) => n.html).join(' | ')}`).join('; ')}`);
}

async function challengeToastOnOtherPages(browser) {
  const page = await loggedInPage(browser, 'dora', GERMAN);
  await page.goto('/rules');
  await page.locator('main h1').waitFor();
  await streamOpen(page);
  const before = await titleCount(page);
  const carl = await apiAs('carl');
  const { id } = await carl.post('/api/challenge/dora', { variant: 'synchronschach', clock: '300+3', color: 'white' });
  const toast = page.locator(`[data-notify="challenge"][data-id="${id}"]`);
  await toast.waitFor();
  const text = await toast.innerText();
  assert(text.includes('carl') && text.includes('Synchronschach') && text.includes('5 + 3'), `the toast says ${JSON.stringify(text)}`);
  assert(text.includes('fordert dich heraus') && text.includes('ungewertet'), `German toast, casual: ${JSON.stringify(text)}`);
  await waitForCount(page, before + 1, 'a challenge to me');
  assertEqual(await page.evaluate(() => document.documentElement.dataset.lastSound), 'notify', 'the notification sound');
  await screenshot(page, 'shell-challenge-toast');
  await noSeriousAxe(page, 'rules page with a challenge toast');
  // Declined in the toast: it goes, and so does the count.
  await toast.locator('[data-action="decline"]').click();
  await toast.waitFor({ state: 'detached' });
  await waitForCount(page, before, 'the challenge declined');
  const pending = await carl.get('/api/challenge');
  assert(!pending.out.some((c) => c.id === id), 'the challenge is declined on the server');

  // On the archive, reached through the menu (no reload: the same stream).
  await page.click('nav a[href="/archive"]');
  await page.waitForURL('**/archive');
  const anna = await apiAs('anna');
  const second = await anna.post('/api/challenge/dora', { variant: 'standard', clock: '600+5', color: 'black' });
  const other = page.locator(`[data-notify="challenge"][data-id="${second.id}"]`);
  await other.waitFor();
  await waitForCount(page, before + 1, 'a challenge on the archive page');
  // Closed by hand: the toast goes, the challenge stays pending (counted).
  await other.locator('[data-action="close"]').click();
  await other.waitFor({ state: 'detached' });
  assertEqual(await titleCount(page), before + 1, 'a closed toast leaves the challenge pending');
  await anna.post(`/api/challenge/${second.id}/cancel`);
  await waitForCount(page, before, 'the challenge taken back');
  // Taken back while its toast shows: the toast goes, no new one comes.
  const third = await carl.post('/api/challenge/dora', { variant: 'standard', clock: '600+5', color: 'white' });
  const shown = page.locator(`[data-notify="challenge"][data-id="${third.id}"]`);
  await shown.waitFor();
  await carl.post(`/api/challenge/${third.id}/cancel`);
  await shown.waitFor({ state: 'detached' });
  await waitForCount(page, before, 'the third challenge taken back');
  await sleep(500);
  assertEqual(await page.locator('[data-notify="challenge"]').count(), 0, 'no toast for a challenge taken back');
  assert(!page.errors.length, `script errors: ${page.errors.join('; ')}`);
}

async function gameStartOpensOrToasts(browser) {
  const page = await loggedInPage(browser, 'anna', GERMAN);
  await page.goto('/rules');
  await page.locator('main h1').waitFor();
  await streamOpen(page);
  // anna's challenge, accepted by ben elsewhere: her game opens by itself.
  const anna = await apiAs('anna');
  const ben = await apiAs('ben');
  const { id } = await anna.post('/api/challenge/ben', { variant: 'standard', clock: '600+5', color: 'white' });
  const { gameId: first } = await ben.post(`/api/challenge/${id}/accept`);
  await page.waitForURL(`**/game/${first}`);
  // Before the first moves the game offers Abort (lichess's first-move rule).
  await page.locator('[data-action="abort"]').waitFor();
  // A second game starts while the first is on screen and in play: a toast
  // with a link, and the first game stays.
  const second = await apiGame('ben', 'anna', { variant: 'fairschach', clock: '600+5' });
  const toast = page.locator(`[data-notify="gameStart"][data-id="${second}"]`);
  await toast.waitFor();
  assert((await toast.innerText()).includes('Partie'), 'German gameStart toast');
  assertEqual(new URL(page.url()).pathname, `/game/${first}`, 'the game on screen stays');
  await noSeriousAxe(page, 'game page with a gameStart toast');
  await toast.locator('a').click();
  await page.waitForURL(`**/game/${second}`);
  await toast.waitFor({ state: 'detached' });
  for (const game of [first, second]) await anna.post(`/api/board/game/${game}/abort`);
  assert(!page.errors.length, `script errors: ${page.errors.join('; ')}`);
}

async function yourTurnOnAnotherPage(browser) {
  const game = await apiGame('anna', 'dora', { variant: 'standard', clock: '600+5' });
  const page = await loggedInPage(browser, 'dora', GERMAN);
  await page.goto('/archive');
  await page.locator('main h1').waitFor();
  await streamOpen(page);
  const before = await titleCount(page);
  const anna = await apiAs('anna');
  await anna.post(`/api/board/game/${game}/move/e2e4`);
  const toast = page.locator(`[data-notify="yourTurn"][data-id="${game}"]`);
  await toast.waitFor();
  assert((await toast.innerText()).includes('am Zug'), 'German yourTurn toast');
  await waitForCount(page, before + 1, 'my move is due');
  await screenshot(page, 'shell-your-turn-toast');
  // Opening the game sees it: the toast and the count go.
  await toast.locator('a').click();
  await page.waitForURL(`**/game/${game}`);
  await toast.waitFor({ state: 'detached' });
  await waitForCount(page, before, 'the game seen');
  // While the game is on screen, the next turn is no toast.
  const dora = await apiAs('dora');
  await dora.post(`/api/board/game/${game}/move/e7e5`);
  await anna.post(`/api/board/game/${game}/move/g1f3`);
  await page.waitForTimeout(500);
  assertEqual(await page.locator('[data-notify="yourTurn"]').count(), 0, 'no toast for the game on screen');
  await anna.post(`/api/board/game/${game}/resign`);
  assert(!page.errors.length, `script errors: ${page.errors.join('; ')}`);
}

// The page's api.js, asked in the page: the message of the error thrown.
async function errorOf(page, method, path, body) {
  return page.evaluate(async ([m, p, b]) => {
    const api = await import('/assets/api.js');
    try {
      await (m === 'post' ? api.post(p, b) : api.get(p));
      return { message: 'no error' };
    } catch (err) {
      return { message: err.message, code: err.code, detail: err.detail };
    }
  }, [method, path, body]);
}

async function germanErrors(browser) {
  const page = await loggedInPage(browser, 'carl', GERMAN);
  const game = await apiGame('carl', 'ben', { variant: 'standard', clock: '600+5' });
  // Both first moves made (then an abort is too late), and Black to move.
  await (await apiAs('carl')).post(`/api/board/game/${game}/move/e2e4`);
  await (await apiAs('ben')).post(`/api/board/game/${game}/move/e7e5`);
  await (await apiAs('carl')).post(`/api/board/game/${game}/move/d2d4`);
  await page.goto(`/game/${game}`);
  await page.locator('[data-action="resign"]').waitFor();
  const cases = [
    ['post', `/api/board/game/${game}/abort`, undefined, 'too_late_to_abort', 'Zu spät zum Abbrechen'],
    ['post', `/api/board/game/${game}/move/g1f3`, undefined, 'not_your_turn', 'nicht am Zug'],
    ['post', '/api/challenge/nobody', { variant: 'standard' }, 'user_not_found', 'Mitglied gibt es nicht'],
    ['post', '/api/challenge/carl', { variant: 'standard' }, 'challenge_yourself', 'nicht selbst'],
    ['get', '/api/game/nosuchgame', undefined, 'game_not_found', 'Partie gibt es nicht'],
  ];
  for (const [method, path, body, code, german] of cases) {
    const err = await errorOf(page, method, path, body);
    assertEqual(err.code, code, `${path}: the code`);
    assert(err.message.includes(german), `${path}: ${JSON.stringify(err.message)} is not the German text`);
    assert(err.detail && err.detail !== err.message, `${path}: the English kept as the detail`);
  }
  // A code the app does not know: the server's English is shown.
  await page.route('**/api/game/unknowncode', (route) => route.fulfill({
    status: 409, contentType: 'application/json', body: JSON.stringify({ error: 'something new', code: 'brand_new' }),
  }));
  assertEqual((await errorOf(page, 'get', '/api/game/unknowncode')).message, 'something new', 'an unknown code falls back to the English');
  await (await apiAs('carl')).post(`/api/board/game/${game}/resign`);

  // The login form, logged out, in German: the German text and no English.
  await page.click('[data-action="logout"]');
  await page.waitForURL('**/login');
  await page.fill('input[name="username"]', 'carl');
  await page.fill('input[name="password"]', 'not-the-password');
  await page.click('[data-action="login"]');
  await page.waitForFunction(() => /falsch/.test(document.querySelector('main').innerText));
  const shown = await page.locator('main').innerText();
  assert(shown.includes('Name oder Passwort ist falsch'), `the login error: ${JSON.stringify(shown)}`);
  assert(!/wrong username|password is wrong/i.test(shown), `English on the German page: ${JSON.stringify(shown)}`);
  assert(!page.errors.length, `script errors: ${page.errors.join('; ')}`);
}

export const tests = [
  ['a challenge shows as a toast on the rules and the archive page, counted in the title', challengeToastOnOtherPages],
  ['a game that starts opens by itself, or is a toast while another game is on screen', gameStartOpensOrToasts],
  ['your turn in a game not on screen is a toast and a count, gone once the game is seen', yourTurnOnAnotherPage],
  ['server errors read in German in the German UI (by code), unknown codes in English', germanErrors],
];
