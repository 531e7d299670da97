// The director's evening in order and results from the players' phones
// (issue #26): after pairing, tonight's round comes before the check-in,
// which opens once the results are in; the page fits a 360 px phone; the
// check-in offers what the system accepts (Keizer: no requested byes);
// two players report from phone-sized pages, the director's page and a
// projector without login follow live (reported, disputed, confirmed).
// Tournaments get unique names: other tests may share the server.

import { createRequire } from 'node:module';
import { newPage, loggedInPage, apiAs, assert, assertEqual, screenshot, PHONE, DESKTOP } from './lib.mjs';

const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

const unique = (name) => `${name} ${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
const LIVE = 8000; // a poll is every 5 s; events come at once

async function tournament(system, players) {
  const arbi = await apiAs('arbi');
  const { id } = await arbi.post('/api/tournaments', { name: unique(`Evening ${system}`), system, rounds: 3 });
  for (const [name, rating, username] of players) {
    await arbi.post(`/api/tournaments/${id}/players`, username ? { name, rating, username } : { name, rating });
  }
  return id;
}

// How far the page is wider than the screen (0 when it fits).
const overflow = (page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

// axe-core's serious or critical violations on the page (it needs a page
// made with `bypassCSP`).
async function axe(page, what) {
  await page.addScriptTag({ path: AXE });
  const result = await page.evaluate(() => window.axe.run(document, { resultTypes: ['violations'] }));
  const bad = result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  assert(!bad.length, `${what}: axe-core: ${bad.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(' ')}`).join('; ')}`);
}

// The document order of two selectors' first elements: negative when `a` comes first.
const order = (page, a, b) => page.evaluate(([a, b]) => {
  const x = document.querySelector(a);
  const y = document.querySelector(b);
  if (!x || !y) return null;
  return x.compareDocumentPosition(y) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1;
}, [a, b]);

const options = (page, selector) => page.$$eval(`${selector} option`, (os) => os.map((o) => o.value));

// A board's report state on a page, waited for.
async function expectState(page, board, state, what) {
  await page.waitForSelector(`[data-current] tr[data-board="${board}"][data-report-state="${state}"]`, { timeout: LIVE })
    .catch(() => { throw new Error(`${what}: board ${board} is not ${state}`); });
}

export const tests = [
  ['the evening in order: round first, check-in after its results, 360 px, statuses per system', async (browser) => {
    const id = await tournament('dutch', [['Anna Evening', 2000, 'anna'], ['Carl Evening', 1950, 'carl'], ['Ben Evening', 1900, 'ben'], ['Gustav Gast-Langername', 1800]]);
    const arbi = await apiAs('arbi');
    // Before round 1: the check-in offers the Swiss's statuses.
    const page = await loggedInPage(browser, 'arbi', { bypassCSP: true });
    await page.goto(`/tournaments/${id}`);
    await page.waitForSelector('[data-evening="1"] select[data-attendance="1"]');
    assertEqual((await options(page, 'select[data-attendance="1"]')).join(','),
      'present,excused,unexcused,club-duty,half-point-bye,full-point-bye', 'a Swiss check-in');
    await arbi.post(`/api/tournaments/${id}/rounds`, {});
    await page.reload();
    await page.waitForSelector('[data-current] select[data-result-board="1"]');
    // Tonight's round first; the check-in waits, quietly (no error shown).
    assert(!(await page.$('[data-evening="2"]')), 'no check-in before the results');
    assertEqual(await order(page, '[data-current]', '[data-checkin-waits="2"]'), -1, 'the round comes before the check-in note');
    assertEqual(await page.$$eval('main .error', (els) => els.length), 0, 'no error on the page');
    await screenshot(page, 'evening-round-desktop-en');
    await page.setViewportSize(PHONE);
    await page.waitForTimeout(200);
    assert((await overflow(page)) <= 1, `the director's page fits 360 px (over by ${await overflow(page)})`);
    await screenshot(page, 'evening-round-phone-en');
    await axe(page, 'the director\'s page on a phone');
    // Every result in: the check-in for round 2 opens below tonight's round.
    await arbi.post(`/api/tournaments/${id}/rounds/1/results`, { board: 1, result: '1-0' });
    await arbi.post(`/api/tournaments/${id}/rounds/1/results`, { board: 2, result: '1/2-1/2' });
    await page.setViewportSize(DESKTOP);
    await page.reload();
    await page.waitForSelector('[data-evening="2"] [data-action="pair"]');
    assertEqual(await order(page, '[data-current]', '[data-evening="2"]'), -1, 'the round comes before the check-in');
    await page.setViewportSize(PHONE);
    await page.waitForTimeout(200);
    assert((await overflow(page)) <= 1, `the check-in fits 360 px (over by ${await overflow(page)})`);
    await screenshot(page, 'evening-checkin-phone-en');
    // A Keizer check-in: no requested byes.
    const keizer = await tournament('keizer', [['Anna K', 2000, 'anna'], ['Ben K', 1900, 'ben']]);
    await page.goto(`/tournaments/${keizer}`);
    await page.waitForSelector('[data-evening="1"] select[data-attendance="1"]');
    assertEqual((await options(page, 'select[data-attendance="1"]')).join(','), 'present,excused,unexcused,club-duty', 'a Keizer check-in');
    assert((await overflow(page)) <= 1, 'the Keizer page fits 360 px');
    // German too.
    const de = await loggedInPage(browser, 'arbi', { viewport: PHONE, locale: 'de-DE' });
    await de.goto(`/tournaments/${id}`);
    await de.waitForSelector('[data-evening="2"]');
    assert((await overflow(de)) <= 1, 'the German page fits 360 px');
    await screenshot(de, 'evening-checkin-phone-de');
    assertEqual(page.errors.concat(de.errors).join('; '), '', 'no script error');
  }],
  ['results from the players\' phones: report, dispute, approve, confirm, live for the director and a projector', async (browser) => {
    const id = await tournament('dutch', [['Anna Phone', 2000, 'anna'], ['Carl Phone', 1950, 'carl'], ['Ben Phone', 1900, 'ben'], ['Gus Phone', 1800]]);
    const arbi = await apiAs('arbi');
    const round1 = await arbi.post(`/api/tournaments/${id}/rounds`, {});
    const director = await loggedInPage(browser, 'arbi', { bypassCSP: true });
    await director.goto(`/tournaments/${id}`);
    await director.waitForSelector('[data-current] tr[data-report-state="open"]');
    const projector = await newPage(browser);
    await projector.goto(`/tournaments/${id}`);
    await projector.waitForSelector('[data-current] tr[data-board="1"]');
    const anna = await loggedInPage(browser, 'anna', { viewport: PHONE, bypassCSP: true });
    const ben = await loggedInPage(browser, 'ben', { viewport: PHONE, locale: 'de-DE' });
    const carl = await loggedInPage(browser, 'carl', { viewport: PHONE });
    // Starting ranks: Anna 1, Carl 2, Ben 3, Gus 4.
    const boardOf = (round, player) => round.boards.find((b) => b.white === player || b.black === player);
    const annaBen = boardOf(round1, 1);
    assert(annaBen === boardOf(round1, 3), 'Anna meets Ben in round 1 (1 v 3)');
    const carlGus = boardOf(round1, 2);
    for (const page of [anna, ben, carl]) await page.goto(`/tournaments/${id}`);
    // Anna's phone: her board first, the buttons; she reports her win.
    await anna.waitForSelector(`[data-my-board="${annaBen.board}"] [data-report="1-0"]`);
    assertEqual(await order(anna, '[data-my-board]', '[data-current]'), -1, 'the player\'s board comes first');
    const annaWins = annaBen.white === 1 ? '1-0' : '0-1';
    const benWins = annaBen.white === 1 ? '0-1' : '1-0';
    await anna.click(`[data-report="${annaWins}"]`);
    await anna.waitForSelector('[data-my-report-state="reported"]');
    await expectState(director, annaBen.board, 'reported', 'the director sees the report live');
    await expectState(projector, annaBen.board, 'reported', 'the projector sees the report');
    assert((await overflow(anna)) <= 1, `Anna's phone page fits (over by ${await overflow(anna)})`);
    await screenshot(anna, 'evening-report-phone-en');
    await axe(anna, 'a player\'s phone page');
    // Ben reports the opposite: disputed everywhere.
    await ben.waitForSelector(`[data-my-board="${annaBen.board}"][data-my-report-state="reported"]`, { timeout: LIVE });
    await ben.click(`[data-report="${benWins}"]`);
    await ben.waitForSelector('[data-my-report-state="disputed"]');
    await expectState(director, annaBen.board, 'disputed', 'the director sees the dispute');
    await expectState(anna, annaBen.board, 'disputed', 'Anna sees the dispute');
    await expectState(projector, annaBen.board, 'disputed', 'the projector sees the dispute');
    await screenshot(ben, 'evening-disputed-phone-de');
    await screenshot(director, 'evening-disputed-desktop-en');
    await axe(director, 'the director\'s page with a dispute');
    // The director decides: Anna's result.
    const row = `[data-current] tr[data-board="${annaBen.board}"]`;
    assertEqual(await director.$$eval(`${row} [data-approve]`, (bs) => bs.length), 2, 'both reports can be approved');
    await director.click(`${row} [data-approve="${annaWins}"]`);
    await expectState(director, annaBen.board, 'confirmed', 'the director settled the board');
    await expectState(projector, annaBen.board, 'confirmed', 'the projector sees it settled');
    await anna.waitForSelector('[data-my-report-state="confirmed"]', { timeout: LIVE });
    assert(!(await anna.$('[data-my-board] [data-report]')), 'no report buttons once entered');
    // Carl's one report, approved by the director.
    const carlWins = carlGus.white === 2 ? '1-0' : '0-1';
    await carl.click(`[data-report="${carlWins}"]`);
    await expectState(director, carlGus.board, 'reported', 'the director sees Carl\'s report');
    await director.click(`[data-current] tr[data-board="${carlGus.board}"] [data-approve="${carlWins}"]`);
    // Every result in: check-in for round 2 opens on the director's page.
    await director.waitForSelector('[data-evening="2"] [data-action="pair"]', { timeout: LIVE });
    // Round 2: the two winners meet; they agree on a draw.
    const round2 = await arbi.post(`/api/tournaments/${id}/rounds`, {});
    const top = boardOf(round2, 1);
    assert(top === boardOf(round2, 2), 'Anna meets Carl in round 2');
    await director.reload();
    await director.waitForSelector(`[data-current][data-round="2"] tr[data-board="${top.board}"][data-report-state="open"]`);
    for (const page of [anna, carl]) await page.goto(`/tournaments/${id}`);
    await anna.click(`[data-my-board="${top.board}"] [data-report="1/2-1/2"]`);
    await carl.waitForSelector(`[data-my-board="${top.board}"][data-my-report-state="reported"]`, { timeout: LIVE });
    await carl.click('[data-report="1/2-1/2"]');
    await carl.waitForSelector('[data-my-report-state="confirmed"]');
    await expectState(director, top.board, 'confirmed', 'the agreed draw is entered');
    const text = await director.textContent(`[data-current] tr[data-board="${top.board}"]`);
    assert(text.includes('½-½') || (await director.inputValue(`select[data-result-board="${top.board}"]`)) === '1/2-1/2', 'the draw shows');
    const standings = await arbi.get(`/api/tournaments/${id}/standings`);
    assertEqual(standings.round, 1, 'round 2 is not complete yet');
    const round = await arbi.get(`/api/tournaments/${id}/rounds/2`);
    assertEqual(round.boards.find((b) => b.board === top.board).result, '1/2-1/2', 'the API has the agreed result');
    await screenshot(director, 'evening-confirmed-desktop-en');
    const errors = [director, projector, anna, ben, carl].flatMap((p) => p.errors);
    assertEqual(errors.join('; '), '', 'no script error');
  }],
];
