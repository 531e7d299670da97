// The club room: `tempo serve --listen 0.0.0.0:PORT`, and a browser at the
// machine's network address over plain HTTP (BASE_URL, set by
// crates/tempo-cli/tests/browser.rs, `lan_login_in_chromium`). There the
// page is no secure context: no Secure cookie, no crypto.subtle.
// - The session cookie must be one the browser keeps there: logging in
//   through the page shows the logged-in lobby, and a reload keeps the
//   session.
// - The log check works there all the same (ed25519.js, sha256.js): the
//   RFC 8032 vectors pass in the page, a finished game's log verifies with
//   the server's signature, and a log altered on the way (an entry changed,
//   or the chain rewritten to a new result under the old signature) or
//   saved with a flipped signature bit fails.
// Exit status 1 when a check fails.

import { createHash } from 'node:crypto';
import { assert, assertEqual, BASE_URL, launch, login, newPage, screenshot } from './lib.mjs';
import { checkSavedLog, ed25519InPage, finishedFairschach } from './logcheck.mjs';

const started = Date.now();
const browser = await launch();
let failed = false;

// Runs check `name` (an async function), printing ok or FAIL.
async function check(name, body) {
  const t0 = Date.now();
  try {
    await body();
    console.log(`ok    lan: ${name} (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
  } catch (err) {
    failed = true;
    console.log(`FAIL  lan: ${name}\n      ${String(err.stack || err).split('\n').slice(0, 6).join('\n      ')}`);
  }
}

// A log's entries rewritten from entry `from` on, each hash computed again
// as the server does (SHA-256 of prev ‖ seq as 8 bytes ‖ the canonical
// JSON: keys sorted, without seq, prev, hash, signature), the signature
// left as it was: a chain that holds, but not the one the server signed.
function rechain(entries, from) {
  const sorted = (v) => (Array.isArray(v) ? v.map(sorted) : v && typeof v === 'object'
    ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, sorted(v[k])])) : v);
  for (let i = from; i < entries.length; i++) {
    const e = entries[i];
    e.prev = entries[i - 1].hash;
    const content = { ...e };
    for (const k of ['seq', 'prev', 'hash', 'signature']) delete content[k];
    const seq = Buffer.alloc(8);
    seq.writeBigUInt64BE(BigInt(e.seq));
    e.hash = createHash('sha256').update(Buffer.from(e.prev, 'hex')).update(seq).update(JSON.stringify(sorted(content))).digest('hex');
  }
  return entries;
}

const ndjson = (entries) => entries.map((e) => JSON.stringify(e)).join('\n') + '\n';

try {
  let page;
  await check(`login at ${BASE_URL} over plain HTTP`, async () => {
    page = await newPage(browser);
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
  });

  await check('Ed25519 (RFC 8032 §7.1 and the refusals) in a page without a secure context', async () => {
    const plain = await newPage(browser);
    await plain.goto('/rules');
    await plain.locator('main h1').waitFor();
    const r = await ed25519InPage(plain);
    assert(!r.secure && !r.subtle, `the page at ${BASE_URL} is no secure context and has no crypto.subtle (secure ${r.secure}, subtle ${r.subtle})`);
    console.log(`      note: ed25519.js verify at ${BASE_URL}: ${r.fast.toFixed(1)} ms, ${r.slow.toFixed(1)} ms with the CPU 4× slower`);
    assert(plain.errors.length === 0, `page errors: ${plain.errors.join('; ')}`);
  });

  await check('the log check over plain HTTP: a game\'s log verifies with the signature, altered logs fail', async () => {
    const { id } = await finishedFairschach();
    const logPage = await newPage(browser);
    await logPage.goto(`/log/${id}`);
    const verdict = logPage.locator('main [data-verify]:not([data-verify-file])');
    await logPage.waitForSelector('main [data-verify="ok"]:not([data-verify-file])');
    assertEqual(await verdict.getAttribute('data-signature'), 'ok', `the server's signature checked: ${await verdict.innerText()}`);
    assert((await verdict.innerText()).includes('WebCrypto'), 'the verdict says the page computed the hashes itself');
    await screenshot(logPage, 'lan-log-ok');
    const text = await logPage.evaluate(async (address) => (await fetch(address)).text(), `/api/game/${id}/log`);
    const entries = () => text.trim().split('\n').map((l) => JSON.parse(l));
    const last = entries().length - 1;

    // Served altered: a revealed choice changed (its hash no longer holds).
    const changed = entries();
    const reveal = changed.findIndex((e) => e.type === 'reveal');
    changed[reveal].white.choice = 'd2d4';
    // Served rewritten: the result turned round, every hash after it made
    // to fit; only the signature on the head tells.
    const rewritten = entries();
    const end = rewritten.findIndex((e) => e.type === 'end');
    assert(end > 0, 'the log has its end');
    rewritten[end].result = '1-0';
    rechain(rewritten, end);
    for (const [what, body, seq, signature] of [['a changed choice', ndjson(changed), reveal, undefined], ['a rewritten result', ndjson(rewritten), last, 'failed']]) {
      const served = await newPage(browser);
      await served.route(`**/api/game/${id}/log`, (route) => route.fulfill({ status: 200, contentType: 'application/x-ndjson', body }));
      await served.goto(`/log/${id}`);
      await served.waitForSelector('main [data-verify="failed"]:not([data-verify-file])');
      const got = await served.locator('main [data-verify]:not([data-verify-file])').evaluate((el) => ({ ...el.dataset, text: el.textContent }));
      assertEqual(got.seq, String(seq), `${what}: the entry named (${got.text})`);
      assertEqual(got.signature, signature, `${what}: the signature's verdict (${got.text})`);
      if (what === 'a rewritten result') await screenshot(served, 'lan-log-rewritten');
    }

    // Saved with a flipped bit in the signature, checked in the form.
    const flipped = entries();
    const sig = flipped[last].signature;
    flipped[last].signature = sig.slice(0, 10) + (parseInt(sig[10], 16) ^ 1).toString(16) + sig.slice(11);
    const saved = await checkSavedLog(logPage, ndjson(flipped));
    assertEqual(saved.verify, 'failed', `a flipped signature bit: ${saved.text}`);
    assertEqual(saved.signature, 'failed', 'the signature is what failed');
    assertEqual(saved.seq, String(last), 'at the head');
    const good = await checkSavedLog(logPage, text);
    assertEqual(good.verify, 'ok', `the log as served, saved: ${good.text}`);
    assert(logPage.errors.length === 0, `page errors: ${logPage.errors.join('; ')}`);
  });
} finally {
  await browser.close();
}
console.log(`lan: ${((Date.now() - started) / 1000).toFixed(1)} s`);
process.exit(failed ? 1 : 0);
