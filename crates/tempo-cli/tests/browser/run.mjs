// The browser suite: each test file's tests in order against a running
// `tempo serve` (BASE_URL). crates/tempo-cli/tests/browser.rs starts the
// server and this script; by hand:
//   BASE_URL=http://127.0.0.1:8080 ACCOUNTS=anna:pw:player,… node run.mjs [filter]
// Exit status 1 when a test fails.

import { readdirSync, unlinkSync } from 'node:fs';
import path from 'node:path';
import { launch, SCREENSHOT_DIR } from './lib.mjs';

const FILES = ['login.mjs', 'play.mjs', 'board.mjs', 'record.mjs', 'arbiter.mjs', 'tournament.mjs', 'evening.mjs', 'printouts.mjs', 'pages.mjs', 'gamepage.mjs', 'lobby.mjs', 'shell.mjs', 'fixes.mjs', 'mail.mjs', 'ratings.mjs', 'tournament-ratings.mjs', 'logcheck.mjs', 'tables.mjs'];
const TEST_LIMIT = 90_000;
const filter = process.argv[2] || '';

// A whole run starts with an empty screenshot directory (no stale failures).
if (!filter) {
  for (const name of readdirSync(SCREENSHOT_DIR)) if (name.endsWith('.png')) unlinkSync(path.join(SCREENSHOT_DIR, name));
}

const started = Date.now();
const browser = await launch();
// Whatever happens, the browser does not outlive the suite.
const watchdog = setTimeout(async () => {
  console.error('browser suite: overall time limit reached');
  await browser.close().catch(() => {});
  process.exit(2);
}, 900_000);

const failures = [];
let passed = 0;
for (const file of FILES) {
  const module = await import('./' + file);
  for (const [name, test] of module.tests) {
    const full = `${file.replace('.mjs', '')}: ${name}`;
    if (filter && !full.includes(filter)) continue;
    const t0 = Date.now();
    let timer;
    try {
      await Promise.race([
        test(browser),
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(new Error(`timed out after ${TEST_LIMIT / 1000} s`)), TEST_LIMIT);
        }),
      ]);
      passed += 1;
      console.log(`ok    ${full} (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
    } catch (err) {
      failures.push([full, err]);
      // What each page showed when it failed.
      let n = 0;
      for (const context of browser.contexts()) {
        for (const page of context.pages()) {
          n += 1;
          const shot = path.join(SCREENSHOT_DIR, `FAILED-${file.replace('.mjs', '')}-${failures.length}-${n}.png`);
          await page.screenshot({ path: shot, fullPage: true, timeout: 5000 }).catch(() => {});
        }
      }
      console.log(`FAIL  ${full} (${((Date.now() - t0) / 1000).toFixed(1)} s)\n      ${String(err.stack || err).split('\n').slice(0, 6).join('\n      ')}`);
    } finally {
      clearTimeout(timer);
    }
    // A test's pages are its own: close the contexts it left open.
    for (const context of browser.contexts()) await context.close().catch(() => {});
  }
}
clearTimeout(watchdog);
await browser.close();
const seconds = ((Date.now() - started) / 1000).toFixed(1);
console.log(`\nbrowser suite: ${passed} passed, ${failures.length} failed in ${seconds} s`);
console.log(`screenshots: ${SCREENSHOT_DIR}`);
for (const [name, err] of failures) console.log(`failed: ${name}: ${err.message}`);
process.exit(failures.length ? 1 : 0);
