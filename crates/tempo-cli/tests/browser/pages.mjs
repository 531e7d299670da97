// Each main page at phone (360×740, in German) and desktop (1280×900, in
// English) width: a screenshot into SCREENSHOT_DIR, no horizontal
// overflow on the phone, no string missing from a catalogue, no script
// error, and axe-core finds no serious or critical accessibility violation.

import { createRequire } from 'node:module';
import {
  apiAs, apiGame, assert, DESKTOP, loggedInPage, newPage, PHONE, screenshot,
} from './lib.mjs';

const require = createRequire(import.meta.url);
const AXE = require.resolve('axe-core/axe.min.js');

// A game with a few revealed pairs (running), and a finished one.
let games = null;
async function setUp() {
  if (games) return games;
  const running = await apiGame('anna', 'ben', { variant: 'fairschach', clock: '600+5' });
  const finished = await apiGame('ben', 'anna', { variant: 'synchronschach', clock: '300+3' });
  const anna = await apiAs('anna');
  const ben = await apiAs('ben');
  for (const [w, b] of [['e2e4', 'e7e5'], ['g1f3', 'b8c6']]) {
    await anna.post(`/api/board/game/${running}/move/${w}`);
    await ben.post(`/api/board/game/${running}/move/${b}`);
  }
  for (const [w, b] of [['d2d4', 'd7d5'], ['c2c4', 'e7e6']]) {
    await ben.post(`/api/board/game/${finished}/move/${w}`);
    await anna.post(`/api/board/game/${finished}/move/${b}`);
  }
  await anna.post(`/api/board/game/${finished}/resign`);
  games = { running, finished };
  return games;
}

// [name, path (from the games), who (a member, or null: logged out), the
// element that says it is ready (or a function of the games giving it)]
const PAGES = [
  ['login', () => '/login', null, 'input[name="password"]'],
  ['lobby', () => '/', 'anna', '[data-form="challenge"]'],
  ['game', (g) => `/game/${g.running}`, 'anna', '[data-action="commit"]'],
  ['spectator', (g) => `/game/${g.running}`, null, '[data-square="e4"] [data-piece]'],
  ['projector', (g) => `/game/${g.running}?view=big`, null, '[data-square="e4"] [data-piece]'],
  ['archive', (g) => '/archive', 'anna', (g) => `[data-game="${g.finished}"]`],
  ['replay', (g) => `/game/${g.finished}`, null, 'main input[type="range"]'],
  // The log verified in the browser (hash chain, commitments, signature).
  ['log', (g) => `/log/${g.finished}`, null, '[data-verify="ok"]'],
  ['arbiter', () => '/arbiter', 'arbi', 'main form'],
  ['rules', () => '/rules', null, '[data-square]'],
  ['tournaments', () => '/tournaments', 'admin', 'main h1'],
  ['account', () => '/account', 'anna', 'main h1'],
];

function describe(violations) {
  return violations
    .map((v) => `  [${v.impact}] ${v.id}: ${v.help}\n${v.nodes
      .slice(0, 5)
      .map((n) => `      ${n.target.join(' ')}  ${n.html.slice(0, 160)}\n        ${(n.failureSummary || '').replace(/\n/g, ' ')}`)
      .join('\n')}`)
    .join('\n');
}

async function check(browser, [name, route, who, readyOf]) {
  const g = await setUp();
  const ready = typeof readyOf === 'function' ? readyOf(g) : readyOf;
  const problems = [];
  // The phone in German, the desktop in English: both catalogues on every page.
  for (const [width, viewport, locale] of [['phone', PHONE, 'de-DE'], ['desktop', DESKTOP, 'en-GB']]) {
    const options = { viewport, locale, bypassCSP: true };
    const page = who ? await loggedInPage(browser, who, options) : await newPage(browser, options);
    await page.goto(route(g));
    await page.locator(ready).first().waitFor({ state: 'attached' }).catch(async () => {
      const main = await page.locator('main').innerText().catch(() => '');
      await screenshot(page, `${name}-${width}-broken`);
      const errors = page.errors.length ? `; script errors: ${page.errors.join('; ')}` : '';
      throw new Error(`${name} (${route(g)}, ${width}): ${ready} never shown; <main> says ${JSON.stringify(main.slice(0, 200))}${errors}`);
    });
    // Fonts, the board's SVGs, the stream's first state.
    await page.waitForLoadState('load');
    await page.waitForTimeout(300);
    const lang = await page.evaluate(() => document.documentElement.lang);
    if (lang !== locale.slice(0, 2)) problems.push(`${width}: <html lang="${lang}"> in a ${locale} browser`);
    const file = await screenshot(page, `${name}-${width}`);
    // Nothing wider than the screen on a phone.
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    if (overflow > 1) problems.push(`${width}: the page is ${overflow}px wider than the ${viewport.width}px screen (${file})`);
    await page.addScriptTag({ path: AXE });
    const result = await page.evaluate(() => window.axe.run(document, { resultTypes: ['violations'] }));
    const bad = result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    if (bad.length) problems.push(`${width}: axe-core: ${bad.length} serious/critical violation(s):\n${describe(bad)}`);
    const minor = result.violations.filter((v) => !bad.includes(v));
    if (minor.length) console.log(`      note: ${name} ${width}: axe-core (minor/moderate): ${minor.map((v) => `${v.id} (${v.nodes.length})`).join(', ')}`);
    if (page.errors.length) problems.push(`${width}: script errors: ${page.errors.join('; ')}`);
    await page.context().close();
  }
  assert(!problems.length, `${name} (${route(g)}):\n${problems.join('\n')}`);
}

export const tests = PAGES.map((p) => [`${p[0]} page: screenshots at 360 and 1280 px, no serious axe-core violations`, (browser) => check(browser, p)]);
