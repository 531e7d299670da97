// Shared pieces of the browser suite: the configuration (from the Rust
// test's environment), the browser, logged-in contexts, a Node-side API
// client for setting games up, and a recorder of everything a page
// receives (for the hidden-move checks).

import { chromium } from 'playwright-core';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

export const BASE_URL = (process.env.BASE_URL || 'http://127.0.0.1:8080').replace(/\/$/, '');
export const SCREENSHOT_DIR = path.resolve(process.env.SCREENSHOT_DIR || 'screenshots');
export const TEMPO_BIN = process.env.TEMPO_BIN || 'tempo';
export const ADMIN_PASSWORD = process.env.ADMIN_PASSWORD || '';
export const PHONE = { width: 360, height: 740 };
export const DESKTOP = { width: 1280, height: 900 };

// ACCOUNTS="anna:pw:player,ben:pw:player,…"
export const ACCOUNTS = Object.fromEntries(
  (process.env.ACCOUNTS || '')
    .split(',')
    .filter(Boolean)
    .map((a) => {
      const [name, password, role] = a.split(':');
      return [name, { name, password, role }];
    }),
);

mkdirSync(SCREENSHOT_DIR, { recursive: true });

export async function launch() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

// For working on the pages without rebuilding the binary: WEB_DIR=…/web
// serves /assets/… from that directory instead of the embedded copy.
async function serveAssetsFrom(context, dir) {
  const types = { js: 'text/javascript', css: 'text/css', svg: 'image/svg+xml', html: 'text/html' };
  await context.route(BASE_URL + '/assets/**', async (route) => {
    const name = new URL(route.request().url()).pathname.slice('/assets/'.length);
    try {
      const body = readFileSync(path.join(dir, name));
      await route.fulfill({ body, contentType: types[name.split('.').pop()] || 'application/octet-stream' });
    } catch {
      await route.fulfill({ status: 404, body: 'not found' });
    }
  });
}

export class AssertionError extends Error {}

export function assert(condition, message) {
  if (!condition) throw new AssertionError(message);
}

export function assertEqual(actual, expected, message) {
  if (actual !== expected) {
    throw new AssertionError(`${message}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
  }
}

// A browser context (a separate browser profile: cookies, storage) in a
// given language, with one page.
// `bypassCSP` lets axe-core's script tag in past the page's CSP.
export async function newPage(browser, { viewport = DESKTOP, locale = 'en-GB', bypassCSP = false } = {}) {
  const context = await browser.newContext({ viewport, locale, baseURL: BASE_URL, bypassCSP });
  context.setDefaultTimeout(10_000);
  if (process.env.WEB_DIR) await serveAssetsFrom(context, process.env.WEB_DIR);
  const page = await context.newPage();
  page.errors = [];
  page.on('pageerror', (err) => page.errors.push(String(err)));
  // Console errors, but not the browser's own note on an HTTP error
  // status (a 401 before the login is how the page learns it is logged out).
  // A string missing from a catalogue warns ("missing string KEY"): an error here.
  page.on('console', (msg) => {
    if (msg.type() === 'error' && !msg.text().startsWith('Failed to load resource')) page.errors.push(msg.text());
    if (msg.type() === 'warning' && msg.text().startsWith('missing string')) page.errors.push(msg.text());
  });
  return page;
}

// Logs `name` in through the login form.
export async function login(page, name) {
  const account = ACCOUNTS[name] || (name === 'admin' ? { password: ADMIN_PASSWORD } : null);
  assert(account, `no account ${name}`);
  await page.goto('/login');
  await page.fill('input[name="username"]', name);
  await page.fill('input[name="password"]', account.password);
  await page.click('[data-action="login"]');
  await page.waitForURL((url) => url.pathname !== '/login');
  await page.waitForSelector(`[data-user="${name}"]`);
}

export async function loggedInPage(browser, name, options) {
  const page = await newPage(browser, options);
  await login(page, name);
  return page;
}

// The API from Node, as `name` (a session cookie and its CSRF token). One
// session a name for the whole run: a login per call would spend the
// server's per-address login quota (every test logs in from 127.0.0.1).
const apiSessions = new Map();
export function apiAs(name) {
  if (!apiSessions.has(name)) {
    const session = apiLogin(name);
    session.catch(() => apiSessions.delete(name));
    apiSessions.set(name, session);
  }
  return apiSessions.get(name);
}

async function apiLogin(name) {
  const account = ACCOUNTS[name] || (name === 'admin' ? { password: ADMIN_PASSWORD } : null);
  const r = await fetch(BASE_URL + '/api/session', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: name, password: account.password }),
  });
  assert(r.ok, `API login of ${name}: ${r.status}`);
  const cookie = r.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
  const { csrf } = await r.json();
  const call = async (method, route, body) => {
    const headers = { cookie, 'x-csrf-token': csrf };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(BASE_URL + route, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await res.text();
    if (!res.ok) throw new AssertionError(`${method} ${route} as ${name}: ${res.status} ${text}`);
    return text.startsWith('{') ? JSON.parse(text) : text;
  };
  return { get: (r) => call('GET', r), post: (r, b) => call('POST', r, b), name };
}

// A game between `white` and `black` made through the API (challenge by
// white, accepted by black): its id.
export async function apiGame(white, black, spec) {
  const w = await apiAs(white);
  const b = await apiAs(black);
  const { id } = await w.post('/api/challenge/' + black, { color: 'white', ...spec });
  const { gameId } = await b.post(`/api/challenge/${id}/accept`);
  assert(gameId, 'accept gives a game id');
  return gameId;
}

// `tempo sync resolve` on a position: the JSON it prints.
export function resolve(variant, fen, white, black, extra = []) {
  const out = execFileSync(TEMPO_BIN, ['sync', 'resolve', '--variant', variant, '--fen', fen, '--white', white, '--black', black, ...extra], {
    encoding: 'utf8',
  });
  return JSON.parse(out);
}

// Records everything `page` receives over the network: each response's
// body (page.on('response')), and the data of responses still streaming
// (the game stream is one long NDJSON response whose body Playwright only
// gives when it ends), which Chromium hands over through the DevTools
// protocol's Network.streamResourceContent as it arrives.
export async function recordNetwork(page) {
  const chunks = [];
  const pending = new Set();
  page.on('response', (response) => {
    const type = response.headers()['content-type'] || '';
    const done = response
      .text()
      .then((text) => chunks.push({ url: response.url(), text }))
      .catch(() => {});
    // A stream's body arrives below; its text() resolves when it ends.
    if (type.includes('ndjson')) return;
    pending.add(done);
    done.finally(() => pending.delete(done));
  });
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  const streaming = new Set();
  cdp.on('Network.responseReceived', async ({ requestId, response }) => {
    if (!/ndjson/.test(response.mimeType || '')) return;
    streaming.add(requestId);
    try {
      const { bufferedData } = await cdp.send('Network.streamResourceContent', { requestId });
      if (bufferedData) chunks.push({ url: response.url, text: Buffer.from(bufferedData, 'base64').toString('utf8') });
    } catch {
      // It ended before we asked: page.on('response') has its body.
    }
  });
  cdp.on('Network.dataReceived', ({ requestId, data }) => {
    if (data && streaming.has(requestId)) chunks.push({ url: 'stream', text: Buffer.from(data, 'base64').toString('utf8') });
  });
  return {
    // Waits for the bodies of the responses received so far.
    settle: async () => {
      await Promise.all([...pending]);
    },
    // What the server said (the API), not the app's own files, whose
    // comments and examples name moves too.
    text: () => chunks.filter((c) => !c.url.includes('/assets/')).map((c) => c.text).join('\n'),
    streamed: () => chunks.filter((c) => c.url === 'stream' || c.url.includes('/stream/')).length,
  };
}

export async function screenshot(page, name) {
  const file = path.join(SCREENSHOT_DIR, name + '.png');
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// The board as the page shows it: {square: "wP"} from data-square/data-piece.
export async function shownBoard(page) {
  return page.evaluate(() => {
    const out = {};
    for (const sq of document.querySelectorAll('[data-square]')) {
      const piece = sq.querySelector('[data-piece]');
      if (piece) out[sq.dataset.square] = piece.dataset.piece;
    }
    return out;
  });
}

// Waits until the whole board shows `want` ({square: "wP"}); else fails
// naming what it showed.
export async function expectPlacement(page, want, what, timeout = 10_000) {
  const ok = await page.waitForFunction((expected) => {
    const squares = document.querySelectorAll('[data-square]');
    if (squares.length !== 64) return false;
    const out = {};
    for (const sq of squares) {
      const piece = sq.querySelector('[data-piece]');
      if (piece) out[sq.dataset.square] = piece.dataset.piece;
    }
    const keys = Object.keys(out);
    return keys.length === Object.keys(expected).length && keys.every((k) => expected[k] === out[k]);
  }, want, { timeout }).then(() => true, () => false);
  if (!ok) assert(false, `${what}: the board shows ${JSON.stringify(await shownBoard(page))}, expected ${JSON.stringify(want)}`);
}
