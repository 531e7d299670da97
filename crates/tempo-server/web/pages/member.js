// A member's page (/@/{username}, lichess's address): their Glicko-2
// rating in each variant group — with its deviation, "?" while
// provisional — and its history as a small hand-drawn SVG chart and a
// table of the latest rated games.

import { t, addCatalogue } from '../i18n.js';
import { get } from '../api.js';
import { h, localTime } from '../dom.js';
import catalogue from '../i18n/ratings.js';
import { GROUPS, ratingText } from './ratings.js';

addCatalogue(catalogue);

const SVG = 'http://www.w3.org/2000/svg';
// Rated games the table lists (the chart shows every one the API gives).
const TABLE_ROWS = 10;

function s(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  for (const c of children) el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return el;
}

// The rating after each game, oldest first (starting from the rating
// before the first), with its RD as a band around the line.
export function chart(group, history) {
  const points = [...history].reverse();
  const series = [{ r: points[0].ratingBefore, rd: points[0].rdBefore }, ...points.map((p) => ({ r: p.ratingAfter, rd: p.rdAfter }))];
  // A narrower drawing on a phone, so that its labels stay readable.
  const W = window.innerWidth < 640 ? 330 : 600, H = 180, L = 44, R = 8, T = 10, B = 22;
  const lo = Math.min(...series.map((p) => p.r - p.rd));
  const hi = Math.max(...series.map((p) => p.r + p.rd));
  const min = Math.floor(Math.min(lo, ...series.map((p) => p.r)) / 50) * 50;
  const max = Math.max(min + 100, Math.ceil(hi / 50) * 50);
  const x = (i) => L + (series.length === 1 ? 0 : (i * (W - L - R)) / (series.length - 1));
  const y = (v) => T + ((max - v) * (H - T - B)) / (max - min);
  const line = series.map((p, i) => `${x(i).toFixed(1)},${y(p.r).toFixed(1)}`).join(' ');
  const band = [...series.map((p, i) => `${x(i).toFixed(1)},${y(Math.min(max, p.r + p.rd)).toFixed(1)}`),
    ...series.map((p, i) => `${x(i).toFixed(1)},${y(Math.max(min, p.r - p.rd)).toFixed(1)}`).reverse()].join(' ');
  const label = t('member.chart', {
    group: t('ratings.group.' + group),
    n: points.length,
    first: Math.round(series[0].r),
    last: Math.round(series[series.length - 1].r),
  });
  const ticks = [min, Math.round((min + max) / 2), max];
  return s('svg', { viewBox: `0 0 ${W} ${H}`, class: 'rating-chart', role: 'img', 'aria-label': label, 'data-chart': group },
    s('title', {}, label),
    ...ticks.map((v) => s('line', { x1: L, x2: W - R, y1: y(v), y2: y(v), class: 'grid' })),
    ...ticks.map((v) => s('text', { x: L - 6, y: y(v) + 4, 'text-anchor': 'end', class: 'axis' }, v)),
    s('polygon', { points: band, class: 'band' }),
    s('polyline', { points: line, class: 'line' }),
    ...series.map((p, i) => s('circle', { cx: x(i), cy: y(p.r), r: series.length > 60 ? 1.5 : 3, class: 'dot' })),
    s('text', { x: L, y: H - 4, class: 'axis' }, localTime(points[0].at).split(',')[0]),
    s('text', { x: W - R, y: H - 4, 'text-anchor': 'end', class: 'axis' }, localTime(points[points.length - 1].at).split(',')[0]),
  );
}

function change(p) {
  const d = Math.round(p.ratingAfter) - Math.round(p.ratingBefore);
  return h('span', { class: d > 0 ? 'up' : d < 0 ? 'down' : '' }, d > 0 ? `+${d}` : String(d));
}

function groupCard(name, g) {
  const shown = ratingText(g.rating, g.rd);
  const body = h('tbody', {}, g.history.slice(0, TABLE_ROWS).map(historyRow));
  const more = g.games > TABLE_ROWS ? h('p', {}) : null;
  if (more) more.append(moreButton(name, g.variant, body, more));
  return h('section', { class: 'card member-rating', dataset: { ratingGroup: g.variant } },
    h('h2', {}, t('ratings.group.' + g.variant)),
    h('p', { class: 'rating-line' },
      h('strong', { class: 'rating-value', dataset: { rating: String(g.rating) }, title: g.provisional ? t('ratings.provisional') : false }, shown),
      ' ', h('span', { class: 'hint', dataset: { rd: String(g.rd) } }, t('member.rd', { rd: g.rd })),
      ' · ', h('span', { class: 'hint' }, g.games === 1 ? t('member.oneGame') : g.games ? t('member.games', { n: g.games }) : t('member.noGames'))),
    g.history.length ? [
      chart(g.variant, g.history),
      h('div', { class: 'scroll' }, h('table', { class: 'stack', dataset: { history: g.variant } },
        h('caption', { class: 'hint' }, t('member.history')),
        h('thead', {}, h('tr', {}, ['date', 'before', 'after', 'change', 'game'].map((k) => h('th', { scope: 'col' }, t('member.col.' + k))))),
        body)),
      more,
    ] : null,
  );
}

function historyRow(p) {
  return h('tr', { dataset: { game: p.gameId } },
    h('td', { dataset: { label: t('member.col.date') } }, h('time', { datetime: p.at }, localTime(p.at))),
    h('td', { dataset: { label: t('member.col.before') } }, String(Math.round(p.ratingBefore))),
    h('td', { dataset: { label: t('member.col.after') } }, String(Math.round(p.ratingAfter))),
    h('td', { dataset: { label: t('member.col.change') } }, change(p)),
    h('td', { dataset: { label: t('member.col.game') } }, h('a', { href: '/game/' + p.gameId, dataset: { link: '' } }, t('member.view'))));
}

// Older rated games, TABLE_ROWS at a time, from the paged history route.
function moreButton(name, group, body, more) {
  const button = h('button', { type: 'button', dataset: { action: 'more-history' } }, t('member.more'));
  button.addEventListener('click', async () => {
    button.disabled = true;
    const page = body.children.length / TABLE_ROWS;
    const path = `/api/users/${encodeURIComponent(name)}/ratings/${group}/history?page=${page}&nb=${TABLE_ROWS}`;
    try {
      const older = await get(path);
      body.append(...older.history.map(historyRow));
      if (older.nextPage == null) more.remove();
    } finally {
      button.disabled = false;
    }
  });
  return button;
}

export async function render(main, [encoded]) {
  const asked = decodeURIComponent(encoded);
  const data = await get('/api/users/' + encodeURIComponent(asked) + '/ratings');
  const name = data.username;
  main.append(h('h1', {}, t('member.title', { name })));
  main.append(h('p', {},
    h('a', { href: '/archive?user=' + encodeURIComponent(name), dataset: { link: '' } }, t('member.archive'))));
  const byGroup = new Map(data.ratings.map((g) => [g.variant, g]));
  main.append(h('div', { class: 'member-ratings' }, GROUPS.filter((g) => byGroup.has(g)).map((g) => groupCard(name, byGroup.get(g)))));
}
