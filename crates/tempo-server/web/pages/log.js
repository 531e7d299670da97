// A game's log: every entry with its arrival time, checked here in the
// browser, so nobody need trust the page's server for it: the hash chain
// (crates/tempo-host/src/chain.rs), every reveal against its commitment
// (commit.rs), and the server's Ed25519 signature on the head. Nothing
// here needs a secure context: over plain HTTP on a club's network the
// browser has no crypto.subtle, so SHA-256 falls back to sha256.js and the
// signature is always checked by ed25519.js (one path everywhere, a few
// milliseconds).

import { t, addCatalogue, lang, hasKey } from '../i18n.js';
import { apiError, get } from '../api.js';
import { h } from '../dom.js';
import { sha256, hasWebCrypto } from '../sha256.js';
import { verify } from '../ed25519.js';
import catalogue from '../i18n/log.js';

addCatalogue(catalogue);

const encoder = new TextEncoder();

export function hexToBytes(hex) {
  if (typeof hex !== 'string' || hex.length % 2 || /[^0-9a-f]/i.test(hex)) return null;
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}

export function bytesToHex(bytes) {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

function concat(...parts) {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

function u64(n) {
  const b = new Uint8Array(8);
  new DataView(b.buffer).setBigUint64(0, BigInt(n));
  return b;
}

function u32(n) {
  const b = new Uint8Array(4);
  new DataView(b.buffer).setUint32(0, n);
  return b;
}

// Keys sorted at every level, as serde_json writes a Value's maps.
function sorted(value) {
  if (Array.isArray(value)) return value.map(sorted);
  if (value && typeof value === 'object') {
    const out = {};
    for (const k of Object.keys(value).sort()) out[k] = sorted(value[k]);
    return out;
  }
  return value;
}

// The canonical bytes: the entry without seq, prev, hash, signature.
export function canonical(entry) {
  const content = { ...entry };
  for (const k of ['seq', 'prev', 'hash', 'signature']) delete content[k];
  return encoder.encode(JSON.stringify(sorted(content)));
}

export async function entryHash(prev, seq, entry) {
  return sha256(concat(prev, u64(seq), canonical(entry)));
}

export async function commitment(game, step, color, choice, nonce) {
  const letter = color === 'white' ? 'w' : 'b';
  return bytesToHex(await sha256(concat(encoder.encode('tempo-commit-v1' + game), u32(step), encoder.encode(letter + choice), nonce)));
}

// Checks the entries in order; returns {rows: [status per entry],
// failure: {seq, reason} | null, game, head: {seq, hash}}.
export async function verifyEntries(entries, expectedGame) {
  let prev = new Uint8Array(32);
  let game = '';
  const open = [];
  const rows = [];
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i];
    const fail = (reason, vars = {}) => {
      rows.push('failed');
      return { rows, failure: { seq: e.seq ?? i, line: i + 1, reason, vars }, game };
    };
    if (e.seq !== i) return fail('log.fail.seq', { expected: i });
    if (e.prev !== bytesToHex(prev)) return fail('log.fail.prev');
    const hash = await entryHash(prev, e.seq, e);
    if (e.hash !== bytesToHex(hash)) return fail('log.fail.hash');
    if (i === 0) {
      game = e.id || '';
      if (e.type !== 'gameCreated') return fail('log.fail.header');
      if (expectedGame && game !== expectedGame) return fail('log.fail.game', { game });
    }
    if (e.type === 'committed') open.push({ step: e.step, color: e.color, commitment: e.commitment });
    if (e.type === 'reveal') {
      for (const c of open.splice(0)) {
        if (c.step !== e.step) continue;
        const revealed = e[c.color];
        const nonce = hexToBytes(revealed?.nonce);
        const ok = revealed && typeof revealed.choice === 'string' && nonce && nonce.length === 32
          && (await commitment(game, e.step, c.color, revealed.choice, nonce)) === c.commitment;
        if (!ok) return fail('log.fail.commitment', { color: t('color.' + c.color) });
      }
    }
    prev = hash;
    rows.push('ok');
  }
  return { rows, failure: null, game, head: entries.length ? { seq: entries.length - 1, hash: prev } : null };
}

// The server's signature on the head: ed25519 over
// "tempo-head-v1" ‖ game id ‖ seq (8 bytes BE) ‖ head hash.
// → 'ok' | 'failed' | 'missing'
export function verifySignature(keyHex, game, head, signatureHex) {
  if (!signatureHex) return 'missing';
  const key = hexToBytes(keyHex);
  const signature = hexToBytes(signatureHex);
  if (!key || key.length !== 32 || !signature || signature.length !== 64) return 'failed';
  const message = concat(encoder.encode('tempo-head-v1' + game), u64(head.seq), head.hash);
  return verify(key, message, signature) ? 'ok' : 'failed';
}

function short(hex) {
  return typeof hex === 'string' ? hex.slice(0, 12) : '';
}

const timeFormat = () => new Intl.DateTimeFormat(lang(), {
  year: 'numeric', month: '2-digit', day: '2-digit',
  hour: '2-digit', minute: '2-digit', second: '2-digit', fractionalSecondDigits: 3,
});

function clockText(millis) {
  const sign = millis < 0 ? '−' : '';
  const s = Math.floor(Math.abs(millis) / 1000);
  const ms = Math.abs(millis) % 1000;
  const text = `${Math.floor(s / 3600)}:${String(Math.floor(s / 60) % 60).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`;
  return sign + text + (ms ? '.' + String(ms).padStart(3, '0') : '');
}

function actionText(a) {
  const color = (c) => t('color.' + c);
  switch (a?.kind) {
    case 'setClock': return t('log.action.setClock', { color: color(a.color), time: clockText(a.millis) });
    case 'addTime': return t('log.action.addTime', { color: color(a.color), time: clockText(a.millis) });
    case 'penalty': return t('log.action.penalty', { color: color(a.offender) });
    case 'restore': return t('log.action.restore', { step: a.step, clock: t('log.clock.' + a.clock) });
    case 'setResult': return t('log.action.setResult', { result: a.result });
    case 'pause': case 'resume': return t('log.action.' + a.kind);
    default: return JSON.stringify(a);
  }
}

export function summary(e) {
  const color = (c) => t('color.' + c);
  switch (e.type) {
    case 'gameCreated':
      return t('log.created', { white: e.white, black: e.black, variant: t('variant.' + e.variant), clock: e.clock || t('time.untimed') });
    case 'committed':
      return t('log.committed', { color: color(e.color), step: e.step, commitment: short(e.commitment) });
    case 'reveal':
      return t('log.reveal', { white: e.white?.choice ?? '–', black: e.black?.choice ?? '–', record: e.record });
    case 'move':
      return t('log.move', { color: color(e.color), san: e.san, uci: e.uci });
    case 'drawOffer':
      return t('log.drawOffer', { color: color(e.color) });
    case 'drawDecline':
      return t('log.drawDecline', { color: color(e.color) });
    case 'end':
      return t('log.end', { result: e.result, reason: e.reason });
    case 'arbiter':
      return t('log.arbiter', { arbiter: e.arbiter, action: actionText(e.action), reason: e.reason });
    default:
      return JSON.stringify(e);
  }
}

// Parses NDJSON text → {entries} or {error line}.
function parse(text) {
  const lines = text.split('\n').filter((l) => l.trim());
  const entries = [];
  for (let i = 0; i < lines.length; i++) {
    try {
      const value = JSON.parse(lines[i]);
      if (!value || typeof value !== 'object' || Array.isArray(value)) throw new Error('not an object');
      entries.push(value);
    } catch {
      return { entries, badLine: i + 1 };
    }
  }
  return { entries, badLine: null };
}

function fail(verdict, text, { seq, line } = {}) {
  verdict.dataset.verify = 'failed';
  if (seq !== undefined) verdict.dataset.seq = String(seq);
  if (line !== undefined) verdict.dataset.line = String(line);
  verdict.textContent = text;
}

// Checks a log's entries and writes the verdict into `verdict`; returns
// each entry's status ('ok' | 'failed'; missing: not reached).
async function check(entries, expectedGame, verdict) {
  verdict.dataset.verify = 'running';
  verdict.textContent = t('log.running');
  if (!entries.length) {
    fail(verdict, t('log.fail.empty'));
    return [];
  }
  const result = await verifyEntries(entries, expectedGame);
  if (result.failure) {
    const f = result.failure;
    fail(verdict, t('log.failed', { line: f.line, seq: f.seq, reason: t(f.reason, f.vars) }), f);
    return result.rows;
  }
  let signature;
  try {
    const { key } = await get('/api/server-key');
    signature = verifySignature(key, result.game, result.head, entries[entries.length - 1].signature);
  } catch {
    signature = 'nokey';
  }
  verdict.dataset.signature = signature;
  const count = entries.length;
  if (signature === 'failed' || signature === 'missing') {
    const where = { line: count, seq: result.head.seq };
    fail(verdict, t(signature === 'failed' ? 'log.fail.signature' : 'log.fail.noSignature', where), where);
    result.rows[count - 1] = 'failed';
    return result.rows;
  }
  verdict.dataset.verify = 'ok';
  const parts = [t('log.ok', { count, head: short(bytesToHex(result.head.hash)) })];
  if (signature === 'ok') parts.push(t('log.signatureOk'));
  else parts.push(t('log.signatureNoKey'));
  if (!hasWebCrypto()) parts.push(t('log.noWebCrypto'));
  verdict.textContent = parts.join(' ');
  return result.rows;
}

// A log saved earlier, checked against the same rules and the server's key.
function savedLogForm() {
  const verdict = h('p', { class: 'verdict', role: 'status', dataset: { verifyFile: '' } });
  verdict.hidden = true;
  const input = h('input', { type: 'file', name: 'saved-log', accept: '.ndjson,.json,.txt,application/x-ndjson,text/plain' });
  input.addEventListener('change', async () => {
    const file = input.files && input.files[0];
    if (!file) return;
    verdict.hidden = false;
    const { entries, badLine } = parse(await file.text());
    if (badLine) fail(verdict, t('log.fail.json', { line: badLine }), { line: badLine });
    else await check(entries, null, verdict);
  });
  return h('section', { class: 'card' }, h('h2', {}, t('log.saved')), h('p', { class: 'hint' }, t('log.saved.hint')),
    h('label', { class: 'field' }, h('span', {}, t('log.saved.file')), input), verdict);
}

export async function render(main, [id]) {
  main.append(h('h1', {}, t('log.title', { id })));
  main.append(h('p', {}, t('log.why')));
  const address = `/api/game/${encodeURIComponent(id)}/log`;
  const verdict = h('p', { class: 'verdict', role: 'status', dataset: { verify: 'running' } }, t('log.running'));
  const links = h('p', { class: 'actions' },
    h('a', { href: address, download: `tempo-${id}.ndjson`, dataset: { action: 'download-log' } }, t('log.download')),
    h('a', { href: '/game/' + id, dataset: { link: '' } }, t('log.toGame')),
    h('a', { href: '/archive', dataset: { link: '' } }, t('log.toArchive')));
  main.append(verdict, links);
  const r = await fetch(address, { credentials: 'same-origin' });
  if (!r.ok) {
    const body = await r.json().catch(() => ({}));
    verdict.remove();
    throw new Error(t('error.generic', { reason: apiError(r, body).message }));
  }
  const { entries, badLine } = parse(await r.text());
  if (badLine) {
    fail(verdict, t('log.fail.json', { line: badLine }), { line: badLine });
    return;
  }
  const fmt = timeFormat();
  const rowsEl = entries.map((e) => {
    const at = new Date(e.at);
    const label = (k) => ({ label: t('log.col.' + k) });
    return h('tr', { dataset: { seq: String(e.seq) } },
      h('td', { dataset: label('seq') }, h('span', { class: 'mono' }, String(e.seq))),
      h('td', { dataset: label('at') }, h('time', { class: 'mono', datetime: e.at, title: e.at }, isNaN(at) ? String(e.at) : fmt.format(at))),
      h('td', { dataset: label('type') }, hasKey('log.type.' + e.type) ? t('log.type.' + e.type) : String(e.type)),
      h('td', { dataset: label('summary') }, summary(e)),
      h('td', { dataset: label('hash'), title: e.hash }, h('span', { class: 'mono' }, short(e.hash))),
      h('td', { class: 'check', dataset: label('check') }, '…'),
    );
  });
  const table = h('table', { class: 'log-table stack' },
    h('caption', { class: 'hint' }, t('log.caption', { count: entries.length })),
    h('thead', {}, h('tr', {}, ['seq', 'at', 'type', 'summary', 'hash', 'check'].map((k) => h('th', { scope: 'col' }, t('log.col.' + k))))),
    h('tbody', {}, rowsEl));
  main.append(h('div', { class: 'card scroll' }, table), savedLogForm());
  const rows = await check(entries, id, verdict);
  rowsEl.forEach((row, i) => {
    const status = rows[i];
    const cell = row.querySelector('.check');
    cell.textContent = status === 'ok' ? '✓' : status === 'failed' ? '✗' : '–';
    cell.setAttribute('aria-label', t(status === 'ok' ? 'log.rowOk' : status === 'failed' ? 'log.rowFailed' : 'log.rowUnchecked'));
    if (status === 'failed') row.classList.add('bad');
  });
}
