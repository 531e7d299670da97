// The play feel in figures (docs/performance.md, "The web app"). A
// measurement that prints its figures, not a timed test: it fails only if
// the pages fail. Driven by the ignored test `measure_play_feel` of
// crates/tempo-cli/tests/browser.rs.
//
// (a) Reveal latency: Anna (White) and Ben (Black) play STEPS steps of a
//     Fairschach game in their pages, Carl watches in his. The clock is
//     the pages' own (performance.timeOrigin + performance.now(), the same
//     wall clock in every page of the machine): from the click on the
//     second commit to the first frame after the reveal's text
//     ([data-reveal]) changed, on each of the three pages.
// (b) Page weights: each main page loaded cold (a new browser context: no
//     cache) at desktop size: its requests, the bytes that crossed the
//     network (headers included; the open NDJSON streams as far as they
//     came), the bodies' bytes and what they come to gzipped (zlib,
//     default level, each body on its own).

import { loadavg } from 'node:os';
import { gzipSync } from 'node:zlib';
import { apiAs, apiGame, assert, launch, sleep } from './lib.mjs';
import { PAGES, pageFor, ready, setUp } from './scenes.mjs';
import { placement } from './play.mjs';

const STEPS = Number(process.env.STEPS || 30);
const DESKTOP = { width: 1366, height: 800 };

// In each page before its scripts: the commit clicks and the reveal's
// changes, stamped with the page's clock; a change is stamped at the next
// animation frame (when it is painted).
function watchReveals() {
  const now = () => performance.timeOrigin + performance.now();
  window.__clicks = [];
  window.__reveals = [];
  document.addEventListener('click', (e) => {
    if (e.target.closest?.('[data-action="commit"]')) window.__clicks.push(now());
  }, true);
  let last = null;
  new MutationObserver(() => {
    const el = document.querySelector('[data-reveal]');
    const text = el ? el.textContent : null;
    if (text === last) return;
    last = text;
    const changed = now();
    requestAnimationFrame(() => window.__reveals.push({ text, changed, painted: now() }));
  }).observe(document, { subtree: true, childList: true, characterData: true });
}

// A small seeded generator, so runs choose the same moves.
function random(seed) {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

// A quiet move of `legal` for a page's clicks: no capture, no king move
// (castling), no promotion, no pawn moving sideways (en passant).
function quietMove(legal, fen, rand) {
  const board = placement(fen);
  const quiet = legal.filter((m) => {
    if (!/^[a-h][1-8][a-h][1-8]$/.test(m)) return false;
    const piece = board[m.slice(0, 2)] || '';
    if (board[m.slice(2, 4)] || piece[1] === 'K') return false;
    return !(piece[1] === 'P' && m[0] !== m[2]);
  });
  return quiet.length ? quiet[Math.floor(rand() * quiet.length)] : null;
}

async function clickMove(page, move) {
  await page.click(`[data-square="${move.slice(0, 2)}"]`);
  await page.click(`[data-square="${move.slice(2, 4)}"]`);
  await page.waitForFunction(() => !!document.querySelector('[data-action="commit"]:not([disabled])'));
}

async function commitNow(page) {
  await page.click('[data-action="commit"]');
}

const stateOf = async (api, id) => (await api.get(`/api/game/${id}`)).state;

async function openGame(browser, id, pages) {
  for (const [who, page] of pages) {
    await page.goto(`/game/${id}`);
    await page.locator('[data-square="e1"]').waitFor();
    page.who = who;
  }
}

function summary(values) {
  const v = [...values].sort((a, b) => a - b);
  const at = (q) => v[Math.min(v.length - 1, Math.ceil(q * v.length) - 1)];
  return { n: v.length, median: at(0.5), p90: at(0.9), max: v[v.length - 1] };
}

const ms = (x) => `${x.toFixed(1)} ms`;

async function revealLatency(browser) {
  const anna = await apiAs('anna');
  const ben = await apiAs('ben');
  const newGame = () => apiGame('anna', 'ben', { variant: 'fairschach' });
  const pages = [];
  for (const [who, seat] of [['anna', 'white'], ['ben', 'black'], ['carl', 'spectator']]) {
    const page = await pageFor(browser, who, { viewport: DESKTOP, locale: 'en-GB' });
    await page.context().addInitScript(watchReveals);
    pages.push([seat, page]);
  }
  const bySeat = Object.fromEntries(pages);
  let id = await newGame();
  await openGame(browser, id, pages);
  const rand = random(25);
  const samples = { white: [], black: [], spectator: [], first: [], second: [] };
  let games = 1;
  for (let step = 0; step < STEPS;) {
    const w = await stateOf(anna, id);
    const b = await stateOf(ben, id);
    // A plain pair only (no first-move right, exchange or paused side).
    const plain = w.status === 'started' && w.phase === 'pair' && w.due?.white && b.due?.black;
    const white = plain ? quietMove(w.legal || [], w.fen, rand) : null;
    const black = plain ? quietMove(b.legal || [], b.fen, rand) : null;
    if (!white || !black) {
      // Over, or a step that is not a plain pair: the next game.
      id = await newGame();
      games += 1;
      await openGame(browser, id, pages);
      continue;
    }
    const [first, second] = step % 2 ? ['black', 'white'] : ['white', 'black'];
    const moves = { white, black };
    await clickMove(bySeat[first], moves[first]);
    await commitNow(bySeat[first]);
    // The first commit is in when the others show its sign.
    for (const seat of [second, 'spectator']) await bySeat[seat].locator('[data-state="committed"]').first().waitFor();
    await clickMove(bySeat[second], moves[second]);
    const before = {};
    for (const [seat, page] of pages) before[seat] = await page.evaluate(() => window.__reveals.length);
    const clicks = await bySeat[second].evaluate(() => window.__clicks.length);
    await commitNow(bySeat[second]);
    const clicked = await bySeat[second].evaluate((n) => window.__clicks[n], clicks);
    assert(clicked, 'the second commit click was stamped');
    for (const [seat, page] of pages) {
      await page.waitForFunction((n) => window.__reveals.length > n, before[seat], { timeout: 10_000 }).catch(() => {
        throw new Error(`${seat}: no change of [data-reveal] after ${white} ${black}`);
      });
      const shown = await page.evaluate((n) => window.__reveals[n], before[seat]);
      const latency = shown.painted - clicked;
      samples[seat].push(latency);
      if (seat === first) samples.first.push(latency);
      if (seat === second) samples.second.push(latency);
    }
    step += 1;
  }
  console.log(`\nReveal latency: ${STEPS} steps of Fairschach (${games} game${games > 1 ? 's' : ''}), from the click on the second commit to the first frame showing the reveal`);
  console.log('| page | median | p90 | max |\n|---|---|---|---|');
  const names = {
    white: 'White (Anna)', black: 'Black (Ben)', spectator: 'spectator (Carl)',
    first: 'the player who committed first', second: 'the player who committed second',
  };
  for (const [key, name] of Object.entries(names)) {
    const s = summary(samples[key]);
    console.log(`| ${name} | ${ms(s.median)} | ${ms(s.p90)} | ${ms(s.max)} |`);
  }
}

// One cold load of `route` as `who`: the figures of (b).
async function weigh(browser, who, route, selector, state) {
  const page = await pageFor(browser, who, { viewport: DESKTOP, locale: 'en-GB' });
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  const wire = new Map(); // requestId → bytes received (the total once finished)
  cdp.on('Network.requestWillBeSent', ({ requestId }) => wire.set(requestId, 0));
  cdp.on('Network.dataReceived', ({ requestId, encodedDataLength }) => wire.set(requestId, (wire.get(requestId) || 0) + encodedDataLength));
  cdp.on('Network.loadingFinished', ({ requestId, encodedDataLength }) => wire.set(requestId, encodedDataLength));
  const bodies = [];
  page.on('response', (response) => {
    if ((response.headers()['content-type'] || '').includes('ndjson')) return; // a stream: never ends
    bodies.push(response.body().catch(() => Buffer.alloc(0)));
  });
  await page.goto(route);
  await ready(page, selector, state);
  // What the page fetches after it shows (the history, the catalogues) comes in too.
  await sleep(1500);
  const files = await Promise.all(bodies);
  const figures = {
    requests: wire.size,
    wire: [...wire.values()].reduce((a, b) => a + b, 0),
    body: files.reduce((a, f) => a + f.length, 0),
    gzip: files.reduce((a, f) => a + (f.length ? gzipSync(f).length : 0), 0),
  };
  await page.context().close();
  return figures;
}

async function pageWeights(browser, state) {
  const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
  console.log('\nPage weights: a cold load at 1366×800, English');
  console.log('| page | requests | transferred | bodies | bodies gzipped |\n|---|---|---|---|---|');
  for (const [name, route, who, selector] of PAGES) {
    const f = await weigh(browser, who, route(state), selector, state);
    console.log(`| ${name} | ${f.requests} | ${kb(f.wire)} | ${kb(f.body)} | ${kb(f.gzip)} |`);
  }
}

const browser = await launch();
let failed = false;
try {
  const state = await setUp();
  await pageWeights(browser, state);
  await revealLatency(browser);
  console.log(`\nmeasured ${new Date().toISOString()}, load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
} catch (err) {
  console.error(err.stack || err);
  failed = true;
} finally {
  await browser.close();
}
process.exit(failed ? 1 : 0);
