// The printouts a director pins to the wall, in Chromium: a Chess960
// Swiss with ratings, a forfeit, the pairing's bye, a requested half-point
// bye and an excused player, set up through the API. The pairing list
// shows round, date, starting numbers, ratings, points before the round,
// the byes and absences, the position and a QR code; the standings their
// tie-breaks; the crosstable its rows by rank with readable symbols and a
// legend; the wall chart every round with running totals. On paper (print
// media) the menu and buttons are gone and nothing is cut off; on a 360 px
// phone the page does not scroll sideways. Both languages. A round at
// tables: the director's print adds a seat card with its QR code for each
// seat (a page of its own on paper); a member's and a visitor's print none.

import { createRequire } from 'node:module';
import { newPage, loggedInPage, apiAs, assert, assertEqual, screenshot, PHONE } from './lib.mjs';

const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

// No serious or critical accessibility violation (axe-core; the page's
// policy is bypassed for its script only).
async function accessible(page, what) {
  await page.addScriptTag({ path: AXE });
  const result = await page.evaluate(() => window.axe.run(document, { resultTypes: ['violations'] }));
  const bad = result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  assert(!bad.length, `${what}: axe-core: ${bad.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')}`).join('; ')}`);
}

// A tournament of its own (other tests share the server): two rounds,
// round 2 paired without results.
async function setUp() {
  const arbi = await apiAs('arbi');
  const name = `Printouts ${Date.now().toString(36)}`;
  const { id } = await arbi.post('/api/tournaments', { name, system: 'dutch', rounds: 5, chess960: true, tiebreaks: ['BH-C1', 'BH', 'SB'] });
  const ratings = {};
  for (let i = 1; i <= 7; i++) {
    const rating = 2150 - 75 * i;
    const { id: player } = await arbi.post(`/api/tournaments/${id}/players`, { name: `Spieler ${i}`, rating });
    ratings[player] = rating;
  }
  await arbi.post(`/api/tournaments/${id}/rounds`, {});
  const results = ['1-0', '1/2-1/2', '+-'];
  for (const [i, result] of results.entries()) await arbi.post(`/api/tournaments/${id}/rounds/1/results`, { board: i + 1, result });
  const round1 = await arbi.get(`/api/tournaments/${id}/rounds/1`);
  const drawn = round1.boards[1];
  await arbi.post(`/api/tournaments/${id}/attendance`, { round: 2, player: drawn.white, status: 'half-point-bye' });
  await arbi.post(`/api/tournaments/${id}/attendance`, { round: 2, player: drawn.black, status: 'excused' });
  await arbi.post(`/api/tournaments/${id}/rounds`, {});
  return { id, name, ratings, half: drawn.white, excused: drawn.black, round1 };
}

// What print media hides and whether anything is cut off at the page.
async function onPaper(page) {
  await page.emulateMedia({ media: 'print' });
  const state = await page.evaluate(() => {
    const shown = (el) => el && getComputedStyle(el).display !== 'none' && el.getClientRects().length > 0;
    const main = document.querySelector('main');
    const widest = Math.max(...[...main.querySelectorAll('table')].map((t) => t.getBoundingClientRect().right));
    return {
      nav: shown(document.querySelector('header.top')),
      tools: shown(document.querySelector('.print-tools')),
      buttons: [...document.querySelectorAll('main button')].some(shown),
      overflow: document.documentElement.scrollWidth - document.documentElement.clientWidth,
      tableInside: widest <= main.getBoundingClientRect().right + 1,
      background: getComputedStyle(document.body).backgroundColor,
    };
  });
  await page.emulateMedia({ media: 'screen' });
  assert(!state.nav, 'on paper the menu is hidden');
  assert(!state.tools, 'on paper the printout links are hidden');
  assert(!state.buttons, 'on paper no button shows');
  assert(state.overflow <= 0, `on paper nothing is cut off (${state.overflow} px)`);
  assert(state.tableInside, 'on paper the table fits the page');
  assertEqual(state.background, 'rgb(255, 255, 255)', 'on paper the page is white');
}

async function noSidewaysScroll(page, what) {
  const over = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  assert(over <= 0, `${what}: the page is ${over} px too wide`);
}

async function cells(page, selector) {
  return page.$$eval(`${selector} tbody tr`, (trs) => trs.map((tr) => [...tr.cells].map((c) => c.textContent.trim())));
}

// A round at tables (issue #29): two members and two guests, a Keizer
// evening paired with {"online":"table"} — every board a table game.
async function tablesSetUp() {
  const arbi = await apiAs('arbi');
  const name = `Tables ${Date.now().toString(36)}`;
  const { id } = await arbi.post('/api/tournaments', { name, system: 'keizer', rounds: 3, clock: '600+5', keizer: { preset: 'club' } });
  for (const player of [{ name: 'Anna', rating: 2000, username: 'anna' }, { name: 'Ben', rating: 1900, username: 'ben' },
    { name: 'Gustav Gast', rating: 1700, guest: true }, { name: 'Greta Gast', rating: 1600, guest: true }]) {
    await arbi.post(`/api/tournaments/${id}/players`, player);
  }
  const round = await arbi.post(`/api/tournaments/${id}/rounds`, { online: 'table' });
  return { id, name, round };
}

// The seat cards a print shows: board-colour, the QR code's path, its label.
async function seatCardsOf(page) {
  return page.$$eval('[data-seat-card]', (cards) => cards.map((c) => ({
    card: c.dataset.seatCard,
    text: c.textContent,
    path: c.querySelector('svg path')?.getAttribute('d') ?? null,
    label: c.querySelector('svg')?.getAttribute('aria-label') ?? '',
    size: c.querySelector('svg')?.getBoundingClientRect().width ?? 0,
  })));
}

export const tests = [
  ['the pairing list: round, date, numbers, ratings, points, byes, absences, position, QR code', async (browser) => {
    const s = await setUp();
    const page = await newPage(browser, { bypassCSP: true });
    await page.goto(`/tournaments/${s.id}/print?round=2`);
    await page.waitForSelector('[data-print="pairings"] tbody tr');
    const h1 = await page.textContent('h1');
    assert(h1.includes(s.name) && h1.includes('Round 2 of 5'), `title: ${h1}`);
    const meta = await page.textContent('.print-meta');
    const today = new Date().toLocaleDateString('en-GB', { year: 'numeric', month: '2-digit', day: '2-digit' });
    assert(meta.includes(`Date: ${today}`), `the date: ${meta}`);
    const list = await (await apiAs('arbi')).get(`/api/tournaments/${s.id}/rounds/2/pairing-list`);
    const rows = await cells(page, '[data-print="pairings"]');
    assertEqual(rows.length, list.boards.length, 'one row a board');
    for (const [i, b] of list.boards.entries()) {
      const row = rows[i];
      assertEqual(row[0], String(b.board), 'board number');
      assertEqual(row[1], String(b.white.player), 'White’s starting number');
      assertEqual(row[2], b.white.name, 'White’s name');
      assertEqual(row[3], String(s.ratings[b.white.player]), 'White’s rating');
      assertEqual(row[5], '', 'the result to fill in');
      assertEqual(row[8], b.black.name, 'Black’s name');
      assertEqual(row[9], String(b.black.player), 'Black’s starting number');
      assertEqual(row[7], String(s.ratings[b.black.player]), 'Black’s rating');
    }
    // Points before round 2 as a club writes them.
    const points = rows.flatMap((r) => [r[4], r[6]]).sort();
    const want = list.boards.flatMap((b) => [b.white.points, b.black.points]).map((p) => (p === 0.5 ? '½' : p % 1 ? `${Math.trunc(p)}½` : String(p))).sort();
    assertEqual(points.join(' '), want.join(' '), 'points before the round');
    // Byes and absences below the boards.
    const away = await page.$$eval('[data-print="away"] tbody tr', (trs) => trs.map((tr) => [tr.dataset.away, tr.dataset.status, tr.cells[4].textContent]));
    const status = Object.fromEntries(away.map(([p, st]) => [p, st]));
    assertEqual(status[s.half], 'half-point-bye', 'the half-point bye is listed');
    assertEqual(status[s.excused], 'excused', 'the excused player is listed');
    assert(Object.values(status).includes('pairing-bye'), 'the pairing’s bye is listed');
    assert(away.some(([, , text]) => text.includes('half-point bye')), 'the bye is named');
    // The Chess960 position: number, back rank, diagram.
    const arrangement = await page.textContent('[data-arrangement]');
    assert(/^[RNBQK]{8}$/.test(arrangement), `arrangement: ${arrangement}`);
    assertEqual((await page.textContent('[data-xfen]')).split('/')[7].split(' ')[0], arrangement, 'the arrangement is White’s back rank');
    assert((await page.textContent('.chess960 h2')).includes(String(list.chess960.number)), 'the position’s number');
    // The QR code: an SVG from /api/qr for the round's live page.
    await page.waitForSelector('figure.qr svg path');
    const qr = await page.$eval('figure.qr', (f) => ({ url: f.dataset.qr, label: f.querySelector('svg').getAttribute('aria-label'), size: f.querySelector('svg').getBoundingClientRect().width }));
    assertEqual(qr.url, `${new URL(page.url()).origin}/tournaments/${s.id}/print?round=2`, 'the QR code links the round');
    assert(qr.size >= 80, `the QR code is scannable: ${qr.size} px`);
    await screenshot(page, 'printouts-pairings-desktop');
    await accessible(page, 'pairing list');
    await onPaper(page);
    // The PDF a browser prints: A4 pages.
    const pdf = await page.pdf({ format: 'A4', preferCSSPageSize: true });
    const pages = (pdf.toString('latin1').match(/\/Type\s*\/Page[^s]/g) || []).length;
    assert(pages >= 1 && pages <= 2, `the pairing list is 1–2 A4 pages, got ${pages}`);
    // The round on the tournament's page names the requested bye too.
    await page.goto(`/tournaments/${s.id}`);
    const roundAway = await page.textContent('[data-round="2"] [data-away]');
    assert(roundAway.includes('half-point bye') && roundAway.includes('excused'), `round view: ${roundAway}`);
    // A phone, in German.
    await page.setViewportSize(PHONE);
    await page.goto(`/tournaments/${s.id}/print?round=2`);
    await page.click('button[data-lang="de"]');
    await page.waitForSelector('[data-print="pairings"] th:text-is("Brett")');
    await page.waitForSelector('figure.qr svg');
    assert((await page.textContent('[data-print="away"]')).includes('halbes Freilos'), 'the German list names the bye');
    await noSidewaysScroll(page, 'pairing list on a phone');
    await screenshot(page, 'printouts-pairings-phone-de');
    await page.click('button[data-lang="en"]');
    assertEqual(page.errors.length, 0, `no page errors: ${page.errors.join('; ')}`);
  }],
  ['a round at tables: the director’s print has a seat card with its QR code for each seat, a member’s none', async (browser) => {
    const s = await tablesSetUp();
    const boards = s.round.boards;
    assert(boards.length === 2 && boards.every((b) => b.seats), `two table boards with seats: ${JSON.stringify(boards)}`);
    const director = await loggedInPage(browser, 'arbi', { bypassCSP: true });
    const requested = [];
    director.on('request', (r) => requested.push(r.url()));
    await director.goto(`/tournaments/${s.id}/print?round=1`);
    await director.waitForSelector('[data-seat-cards] [data-seat-card] svg path');
    await director.waitForFunction((n) => document.querySelectorAll('[data-seat-card] svg path').length === n, boards.length * 2);
    const cards = await seatCardsOf(director);
    assertEqual(cards.map((c) => c.card).join(' '), boards.flatMap((b) => [`${b.board}-white`, `${b.board}-black`]).join(' '), 'two cards a board, White first');
    const origin = new URL(director.url()).origin;
    for (const b of boards) {
      for (const side of ['white', 'black']) {
        const card = cards.find((c) => c.card === `${b.board}-${side}`);
        const name = b[side + 'Name'];
        assert(card.text.includes(name) && card.text.includes(side === 'white' ? 'White' : 'Black'), `the card names ${name} and the colour: ${card.text}`);
        assert(card.label.includes(name), `the code is labelled with the player: ${card.label}`);
        assert(!card.text.includes('seat_'), 'the token is not printed as text');
        assert(card.size >= 80, `the code is scannable: ${card.size} px`);
        // The code is the seat's absolute link, as /api/qr draws it
        // (asked from Node: no page request carries the token).
        const svg = await (await director.request.get('/api/qr?text=' + encodeURIComponent(origin + b.seats[side]))).text();
        const want = svg.match(/ d="([^"]+)"/)?.[1];
        assert(want, `/api/qr draws a path: ${svg.slice(0, 200)}`);
        assertEqual(card.path, want, `board ${b.board} ${side}: the code of the seat's link`);
      }
    }
    const leaked = requested.filter((u) => u.includes('seat_'));
    assert(!leaked.length, `no request line of the print carries a seat token: ${leaked.join(' ')}`);
    // The list itself stays the list: one row a board, no code in it.
    assertEqual((await director.$$('[data-print="pairings"] tbody tr')).length, boards.length, 'one row a board');
    assertEqual((await director.$$('[data-print="pairings"] svg')).length, 0, 'no code in the list');
    assert((await director.textContent('.print-meta')).includes('at tables'), 'the list says the round is at tables');
    await screenshot(director, 'printouts-seat-cards-desktop');
    await accessible(director, 'seat cards');
    // On paper the cards start a page of their own.
    await director.emulateMedia({ media: 'print' });
    const breakBefore = await director.$eval('[data-seat-cards]', (el) => getComputedStyle(el).breakBefore);
    await director.emulateMedia({ media: 'screen' });
    assertEqual(breakBefore, 'page', 'the seat cards begin a new sheet');
    await onPaper(director);
    // The wall's copy: the cards left out.
    await director.uncheck('input[name="seatCards"]');
    assert(!(await director.isVisible('[data-seat-cards]')), 'the switch leaves the cards out');
    // A phone in German.
    await director.setViewportSize(PHONE);
    await director.click('button[data-lang="de"]');
    await director.goto(`/tournaments/${s.id}/print?round=1`);
    await director.waitForSelector('[data-seat-card] svg path');
    const german = await director.textContent('[data-seat-cards]');
    assert(german.includes('Sitzkarten') && german.includes('Weiß') && german.includes('Schwarz'), `German cards: ${german.slice(0, 200)}`);
    await noSidewaysScroll(director, 'seat cards on a phone');
    await screenshot(director, 'printouts-seat-cards-phone-de');
    await director.click('button[data-lang="en"]');
    assertEqual(director.errors.length, 0, `no page errors: ${director.errors.join('; ')}`);

    // A member's and a visitor's print of the same round: no card, no seat.
    for (const who of ['anna', null]) {
      const page = who ? await loggedInPage(browser, who) : await newPage(browser);
      await page.goto(`/tournaments/${s.id}/print?round=1`);
      await page.waitForSelector('[data-print="pairings"] tbody tr');
      await page.waitForSelector('figure.qr svg');
      assertEqual((await page.$$('[data-seat-card]')).length, 0, `${who ?? 'a visitor'}: no seat card`);
      assert(!(await page.content()).includes('seat_'), `${who ?? 'a visitor'}: no seat token in the page`);
      assertEqual(page.errors.length, 0, `no page errors: ${page.errors.join('; ')}`);
      await page.context().close();
    }
    await director.context().close();
  }],
  ['the tournament page pairs a round at tables: each board’s display, the seats’ page for the director only; 360 px, German', async (browser) => {
    const arbi = await apiAs('arbi');
    const { id } = await arbi.post('/api/tournaments', { name: `At tables ${Date.now().toString(36)}`, system: 'dutch', rounds: 3, clock: '300+3' });
    for (const player of [{ name: 'Anna', rating: 2000, username: 'anna' }, { name: 'Ben', rating: 1900, username: 'ben' },
      { name: 'Gustav Gast', rating: 1700, guest: true }, { name: 'Greta Gast', rating: 1600, guest: true }]) {
      await arbi.post(`/api/tournaments/${id}/players`, player);
    }
    const page = await loggedInPage(browser, 'arbi', { bypassCSP: true });
    await page.goto(`/tournaments/${id}`);
    await page.waitForSelector('[data-evening="1"] [data-play-mode]');
    const modes = await page.$$eval('[data-play-mode] input[name="play"]', (inputs) => inputs.map((i) => [i.value, i.checked]));
    assertEqual(JSON.stringify(modes), JSON.stringify([['board', true], ['online', false], ['table', false]]), 'over the board, online, at tables; over the board first');
    await page.check('[data-play-mode] input[value="table"]');
    await page.click('[data-action="pair"]');
    await page.waitForSelector('[data-current] a[data-display="1"]');
    const round = await arbi.get(`/api/tournaments/${id}/rounds/1`);
    assertEqual(round.mode, 'table', 'the round is paired at tables');
    for (const b of round.boards) {
      assertEqual(await page.getAttribute(`[data-current] a[data-display="${b.board}"]`, 'href'), `/table/${b.gameId}`, `board ${b.board}: its display`);
      assertEqual(await page.getAttribute(`[data-current] a[data-seats="${b.board}"]`, 'href'), `/tables/${b.gameId}`, `board ${b.board}: the seats' page`);
    }
    assert(!(await page.content()).includes('seat_'), 'the tournament page draws no seat link (it may be on the projector)');
    await page.setViewportSize(PHONE);
    await page.click('button[data-lang="de"]');
    await page.waitForSelector('[data-current] a[data-display="1"]:text-is("Anzeige")');
    await noSidewaysScroll(page, 'the tournament page at tables on a phone');
    await accessible(page, 'the tournament page at tables');
    await screenshot(page, 'printouts-tables-round-phone-de');
    await page.click('button[data-lang="en"]');
    assertEqual(page.errors.length, 0, `no page errors: ${page.errors.join('; ')}`);
    await page.context().close();
    // A player sees their board's display, no seats' page.
    const anna = await loggedInPage(browser, 'anna');
    await anna.goto(`/tournaments/${id}`);
    await anna.waitForSelector('[data-current] a[data-display="1"]');
    assertEqual((await anna.$$('[data-seats]')).length, 0, 'no seats’ page for a player');
    assert(!(await anna.content()).includes('seat_'), 'no seat token on a player’s page');
    assert((await anna.textContent('[data-my-board]')).includes('seat card'), 'Anna’s board says to scan her seat card');
    await anna.context().close();
  }],
  ['standings, crosstable by rank with a legend, wall chart; on paper and on a phone', async (browser) => {
    const s = await setUp();
    const arbi = await apiAs('arbi');
    for (const board of [1, 2]) await arbi.post(`/api/tournaments/${s.id}/rounds/2/results`, { board, result: board === 1 ? '0-1' : '1/2-1/2' });
    const standings = await arbi.get(`/api/tournaments/${s.id}/standings`);
    const page = await newPage(browser, { bypassCSP: true });

    await page.goto(`/tournaments/${s.id}/standings`);
    await page.waitForSelector('[data-print="standings"] tbody tr');
    const heads = await page.$$eval('[data-print="standings"] th', (ths) => ths.map((th) => th.textContent));
    for (const tb of ['BH-C1', 'BH', 'SB']) assert(heads.includes(tb), `a column ${tb}: ${heads}`);
    assert(heads.includes('Rtg') && heads.includes('Points'), `rating and points: ${heads}`);
    const rows = await cells(page, '[data-print="standings"]');
    assertEqual(rows.map((r) => r[1]).join(','), standings.rows.map((r) => r.player).join(','), 'the standings’ order');
    for (const r of rows) assertEqual(r[3], String(s.ratings[r[1]]), 'each rating');
    assert((await page.textContent('[data-legend="tiebreaks"]')).includes('Buchholz'), 'the tie-breaks named');
    await screenshot(page, 'printouts-standings-desktop');
    await accessible(page, 'standings');
    await onPaper(page);

    await page.goto(`/tournaments/${s.id}/crosstable`);
    await page.waitForSelector('[data-print="crosstable"] tbody tr');
    const ranks = await page.$$eval('[data-print="crosstable"] tbody tr', (trs) => trs.map((tr) => Number(tr.dataset.rank)));
    assertEqual(ranks.join(','), standings.rows.map((r) => r.rank).join(','), 'rows by rank');
    const rankOf = Object.fromEntries(standings.rows.map((r) => [r.player, r.rank]));
    const chart = await arbi.get(`/api/tournaments/${s.id}/chart`);
    const text = await page.$$eval('[data-print="crosstable"] tbody tr', (trs) => trs.map((tr) => [...tr.querySelectorAll('td.cell')].map((c) => c.textContent)));
    for (const [i, row] of chart.rows.entries()) {
      for (const c of row.cells.slice(0, 2)) {
        const shown = text[i][c.round - 1];
        if (c.kind === 'game') assertEqual(shown, `${rankOf[c.opponent]}${c.colour === 'white' ? 'w' : 'b'} ${c.result}`, `round ${c.round} of ${row.name}`);
      }
    }
    const all = text.flat().join(' | ');
    for (const sym of ['½ req', '– exc', '1 bye', ' +', ' −']) assert(all.includes(sym), `the symbol "${sym}" in ${all}`);
    assert(!/\d[wb][=HU]|^\s*[HUZ]\s*$/.test(all), `no TRF codes: ${all}`);
    const legend = await page.textContent('[data-legend="chart"]');
    for (const words of ['won by forfeit', 'half-point bye', 'bye from the pairing', 'excused']) assert(legend.includes(words), `the legend explains ${words}`);
    await screenshot(page, 'printouts-crosstable-desktop');
    await accessible(page, 'crosstable');
    await onPaper(page);
    const orientation = await page.evaluate(() => document.querySelector('main').classList.contains('landscape'));
    assert(orientation, 'the crosstable prints landscape');
    // Leaving the printout leaves its paper behind: the next page prints portrait.
    await page.click('.print-tools a[href$="/standings"]');
    await page.waitForSelector('[data-print="standings"]');
    assert(!(await page.evaluate(() => document.querySelector('main').classList.contains('landscape'))), 'the standings print portrait');
    await page.click('.print-tools a:first-child');
    await page.waitForSelector('[data-round="2"]');
    const classes = await page.evaluate(() => [...document.querySelector('main').classList]);
    assert(!classes.some((c) => ['printout', 'landscape', 'projector'].includes(c)), `the tournament page keeps no printout class: ${classes}`);

    await page.goto(`/tournaments/${s.id}/wallchart`);
    await page.waitForSelector('[data-print="wallchart"] tbody tr');
    const wall = await page.$$eval('[data-print="wallchart"] tbody tr', (trs) => trs.map((tr) => ({
      player: Number(tr.dataset.player),
      cells: [...tr.querySelectorAll('td.cell')].map((c) => [c.querySelector('.game').textContent, c.querySelector('.total').textContent]),
    })));
    assertEqual(wall.map((r) => r.player).join(','), '1,2,3,4,5,6,7', 'by starting number');
    assert(wall.every((r) => r.cells.length === 5), 'a column for each of the 5 rounds');
    for (const r of wall) {
      const row = chart.rows.find((x) => x.player === r.player);
      const points = row.points === 0.5 ? '½' : row.points % 1 ? `${Math.trunc(row.points)}½` : String(row.points);
      assertEqual(r.cells[1][1], points, `running total of ${r.player}`);
      assertEqual(r.cells[4].join(''), '', 'later rounds blank, to fill in');
    }
    await screenshot(page, 'printouts-wallchart-desktop');
    await accessible(page, 'wall chart');
    await onPaper(page);

    // A phone in German: the legend in German, no sideways scrolling.
    await page.setViewportSize(PHONE);
    await page.click('button[data-lang="de"]');
    await page.goto(`/tournaments/${s.id}/crosstable`);
    await page.waitForSelector('[data-legend="chart"] dt');
    const german = await page.textContent('[data-legend="chart"]');
    assert(german.includes('Zeichenerklärung') && german.includes('kampflos gewonnen'), `German legend: ${german}`);
    await noSidewaysScroll(page, 'crosstable on a phone');
    await screenshot(page, 'printouts-crosstable-phone-de');
    for (const view of ['wallchart', 'standings']) {
      await page.goto(`/tournaments/${s.id}/${view}`);
      await page.waitForSelector(`[data-print="${view}"] tbody tr`);
      await noSidewaysScroll(page, `${view} on a phone`);
    }
    await page.click('button[data-lang="en"]');
    assertEqual(page.errors.length, 0, `no page errors: ${page.errors.join('; ')}`);
  }],
  ['every page prints as it is: no menu, black on white', async (browser) => {
    const page = await newPage(browser);
    for (const path of ['/tournaments', '/rules', '/archive']) {
      await page.goto(path);
      await page.waitForSelector('main h1');
      await page.emulateMedia({ media: 'print' });
      const state = await page.evaluate(() => ({
        nav: getComputedStyle(document.querySelector('header.top')).display,
        over: document.documentElement.scrollWidth - document.documentElement.clientWidth,
        colour: getComputedStyle(document.querySelector('main h1')).color,
      }));
      await page.emulateMedia({ media: 'screen' });
      assertEqual(state.nav, 'none', `${path}: no menu on paper`);
      assert(state.over <= 0, `${path}: nothing cut off on paper`);
      assertEqual(state.colour, 'rgb(0, 0, 0)', `${path}: black text on paper`);
    }
  }],
];
