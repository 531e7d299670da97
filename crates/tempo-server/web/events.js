// The member's event stream (GET /api/stream/event), kept open on every
// page while logged in: one stream per tab, opened again after a break
// (1 s, 2 s, 4 s … up to 30 s), closed on logout. From it the app shell
// shows notifications on any page, lichess-like:
//   - data-notify="challenge": a challenge to me (who, variant, clock),
//     with Accept and Decline (lichess's challenge object: challenger.name,
//     destUser.id, variant.key; tempo's clock string);
//   - data-notify="gameStart": a game of mine starts: it opens by itself,
//     unless I am looking at another game of mine in play (then a toast
//     with a link);
//   - data-notify="yourTurn": my move is due in a game I am not looking at;
// a count of pending things (challenges to me, games where it is my turn
// and that I am not looking at) before the tab's title, "(2) Lobby · tempo",
// and the sound play('notify') (sound.js; off with the sound setting).
//
// Pages react to the same events without a second stream:
//   import { subscribe } from '../events.js';
//   const unsubscribe = subscribe((event) => { … });   // in render()
//   unsubscribe();                                      // in leave()
// `event` is a line of the stream as the server sends it: {type:
// 'challenge'|'gameStart'|'yourTurn'|'gameFinish'|…, …} (docs/server.md);
// also the lines sent when a stream (re)opens, which name what is open.
// Each time the stream (re)opens, handlers get {type: 'streamOpen'}: a
// page that shows live data reads it again then, so that nothing sent
// between its first read and the stream's start is missed.
// A handler that throws does not stop the others.

import { get, getAll, me, post, stream } from './api.js';
import { h } from './dom.js';
import { addCatalogue, t } from './i18n.js';
import { play } from './sound.js';
import catalogue from './i18n/notify.js';

addCatalogue(catalogue);

const MAX_TOASTS = 5; // the oldest goes when more come
const MAX_BACKOFF_MS = 30_000;

const handlers = new Set();
let running = null; // {controller, user} of the open stream
const inPlay = new Set(); // my unfinished games, as far as known
const myTurn = new Set(); // games of mine where my move is due
const challengesIn = new Set(); // challenges to me, still open
let navigateTo = null; // app.js's navigate (no import cycle)

export function subscribe(handler) {
  handlers.add(handler);
  return () => handlers.delete(handler);
}

// The pending count in the title (for tests and the app).
export function pendingCount() {
  const viewing = viewedGame();
  return challengesIn.size + [...myTurn].filter((id) => id !== viewing).length;
}

// Starts or stops the stream as the session says (app.js calls it on
// every route, so a login or a logout takes effect at once); `navigate`
// opens a page.
export function sync(navigate) {
  navigateTo = navigate;
  const user = me()?.username ?? null;
  if (running && running.user !== user) stop();
  if (user && !running) start(user);
  seen();
}

export function stop() {
  running?.controller.abort();
  running = null;
  delete document.documentElement.dataset.events;
  inPlay.clear();
  myTurn.clear();
  challengesIn.clear();
  document.getElementById('notify')?.replaceChildren();
  retitle();
}

function start(user) {
  const controller = new AbortController();
  running = { controller, user };
  follow(controller.signal).catch(() => {});
}

async function follow(signal) {
  let wait = 1000;
  while (!signal.aborted) {
    try {
      // Games in play before the stream opens are not new starts.
      await Promise.all([refreshGames(), refreshChallenges()]);
      await stream('/api/stream/event', (event) => {
        wait = 1000;
        receive(event);
      }, signal, () => {
        document.documentElement.dataset.events = 'open';
        // What happened before the stream was open is not in it: pages
        // that show live data read it again now.
        receive({ type: 'streamOpen' });
      });
    } catch (err) {
      if (err?.status === 401) {
        // Logged out elsewhere: the next route decides again.
        if (running?.controller.signal === signal) running = null;
        return;
      }
    }
    if (signal.aborted) return;
    document.documentElement.dataset.events = 'closed';
    await new Promise((r) => setTimeout(r, wait));
    wait = Math.min(wait * 2, MAX_BACKOFF_MS);
  }
}

function receive(event) {
  if (!event || typeof event.type !== 'string') return;
  for (const f of handlers) {
    try {
      f(event);
    } catch (err) {
      console.error(err);
    }
  }
  const id = event.game?.id;
  if (event.type === 'gameStart' && id) gameStarted(id);
  else if (event.type === 'yourTurn' && id) turn(id);
  else if (event.type === 'gameFinish' && id) {
    inPlay.delete(id);
    myTurn.delete(id);
    dismiss('yourTurn', id);
    retitle();
  } else if (event.type.startsWith('challenge')) {
    challengeEvent(event);
  }
}

// ----- what the events mean -----

function viewedGame() {
  return location.pathname.match(/^\/game\/([A-Za-z0-9]+)$/)?.[1] ?? null;
}

function gameStarted(id) {
  if (inPlay.has(id)) return;
  inPlay.add(id);
  refreshChallenges(); // the accepted challenge is no longer open
  const viewing = viewedGame();
  if (viewing === id) return;
  play('notify');
  if (viewing && inPlay.has(viewing)) {
    note('gameStart', id, t('notify.gameStart'), link(id, t('notify.open')));
    return;
  }
  navigateTo?.('/game/' + id);
}

function turn(id) {
  inPlay.add(id);
  if (viewedGame() === id) return; // seen
  myTurn.add(id);
  play('notify');
  dismiss('yourTurn', id);
  note('yourTurn', id, t('notify.yourTurn'), link(id, t('notify.open')));
  retitle();
}

async function challengeEvent(event) {
  const c = event.challenge;
  const mine = me()?.username?.toLowerCase();
  if (event.type !== 'challenge') {
    // Declined or taken back: its toast goes at once.
    if (c?.id) dismiss('challenge', c.id);
  } else if (c?.challenger && c.destUser?.id === mine) {
    play('notify');
    note('challenge', c.id, t('notify.challenge', {
      name: c.challenger.name,
      variant: t('variant.' + variantKey(c.variant)),
      clock: c.clock ? clockText(c.clock) : t('time.untimed'),
      rated: t(c.rated ? 'notify.rated' : 'notify.casual'),
    }), ...answerButtons(c.id));
  }
  await refreshChallenges();
}

// tempo's variant name of lichess's variant object (`fromPosition` is
// orthodox chess from a set-up position).
export function variantKey(variant) {
  return variant?.key === 'fromPosition' ? 'standard' : variant?.key;
}

function clockText(clock) {
  const day = /^1\/(\d+)$/.exec(clock);
  if (day) {
    const days = Math.round(Number(day[1]) / 86400);
    return days === 1 ? t('notify.perDay') : t('notify.perDays', { days });
  }
  const live = /^(\d+)\+(\d+)$/.exec(clock);
  if (live) return `${Number(live[1]) / 60} + ${live[2]}`;
  return clock;
}

function answerButtons(id) {
  const answer = (action) => async () => {
    try {
      const r = await post(`/api/challenge/${id}/${action}`);
      dismiss('challenge', id);
      if (r?.gameId) {
        inPlay.add(r.gameId);
        if (viewedGame() !== r.gameId) navigateTo?.('/game/' + r.gameId);
      }
    } catch (err) {
      dismiss('challenge', id);
      note('error', id, t('error.generic', { reason: err.message }));
    }
    refreshChallenges();
  };
  return [
    h('button', { type: 'button', class: 'primary', dataset: { action: 'accept' }, onclick: answer('accept') }, t('notify.accept')),
    h('button', { type: 'button', dataset: { action: 'decline' }, onclick: answer('decline') }, t('notify.decline')),
  ];
}

async function refreshChallenges() {
  if (!me()) return;
  const pending = await get('/api/challenge').catch(() => null);
  if (!pending) return;
  challengesIn.clear();
  for (const c of pending.in || []) challengesIn.add(c.id);
  // A toast of a challenge no longer open (cancelled, answered elsewhere) goes.
  for (const el of document.querySelectorAll('#notify [data-notify="challenge"]')) {
    if (!challengesIn.has(el.dataset.id)) el.remove();
  }
  retitle();
}

async function refreshGames() {
  const games = await getAll('/api/account/playing', 'nowPlaying', 10);
  for (const g of games) {
    inPlay.add(g.gameId);
    if (g.isMyTurn) myTurn.add(g.gameId);
  }
  retitle();
}

// Called on every route: the game now shown is seen.
function seen() {
  const viewing = viewedGame();
  if (viewing) {
    myTurn.delete(viewing);
    dismiss('yourTurn', viewing);
    dismiss('gameStart', viewing);
  }
  retitle();
}

// ----- the toasts and the title -----

function link(id, text) {
  return h('a', { href: '/game/' + id, dataset: { link: '' } }, text);
}

function container() {
  let box = document.getElementById('notify');
  if (!box) {
    box = h('section', { id: 'notify', class: 'notify', 'aria-label': t('notify.region') });
    document.body.append(box);
  }
  box.setAttribute('aria-label', t('notify.region'));
  return box;
}

function note(kind, id, text, ...actions) {
  const box = container();
  const close = h('button', { type: 'button', class: 'close', 'aria-label': t('notify.close'), dataset: { action: 'close' } }, '×');
  const el = h('div', { role: kind === 'error' ? 'alert' : 'status', class: 'note', dataset: { notify: kind, id } },
    h('p', {}, text), actions.length ? h('p', { class: 'actions' }, actions) : null, close);
  close.addEventListener('click', () => el.remove());
  // Following a link in a toast handles it.
  el.addEventListener('click', (e) => {
    if (e.target.closest('a')) el.remove();
  });
  box.append(el);
  while (box.children.length > MAX_TOASTS) box.firstElementChild.remove();
}

function dismiss(kind, id) {
  for (const el of document.querySelectorAll(`#notify [data-notify="${kind}"]`)) {
    if (el.dataset.id === id) el.remove();
  }
}

// The count before the title, kept when a page sets its own title.
function retitle() {
  const n = running ? pendingCount() : 0;
  const base = document.title.replace(/^\(\d+\) /, '');
  const want = n ? `(${n}) ${base}` : base;
  document.documentElement.dataset.waiting = String(n);
  if (document.title !== want) document.title = want;
}

export { retitle };

new MutationObserver(() => retitle()).observe(document.querySelector('title'), { childList: true, characterData: true, subtree: true });
