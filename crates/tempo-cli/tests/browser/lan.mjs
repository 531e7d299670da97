// The club room: `tempo serve --listen 0.0.0.0:PORT`, and a browser at the
// machine's network address over plain HTTP (BASE_URL, set by
// crates/tempo-cli/tests/browser.rs, `lan_login_in_chromium`). The session
// cookie must be one the browser keeps there: logging in through the page
// shows the logged-in lobby, and a reload keeps the session.
// Exit status 1 when it fails.

import { assert, BASE_URL, launch, login, newPage } from './lib.mjs';

const started = Date.now();
const browser = await launch();
let failed = false;
try {
  const page = await newPage(browser);
  await login(page, 'admin');
  const cookies = await page.context().cookies(BASE_URL);
  const session = cookies.find((c) => c.name === 'tempo_session');
  assert(session, `the browser kept no session cookie at ${BASE_URL}`);
  assert(!session.secure, 'a Secure cookie over plain HTTP');
  await page.reload();
  await page.waitForSelector('[data-user="admin"]');
  assert(!new URL(page.url()).pathname.startsWith('/login'), `after a reload: ${page.url()}`);
  // The session's CSRF token is the page's again: /api/session answers.
  const me = await page.evaluate(async () => (await fetch('/api/session')).status);
  assert(me === 200, `GET /api/session after the reload: ${me}`);
  assert(page.errors.length === 0, `page errors: ${page.errors.join('; ')}`);
  console.log(`ok    lan: login at ${BASE_URL} over plain HTTP (${((Date.now() - started) / 1000).toFixed(1)} s)`);
} catch (err) {
  failed = true;
  console.log(`FAIL  lan: login at ${BASE_URL}\n      ${String(err.stack || err).split('\n').slice(0, 6).join('\n      ')}`);
} finally {
  await browser.close();
}
process.exit(failed ? 1 : 0);
