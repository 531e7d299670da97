// The archive: finished games, newest first, 50 a page, filtered by a
// member's name; each links to its replay (/game/{id}) and its log.

import { t, addCatalogue, hasKey } from '../i18n.js';
import { get, getAll, me } from '../api.js';
import { h, field, localTime } from '../dom.js';
import { navigate } from '../app.js';
import catalogue from '../i18n/archive.js';

addCatalogue(catalogue);

const PAGE_SIZE = 50;

function reasonText(reason) {
  if (!reason) return '';
  const key = 'archive.reason.' + reason;
  return hasKey(key) ? t(key) : reason;
}

function address(user, page) {
  const q = new URLSearchParams();
  if (user) q.set('user', user);
  if (page) q.set('page', String(page));
  const s = q.toString();
  return '/archive' + (s ? '?' + s : '');
}

export async function render(main) {
  const query = new URLSearchParams(location.search);
  const user = (query.get('user') || '').trim();
  const page = Math.max(0, Math.min(10000, parseInt(query.get('page') || '0', 10) || 0));
  main.append(h('h1', {}, t('archive.title')));
  const input = h('input', { name: 'user', type: 'search', value: user, autocomplete: 'off', maxlength: '64', list: 'archive-members' });
  const members = h('datalist', { id: 'archive-members' });
  // Members' names to choose from (the list needs a login).
  if (me()) getAll('/api/users', 'users').then((users) => members.replaceChildren(...users.map((u) => h('option', { value: u.name })))).catch(() => {});
  const form = h('form', { class: 'filters card', role: 'search', dataset: { form: 'archive-filter' } },
    field(t('archive.member'), input),
    members,
    h('button', { type: 'submit', class: 'primary' }, t('archive.filter')),
    user ? h('button', { type: 'button', onclick: () => navigate(address('', 0)) }, t('archive.all')) : null,
  );
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    navigate(address(input.value.trim(), 0));
  });
  main.append(form);
  const params = new URLSearchParams({ page: String(page) });
  if (user) params.set('user', user);
  const { games } = await get('/api/games?' + params);
  const heading = user ? t('archive.gamesOf', { name: user }) : t('archive.games');
  const body = games.length
    ? h('div', { class: 'scroll' }, h('table', { class: 'stack', dataset: { archive: '' } },
        h('caption', { class: 'hint' }, t('archive.caption', { from: page * PAGE_SIZE + 1, to: page * PAGE_SIZE + games.length })),
        h('thead', {}, h('tr', {}, ['date', 'white', 'black', 'variant', 'clock', 'result', 'links'].map((k) => h('th', { scope: 'col' }, t('archive.col.' + k))))),
        h('tbody', {}, games.map((g) => h('tr', { dataset: { game: g.gameId } },
          h('td', { dataset: { label: t('archive.col.date') } }, h('time', { datetime: g.createdAt }, localTime(g.createdAt))),
          h('td', { dataset: { label: t('archive.col.white') } }, g.white),
          h('td', { dataset: { label: t('archive.col.black') } }, g.black),
          h('td', { dataset: { label: t('archive.col.variant') } }, g.variant ? t('variant.' + g.variant) : ''),
          h('td', { dataset: { label: t('archive.col.clock') } }, h('span', { class: 'mono' }, g.clock || t('time.untimed'))),
          h('td', { dataset: { label: t('archive.col.result') } }, h('strong', {}, g.result === '1/2-1/2' ? '½–½' : (g.result || '')), ' ', h('span', { class: 'hint' }, reasonText(g.reason))),
          h('td', { dataset: { label: t('archive.col.links') } },
            h('a', { href: '/game/' + g.gameId, dataset: { link: '', action: 'replay' } }, t('archive.replay')), ' · ',
            h('a', { href: '/log/' + g.gameId, dataset: { link: '', action: 'log' } }, t('archive.log'))),
        )))))
    : h('p', { class: 'hint' }, page ? t('archive.noMore') : t('archive.none'));
  const pager = h('nav', { class: 'pager', 'aria-label': t('archive.pages') },
    page > 0 ? h('a', { href: address(user, page - 1), dataset: { link: '', action: 'previous' }, rel: 'prev' }, t('archive.previous')) : null,
    h('span', {}, t('archive.page', { n: page + 1 })),
    games.length === PAGE_SIZE ? h('a', { href: address(user, page + 1), dataset: { link: '', action: 'next' }, rel: 'next' }, t('archive.next')) : null,
  );
  main.append(h('section', { class: 'card' }, h('h2', {}, heading), body, pager));
}
