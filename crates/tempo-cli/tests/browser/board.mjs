// The board as players know it from lichess (issue #25, item 1): the
// destination marks (a dot for a move, a ring for a capture), castling
// entered both ways in each of the four variants, the last move and a
// check marked, premoves in orthodox play, and the sounds with their
// setting (sound.js's data-last-sound hook says what would have sounded).

import { apiAs, assert, assertEqual, expectPlacement, loggedInPage, PHONE, screenshot } from './lib.mjs';
import { placement } from './play.mjs';

const CASTLING = 'r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1';
// Chess960 with the king on d1: O-O takes it three squares to g1.
const CASTLING_960 = 'r2k3r/pppppppp/8/8/8/8/PPPPPPPP/R2K3R w KQkq - 0 1';
const CASTLED = placement('r4rk1/pppppppp/8/8/8/8/PPPPPPPP/R4RK1 w - - 0 1');

// One API session per member for the whole file: logins are rate-limited
// per address, and the suite shares that budget.
const sessions = {};
const api = async (name) => (sessions[name] ??= await apiAs(name));

// A game anna (White) – ben made through the API: its id.
async function apiGame(white, black, spec) {
  const { id } = await (await api(white)).post('/api/challenge/' + black, { color: 'white', ...spec });
  const { gameId } = await (await api(black)).post(`/api/challenge/${id}/accept`);
  assert(gameId, 'accept gives a game id');
  return gameId;
}

async function players(browser, gameId) {
  const white = await loggedInPage(browser, 'anna');
  const black = await loggedInPage(browser, 'ben', { viewport: PHONE });
  for (const page of [white, black]) {
    await page.goto(`/game/${gameId}`);
    await page.locator('[data-square="e1"]').waitFor();
  }
  return { white, black };
}

// The squares with a destination mark: {square: "move"|"capture"}.
async function destMarks(page) {
  return page.evaluate(() => Object.fromEntries(
    [...document.querySelectorAll('[data-dest]')].map((el) => [el.dataset.square, el.dataset.dest]).sort(),
  ));
}

async function waitForPlacement(page, want, what) {
  await expectPlacement(page, want, what);
}

async function marked(page, cls) {
  return page.evaluate((c) => [...document.querySelectorAll(`[data-square].${c}`)].map((el) => el.dataset.square).sort(), cls);
}

async function clickMove(page, from, to) {
  await page.click(`[data-square="${from}"]`);
  await page.click(`[data-square="${to}"]`);
}

// A simultaneous variant: the entered move is committed.
async function commitEntered(page) {
  await page.locator('[data-action="commit"]:not([disabled])').waitFor();
  await page.click('[data-action="commit"]');
}

const CASTLING_CASES = [
  { variant: 'standard', fen: CASTLING, king: 'e1', step: 'g1', rook: 'h1', black: ['e8', 'h8'] },
  { variant: 'chess960', fen: CASTLING_960, king: 'd1', step: 'g1', rook: 'h1', black: ['d8', 'h8'] },
  { variant: 'synchronschach', fen: CASTLING, king: 'e1', step: 'g1', rook: 'h1', black: ['e8', 'h8'] },
  { variant: 'fairschach', fen: CASTLING, king: 'e1', step: 'g1', rook: 'h1', black: ['e8', 'h8'] },
];

function castlingTest({ variant, fen, king, step, rook, black }) {
  return [
    `${variant}: castling both ways (White ${king}-${step}, Black king onto its rook ${black.join('-')})`,
    async (browser) => {
      const gameId = await apiGame('anna', 'ben', { variant, fen, clock: '600+5' });
      const pages = await players(browser, gameId);
      // Both squares of the castling carry a move dot, the rook's too.
      await pages.white.click(`[data-square="${king}"]`);
      const marks = await destMarks(pages.white);
      assertEqual(marks[step], 'move', `${variant}: the king's castling square ${step} is marked`);
      assertEqual(marks[rook], 'move', `${variant}: the rook's square ${rook} is marked as a move (castling)`);
      await pages.white.click(`[data-square="${step}"]`);
      const sync = variant === 'synchronschach' || variant === 'fairschach';
      if (sync) await commitEntered(pages.white);
      // Orthodox: Black moves once White's castling has arrived (before, it would be a premove).
      else await pages.black.locator('[data-square="g1"] [data-piece="wK"]').waitFor();
      // The reveal slides both castlings (two kings, two rooks) at once.
      const sliding = sync && pages.white.waitForFunction(() => document.querySelectorAll('[data-sliding]').length === 4);
      // Black asks for reduced motion: nothing slides there.
      await pages.black.emulateMedia({ reducedMotion: 'reduce' });
      await pages.black.evaluate(() => {
        new MutationObserver((changes) => {
          if (changes.some((c) => c.target.hasAttribute('data-sliding'))) window.slid = true;
        }).observe(document.body, { subtree: true, attributes: true, attributeFilter: ['data-sliding'] });
      });
      await clickMove(pages.black, black[0], black[1]);
      if (sync) await commitEntered(pages.black);
      if (sync) {
        await sliding.catch(() => {
          throw new Error(`${variant}: the four pieces of the reveal do not slide together`);
        });
      }
      for (const page of [pages.white, pages.black]) await waitForPlacement(page, CASTLED, `${variant} after both castlings`);
      assert(!(await pages.black.evaluate(() => window.slid)), `${variant}: pieces slid despite reduced motion`);
      // The last move: both of a reveal, the one move in orthodox play.
      const last = await marked(pages.white, 'last');
      const want = sync ? [king, rook, ...black] : [black[0], variant === 'chess960' ? 'h8' : 'g8'];
      assertEqual(JSON.stringify(last), JSON.stringify(want.sort()), `${variant}: the last move is marked`);
      for (const page of [pages.white, pages.black]) assertEqual(page.errors.length, 0, `no script errors (${page.errors.join('; ')})`);
    },
  ];
}

export const tests = [
  [
    'destinations: a dot for a move, a ring for a capture, gone when the selection ends',
    async (browser) => {
      const fen = 'rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2';
      const gameId = await apiGame('anna', 'ben', { variant: 'standard', fen, clock: '600+5' });
      const { white } = await players(browser, gameId);
      await white.click('[data-square="e4"]');
      const marks = await destMarks(white);
      assertEqual(JSON.stringify(marks), JSON.stringify({ d5: 'capture', e5: 'move' }), 'the pawn on e4 may go to e5 or take on d5');
      // The ring is drawn above the piece it would take.
      const ring = await white.evaluate(() => {
        const style = getComputedStyle(document.querySelector('[data-square="d5"]'), '::after');
        return { z: style.zIndex, image: style.backgroundImage };
      });
      assert(Number(ring.z) > 1 && ring.image.includes('radial-gradient'), `the capture ring lies over the piece: ${JSON.stringify(ring)}`);
      await screenshot(white, 'board-destinations-desktop');
      await white.click('[data-square="e4"]');
      assertEqual(JSON.stringify(await destMarks(white)), '{}', 'no marks once the selection ends');
      await white.click('[data-square="g1"]');
      assertEqual(JSON.stringify(await destMarks(white)), JSON.stringify({ e2: 'move', f3: 'move', h3: 'move' }), 'the knight on g1');
      await white.press('[data-square="g1"]', 'Escape');
      assertEqual(JSON.stringify(await destMarks(white)), '{}', 'Escape ends the selection');
    },
  ],
  ...CASTLING_CASES.map(castlingTest),
  [
    'check marked: an orthodox check and a revealed one',
    async (browser) => {
      const orthodox = await apiGame('anna', 'ben', { variant: 'standard', fen: '4k3/8/8/8/8/8/8/R3K3 w - - 0 1', clock: '600+5' });
      let pages = await players(browser, orthodox);
      await clickMove(pages.white, 'a1', 'a8');
      for (const page of [pages.white, pages.black]) {
        await page.locator('[data-square="e8"].check').waitFor().catch(() => {
          throw new Error('the checked king on e8 is not marked');
        });
      }
      assertEqual(JSON.stringify(await marked(pages.black, 'last')), JSON.stringify(['a1', 'a8']), 'the last move');
      await screenshot(pages.black, 'board-check-phone');
      for (const page of Object.values(pages)) await page.context().close();
      const sync = await apiGame('anna', 'ben', { variant: 'synchronschach', fen: 'k7/6p1/8/8/8/8/8/4K2R w - - 0 1', clock: '600+5' });
      pages = await players(browser, sync);
      await clickMove(pages.white, 'h1', 'h8');
      await commitEntered(pages.white);
      await clickMove(pages.black, 'g7', 'g6');
      await commitEntered(pages.black);
      await pages.white.locator('[data-square="a8"].check').waitFor().catch(() => {
        throw new Error('the king on a8, checked by the reveal, is not marked');
      });
      assertEqual(JSON.stringify(await marked(pages.white, 'last')), JSON.stringify(['g6', 'g7', 'h1', 'h8']), 'both moves of the reveal');
    },
  ],
  [
    'premove (orthodox): cancelled by a right-click, played when the turn comes, dropped when illegal',
    async (browser) => {
      const gameId = await apiGame('anna', 'ben', { variant: 'standard', clock: '600+5' });
      const { black } = await players(browser, gameId);
      const anna = await api('anna');
      const state = async () => (await (await api('ben')).get(`/api/game/${gameId}`)).state;
      // While White is to move, Black enters e7-e6, then cancels it.
      await clickMove(black, 'e7', 'e6');
      assertEqual(JSON.stringify(await marked(black, 'premove')), JSON.stringify(['e6', 'e7']), 'the premove is shown');
      await black.click('[data-square="e4"]', { button: 'right' });
      assertEqual(JSON.stringify(await marked(black, 'premove')), '[]', 'a right-click cancels the premove');
      await clickMove(black, 'e7', 'e5');
      await anna.post(`/api/board/game/${gameId}/move/e2e4`);
      await waitForPlacement(black, placement('rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2'), 'the premove e7e5 played');
      assert((await state()).fen.startsWith('rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w'), 'the server has e7e5');
      assertEqual(await black.evaluate(() => document.documentElement.dataset.lastSound), 'move', 'a move sounds');
      // A premove onto the own pawn on d7 is not legal when the turn comes: dropped.
      await clickMove(black, 'd8', 'd7');
      assertEqual(JSON.stringify(await marked(black, 'premove')), JSON.stringify(['d7', 'd8']), 'the second premove is shown');
      await anna.post(`/api/board/game/${gameId}/move/g1f3`);
      await waitForPlacement(black, placement('rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2'), 'after 2.Nf3');
      await black.waitForFunction(() => !document.querySelector('[data-square].premove'));
      const s = await state();
      assert(s.fen.includes(' b '), `Black is still to move: ${s.fen}`);
      assertEqual(black.errors.length, 0, `no script errors (${black.errors.join('; ')})`);
    },
  ],
  [
    'sounds: reveal, game end, capture and low time sound; the setting turns them off and stays',
    async (browser) => {
      const gameId = await apiGame('anna', 'ben', { variant: 'synchronschach', clock: '600+5' });
      const pages = await players(browser, gameId);
      const last = (page) => page.evaluate(() => document.documentElement.dataset.lastSound || '');
      await clickMove(pages.white, 'e2', 'e4');
      await commitEntered(pages.white);
      await clickMove(pages.black, 'd7', 'd5');
      await commitEntered(pages.black);
      await pages.white.waitForFunction(() => document.documentElement.dataset.lastSound === 'reveal');
      const box = pages.white.locator('[data-setting="sound"]');
      assert(await box.isChecked(), 'sounds are on by default');
      await box.uncheck();
      assertEqual(await pages.white.evaluate(() => localStorage.getItem('tempo.sound')), 'off', 'the setting is kept');
      await pages.white.reload();
      await pages.white.locator('[data-square="e1"]').waitFor();
      assert(!(await pages.white.locator('[data-setting="sound"]').isChecked()), 'the setting stays off after a reload');
      await (await api('ben')).post(`/api/board/game/${gameId}/resign`);
      await pages.black.waitForFunction(() => document.documentElement.dataset.lastSound === 'gameEnd').catch(async () => {
        throw new Error(`no gameEnd sound; last: ${await last(pages.black)}`);
      });
      // An orthodox capture sounds as one, and a clock under ten seconds warns.
      const capture = await apiGame('anna', 'ben', {
        variant: 'standard', fen: 'rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2', clock: '600+5',
      });
      await pages.black.goto(`/game/${capture}`);
      await pages.black.locator('[data-square="e1"]').waitFor();
      await (await api('anna')).post(`/api/board/game/${capture}/move/e4d5`);
      await pages.black.waitForFunction(() => document.documentElement.dataset.lastSound === 'capture').catch(async () => {
        throw new Error(`no capture sound; last: ${await last(pages.black)}`);
      });
      const short = await apiGame('anna', 'ben', { variant: 'standard', clock: '8+0' });
      await pages.black.goto(`/game/${short}`);
      await pages.black.waitForFunction(() => document.documentElement.dataset.lastSound === 'lowTime').catch(async () => {
        throw new Error(`no lowTime sound with 8 s on the clock; last: ${await last(pages.black)}`);
      });
    },
  ],
];
