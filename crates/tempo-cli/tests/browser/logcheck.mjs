// The log check without WebCrypto and the record's downloads:
// - ed25519.js and sha512.js run in the page: RFC 8032 §7.1's vectors
//   verify, every altered signature, message, key or encoding fails, and a
//   verify takes a few milliseconds even with the CPU slowed to a phone's;
// - a finished Fairschach game's downloads (game-downloads.js) are right:
//   the PGN, the sources' notation and the digit code replay in `tempo sync
//   replay` to the game's position, the notation has one line per pair as
//   the game's record, the digit code names the moves played, and the log
//   verifies (`tempo log verify` and the page's own check).
// lan.mjs runs the same checks in a page on a LAN address (no secure
// context there).

import { createHash, createPrivateKey, createPublicKey, sign } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  apiAs, apiGame, assert, assertEqual, BASE_URL, loggedInPage, newPage, PHONE, screenshot, TEMPO_BIN,
} from './lib.mjs';
import { RFC8032, SEEDS } from './ed25519-vectors.mjs';

const hexOf = (bytes) => Buffer.from(bytes).toString('hex');

// The vectors themselves, against Node's own Ed25519 (OpenSSL): each seed
// gives the key and, signing the message, the signature written down.
function checkVectorsInNode() {
  for (const v of RFC8032) {
    const der = Buffer.concat([Buffer.from('302e020100300506032b657004220420', 'hex'), Buffer.from(SEEDS[v.name], 'hex')]);
    const secret = createPrivateKey({ key: der, format: 'der', type: 'pkcs8' });
    const key = createPublicKey(secret).export({ format: 'der', type: 'spki' }).subarray(-32).toString('hex');
    assertEqual(key, v.key, `${v.name}: the public key of its seed`);
    assertEqual(sign(null, Buffer.from(v.message, 'hex'), secret).toString('hex'), v.signature, `${v.name}: the signature`);
  }
}

// SHA-512 inputs (FIPS 180-4's examples and the padding's edges), with
// their digests from Node's crypto.
const SHA512_INPUTS = [
  '',
  'abc',
  'abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq',
  'abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu',
  'a'.repeat(111),
  'a'.repeat(112),
  'a'.repeat(1000),
];

// Runs in the page: imports the app's own modules and returns what they
// say. Every negative case must be refused.
async function inPage({ vectors, sha }) {
  const { verify, decodePoint } = await import('/assets/ed25519.js');
  const { sha512 } = await import('/assets/sha512.js');
  const bytes = (hex) => Uint8Array.from(hex.match(/../g) || [], (b) => parseInt(b, 16));
  const hex = (b) => Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
  const L = (1n << 252n) + 27742317777372353535851937790883648493n;
  const P = (1n << 255n) - 19n;
  const le = (n) => {
    const out = new Uint8Array(32);
    for (let i = 0; i < 32; i++, n >>= 8n) out[i] = Number(n & 0xffn);
    return out;
  };
  const fromLe = (b) => b.reduceRight((n, x) => (n << 8n) | BigInt(x), 0n);
  const flip = (b, i, bit = 1) => {
    const c = b.slice();
    c[i] ^= bit;
    return c;
  };
  const out = { sha: [], valid: [], refused: [] };
  for (const [text, want] of sha) out.sha.push([text.slice(0, 20), hex(sha512(new TextEncoder().encode(text))) === want]);
  for (const v of vectors) {
    const key = bytes(v.key);
    const message = bytes(v.message);
    const signature = bytes(v.signature);
    out.valid.push([v.name, verify(key, message, signature)]);
    const s = fromLe(signature.subarray(32));
    const withS = (n) => {
      const c = signature.slice();
      c.set(le(n), 32);
      return c;
    };
    const cases = {
      'a bit of the message': [key, message.length ? flip(message, 0) : new Uint8Array([0]), signature],
      'the last bit of the message': [key, message.length ? flip(message, message.length - 1, 0x80) : new Uint8Array([1]), signature],
      'a bit of R': [key, message, flip(signature, 0)],
      'a bit of S': [key, message, flip(signature, 40)],
      'a bit of the key': [key.length ? flip(key, 5) : key, message, signature],
      'S + L (the same point, S not canonical)': [key, message, withS(s + L)],
      'S = L': [key, message, withS(L)],
      'R not on the curve (y = 2)': [key, message, (() => { const c = signature.slice(); c.set(le(2n)); return c; })()],
      'the key not on the curve (y = 2)': [le(2n), message, signature],
      'the key with y ≥ p (p + 3)': [le(P + 3n), message, signature],
      'the key x = 0 with the sign bit set': [(() => { const c = le(1n); c[31] |= 0x80; return c; })(), message, signature],
      'a signature of 63 bytes': [key, message, signature.subarray(0, 63)],
      'a signature of 65 bytes': [key, message, new Uint8Array([...signature, 0])],
      'a key of 31 bytes': [key.subarray(0, 31), message, signature],
    };
    for (const [name, args] of Object.entries(cases)) {
      let answer;
      try {
        answer = verify(...args);
      } catch (err) {
        answer = `threw ${err}`;
      }
      out.refused.push([`${v.name}: ${name}`, answer === false]);
    }
  }
  // Decoding itself (§5.1.3), where a wrong key would hide a lax decoder:
  // y = 3 is on the curve, p + 3 is the same y written non-canonically;
  // y = 2 has no x; y = 1 has x = 0, which has no negative.
  const negativeZero = le(1n);
  negativeZero[31] |= 0x80;
  out.decodes = {
    'y = 3 decodes': decodePoint(le(3n)) !== null,
    'a key decodes': decodePoint(bytes(vectors[0].key)) !== null,
    'y = p + 3 is refused': decodePoint(le(P + 3n)) === null,
    'y = 2 is refused': decodePoint(le(2n)) === null,
    'x = 0 with the sign bit is refused': decodePoint(negativeZero) === null,
    '31 bytes are refused': decodePoint(new Uint8Array(31)) === null,
  };
  // Time for one verify of a log head's size (the RFC's TEST 3 message
  // length is the order of a head: ~100 bytes), the median of 15.
  const v = vectors[2];
  const times = [];
  for (let i = 0; i < 15; i++) {
    const t0 = performance.now();
    verify(bytes(v.key), bytes(v.message), bytes(v.signature));
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  out.medianMs = times[7];
  out.secure = window.isSecureContext;
  out.subtle = typeof crypto !== 'undefined' && !!crypto.subtle;
  return out;
}

// Runs the vectors and the negative cases in `page` (at any page of the
// app), once at full speed and once with the CPU slowed `throttle` times
// (Chromium's emulation, as a phone-class CPU); returns the two medians
// and whether the page was a secure context.
export async function ed25519InPage(page, throttle = 4) {
  checkVectorsInNode();
  const sha = SHA512_INPUTS.map((text) => [text, createHash('sha512').update(text).digest('hex')]);
  const result = await page.evaluate(inPage, { vectors: RFC8032, sha });
  for (const [name, ok] of result.sha) assert(ok, `SHA-512 of "${name}…" as Node's`);
  assertEqual(result.valid.length, 5, 'five RFC 8032 vectors');
  for (const [name, ok] of result.valid) assert(ok, `${name} verifies`);
  const wrong = result.refused.filter(([, ok]) => !ok).map(([name]) => name);
  assert(wrong.length === 0, `accepted or threw: ${wrong.join('; ')}`);
  for (const [what, ok] of Object.entries(result.decodes)) assert(ok, `point decoding: ${what}`);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: throttle });
  const slow = await page.evaluate(inPage, { vectors: RFC8032, sha });
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
  return { fast: result.medianMs, slow: slow.medianMs, secure: result.secure, subtle: result.subtle, cases: result.refused.length };
}

const run = (args, input) => execFileSync(TEMPO_BIN, args, { encoding: 'utf8', input });

// A finished Fairschach game with the FSR 9 pauses marked: three pairs,
// then White resigns. Its id and final state (as /api/game/{id} gives it).
export const PAIRS = [['e2e4', 'd7d5'], ['g1f3', 'b8c6'], ['f1b5', 'c8d7']];
export async function finishedFairschach() {
  const id = await apiGame('anna', 'ben', { variant: 'fairschach', clock: '600+5' });
  const anna = await apiAs('anna');
  const ben = await apiAs('ben');
  for (const [w, b] of PAIRS) {
    await anna.post(`/api/board/game/${id}/move/${w}`);
    await ben.post(`/api/board/game/${id}/move/${b}`);
  }
  await anna.post(`/api/board/game/${id}/resign`);
  const game = await anna.get(`/api/game/${id}`);
  assertEqual(game.state.status, 'resign', 'the game is over');
  return { id, state: game.state };
}

// The ICCF digits of a UCI move (a=1 … h=8).
const iccf = (uci) => uci.slice(0, 4).replace(/[a-h]/g, (f) => String('abcdefgh'.indexOf(f) + 1));
const PIECE = { P: 6, N: 5, B: 4, R: 3, Q: 2, K: 1 };

// Checks each download the page offers for finished game `id`.
async function checkDownloads(page, { id, state }) {
  const links = await page.locator('[data-download]').evaluateAll((as) => as.map((a) => ({
    kind: a.dataset.download, href: a.getAttribute('href'), file: a.getAttribute('download'), tag: a.tagName,
  })));
  assertEqual(links.map((l) => l.kind).join(' '), 'pgn sources digits log', 'the four downloads in order');
  for (const l of links) assert(l.tag === 'A' && l.file, `${l.kind}: a link with a file name (${JSON.stringify(l)})`);
  const check = page.locator('[data-action="check-log"]');
  assertEqual(await check.getAttribute('href'), `/log/${id}`, 'the link to check the log');
  const text = {};
  for (const l of links) {
    text[l.kind] = await page.evaluate(async (href) => {
      const r = await fetch(href);
      return r.ok ? r.text() : `HTTP ${r.status}`;
    }, l.href);
  }
  const dir = mkdtempSync(path.join(tmpdir(), 'tempo-downloads-'));
  const file = (name, body) => {
    const p = path.join(dir, name);
    writeFileSync(p, body);
    return p;
  };
  const replay = (name, extra = []) => JSON.parse(run(['sync', 'replay', '--variant', 'fairschach', ...extra, file(name, text[name])]));

  // PGN: tags, the record, and `tempo sync replay` reaches the game's position.
  assert(text.pgn.startsWith('[Event '), `a PGN: ${text.pgn.slice(0, 80)}`);
  assert(/\[Result "0-1"\]/.test(text.pgn), 'the PGN has the result');
  assertEqual(replay('pgn').fen, state.fen, 'the PGN replays to the game\'s position');

  // The sources' notation: one line per pair, the record as the game has it.
  const lines = (t) => t.split('\n').filter((l) => l.trim() && !l.startsWith('#'));
  const notation = lines(text.sources);
  assertEqual(notation.length, PAIRS.length, `one line per pair: ${JSON.stringify(notation)}`);
  assertEqual(notation.join('\n'), state.record.join('\n'), 'the lines are the game\'s record');
  for (const [i, line] of notation.entries()) assert(new RegExp(`^${i + 1}\\. \\S+ \\S+`).test(line), `both moves of pair ${i + 1} on its line: ${line}`);
  assert(/\{[^}]*paused white e4[^}]*\}/.test(notation[0]), `a special case marked: ${notation[0]}`);
  assert(text.sources.includes(`# tempo game ${id}: anna – ben`), 'the file names the game');
  assertEqual(replay('sources').fen, state.fen, 'the notation replays to the game\'s position');

  // The digit code: each pair's moves as piece digit + ICCF, and it replays.
  const digits = lines(text.digits);
  assertEqual(digits.length, PAIRS.length, `one line per pair: ${JSON.stringify(digits)}`);
  const start = { e2: 'P', d7: 'P', g1: 'N', b8: 'N', f1: 'B', c8: 'B' };
  digits.forEach((line, i) => {
    const [n, w, b] = line.split(' ');
    assertEqual(n, String(i + 1), 'the pair number');
    const code = (uci) => `${PIECE[start[uci.slice(0, 2)]]}${iccf(uci)}`;
    assertEqual(w.replace(/\/\d$/, ''), code(PAIRS[i][0]), `White's move of pair ${i + 1}`);
    assertEqual(b.replace(/\/\d$/, ''), code(PAIRS[i][1]), `Black's move of pair ${i + 1}`);
  });
  assertEqual(replay('digits', ['--digits']).fen, state.fen, 'the digit code replays to the game\'s position');

  // The signed log: `tempo log verify` with the server's key.
  const key = await (await apiAs('anna')).get('/api/server-key');
  const verdict = run(['log', 'verify', file('log', text.log), '--key', key.key]);
  assert(/signature valid/.test(verdict), `tempo log verify: ${verdict}`);
  return text;
}

// Loads `log` (NDJSON text) into the log page's "check a saved log" form;
// the verdict element's dataset once the check has run.
export async function checkSavedLog(page, log) {
  // A verdict left from a file before is no answer about this one.
  await page.evaluate(() => { const v = document.querySelector('[data-verify-file]'); if (v) v.dataset.verify = ''; });
  await page.locator('input[name="saved-log"]').setInputFiles({ name: 'game.ndjson', mimeType: 'application/x-ndjson', buffer: Buffer.from(log) });
  const verdict = page.locator('[data-verify-file]');
  await page.waitForFunction(() => ['ok', 'failed'].includes(document.querySelector('[data-verify-file]')?.dataset.verify));
  return verdict.evaluate((el) => ({ ...el.dataset, text: el.textContent }));
}

export const tests = [
  [
    'Ed25519 in the page: RFC 8032 §7.1 verifies, altered signatures and bad encodings are refused, a verify is fast',
    async (browser) => {
      const page = await newPage(browser);
      await page.goto('/rules');
      await page.locator('main h1').waitFor();
      const r = await ed25519InPage(page);
      console.log(`      note: ed25519.js verify: ${r.fast.toFixed(1)} ms, ${r.slow.toFixed(1)} ms with the CPU 4× slower (${r.cases} refusals checked)`);
      assert(r.slow < 100, `a verify with the CPU 4× slower: ${r.slow.toFixed(1)} ms`);
      assertEqual(page.errors.length, 0, `no page errors: ${page.errors.join('; ')}`);
    },
  ],
  [
    'the downloads of a finished Fairschach game: PGN, notation (a line a pair), digit code and the signed log are right',
    async (browser) => {
      const game = await finishedFairschach();
      const page = await loggedInPage(browser, 'anna');
      await page.goto(`/game/${game.id}`);
      await page.locator('[data-downloads] [data-download="log"]').waitFor();
      const text = await checkDownloads(page, game);
      assert((await page.locator('[data-downloads]').innerText()).startsWith('Download:'), 'labelled in English');
      await screenshot(page, 'downloads-game-desktop');
      // The saved log, checked by the log page itself, then one altered.
      await page.click('[data-action="check-log"]');
      await page.waitForSelector('[data-verify="ok"][data-signature="ok"]');
      const ok = await checkSavedLog(page, text.log);
      assertEqual(ok.verify, 'ok', `the downloaded log verifies: ${ok.text}`);
      assertEqual(ok.signature, 'ok', 'with the server\'s signature');
      // German, on a phone: the same hooks, the German labels.
      const german = await loggedInPage(browser, 'ben', { viewport: PHONE, locale: 'de-DE' });
      await german.goto(`/game/${game.id}`);
      await german.locator('[data-downloads] [data-download="digits"]').waitFor();
      assert((await german.locator('[data-downloads]').innerText()).includes('Herunterladen:'), 'labelled in German');
      assertEqual(await german.locator('[data-download="digits"]').innerText(), 'Zifferncode', 'the digit code in German');
      await screenshot(german, 'downloads-game-phone-de');
      assertEqual(page.errors.length + german.errors.length, 0, `no page errors: ${[...page.errors, ...german.errors].join('; ')}`);
    },
  ],
  [
    'GET /api/game/{id}/record: an unknown format is a 400, an orthodox game pairs its moves',
    async () => {
      const anna = await apiAs('anna');
      const ben = await apiAs('ben');
      const id = await apiGame('anna', 'ben', { variant: 'standard' });
      for (const [who, uci] of [[anna, 'e2e4'], [ben, 'e7e5'], [anna, 'e1e2']]) await who.post(`/api/board/game/${id}/move/${uci}`);
      const body = (format) => fetch(`${BASE_URL}/api/game/${id}/record?format=${format}`)
        .then(async (r) => [r.status, await r.text()]);
      const [status, sources] = await body('sources');
      assertEqual(status, 200, 'sources');
      assertEqual(sources.split('\n').filter((l) => l && !l.startsWith('#')).join(' | '), '1. e4 e5 | 2. Ke2', 'the SAN moves two to a line');
      const [, digits] = await body('digits');
      assertEqual(digits.split('\n').filter((l) => l && !l.startsWith('#')).join(' | '), '1. 5254 5755 | 2. 5152', 'ICCF two to a line');
      const [bad, text] = await body('uci');
      assertEqual(bad, 400, `an unknown format: ${text}`);
    },
  ],
];
