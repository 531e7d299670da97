// The state the guide's screenshots and the play-feel measurement show
// (screenshots.mjs, measure.mjs): made through the API on a fresh server,
// as a club evening leaves it — a simultaneous game in progress with a few
// revealed steps and the opponent's commit, a finished game, a challenge
// waiting in the lobby and a tournament with its first round paired.

import { apiAs, apiGame, assert, BASE_URL, newPage, login } from './lib.mjs';

export async function setUp() {
  const anna = await apiAs('anna');
  const ben = await apiAs('ben');
  const running = await apiGame('anna', 'ben', { variant: 'fairschach', clock: '900+10' });
  for (const [w, b] of [['e2e4', 'e7e5'], ['g1f3', 'b8c6'], ['f1c4', 'g8f6']]) {
    await anna.post(`/api/board/game/${running}/move/${w}`);
    await ben.post(`/api/board/game/${running}/move/${b}`);
  }
  // Ben has committed his next move: Anna's page shows his sign.
  await ben.post(`/api/board/game/${running}/move/d7d6`);
  const finished = await apiGame('ben', 'anna', { variant: 'synchronschach', clock: '300+3' });
  for (const [w, b] of [['d2d4', 'd7d5'], ['g1f3', 'g8f6'], ['e2e3', 'e7e6'], ['f1e2', 'f8e7']]) {
    await ben.post(`/api/board/game/${finished}/move/${w}`);
    await anna.post(`/api/board/game/${finished}/move/${b}`);
  }
  await anna.post(`/api/board/game/${finished}/resign`);
  // Carl challenges Anna; she has not answered yet.
  const carl = await apiAs('carl');
  await carl.post('/api/challenge/anna', { variant: 'synchronschach', clock: '600+5', color: 'random' });
  const tournament = await clubTournament();
  return { running, finished, tournament };
}

async function clubTournament() {
  const arbi = await apiAs('arbi');
  const { id } = await arbi.post('/api/tournaments', { name: 'Clubabend', system: 'keizer', rounds: 5, keizer: { preset: 'club' } });
  const players = [['Anna', 2100, 'anna'], ['Ben', 2000, 'ben'], ['Carl', 1900, 'carl'], ['Dora', 1800], ['Emil', 1700], ['Frieda', 1650]];
  for (const [name, rating, username] of players) {
    await arbi.post(`/api/tournaments/${id}/players`, username ? { name, rating, username } : { name, rating });
  }
  await arbi.post(`/api/tournaments/${id}/rounds`, {});
  await arbi.post(`/api/tournaments/${id}/rounds/1/results`, { board: 1, result: '1-0' });
  return id;
}

// A table game (docs/web.md, "A club evening at tables"): Carl seats Anna
// (a member) and Greta (a guest); two pairs played from the seats, with a
// collision; Anna has stopped her clock for the third.
export async function tableScene() {
  const carl = await apiAs('carl');
  const made = await carl.post('/api/tables', { variant: 'fairschach', clock: '900+10', white: { name: 'anna' }, black: { name: 'Greta Gast' } });
  const seat = async (color, choice) => {
    const r = await fetch(`${BASE_URL}/api/board/game/${made.gameId}/move/${choice}`, {
      method: 'POST', headers: { authorization: 'Bearer ' + made.seats[color].token },
    });
    assert(r.ok, `the ${color} seat's move ${choice}: ${r.status} ${await r.text()}`);
  };
  for (const [w, b] of [['e2e4', 'd7d5'], ['d1g4', 'c8g4']]) {
    await seat('white', w);
    await seat('black', b);
  }
  await seat('white', 'f1b5');
  return { gameId: made.gameId, white: made.seats.white.url, black: made.seats.black.url };
}

// The table game's pages: [name, path of the scene, who looks, ready, viewport].
export const TABLE_PAGES = [
  ['table-display', (s) => `/table/${s.gameId}`, null, '[data-state="committed"]', { width: 1280, height: 720 }],
  ['table-phone', (s) => s.black, null, '[data-action="commit"]', { width: 360, height: 740 }],
  ['tables-director', (s) => `/tables/${s.gameId}`, 'carl', '[data-seat="black"] img', { width: 1280, height: 800 }],
];

// The printouts (docs/tournaments.md): a club's Swiss championship with
// ratings after two rounds (a forfeit, the pairing's bye, a requested
// half-point bye, an excused player) and the third round paired.
export async function printoutScene() {
  const arbi = await apiAs('arbi');
  const { id } = await arbi.post('/api/tournaments', { name: 'Vereinsmeisterschaft 2026', system: 'dutch', rounds: 7, chess960: true, tiebreaks: ['BH-C1', 'BH', 'SB'] });
  const players = [['Anna Berger', 2134], ['Ben Schulz', 2051], ['Carl Weber', 1987], ['Dora Fischer', 1920], ['Emil Wagner', 1875], ['Frieda Koch', 1802], ['Gustav Braun', 1744], ['Hanna Richter', 1690], ['Ida Wolf', 1615]];
  for (const [name, rating] of players) await arbi.post(`/api/tournaments/${id}/players`, { name, rating });
  const play = async (round, results) => {
    for (const [i, result] of results.entries()) await arbi.post(`/api/tournaments/${id}/rounds/${round}/results`, { board: i + 1, result });
  };
  await arbi.post(`/api/tournaments/${id}/rounds`, {});
  await play(1, ['1-0', '1/2-1/2', '0-1', '+-']);
  await arbi.post(`/api/tournaments/${id}/attendance`, { round: 2, player: 4, status: 'half-point-bye' });
  await arbi.post(`/api/tournaments/${id}/attendance`, { round: 2, player: 7, status: 'excused' });
  await arbi.post(`/api/tournaments/${id}/rounds`, {});
  await play(2, ['1-0', '1/2-1/2', '0-1']);
  await arbi.post(`/api/tournaments/${id}/attendance`, { round: 3, player: 2, status: 'half-point-bye' });
  await arbi.post(`/api/tournaments/${id}/rounds`, {});
  await arbi.post(`/api/tournaments/${id}/rounds/3/results`, { board: 2, result: '1/2-1/2' });
  return id;
}

// A club evening at tables (docs/tournaments.md, "Rounds at tables"): a
// Keizer evening of members and guests, round 1 paired at tables — every
// board a table game, the director's print carrying the seat cards.
export async function tablesScene() {
  const arbi = await apiAs('arbi');
  const { id } = await arbi.post('/api/tournaments', { name: 'Clubabend an Tischen', system: 'keizer', rounds: 5, clock: '900+10', keizer: { preset: 'club' } });
  const players = [['Anna Berger', 2134, 'anna'], ['Ben Schulz', 2051, 'ben'], ['Carl Weber', 1987, 'carl'], ['Dora Fischer', 1920], ['Emil Wagner', 1875], ['Frieda Koch', 1802]];
  for (const [name, rating, username] of players) {
    await arbi.post(`/api/tournaments/${id}/players`, username ? { name, rating, username } : { name, rating, guest: true });
  }
  await arbi.post(`/api/tournaments/${id}/rounds`, { online: 'table' });
  return id;
}

// The printouts as paper shows them: [name, path, landscape].
export const PRINTOUTS = [
  ['print-pairings', (id) => `/tournaments/${id}/print?round=3`, false, 'figure.qr svg'],
  ['print-standings', (id) => `/tournaments/${id}/standings`, false, '[data-print="standings"]'],
  ['print-crosstable', (id) => `/tournaments/${id}/crosstable`, true, '[data-legend="chart"]'],
  ['print-wallchart', (id) => `/tournaments/${id}/wallchart`, true, '[data-legend="chart"]'],
];

// The main pages: [name, path of the state, who looks (null: logged out),
// the element that says the page is ready, and for a screenshot the part
// to scroll to, if not the top].
export const PAGES = [
  ['lobby', () => '/', 'anna', '[data-challenge]'],
  ['game', (s) => `/game/${s.running}`, 'anna', '[data-action="commit"]'],
  ['game-finished', (s) => `/game/${s.finished}`, 'anna', 'main input[type="range"]'],
  ['archive', () => '/archive', 'anna', (s) => `[data-game="${s.finished}"]`],
  ['tournaments', (s) => `/tournaments/${s.tournament}`, 'arbi', 'select[data-result-board="1"]', '[data-round="1"]'],
  ['rules', () => '/rules', null, '[data-square]'],
  ['account', () => '/account', 'anna', 'main h1'],
  ['login', () => '/login', null, 'input[name="password"]'],
];

// Each member's logged-in browser state (cookies, storage), made once by
// logging in through the page, so later contexts start logged in and cold.
const states = new Map();
export async function sessionOf(browser, who) {
  if (!who) return undefined;
  if (!states.has(who)) {
    const page = await newPage(browser);
    await login(page, who);
    states.set(who, await page.context().storageState());
    await page.context().close();
  }
  return states.get(who);
}

// A fresh context for `who` (cold cache) at `viewport` in `locale`.
export async function pageFor(browser, who, { viewport, locale }) {
  const context = await browser.newContext({ viewport, locale, baseURL: BASE_URL, storageState: await sessionOf(browser, who) });
  context.setDefaultTimeout(15_000);
  const page = await context.newPage();
  page.errors = [];
  page.on('pageerror', (err) => page.errors.push(String(err)));
  return page;
}

export async function ready(page, selector, state) {
  const s = typeof selector === 'function' ? selector(state) : selector;
  await page.locator(s).first().waitFor().catch(async () => {
    const text = await page.locator('main').innerText().catch(() => '');
    assert(false, `${page.url()}: no ${s}; the page says ${JSON.stringify(text.slice(0, 200))}`);
  });
}
