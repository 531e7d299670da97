// The server's API as the pages use it: the session (with its CSRF token
// for every change) and one-line JSON errors as exceptions. An error's
// message is the app's own text for the server's `code` in the page's
// language (i18n/errors.js); the server's English is the fallback for a
// code the app does not know, and is kept as `detail`.

import { addCatalogue, hasKey, t } from './i18n.js';
import errors from './i18n/errors.js';

addCatalogue(errors);

let session = null;

export class ApiError extends Error {
  constructor(status, message, code = null, detail = message) {
    super(message);
    this.status = status;
    this.code = code;
    this.detail = detail;
  }
}

// The error an answer `r` with JSON `body` ({error, code}) stands for.
export function apiError(r, body) {
  const english = (body && body.error) || r.statusText;
  const code = body && typeof body.code === 'string' ? body.code : null;
  const key = 'err.' + code;
  const seconds = r.headers.get('retry-after') || '?';
  const message = code && hasKey(key) ? t(key, { seconds }) : english;
  return new ApiError(r.status, message, code, english);
}

export async function loadSession() {
  // /api/me answers a visitor too (with no name), so no request fails.
  const r = await fetch('/api/me', { credentials: 'same-origin' });
  const body = await r.json().catch(() => ({}));
  session = body && body.username ? body : null;
  return session;
}

export function me() {
  return session;
}

/** Whether the member logged in directs tournaments (arbiter, admin). */
export const isDirector = () => ['arbiter', 'admin'].includes(session?.role);

export function setSession(s) {
  session = s;
}

async function request(method, path, body) {
  const headers = {};
  if (method !== 'GET' && session && session.csrf) headers['x-csrf-token'] = session.csrf;
  let payload;
  if (body !== undefined) {
    headers['content-type'] = 'application/json';
    payload = JSON.stringify(body);
  }
  const r = await fetch(path, { method, headers, body: payload, credentials: 'same-origin' });
  const type = r.headers.get('content-type') || '';
  if (!r.ok) {
    const body = type.includes('json') ? await r.json().catch(() => ({})) : {};
    throw apiError(r, body);
  }
  if (type.includes('application/json')) return r.json();
  return r.text();
}

export const get = (path) => request('GET', path);

// Every item of a paged list (`?page=` from 0; each answer's `nextPage`
// is the page after, null on the last): the arrays named `key`, joined.
// At most `maxPages` pages are read.
export async function getAll(path, key, maxPages = 100) {
  const items = [];
  let page = 0;
  for (let n = 0; n < maxPages && Number.isInteger(page); n++) {
    const sep = path.includes('?') ? '&' : '?';
    const body = await get(page === 0 ? path : `${path}${sep}page=${page}`);
    items.push(...(body[key] || []));
    page = body.nextPage;
  }
  return items;
}
export const post = (path, body) => request('POST', path, body);

// A table seat's request: its token as `Authorization: Bearer`, no
// cookies (the seat, not a member logged in on that phone, plays).
export function seatInit(token) {
  return { headers: { authorization: 'Bearer ' + token }, credentials: 'omit' };
}

export async function seatPost(token, path) {
  const r = await fetch(path, { method: 'POST', ...seatInit(token) });
  const type = r.headers.get('content-type') || '';
  const body = type.includes('json') ? await r.json().catch(() => ({})) : {};
  if (!r.ok) throw apiError(r, body);
  return body;
}
export const del = (path) => request('DELETE', path);

// Reads an NDJSON stream line by line until it ends or `signal` aborts;
// `onOpen()`, if given, once the server has answered; `init` adds to the
// request (a table seat's headers).
export async function stream(path, onLine, signal, onOpen, init = {}) {
  const r = await fetch(path, { credentials: 'same-origin', ...init, signal });
  if (!r.ok) {
    throw apiError(r, await r.json().catch(() => ({})));
  }
  onOpen?.();
  const reader = r.body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    let i;
    while ((i = buffer.indexOf('\n')) >= 0) {
      const text = buffer.slice(0, i).trim();
      buffer = buffer.slice(i + 1);
      if (text) onLine(JSON.parse(text));
    }
  }
}
