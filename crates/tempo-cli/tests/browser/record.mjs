// The record (`data-record`) reads as chess in every variant: SAN for both
// moves of a simultaneous step, the FSR 9 pause as a short mark with a
// legend under the list (English and German), orthodox moves paired as
// usual. And it is browsable during play, as on lichess: a click on an
// entry or ←/→/Home/End shows an earlier position while the game goes on,
// a new pair does not pull the view back, End (or the button) returns to
// the live position, and nothing can be entered on a browsed one.

import { apiAs, apiGame, assert, assertEqual, expectPlacement, loggedInPage, newPage, screenshot } from './lib.mjs';
import { placement } from './play.mjs';

const START = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';

// `board` ({square: piece}) with the moves `[from, to]` made.
function moved(board, ...moves) {
  const out = { ...board };
  for (const [from, to] of moves) {
    out[to] = out[from];
    delete out[from];
  }
  return out;
}


// Waits until the board shows `want`; the message says what it showed.
async function expectBoard(page, want, what) {
  await expectPlacement(page, want, what, 5000);
}

async function entries(page) {
  return page.locator('[data-record] li').allInnerTexts();
}

async function waitForEntries(page, n) {
  await page.waitForFunction((count) => document.querySelectorAll('[data-record] li').length === count, n)
    .catch(async () => assert(false, `the record should have ${n} entries, it has ${JSON.stringify(await entries(page))}`));
}

// Both players' moves of one pair through the API.
async function pair(id, white, black) {
  const [w, b] = [await apiAs('anna'), await apiAs('ben')];
  await w.post(`/api/board/game/${id}/move/${white}`);
  await b.post(`/api/board/game/${id}/move/${black}`);
}

const S0 = placement(START);
const S1 = moved(S0, ['e2', 'e4'], ['d7', 'd5']);
const S2 = moved(S1, ['g1', 'f3'], ['b8', 'c6']);
const S3 = moved(S2, ['b1', 'c3'], ['g8', 'f6']);

export const tests = [
  [
    'a Fairschach record is SAN with the pause as a mark and a legend (en, de)',
    async (browser) => {
      const id = await apiGame('anna', 'ben', { variant: 'fairschach', clock: '600+5' });
      await pair(id, 'e2e4', 'd7d5');
      await pair(id, 'g1f3', 'b8c6');
      const page = await loggedInPage(browser, 'anna');
      await page.goto(`/game/${id}`);
      await waitForEntries(page, 2);
      const lines = await entries(page);
      assert(lines[0].startsWith('1. e4 d5'), `the first entry reads as chess: ${JSON.stringify(lines)}`);
      assert(lines[1].startsWith('2. Nf3 Nc6'), `the second entry reads as chess: ${JSON.stringify(lines)}`);
      for (const line of lines) {
        assert(!line.includes('{') && !/paused|e2e4|g1f3/.test(line), `no UCI or {paused …} in ${JSON.stringify(line)}`);
        assert(line.includes('‖'), `the FSR 9 pause is marked in ${JSON.stringify(line)}`);
      }
      const legend = page.locator('[data-legend]');
      assert(await legend.isVisible(), 'the legend shows under the record when a mark is used');
      assert(/pause \(FSR 9\)/.test(await legend.innerText()), 'the legend explains the pause');
      assert((await page.locator('[data-legend] dt').allInnerTexts()).includes('‖'), 'the legend names the sign');
      await screenshot(page, 'record-fairschach-desktop');

      const german = await newPage(browser, { locale: 'de-DE' });
      await german.goto(`/game/${id}`);
      await waitForEntries(german, 2);
      assert(/Zugpause \(FSR 9\)/.test(await german.locator('[data-legend]').innerText()), 'the German legend');
      assertEqual(german.errors.length + page.errors.length, 0, `no page errors: ${[...german.errors, ...page.errors].join('; ')}`);
    },
  ],
  [
    'an orthodox record pairs SAN moves and shows no legend',
    async (browser) => {
      const id = await apiGame('anna', 'ben', { variant: 'standard', clock: '600+5' });
      const [w, b] = [await apiAs('anna'), await apiAs('ben')];
      await w.post(`/api/board/game/${id}/move/e2e4`);
      await b.post(`/api/board/game/${id}/move/e7e5`);
      await w.post(`/api/board/game/${id}/move/g1f3`);
      const page = await loggedInPage(browser, 'carl');
      await page.goto(`/game/${id}`);
      await page.waitForFunction(() => document.querySelectorAll('[data-record] .ply').length === 3);
      const lines = await entries(page);
      assertEqual(lines.join(' | '), '1. e4 e5 | 2. Nf3', 'the orthodox record');
      assert(!(await page.locator('[data-legend]').isVisible()), 'no marks, no legend');
      // Browsing plies: the second one is 1... e5.
      await page.click('[data-record] [data-ply="2"]');
      await expectBoard(page, moved(S0, ['e2', 'e4'], ['e7', 'e5']), 'after a click on 1... e5');
    },
  ],
  [
    'the record is browsable during play by click and keys and returns to the live position',
    async (browser) => {
      const id = await apiGame('anna', 'ben', { variant: 'fairschach', clock: '600+5' });
      await pair(id, 'e2e4', 'd7d5');
      await pair(id, 'g1f3', 'b8c6');
      const page = await loggedInPage(browser, 'anna');
      await page.goto(`/game/${id}`);
      await waitForEntries(page, 2);
      await expectBoard(page, S2, 'the live position');
      const live = page.locator('[data-action="live"]');
      assert(!(await live.isVisible()), 'no "back to live" on the live position');

      // A click on the first entry: the position after it.
      await page.click('[data-record] [data-ply="1"]');
      await expectBoard(page, S1, 'after a click on step 1');
      assert(await live.isVisible(), 'a "back to live" control while browsing');
      assertEqual(await page.locator('[data-record] [aria-current="step"]').innerText(), '1. e4 d5', 'the shown step is marked');

      // Keys: Home, →, → (live), ←.
      await page.keyboard.press('Home');
      await expectBoard(page, S0, 'Home: the start');
      await page.keyboard.press('ArrowRight');
      await expectBoard(page, S1, '→ from the start');
      await page.keyboard.press('ArrowRight');
      await expectBoard(page, S2, '→ onto the last step: live');
      assert(!(await live.isVisible()), 'live again: no "back to live"');
      await page.keyboard.press('ArrowLeft');
      await expectBoard(page, S1, '← from live');

      // Nothing to enter on a browsed position: a click-click leaves no
      // entered move.
      await page.click('[data-square="b1"]');
      await page.click('[data-square="c3"]');
      assertEqual(await page.locator('[data-pending]').getAttribute('data-pending'), '', 'no move entered while browsing');

      // A new pair does not pull the view away; End brings the live one.
      await pair(id, 'b1c3', 'g8f6');
      await waitForEntries(page, 3);
      await expectBoard(page, S1, 'a new pair arrived while browsing');
      await page.keyboard.press('End');
      await expectBoard(page, S3, 'End: the live position with the new pair');
      await page.click('[data-record] [data-ply="2"]');
      await expectBoard(page, S2, 'a click on step 2');
      await live.click();
      await expectBoard(page, S3, 'the "back to live" button');
      assertEqual(page.errors.length, 0, `no page errors: ${page.errors.join('; ')}`);
    },
  ],
];
