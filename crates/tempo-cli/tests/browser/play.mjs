// Games played by two browser contexts while spectators watch: Fairschach
// through several pairs with a collision and a first-move right (started
// in the lobby: challenge → accept), Fairschach's first-move right from a
// position (the checked side's block voids the capture of its king), and
// a Synchronschach exchange ("capture on d5 / decline").
//
// The spectators (a logged-in member and an anonymous visitor) record
// every byte their pages receive and their DOM after each first commit:
// the committed move must not be in either, while the opponent's commit
// sign shows. The expected positions come from `tempo sync resolve`.

import {
  apiGame, assert, assertEqual, expectPlacement, loggedInPage, newPage, PHONE, recordNetwork, resolve, screenshot,
} from './lib.mjs';

const START = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';

// FEN placement → {square: "wP"}.
export function placement(fen) {
  const out = {};
  const rows = fen.split(' ')[0].split('/');
  rows.forEach((row, i) => {
    let file = 0;
    for (const ch of row) {
      if (/\d/.test(ch)) file += Number(ch);
      else {
        const color = ch === ch.toUpperCase() ? 'w' : 'b';
        out[String.fromCharCode(97 + file) + (8 - i)] = color + ch.toUpperCase();
        file += 1;
      }
    }
  });
  return out;
}



async function waitForBoard(page, fen, what) {
  await expectPlacement(page, placement(fen), what);
}

// What the page says where a move is entered (for failure messages).
async function entryText(page) {
  const entry = page.locator('.entry');
  const text = (await entry.count()) ? await entry.first().innerText() : await page.locator('main').innerText();
  return JSON.stringify(text.replace(/\s+/g, ' ').slice(0, 300));
}

// The board by keyboard alone: Tab to the board's one focusable square,
// the arrow keys (as seen from the player's side), Enter on the piece and
// on its destination.
async function keyboardMove(page, from, to) {
  const squares = page.locator('[data-square][tabindex="0"]');
  await squares.first().focus();
  const flipped = await page.evaluate(() => {
    const a1 = document.querySelector('[data-square="a1"]').getBoundingClientRect();
    const h8 = document.querySelector('[data-square="h8"]').getBoundingClientRect();
    return a1.left > h8.left;
  });
  const walk = async (target) => {
    const at = await page.evaluate(() => document.activeElement?.dataset?.square);
    assert(at, 'a board square has the keyboard focus');
    const df = target.charCodeAt(0) - at.charCodeAt(0);
    const dr = Number(target[1]) - Number(at[1]);
    const sign = flipped ? -1 : 1;
    for (let i = 0; i < Math.abs(df); i++) await page.keyboard.press(df * sign > 0 ? 'ArrowRight' : 'ArrowLeft');
    for (let i = 0; i < Math.abs(dr); i++) await page.keyboard.press(dr * sign > 0 ? 'ArrowUp' : 'ArrowDown');
    const now = await page.evaluate(() => document.activeElement?.dataset?.square);
    assertEqual(now, target, 'the arrow keys reach the square');
    await page.keyboard.press('Enter');
  };
  await walk(from);
  await walk(to);
}

// Enters a choice and commits it. A move by clicking its two squares, by
// dragging (`how: 'drag'`), by the arrow keys (`'keys'`) or typed (`how:
// {type: 'Nc3'}`); an exchange choice by its button.
async function commit(page, choice, how = 'click') {
  const who = page.who;
  await page.locator('[data-action="commit"]').waitFor().catch(async () => {
    throw new Error(`${who}: no [data-action="commit"] to enter ${choice}; the page says ${await entryText(page)}`);
  });
  if (choice === '-' || choice.startsWith('x')) {
    await page.click(`[data-choice="${choice}"]`);
  } else if (how === 'keys') {
    await keyboardMove(page, choice.slice(0, 2), choice.slice(2, 4));
  } else if (how === 'drag') {
    await page.dragAndDrop(`[data-square="${choice.slice(0, 2)}"]`, `[data-square="${choice.slice(2, 4)}"]`);
  } else if (how.type) {
    await page.fill('input[name="move"]', how.type);
    await page.press('input[name="move"]', 'Enter');
  } else {
    await page.click(`[data-square="${choice.slice(0, 2)}"]`);
    await page.click(`[data-square="${choice.slice(2, 4)}"]`);
  }
  await page.waitForFunction(() => {
    const b = document.querySelector('[data-action="commit"]');
    return !!b && !b.disabled;
  }).catch(async () => {
    throw new Error(`${who}: ${choice} entered (${JSON.stringify(how)}), but no enabled [data-action="commit"]; the page says ${await entryText(page)}`);
  });
  await page.click('[data-action="commit"]');
  // Committed: the button is gone or disabled (nothing entered any more).
  await page.waitForFunction(() => {
    const b = document.querySelector('[data-action="commit"]');
    return !b || b.disabled;
  });
}

// What a watcher must not see of a hidden choice: its UCI everywhere, and
// a piece move's SAN in the visible text (a pawn's "e4" is also a square
// name, so it is looked for in the UCI only).
export async function assertHidden(watcher, choice, san) {
  await watcher.net.settle();
  const received = watcher.net.text();
  const uci = choice.replace(/^x/, '');
  assert(!mentions(received, uci), `${watcher.name}: the network gave away the hidden ${uci}: …${around(received, uci)}…`);
  // Without the keyboard field's placeholder: its fixed example ("Nf3,
  // g1f3, 7163") is not the opponent's move.
  const html = (await watcher.page.content()).replace(/ placeholder="[^"]*"/g, '');
  assert(!mentions(html, uci), `${watcher.name}: the DOM holds the hidden ${uci}: …${around(html, uci)}…`);
  if (san && /^[KQRBN]/.test(san)) {
    const text = await watcher.page.evaluate(() => document.body.innerText);
    assert(!text.includes(san), `${watcher.name}: the page shows the hidden ${san}`);
  }
}

// Whether `text` names the move `uci` outside a run of hex digits: a move
// inside one is part of a hash or a commitment ("…efaf1b595…" holds
// "f1b5"), not the move; "xd8d5" (a capture choice) still names d8d5.
export function mentions(text, uci) {
  return new RegExp(`(?<![0-9a-f])${uci}(?![0-9a-f])`).test(text);
}

async function waitUntil(condition, what, ms = 5000) {
  const until = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > until) throw new Error(`${what}: not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

function around(text, needle) {
  const word = new RegExp(`(?<![0-9a-f])${needle}(?![0-9a-f])`).exec(text);
  const i = word ? word.index : text.indexOf(needle);
  return text.slice(Math.max(0, i - 80), i + needle.length + 80);
}

async function watcherOf(browser, name, gameId, options) {
  const page = name === 'anonymous' ? await newPage(browser, options) : await loggedInPage(browser, name, options);
  const net = await recordNetwork(page);
  await page.goto(`/game/${gameId}`);
  await page.locator('[data-square="e1"]').waitFor();
  return { name, page, net };
}

// One step: `first` commits, the watchers see only that; then the other
// commits and every page shows the position `tempo sync resolve` gives.
// `sans`: the SAN of a piece move, looked for in the watchers' text.
// `how`: per colour, how the move is entered (see commit).
async function step({ pages, watchers, fen, variant, moves, first, events = [], extra = [], sans = {}, how = {} }) {
  const [white, black] = moves;
  console.log(`      ${variant}: ${white} ${black}`);
  const result = resolve(variant, fen, white, black, extra);
  for (const type of events) {
    assert(result.events.some((e) => e.type === type), `the scenario ${white}/${black} has a ${type} (tempo sync resolve: ${JSON.stringify(result.events)})`);
  }
  const choice = { white, black };
  const [a, b] = first === 'white' ? ['white', 'black'] : ['black', 'white'];
  if (choice[a] !== '..') {
    await commit(pages[a], choice[a], how[a]);
    if (choice[b] !== '..') {
      // Hidden until the other commits: the watchers see only the sign.
      for (const w of watchers) {
        await w.page.locator('[data-state="committed"]').first().waitFor().catch(() => {
          throw new Error(`${w.name}: no visible [data-state="committed"] after ${a} committed`);
        });
        await assertHidden(w, choice[a], sans[a]);
      }
      // The opponent sees the sign too, and nothing more.
      await pages[b].locator('[data-state="committed"]').first().waitFor().catch(() => {
        throw new Error(`${pages[b].who}: no visible [data-state="committed"] after ${a} committed`);
      });
      await assertHidden({ name: `the opponent (${b})`, page: pages[b], net: pages[b].net }, choice[a], sans[a]);
    }
  }
  if (choice[b] !== '..') await commit(pages[b], choice[b], how[b]);
  for (const [name, page] of [['white', pages.white], ['black', pages.black], ...watchers.map((w) => [w.name, w.page])]) {
    await waitForBoard(page, result.fen, `${name} after ${white} ${black}`);
  }
  for (const w of watchers) {
    // The recorder does see the moves once they are revealed (so its
    // silence before was not deafness).
    await w.net.settle();
    for (const c of [white, black].filter((c) => c !== '..')) {
      const uci = c.replace(/^x/, '');
      await waitUntil(() => mentions(w.net.text(), uci), `${w.name}: the revealed ${uci} arrives over the network`);
    }
    assertEqual(await w.page.locator('[data-state="committed"]:visible').count(), 0, `${w.name}: no commit sign after the reveal`);
    for (const type of events) {
      await w.page.locator(`[data-reveal] [data-event="${type}"]`).first().waitFor({ timeout: 5000 }).catch(() => {
        throw new Error(`${w.name}: the reveal of ${white} ${black} does not name the ${type} ([data-reveal] [data-event="${type}"])`);
      });
    }
  }
  return result.fen;
}

// No page shows an error message (a failed render says so in main).
async function assertNoErrorShown(page, who) {
  const shown = (await page.locator('main .error, main [role="alert"]').allInnerTexts()).filter((x) => x.trim());
  assert(!shown.length, `${who}: the page shows an error: ${JSON.stringify(shown)} (${page.url()})`);
}

async function players(browser, white, black) {
  const pages = {
    white: await loggedInPage(browser, white),
    black: await loggedInPage(browser, black, { viewport: PHONE }),
  };
  for (const [color, page] of Object.entries(pages)) {
    page.net = await recordNetwork(page);
    page.who = `${color} (${color === 'white' ? white : black})`;
  }
  return pages;
}

async function open(pages, gameId) {
  for (const page of Object.values(pages)) {
    if (new URL(page.url()).pathname !== `/game/${gameId}`) await page.goto(`/game/${gameId}`);
    await page.locator('[data-square="e1"]').waitFor();
  }
}

export const tests = [
  [
    'Fairschach from the lobby: several pairs with a collision and a first-move right, watched',
    async (browser) => {
      const pages = await players(browser, 'anna', 'ben');
      // Anna challenges Ben in the lobby; Ben accepts in his.
      await pages.white.goto('/');
      await pages.black.goto('/');
      const form = pages.white.locator('[data-form="challenge"]');
      await form.locator('select[name="opponent"]').selectOption('ben');
      await form.locator('select[name="variant"]').selectOption('fairschach');
      await form.locator('select[name="clock"]').selectOption('300+3');
      await form.locator('select[name="color"]').selectOption('white');
      await form.locator('[data-action="challenge"]').click();
      const offer = pages.black.locator('[data-challenge]').filter({ has: pages.black.locator('[data-action="accept"]') });
      await offer.first().waitFor();
      await screenshot(pages.black, 'lobby-challenge-phone');
      await offer.first().locator('[data-action="accept"]').click();
      // Both go to the game's page.
      await pages.black.waitForURL(/\/game\/[A-Za-z0-9]+$/);
      const gameId = new URL(pages.black.url()).pathname.split('/').pop();
      await pages.white.waitForURL(`**/game/${gameId}`);
      await open(pages, gameId);
      const watchers = [
        await watcherOf(browser, 'carl', gameId),
        await watcherOf(browser, 'anonymous', gameId, { viewport: PHONE }),
      ];
      let fen = START;
      await waitForBoard(watchers[0].page, fen, 'the start');
      const variant = 'fairschach';
      const play = (moves, first, events, sans, how) => step({ pages, watchers, fen, variant, moves, first, events, sans, how });
      fen = await play(['e2e4', 'd7d5'], 'white');
      // Both to g4: the queen and the bishop collide (FSR 4).
      fen = await play(['d1g4', 'c8g4'], 'black', ['collision'], { white: 'Qg4', black: 'Bg4' });
      await screenshot(watchers[0].page, 'game-collision-spectator-desktop');
      // The queen that moved pauses in the next pair (FSR 9): marked, and not movable.
      await watchers[0].page.locator('[data-square="g4"].paused').waitFor();
      await pages.white.click('[data-square="g4"]');
      assertEqual(await pages.white.locator('[data-square].dest').count(), 0, 'the paused queen offers no destinations');
      fen = await play(['f1b5', 'g8f6'], 'white', ['check'], { white: 'Bb5+', black: 'Nf6' });
      for (const page of [pages.black, watchers[1].page]) await page.locator('[data-phase="first-move-right"]').waitFor();
      // Black is in check at the start of the pair: its move comes first (FSR 6).
      // White types the move (SAN), Black drags the pawn.
      fen = await play(['g1f3', 'c7c6'], 'white', ['first-move'], { white: 'Nf3' }, { white: { type: 'Nf3' }, black: 'drag' });
      await screenshot(pages.black, 'game-first-move-phone');
      // The source's digit code (ICCF) for White: b1c3 = 2133.
      fen = await play(['b1c3', 'e7e6'], 'black', [], { white: 'Nc3' }, { white: { type: '2133' } });
      for (const [who, page] of [['white', pages.white], ['black', pages.black], ...watchers.map((w) => [w.name, w.page])]) {
        assertEqual(page.errors.length, 0, `${who}: no script errors (${page.errors.join('; ')})`);
        await assertNoErrorShown(page, who);
      }
    },
  ],
  [
    'Fairschach first-move right from a position: the checked side blocks, the capture of its king is void',
    async (browser) => {
      const fen = '4k3/8/8/8/1b6/8/8/1N2K3 w - - 0 1';
      const gameId = await apiGame('anna', 'ben', { variant: 'fairschach', fen, clock: '300+3', rules: { fsr8: 'off' } });
      const pages = await players(browser, 'anna', 'ben');
      await open(pages, gameId);
      const watchers = [await watcherOf(browser, 'carl', gameId)];
      await waitForBoard(pages.white, fen, 'the start position');
      await pages.white.locator('[data-phase="first-move-right"]').waitFor();
      await step({
        pages, watchers, fen, variant: 'fairschach', moves: ['b1d2', 'b4e1'], first: 'black',
        events: ['first-move', 'voided'], extra: ['--fsr8', 'off'],
      });
      await screenshot(watchers[0].page, 'game-first-move-voided-desktop');
    },
  ],
  [
    'Synchronschach exchange: Black recaptures on d5 with the queen (choice xd8d5), watched',
    async (browser) => {
      const gameId = await apiGame('anna', 'ben', { variant: 'synchronschach', clock: '300+3' });
      const pages = await players(browser, 'anna', 'ben');
      await open(pages, gameId);
      const watchers = [await watcherOf(browser, 'anonymous', gameId)];
      const variant = 'synchronschach';
      let fen = START;
      // Black (the board seen from Black's side) moves by keyboard alone.
      fen = await step({ pages, watchers, fen, variant, moves: ['e2e4', 'd7d5'], first: 'black', how: { black: 'keys', white: 'keys' } });
      fen = await step({ pages, watchers, fen, variant, moves: ['e4d5', 'g8f6'], first: 'white', events: ['exchange-right'] });
      // The exchange step: Black chooses "capture on d5" or "decline"; White has nothing to choose.
      const black = pages.black;
      await black.locator('[data-choice="-"]').waitFor();
      await black.locator('[data-choice="xd8d5"]').waitFor();
      assertEqual(await pages.white.locator('[data-choice]').count(), 0, 'White has no exchange choice');
      await screenshot(black, 'game-exchange-phone');
      fen = await step({ pages, watchers, fen, variant, moves: ['..', 'xd8d5'], first: 'black' });
      assertEqual(placement(fen).d5, 'bQ', 'the queen recaptured on d5');
      fen = await step({ pages, watchers, fen, variant, moves: ['b1c3', 'd5a5'], first: 'white' });
    },
  ],
];
