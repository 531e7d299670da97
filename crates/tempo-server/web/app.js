// The app: one page whose script shows what the address names (a page
// module's render(main, params)), the navigation and the language switch.

import { addCatalogue, lang, onLangChange, setLang, t } from './i18n.js';
import { loadSession, me, del, setSession } from './api.js';
import * as events from './events.js';
import common from './i18n/common.js';

addCatalogue(common);

const ROUTES = [
  [/^\/$/, () => import('./pages/lobby.js'), true],
  [/^\/challenge\/([A-Za-z0-9]{1,64})$/, () => import('./pages/lobby.js'), true],
  [/^\/login$/, () => import('./pages/login.js'), false],
  [/^\/game\/([A-Za-z0-9]{1,64})$/, () => import('./pages/game.js'), false],
  // A table game: its display and a seat's phone need no login (the phone
  // has its seat token); the director's pages do.
  [/^\/table\/([A-Za-z0-9]{1,64})$/, () => import('./pages/table-display.js'), false],
  [/^\/table\/([A-Za-z0-9]{1,64})\/play$/, () => import('./pages/table-play.js'), false],
  [/^\/tables\/(new|[A-Za-z0-9]{1,64})$/, () => import('./pages/tables.js'), true],
  [/^\/archive$/, () => import('./pages/archive.js'), false],
  [/^\/log\/([A-Za-z0-9]{1,64})$/, () => import('./pages/log.js'), false],
  [/^\/arbiter$/, () => import('./pages/arbiter.js'), false],
  [/^\/rules$/, () => import('./pages/rules.js'), false],
  [/^\/tournaments(?:\/([A-Za-z0-9]{1,64}))?(?:\/(print|standings|crosstable|wallchart))?$/, () => import('./pages/tournaments.js'), false],
  [/^\/account$/, () => import('./pages/account.js'), true],
  [/^\/@\/([^/]{1,64})$/, () => import('./pages/member.js'), true],
  [/^\/ratings$/, () => import('./pages/ratings.js'), true],
];

let current = null; // the page module shown, for its leave()

export function navigate(path, replace = false) {
  if (replace) history.replaceState(null, '', path);
  else history.pushState(null, '', path);
  route();
}

export function toast(message, kind = 'info') {
  const el = document.getElementById('toast');
  el.textContent = message;
  el.dataset.kind = kind;
  el.classList.add('shown');
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => el.classList.remove('shown'), 4000);
}

/** Awaits a request: a notice of `okKey` when it succeeds, of the error
 *  when it fails (then `null`). */
export async function act(promise, okKey, vars) {
  try {
    const r = await promise;
    if (okKey) toast(t(okKey, vars));
    return r;
  } catch (err) {
    toast(t('error.generic', { reason: err.message }), 'error');
    return null;
  }
}

function nav() {
  const user = me();
  const links = [
    ['/', 'nav.lobby'],
    ['/archive', 'nav.archive'],
    ['/tournaments', 'nav.tournaments'],
    ['/ratings', 'nav.ratings'],
    ['/arbiter', 'nav.arbiter'],
    ['/rules', 'nav.rules'],
  ];
  const el = document.getElementById('nav');
  el.replaceChildren();
  for (const [href, key] of links) {
    const a = document.createElement('a');
    a.href = href;
    a.dataset.link = '';
    a.textContent = t(key);
    if (location.pathname === href) a.setAttribute('aria-current', 'page');
    el.append(a);
  }
  if (user) {
    const tables = document.createElement('a');
    tables.href = '/tables/new';
    tables.dataset.link = '';
    tables.dataset.nav = 'tables';
    tables.textContent = t('nav.tables');
    if (location.pathname.startsWith('/tables/')) tables.setAttribute('aria-current', 'page');
    el.append(tables);
    const account = document.createElement('a');
    account.href = '/account';
    account.dataset.link = '';
    account.dataset.user = user.username;
    account.textContent = user.username;
    el.append(account);
    const out = document.createElement('button');
    out.type = 'button';
    out.className = 'link';
    out.dataset.action = 'logout';
    out.textContent = t('nav.logout');
    out.addEventListener('click', async () => {
      events.stop();
      await del('/api/session').catch(() => {});
      setSession(null);
      navigate('/login');
    });
    el.append(out);
  } else {
    const a = document.createElement('a');
    a.href = '/login';
    a.dataset.link = '';
    a.textContent = t('nav.login');
    el.append(a);
  }
  for (const b of document.querySelectorAll('[data-lang]')) {
    b.setAttribute('aria-pressed', String(b.dataset.lang === lang()));
    b.title = t('lang.' + b.dataset.lang);
  }
}

let routing = 0; // the latest route(); an older one's render is stale

/** The number of the latest route(): a page that awaits before it draws
 *  compares it, so that a page left meanwhile draws nothing. */
export const routeNumber = () => routing;

export async function route() {
  const mine = ++routing;
  const path = location.pathname;
  const main = document.getElementById('main');
  if (current?.leave) current.leave();
  current = null;
  const found = ROUTES.find(([re]) => re.test(path));
  nav();
  events.sync(navigate);
  if (!found) {
    main.innerHTML = `<h1>${t('notFound')}</h1>`;
    return;
  }
  const [re, load, needsLogin] = found;
  if (needsLogin && !me()) {
    navigate('/login?next=' + encodeURIComponent(path), true);
    return;
  }
  const module = await load();
  if (mine !== routing) return;
  current = module;
  const params = path.match(re).slice(1);
  main.replaceChildren();
  // A page's classes (the projector's, a printout's orientation) are its own.
  main.removeAttribute('class');
  delete main.dataset.ownTitle;
  try {
    await module.render(main, params);
  } catch (err) {
    if (mine !== routing) return; // left while loading: not this page's error
    main.insertAdjacentHTML('beforeend', `<p class="error" role="alert"></p>`);
    main.lastElementChild.textContent = err.message;
  }
  // A page that keeps its own title (the game's: whose move) has set it.
  if (!('ownTitle' in main.dataset)) document.title = (main.querySelector('h1')?.textContent || '') + ' · tempo';
}

document.addEventListener('click', (e) => {
  const a = e.target.closest('a[data-link]');
  if (a && !e.ctrlKey && !e.metaKey && !e.shiftKey && a.origin === location.origin) {
    e.preventDefault();
    navigate(a.pathname + a.search);
  }
});

window.addEventListener('popstate', route);

for (const b of document.querySelectorAll('[data-lang]')) {
  b.addEventListener('click', () => setLang(b.dataset.lang));
}
onLangChange(() => route());

loadSession().finally(route);
