// Table games (issue #29): a member makes one on the director's page, two
// phone-sized contexts play it through their seats' addresses (no login)
// and a display (and a second one in German) watches. Before each reveal
// the displays and the other phone hold nothing of the committed move —
// neither in their DOM nor in any byte they received —, while the commit
// sign and the stopped clock show. A move is changed before "stop my
// clock"; the opponent's clock shows running or stopped; the game ends by
// resignation from the phone's menu and every page offers the downloads.
// The pages fit 360 px in English and German with no serious axe-core
// violation. The director renews and blocks seats; a phone with a seat no
// longer valid says so.

import { createRequire } from 'node:module';
import {
  apiAs, assert, assertEqual, expectPlacement, loggedInPage, newPage, PHONE, recordNetwork, resolve, screenshot,
} from './lib.mjs';
import { assertHidden, placement } from './play.mjs';

const require = createRequire(import.meta.url);
const AXE = require.resolve('axe-core/axe.min.js');
const START = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';
const SCREEN = { width: 1280, height: 720 };

// A seat's phone: a fresh context (no login) at the seat's address.
async function phone(browser, url, locale, who) {
  const page = await newPage(browser, { viewport: PHONE, locale, bypassCSP: true });
  page.net = await recordNetwork(page);
  page.who = who;
  await page.goto(url);
  await page.locator('[data-square="e1"] [data-piece]').waitFor();
  return page;
}

async function display(browser, gameId, locale, name) {
  const page = await newPage(browser, { viewport: SCREEN, locale, bypassCSP: true });
  const net = await recordNetwork(page);
  await page.goto(`/table/${gameId}`);
  await page.locator('[data-square="e1"] [data-piece]').waitFor();
  return { name, page, net };
}

// Picks `uci` on the phone's board (two clicks); nothing is sent yet.
async function pick(page, uci) {
  await page.locator('[data-action="commit"]:visible').waitFor().catch(async () => {
    throw new Error(`${page.who}: no "stop my clock" to pick ${uci}; the page says ${JSON.stringify((await page.locator('main').innerText()).slice(0, 300))}`);
  });
  await page.click(`[data-square="${uci.slice(0, 2)}"]`);
  await page.click(`[data-square="${uci.slice(2, 4)}"]`);
  await page.locator(`[data-pending="${uci}"]`).waitFor();
}

// Stops the clock on the picked `uci`: sent, the pick is gone (the clock
// stands, or the reveal has already begun the next pair).
async function stopClock(page, uci) {
  await page.click('[data-action="commit"]');
  await page.locator(`[data-pending="${uci}"]`).waitFor({ state: 'detached' });
}

// The clock of `color` as `page` shows it: "running" or "stopped".
const clockState = (page, color) => page.locator(`.table-player[data-color="${color}"]`).getAttribute('data-clock');

async function expectClock(page, color, want, who) {
  const ok = await page.waitForFunction(([c, w]) => document.querySelector(`.table-player[data-color="${c}"]`)?.dataset.clock === w, [color, want])
    .then(() => true, () => false);
  assert(ok, `${who}: the clock of ${color} should be ${want}, is ${await clockState(page, color)}`);
}

// One pair: `first` picks (after `change`, if given, first picked and then
// changed) and stops the clock; nothing of it reaches the watchers or the
// other phone; then the other commits and every page shows the position
// `tempo sync resolve` gives.
async function pair({ phones, watchers, fen, moves, first, change, sans = {}, clocksRun = true, events = [] }) {
  const [white, black] = moves;
  console.log(`      fairschach at the table: ${white} ${black}`);
  const result = resolve('fairschach', fen, white, black);
  const choice = { white, black };
  const second = first === 'white' ? 'black' : 'white';
  if (change) await pick(phones[first], change);
  await pick(phones[first], choice[first]);
  await stopClock(phones[first], choice[first]);
  const others = [...watchers, { name: `the other phone (${second})`, page: phones[second], net: phones[second].net }];
  for (const w of others) {
    await w.page.locator(`.table-player[data-color="${first}"] [data-state="committed"]`).waitFor().catch(() => {
      throw new Error(`${w.name}: no commit sign of ${first} after its clock stopped`);
    });
    await assertHidden(w, choice[first], sans[first]);
    if (change) await assertHidden(w, change);
    if (clocksRun) {
      await expectClock(w.page, first, 'stopped', w.name);
      await expectClock(w.page, second, 'running', w.name);
    }
  }
  await pick(phones[second], choice[second]);
  await stopClock(phones[second], choice[second]);
  for (const [name, page] of [['white', phones.white], ['black', phones.black], ...watchers.map((w) => [w.name, w.page])]) {
    await expectPlacement(page, placement(result.fen), `${name} after ${white} ${black}`);
  }
  for (const w of watchers) {
    for (const type of events) await w.page.locator(`[data-reveal] [data-event="${type}"]`).first().waitFor();
  }
  return result.fen;
}

function describe(violations) {
  return violations.map((v) => `[${v.impact}] ${v.id}: ${v.help} (${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join('; ')})`).join('\n');
}

// No horizontal overflow, no serious axe-core violation, no script error.
async function checkPage(page, what) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert(overflow <= 1, `${what}: ${overflow}px wider than the screen`);
  await page.addScriptTag({ path: AXE });
  const result = await page.evaluate(() => window.axe.run(document, { resultTypes: ['violations'] }));
  const bad = result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  assert(!bad.length, `${what}: axe-core:\n${describe(bad)}`);
  assert(!page.errors.length, `${what}: script errors: ${page.errors.join('; ')}`);
}

export const tests = [
  [
    'a Fairschach table game: made on the director\'s page, played from two phones, watched by a display; nothing leaks',
    async (browser) => {
      const director = await loggedInPage(browser, 'carl', { bypassCSP: true });
      const requested = [];
      director.on('request', (r) => requested.push(r.url()));
      await director.click('[data-nav="tables"]');
      await director.waitForURL('**/tables/new');
      const form = director.locator('[data-form="table"]');
      // The form takes no more than the server does (50 characters a name).
      await form.locator('input[name="white"]').pressSequentially('x'.repeat(55));
      assertEqual((await form.locator('input[name="white"]').inputValue()).length, 50, 'a name is cut at the server\'s 50 characters');
      await form.locator('input[name="white"]').fill('ANNA');
      await form.locator('input[name="black"]').fill('Greta Gast');
      await form.locator('select[name="variant"]').selectOption('fairschach');
      await form.locator('select[name="clock"]').selectOption('300+3');
      await screenshot(director, 'tables-new-desktop');
      await form.locator('[data-action="create-table"]').click();
      await director.waitForURL((url) => /^\/tables\/[A-Za-z0-9]+$/.test(url.pathname) && url.pathname !== '/tables/new');
      const gameId = new URL(director.url()).pathname.split('/').pop();
      // Both seats as QR codes of their absolute addresses; the member's registered spelling.
      const urls = {};
      for (const color of ['white', 'black']) {
        const link = director.locator(`[data-seat-link="${color}"]`);
        urls[color] = await link.getAttribute('href');
        assert(urls[color].startsWith(new URL(director.url()).origin + `/table/${gameId}/play#seat_`), `the ${color} seat's address: ${urls[color]}`);
        const img = director.locator(`[data-seat="${color}"] img`);
        const src = await img.getAttribute('src');
        assert(src.startsWith(`/api/tables/${gameId}/seats/${color}/qr`), `the ${color} seat's QR code is drawn by the seat's route: ${src}`);
        await director.waitForFunction((c) => document.querySelector(`[data-seat="${c}"] img`)?.naturalWidth > 0, color);
        // The code is the seat's absolute address (compared from Node: no
        // page request carries the token).
        const pathOf = async (path) => (await (await director.request.get(path)).text()).match(/ d="([^"]+)"/)?.[1];
        const drawn = await pathOf(src);
        assert(drawn, `the ${color} seat's QR code is an SVG with a path`);
        assertEqual(drawn, await pathOf('/api/qr?text=' + encodeURIComponent(urls[color])), `the ${color} seat's QR code encodes its address`);
      }
      const leaked = requested.filter((u) => u.includes('seat_'));
      assert(!leaked.length, `no request line of the director's page carries a seat token: ${leaked.join(' ')}`);
      assert((await director.locator('[data-seat="white"] h2').innerText()).includes('anna'), 'the member is seated under her username');
      assert((await director.locator('[data-seat="black"] h2').innerText()).includes('Greta Gast'), 'the guest is seated under her name');
      assertEqual(await director.locator('[data-display]').getAttribute('href'), new URL(director.url()).origin + `/table/${gameId}`, 'the display link');
      await screenshot(director, 'tables-director-desktop');
      await checkPage(director, 'the director\'s page');

      const phones = {
        white: await phone(browser, urls.white, 'en-GB', 'white (Anna)'),
        black: await phone(browser, urls.black, 'de-DE', 'black (Greta)'),
      };
      // The token left the address bar (kept in the tab's storage).
      assertEqual(new URL(phones.white.url()).hash, '', 'the seat token is not left in the address bar');
      const watchers = [await display(browser, gameId, 'en-GB', 'the display'), await display(browser, gameId, 'de-DE', 'the German display')];
      // A display in a browser logged in as Anna (seated as White): the
      // display's stream goes without cookies, so it is shown no more than
      // any display — not White's sealed move.
      const annaDisplay = await loggedInPage(browser, 'anna', { viewport: SCREEN, bypassCSP: true });
      const annaNet = await recordNetwork(annaDisplay);
      await annaDisplay.goto(`/table/${gameId}`);
      await annaDisplay.locator('[data-square="e1"] [data-piece]').waitFor();
      watchers.push({ name: 'a display logged in as the seated member', page: annaDisplay, net: annaNet });
      // Each phone sees the board from its own side.
      const whiteDown = async (page) => page.evaluate(() => document.querySelector('[data-square="a1"]').getBoundingClientRect().top > document.querySelector('[data-square="a8"]').getBoundingClientRect().top);
      await phones.black.waitForFunction(() => document.querySelector('[data-square="a1"]').getBoundingClientRect().top < document.querySelector('[data-square="a8"]').getBoundingClientRect().top);
      assert(await whiteDown(phones.white), 'White\'s phone has White at the bottom');
      assert(await whiteDown(watchers[0].page), 'the display has White at the bottom');

      let fen = START;
      // White picks e2e3, changes it to e2e4, then stops the clock; the
      // first pair's clocks stand (the first-move rule).
      fen = await pair({ phones, watchers, fen, moves: ['e2e4', 'd7d5'], first: 'white', change: 'e2e3', clocksRun: false });
      // Both to g4: the queen and the bishop collide (FSR 4); Black stops first.
      fen = await pair({ phones, watchers, fen, moves: ['d1g4', 'c8g4'], first: 'black', change: 'b8c6', sans: { black: 'Bg4' }, events: ['collision'] });
      // White stops its clock: the moment the screenshots show.
      await pick(phones.white, 'f1b5');
      await stopClock(phones.white, 'f1b5');
      // A reload after the commit: the phone still shows its own move (it
      // keeps it; the server does not send a seat its sealed move back).
      await phones.white.reload();
      await phones.white.locator('.seat-prompt', { hasText: 'f1b5' }).waitFor().catch(async () => {
        throw new Error(`white after a reload: its committed f1b5 is not shown; the page says ${JSON.stringify((await phones.white.locator('main').innerText()).slice(0, 300))}`);
      });
      for (const w of watchers) await assertHidden(w, 'f1b5', 'Bb5+');
      await assertHidden({ name: 'the other phone', page: phones.black, net: phones.black.net }, 'f1b5', 'Bb5+');
      await pick(phones.black, 'g8f6');
      await screenshot(watchers[0].page, 'table-display-en');
      await screenshot(watchers[1].page, 'table-display-de');
      await screenshot(phones.white, 'table-phone-en');
      await screenshot(phones.black, 'table-phone-de');
      for (const [what, page] of [['the English phone', phones.white], ['the German phone', phones.black], ['the display', watchers[0].page], ['the German display', watchers[1].page]]) {
        await checkPage(page, what);
      }
      await stopClock(phones.black, 'g8f6');
      fen = resolve('fairschach', fen, 'f1b5', 'g8f6').fen;
      for (const page of [phones.white, phones.black, watchers[0].page]) await expectPlacement(page, placement(fen), 'after f1b5 g8f6');
      // The record in the sources' notation: one line a pair, the collision marked.
      const lines = await watchers[0].page.locator('[data-record] li').allInnerTexts();
      assertEqual(lines.length, 3, `three pairs in the record (${JSON.stringify(lines)})`);
      await watchers[0].page.locator('[data-record] [data-mark="collision"]').first().waitFor();

      // Black resigns from the menu (German: the dialog's own button confirms).
      await phones.black.click('[data-action="menu"]');
      await phones.black.click('[data-action="resign"]');
      await phones.black.click('dialog [data-answer="yes"]');
      for (const [name, page] of [['white', phones.white], ['black', phones.black], ...watchers.map((w) => [w.name, w.page])]) {
        await page.locator('.table-result[data-result="1-0"]').waitFor().catch(() => { throw new Error(`${name}: no result 1-0 shown`); });
        for (const kind of ['pgn', 'sources', 'digits', 'log']) {
          await page.locator(`[data-downloads] [data-download="${kind}"]`).waitFor().catch(() => { throw new Error(`${name}: no ${kind} download`); });
        }
        await page.locator('[data-downloads] [data-action="check-log"]').waitFor();
      }
      // The sources' notation: a head of '#' lines, then a line a pair.
      const sourcesHref = await watchers[0].page.locator('[data-download="sources"]').getAttribute('href');
      const sources = await (await watchers[0].page.request.get(sourcesHref)).text();
      const pairs = sources.split('\n').filter((line) => line.trim() && !line.startsWith('#'));
      assert(pairs.length >= 1, `the sources' notation has the pairs: ${sources.slice(0, 300)}`);
      const pgnHref = await watchers[0].page.locator('[data-download="pgn"]').getAttribute('href');
      const pgn = await watchers[0].page.request.get(pgnHref);
      assertEqual(pgn.status(), 200, 'the PGN download');
      const text = await pgn.text();
      assert(text.includes('[Result "1-0"]') && text.includes('Greta Gast'), `the PGN names the guest and the result: ${text.slice(0, 300)}`);
      await screenshot(watchers[0].page, 'table-display-over-en');
      await screenshot(phones.black, 'table-phone-over-de');
      // A reload after the end: the seat ended with the game; the page
      // still shows the result and the downloads, and offers no input.
      await phones.white.reload();
      await phones.white.locator('.table-result[data-result="1-0"]').waitFor();
      await phones.white.locator('[data-downloads] [data-download="pgn"]').waitFor();
      assertEqual(await phones.white.locator('[data-action="commit"]:visible').count(), 0, 'no "stop my clock" after the end');
      for (const [name, page] of [['white', phones.white], ['black', phones.black], ...watchers.map((w) => [w.name, w.page])]) {
        assertEqual(page.errors.length, 0, `${name}: no script errors (${page.errors.join('; ')})`);
      }
    },
  ],
  [
    'the director renews and blocks seats: the old phone is refused with a clear message; the German director\'s page fits 360 px',
    async (browser) => {
      const carl = await apiAs('carl');
      const made = await carl.post('/api/tables', { variant: 'synchronschach', clock: '600+5', white: { name: 'Dora' }, black: { name: 'ben' } });
      assert(made.gameId && made.seats?.white?.url && made.seats?.black?.url, `POST /api/tables answers the contract: ${JSON.stringify(made)}`);
      assertEqual(made.display, `/table/${made.gameId}`, 'the display address');
      const director = await loggedInPage(browser, 'carl', { viewport: PHONE, locale: 'de-DE', bypassCSP: true });
      await director.goto(`/tables/${made.gameId}`);
      await director.locator('[data-seat="white"] img').waitFor();
      await screenshot(director, 'tables-director-phone-de');
      await checkPage(director, 'the director\'s page at 360 px in German');

      const old = await phone(browser, new URL(made.seats.white.url, director.url()).href, 'en-GB', 'white (Dora)');
      await old.locator('[data-action="commit"]:visible').waitFor();
      // A new code for White: the old one stops at once.
      await director.click('[data-action="renew"][data-color="white"]');
      await director.click('dialog [data-answer="yes"]');
      await director.waitForFunction((oldUrl) => {
        const a = document.querySelector('[data-seat-link="white"]');
        return a && !a.href.endsWith(oldUrl);
      }, made.seats.white.url);
      const renewed = await director.locator('[data-seat-link="white"]').getAttribute('href');
      // The old phone learns it when it acts (its stream may end first).
      await old.reload();
      await old.locator('[data-refused]').waitFor();
      const said = await old.locator('[data-refused]').innerText();
      assert(/renewed or the game is over/.test(said), `the refused seat's message: ${JSON.stringify(said)}`);
      await screenshot(old, 'table-phone-refused-en');
      const fresh = await phone(browser, renewed, 'en-GB', 'white (Dora), renewed');
      await fresh.locator('[data-action="commit"]:visible').waitFor();
      // Blocked: the director's page says so, the phone is refused.
      await director.click('[data-action="revoke"][data-color="black"]');
      await director.click('dialog [data-answer="yes"]');
      await director.locator('[data-seat="black"] [data-revoked]').waitFor();
      await fresh.goto('/table/' + made.gameId + '/play');
      // This tab still holds White's renewed seat: it plays on.
      await fresh.locator('[data-action="commit"]:visible').waitFor();
      // A new tab with no seat at all.
      const none = await newPage(browser, { viewport: PHONE });
      await none.goto(`/table/${made.gameId}/play`);
      await none.locator('[data-refused="none"]').waitFor();
      // Orthodox chess at a table: Black's phone, opened while White is to
      // move, knows its side (Black at the bottom) and waits; after White's
      // move the same button plays Black's.
      const orthodox = await carl.post('/api/tables', { variant: 'standard', clock: '600+5', white: { name: 'Emil' }, black: { name: 'Fritz' } });
      const blackPhone = await phone(browser, new URL(orthodox.seats.black.url, director.url()).href, 'de-DE', 'black (Fritz)');
      await blackPhone.waitForFunction(() => document.querySelector('[data-square="a1"]').getBoundingClientRect().top < document.querySelector('[data-square="a8"]').getBoundingClientRect().top);
      assertEqual(await blackPhone.locator('[data-action="commit"]:visible').count(), 0, 'no button while White is to move');
      const white = await fetch(new URL(`/api/board/game/${orthodox.gameId}/move/e2e4`, director.url()), {
        method: 'POST', headers: { authorization: 'Bearer ' + orthodox.seats.white.token },
      });
      assertEqual(white.status, 200, 'White moves by its seat');
      await pick(blackPhone, 'e7e5');
      await stopClock(blackPhone, 'e7e5');
      await expectPlacement(blackPhone, placement('rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2'), 'after 1. e4 e5');
      for (const [name, page] of [['director', director], ['old', old], ['fresh', fresh], ['none', none], ['orthodox black', blackPhone]]) {
        assertEqual(page.errors.length, 0, `${name}: no script errors (${page.errors.join('; ')})`);
      }
    },
  ],
];
