// The club's ratings list: one tab per variant group (orthodox chess with
// Chess960, Synchronschach, Fairschach), highest rating first, 50 a page;
// each name links to the member's page (/@/{name}).

import { t, addCatalogue } from '../i18n.js';
import { get } from '../api.js';
import { h } from '../dom.js';
import catalogue from '../i18n/ratings.js';

addCatalogue(catalogue);

export const GROUPS = ['orthodox', 'synchronschach', 'fairschach'];
const PAGE_SIZE = 50;

function address(group, page) {
  const q = new URLSearchParams({ variant: group });
  if (page) q.set('page', String(page));
  return '/ratings?' + q;
}

// The rating as lichess shows it: a "?" while it is provisional.
export function ratingText(rating, rd) {
  return rd >= 110 ? `${rating}?` : String(rating);
}

export function memberLink(name, attrs = {}) {
  return h('a', { href: '/@/' + encodeURIComponent(name), dataset: { link: '', member: name }, ...attrs }, name);
}

export async function render(main) {
  const query = new URLSearchParams(location.search);
  const asked = query.get('variant') || 'orthodox';
  const page = Math.max(0, Math.min(100000, parseInt(query.get('page') || '0', 10) || 0));
  main.append(h('h1', {}, t('ratings.title')), h('p', { class: 'hint' }, t('ratings.intro')));
  const list = await get(`/api/ratings?variant=${encodeURIComponent(asked)}&page=${page}&nb=${PAGE_SIZE}`);
  const group = list.group;
  main.append(h('nav', { class: 'tabs', 'aria-label': t('ratings.groups') },
    GROUPS.map((g) => h('a', {
      href: address(g, 0),
      dataset: { link: '', group: g },
      'aria-current': g === group ? 'page' : false,
    }, t('ratings.group.' + g)))));
  const first = page * PAGE_SIZE;
  const body = list.rows.length
    ? h('div', { class: 'scroll' }, h('table', { class: 'stack ratings', dataset: { ratings: group } },
        h('caption', { class: 'hint' }, t('ratings.caption', { from: first + 1, to: first + list.rows.length })),
        h('thead', {}, h('tr', {}, ['rank', 'member', 'rating', 'rd', 'games'].map((k) => h('th', { scope: 'col' }, t('ratings.col.' + k))))),
        h('tbody', {}, list.rows.map((r, i) => h('tr', { dataset: { row: r.username } },
          h('td', { dataset: { label: t('ratings.col.rank') } }, String(first + i + 1)),
          h('td', { dataset: { label: t('ratings.col.member') } }, memberLink(r.username)),
          h('td', { dataset: { label: t('ratings.col.rating') } }, h('strong', { title: r.rd >= 110 ? t('ratings.provisional') : false }, ratingText(r.rating, r.rd))),
          h('td', { dataset: { label: t('ratings.col.rd') } }, String(r.rd)),
          h('td', { dataset: { label: t('ratings.col.games') } }, String(r.games)),
        )))))
    : h('p', { class: 'hint' }, t('ratings.none'));
  const pager = h('nav', { class: 'pager', 'aria-label': t('ratings.pages') },
    page > 0 ? h('a', { href: address(group, page - 1), dataset: { link: '', action: 'previous' }, rel: 'prev' }, t('ratings.previous')) : null,
    h('span', {}, t('ratings.page', { n: page + 1 })),
    list.nextPage != null ? h('a', { href: address(group, list.nextPage), dataset: { link: '', action: 'next' }, rel: 'next' }, t('ratings.next')) : null,
  );
  main.append(h('section', { class: 'card' }, h('h2', {}, t('ratings.group.' + group)), body, pager));
}
