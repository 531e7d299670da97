// A club evening in the browser, as the director runs it: a Keizer
// tournament made in the page, players registered, attendance checked
// in, the round paired, the pairing list printed (A4 and projector),
// results entered by board, standings and crosstable; and a Chess960
// Swiss whose round shows its drawn position as a diagram and X-FEN.

import { loggedInPage, assert, assertEqual, screenshot, PHONE } from './lib.mjs';

async function createTournament(page, { name, system, chess960 = false, preset }) {
  await page.goto('/tournaments');
  await page.fill('[data-form="tournament"] input[name="name"]', name);
  await page.selectOption('[data-form="tournament"] select[name="system"]', system);
  if (preset) await page.selectOption('[data-form="tournament"] select[name="preset"]', preset);
  if (chess960) await page.check('[data-form="tournament"] input[name="chess960"]');
  await page.click('[data-action="create-tournament"]');
  await page.waitForURL(/\/tournaments\/\w+$/);
}

async function register(page, players) {
  for (const [name, rating, username] of players) {
    await page.fill('[data-form="player"] input[name="name"]', name);
    await page.fill('[data-form="player"] input[name="rating"]', String(rating));
    await page.fill('[data-form="player"] input[name="username"]', username || '');
    await page.click('[data-action="add-player"]');
    await page.waitForSelector(`td:text-is("${name}")`);
  }
}

async function result(page, board, value) {
  const select = `select[data-result-board="${board}"]`;
  await page.selectOption(select, value);
  // The page reloads the tournament after each saved result.
  await page.waitForFunction(([s, v]) => document.querySelector(s)?.value === v, [select, value]);
}

export const tests = [
  ['a Keizer club evening: check-in, pairing, print, results, standings', async (browser) => {
    const page = await loggedInPage(browser, 'arbi');
    await createTournament(page, { name: 'Clubabend', system: 'keizer', preset: 'club' });
    await register(page, [['Anna', 2100, 'anna'], ['Ben', 2000, 'ben'], ['Carl', 1900, 'carl'], ['Dora', 1800], ['Emil', 1700]]);
    // Emil is excused tonight: four play, no bye.
    await page.selectOption('select[data-attendance="5"]', 'excused');
    await page.waitForSelector('#toast.shown');
    await screenshot(page, 'tournament-checkin-desktop');
    await page.click('[data-action="pair"]');
    await page.waitForSelector('select[data-result-board="2"]');
    const boards = await page.$$eval('[data-round="1"] tbody tr', (rows) => rows.length);
    assertEqual(boards, 2, 'two boards for four present players');
    assert(!(await page.textContent('[data-round="1"] tbody')).includes('Emil'), 'the excused player is not paired');
    assert((await page.textContent('[data-round="1"] [data-away]')).includes('Emil (5): excused'), 'the round names the excused player');
    // Round 2's check-in (and its pairing) waits for round 1's results.
    assert(!(await page.$('[data-action="pair"]')), 'round 2 cannot be paired before the results');
    await page.waitForSelector('[data-checkin-waits="2"]');
    await page.click('[data-action="print"]');
    await page.waitForSelector('table.pairings');
    await screenshot(page, 'tournament-print-a4');
    await page.click('text=Projector view');
    await page.waitForSelector('main.projector table.pairings');
    await screenshot(page, 'tournament-print-projector');
    await page.goBack();
    await page.goBack();
    await page.waitForSelector('select[data-result-board="1"]');
    await result(page, 1, '1-0');
    await result(page, 2, '1/2-1/2');
    // Every result in: round 2 may be paired.
    await page.waitForSelector('[data-action="pair"]:not([disabled])');
    const id = new URL(page.url()).pathname.split('/')[2];
    await page.goto(`/tournaments/${id}/standings`);
    await page.waitForSelector('table.standings tbody tr');
    const rows = await page.$$eval('table.standings tbody tr', (trs) => trs.map((tr) => [...tr.cells].map((c) => c.textContent)));
    assertEqual(rows.length, 5, 'every player is ranked, the excused one too');
    await screenshot(page, 'tournament-standings-desktop');
    await page.setViewportSize(PHONE);
    await screenshot(page, 'tournament-standings-phone');
    await page.goto(`/tournaments/${id}/crosstable`);
    await page.waitForSelector('table.crosstable');
    await screenshot(page, 'tournament-crosstable-phone');
  }],
  ['a Chess960 Swiss round shows its position as a diagram and X-FEN', async (browser) => {
    const page = await loggedInPage(browser, 'arbi');
    await createTournament(page, { name: 'Chess960 Swiss', system: 'dutch', chess960: true });
    await register(page, [['A', 2000], ['B', 1900], ['C', 1800], ['D', 1700]]);
    await page.click('[data-action="pair"]');
    await page.waitForSelector('select[data-result-board="2"]');
    await page.click('[data-action="print"]');
    const xfen = await page.textContent('[data-xfen]');
    const placement = xfen.split(' ')[0];
    assert(/^[rnbqk]{8}\/p{8}\/8\/8\/8\/8\/P{8}\/[RNBQK]{8}$/.test(placement), `a Chess960 start: ${xfen}`);
    // The diagram shows the same back rank.
    const rank = await page.$$eval('.diagram-box [data-square$="8"] [data-piece]', (els) => els.map((e) => e.dataset.piece[1]).join(''));
    assertEqual(rank, placement.split('/')[0].toUpperCase(), 'the diagram shows the X-FEN back rank');
    await screenshot(page, 'tournament-chess960-print');
  }],
];
