// The printouts a director pins to the wall, each also a page to read on
// a phone: the pairing list of a round (A4 portrait, or the projector's
// big view), the standings with tie-breaks (portrait), the crosstable by
// rank with a legend and the wall chart (both landscape). Routes
// /tournaments/{id}/print|standings|crosstable|wallchart.

import { t, lang, hasKey } from '../i18n.js';
import { get } from '../api.js';
import { h } from '../dom.js';
import { diagram } from '../board.js';
import { parsePlacement } from '../fen.js';
import { seatCards, cardsSwitch } from './seat-cards.js';

export async function render(main, tour, view) {
  main.classList.add('printout');
  if (view === 'print') return renderPairings(main, tour);
  if (view === 'standings') return renderStandings(main, tour);
  if (view === 'crosstable') return renderCrosstable(main, tour);
  if (view === 'wallchart') return renderWallchart(main, tour);
}

// ----- shared pieces -----

// The page's orientation on paper: style.css's named @page `wide` for a
// landscape printout (the page's policy allows no inline style).
function pageSize(main, landscape) {
  main.classList.toggle('landscape', landscape);
}

// The links between the printouts and the print button; hidden on paper.
function toolbar(tour, current, extra = []) {
  const link = (view, key) => (view === current
    ? h('span', { 'aria-current': 'page' }, t(key))
    : h('a', { href: `/tournaments/${tour.id}/${view}`, dataset: { link: '' } }, t(key)));
  return h('nav', { class: 'no-print print-tools', 'aria-label': t('print.printouts') },
    h('a', { href: `/tournaments/${tour.id}`, dataset: { link: '' } }, '← ' + tour.name),
    link('print', 'print.pairingList'), link('standings', 'tour.standings'),
    link('crosstable', 'tour.crosstable'), link('wallchart', 'print.wallchart'),
    ...extra,
    h('button', { type: 'button', class: 'primary', dataset: { action: 'print' }, onclick: () => window.print() }, t('tour.printNow')));
}

function today() {
  return new Date().toLocaleDateString(lang() === 'de' ? 'de-DE' : 'en-GB', { year: 'numeric', month: '2-digit', day: '2-digit' });
}

// Points as a club prints them: 2½, ½, 3 (Keizer's fractional scores as
// decimals).
export function points(value) {
  if (value === null || value === undefined) return '';
  const whole = Math.trunc(value);
  const frac = Math.round((value - whole) * 100) / 100;
  if (frac === 0) return String(whole);
  if (frac === 0.5) return whole === 0 ? '½' : `${whole}½`;
  return value.toFixed(2).replace(/0$/, '');
}

const RESULT_TEXT = { '1-0': '1 – 0', '0-1': '0 – 1', '1/2-1/2': '½ – ½', '+-': '+ – −', '-+': '− – +' };

// Focusable and named, so that a keyboard can scroll a wide table on a
// phone (axe: scrollable-region-focusable).
function scrollBox(table) {
  const label = document.querySelector('main h1')?.textContent || document.title;
  return h('div', { class: 'scroll print-box', tabindex: '0', role: 'region', 'aria-label': label }, table);
}

function cell(text, cls) {
  return h('td', cls ? { class: cls } : {}, text);
}

// ----- the pairing list -----

async function renderPairings(main, tour) {
  const params = new URLSearchParams(location.search);
  const number = Number(params.get('round')) || tour.pairedRounds;
  const big = params.get('view') === 'big';
  pageSize(main, false);
  main.classList.toggle('projector', big);
  main.append(toolbar(tour, 'print', [
    h('a', { href: `/tournaments/${tour.id}/print?round=${number}${big ? '' : '&view=big'}`, dataset: { link: '' } }, big ? t('tour.a4') : t('tour.projector')),
  ]));
  if (!tour.rounds[number - 1]) {
    main.append(h('h1', {}, `${tour.name} — ${t('tour.round', { round: number })}`), h('p', {}, t('tour.notPaired')));
    return;
  }
  const list = await get(`/api/tournaments/${tour.id}/rounds/${number}/pairing-list`);
  const rounds = list.totalRounds ? t('print.roundOf', { round: number, total: list.totalRounds }) : t('tour.round', { round: number });
  const live = `${location.origin}/tournaments/${tour.id}/print?round=${number}`;
  const qr = h('figure', { class: 'qr', dataset: { qr: live } });
  main.append(h('header', { class: 'print-head' },
    h('div', {},
      h('h1', {}, `${list.name} — ${rounds}`),
      h('p', { class: 'print-meta' }, t('print.pairingList'), ' · ', t('print.date', { date: today() }), ' · ', t('system.' + list.system),
        list.mode === 'table' ? [' · ', t('print.atTables')] : '')),
    qr));
  const body = h('div', { dataset: { printPairings: String(number) } });
  main.append(body);
  fillPairings(body, list);
  if (list.chess960) {
    const box = h('div', { class: 'diagram-box' });
    main.append(h('section', { class: 'chess960', dataset: { chess960: String(list.chess960.number) } },
      h('h2', {}, t('tour.position', { number: list.chess960.number })), box,
      h('p', {}, t('print.arrangement'), ' ', h('strong', { class: 'mono', dataset: { arrangement: '' } }, arrangement(list.chess960.fen))),
      h('p', { class: 'mono', dataset: { xfen: '' } }, list.chess960.fen)));
    diagram(box, parsePlacement(list.chess960.fen.split(' ')[0]), { label: `Chess960 #${list.chess960.number}` });
  }
  await qrCode(qr, live, t('print.qrCaption'));
  // A director's print of a round at tables: the seat cards, after the list.
  const cards = await seatCards(list, qrCode);
  if (cards) {
    main.append(cards);
    main.querySelector('.print-tools button')?.before(cardsSwitch(cards));
  }
  keepLive(main, body, tour.id, number);
}

// White's back rank of a start position, as it is announced: "RNBQKBNR".
function arrangement(fen) {
  const ranks = fen.split(' ')[0].split('/');
  return ranks[ranks.length - 1].toUpperCase();
}

function fillPairings(body, list) {
  const player = (p) => [cell(String(p.player), 'num'), cell(p.name, 'name'), cell(p.rating ? String(p.rating) : '', 'num'), cell(points(p.points), 'num pts')];
  const head = ['tour.board', 'tour.no', 'color.white', 'print.rtg', 'print.pts', 'tour.result', 'print.pts', 'print.rtg', 'color.black', 'tour.no'];
  const numeric = (k) => ['tour.board', 'tour.no', 'print.rtg', 'print.pts', 'tour.rank', 'tour.points', 'tour.keizerScore', 'tour.value', 'tour.games'].includes(k);
  const rows = list.boards.map((b) => h('tr', { dataset: { board: String(b.board) } },
    cell(String(b.board), 'num'),
    player(b.white),
    h('td', { class: b.result ? 'result' : 'result fill', dataset: { result: b.result || '' } }, b.result ? RESULT_TEXT[b.result] ?? b.result : ''),
    player(b.black).reverse()));
  const table = h('table', { class: 'pairings print-table', dataset: { print: 'pairings' } },
    h('thead', {}, h('tr', {}, head.map((k) => h('th', { scope: 'col', class: numeric(k) ? 'num' : k === 'tour.result' ? 'result' : null }, t(k))))),
    h('tbody', {}, rows));
  const parts = [scrollBox(table)];
  if (list.away.length) {
    parts.push(h('section', { class: 'away', dataset: { print: 'away' } },
      h('h2', {}, t('print.away')),
      scrollBox(h('table', { class: 'print-table' },
        h('thead', {}, h('tr', {}, ['tour.no', 'tour.player', 'print.rtg', 'print.pts', 'print.why'].map((k) => h('th', { scope: 'col', class: numeric(k) ? 'num' : null }, t(k))))),
        h('tbody', {}, list.away.map((a) => h('tr', { dataset: { away: String(a.player), status: a.status } },
          cell(String(a.player), 'num'), cell(a.name, 'name'), cell(a.rating ? String(a.rating) : '', 'num'), cell(points(a.points), 'num'),
          cell(t('print.status.' + a.status)))))))));
  }
  body.replaceChildren(...parts);
}

// The list follows the evening: while results are missing it reloads them
// every 20 s (the page the QR code opens), until the page is left.
function keepLive(main, body, id, number) {
  const path = location.pathname + location.search;
  const timer = setInterval(async () => {
    if (!body.isConnected || location.pathname + location.search !== path) {
      clearInterval(timer);
      return;
    }
    if (document.hidden) return;
    try {
      const list = await get(`/api/tournaments/${id}/rounds/${number}/pairing-list`);
      if (body.isConnected) fillPairings(body, list);
      if (list.boards.every((b) => b.result)) clearInterval(timer);
    } catch {
      // Offline for a moment: try again at the next tick.
    }
  }, 20000);
}

// A QR code of `text` (the server draws it, /api/qr, or the SVG at `src`),
// inline SVG so that it prints sharp; the text under it unless `showText`
// is false (a seat's code: its token is for scanning, not for reading off
// the paper).
export async function qrCode(figure, text, caption, { showText = true, src = null } = {}) {
  try {
    const r = await fetch(src || '/api/qr?text=' + encodeURIComponent(text));
    if (!r.ok) return;
    const doc = new DOMParser().parseFromString(await r.text(), 'image/svg+xml');
    const svg = doc.documentElement;
    if (svg.nodeName !== 'svg') return;
    svg.setAttribute('role', 'img');
    svg.setAttribute('aria-label', caption);
    svg.removeAttribute('width');
    svg.removeAttribute('height');
    figure.replaceChildren(document.importNode(svg, true),
      showText ? h('figcaption', {}, caption, h('br'), h('span', { class: 'qr-url' }, text)) : '');
  } catch {
    // No code: the page is still the list.
  }
}

// ----- standings -----

// A tie-break's name spelled out: BH-C1 → "Buchholz, cut 1".
function tiebreakName(code) {
  const [base, ...mods] = code.split('-');
  const name = hasKey('print.tb.' + base) ? t('print.tb.' + base) : base;
  const parts = mods.map((m) => {
    const n = m.slice(1);
    if (m[0] === 'C') return t('print.tb.cut', { n });
    if (m[0] === 'H') return t('print.tb.high', { n });
    if (m[0] === 'M') return t('print.tb.median', { n });
    if (m === 'P') return t('print.tb.forfeits');
    return m;
  });
  return [name, ...parts].join(', ');
}

async function renderStandings(main, tour) {
  pageSize(main, false);
  main.append(toolbar(tour, 'standings'));
  const keizer = tour.system === 'keizer';
  if (!tour.completeRounds) {
    main.append(h('h1', {}, `${tour.name} — ${t('tour.standings')}`), h('p', {}, t('tour.noStandings')));
    return;
  }
  const s = await get(`/api/tournaments/${tour.id}/standings`);
  const rating = new Map(tour.players.map((p) => [p.id, p.rating]));
  const fide = s.rows.some((r) => r.fide);
  const dwz = s.rows.some((r) => r.dwz);
  main.append(h('header', { class: 'print-head' }, h('div', {},
    h('h1', {}, `${tour.name} — ${t('tour.standings')}`),
    h('p', { class: 'print-meta' }, t('tour.after', { round: s.round }), ' · ', t('print.date', { date: today() })))));
  const head = [
    ['tour.rank'], ['tour.no'], ['tour.player'], ['print.rtg'], [keizer ? 'tour.keizerScore' : 'tour.points'],
  ].map(([k]) => h('th', { scope: 'col', class: k === 'tour.player' ? null : 'num' }, t(k)));
  const table = h('table', { class: 'standings print-table', dataset: { print: 'standings' } },
    h('thead', {}, h('tr', {}, head,
      s.tiebreaks.map((tb) => h('th', { scope: 'col', class: 'num', title: tiebreakName(tb), dataset: { tiebreak: tb } }, tb)),
      keizer ? [h('th', { scope: 'col', class: 'num' }, t('tour.value')), h('th', { scope: 'col', class: 'num' }, t('tour.games'))] : '',
      fide ? h('th', { scope: 'col', class: 'num' }, t('tour.fideChange')) : '', dwz ? h('th', { scope: 'col', class: 'num' }, t('tour.dwzNew')) : '')),
    h('tbody', {}, s.rows.map((r) => h('tr', { dataset: { rank: String(r.rank), player: String(r.player) } },
      cell(String(r.rank), 'num'), cell(String(r.player), 'num'), cell(r.name ?? '', 'name'),
      cell(String(r.rating ?? rating.get(r.player) ?? ''), 'num'),
      cell(keizer ? r.scoreText : points(r.score), 'num pts'),
      s.tiebreaks.map((tb) => cell(tbValue(r.tiebreaks[tb]), 'num')),
      keizer ? [cell(String(r.value ?? ''), 'num'), cell(String(r.games ?? ''), 'num')] : '',
      // The rating figures (docs/ratings.md), their details as the cell's title.
      fide ? ratingCell('fide', r.fide && signed(r.fide.change, 1),
        r.fide && t('tour.fideTitle', { k: r.fide.k, expected: r.fide.expected.toFixed(2) })) : '',
      dwz ? ratingCell('dwz', r.dwz && `${r.dwz.new} (${signed(r.dwz.new - r.dwz.old, 0)})`,
        r.dwz && t('tour.dwzTitle', { old: r.dwz.old, e: r.dwz.e, expected: r.dwz.expected.toFixed(3) })) : ''))));
  main.append(scrollBox(table));
  if (fide || dwz) main.append(h('p', { class: 'hint' }, t('tour.ratingNote')));
  if (s.tiebreaks.length) {
    main.append(h('section', { class: 'legend', dataset: { legend: 'tiebreaks' } }, h('h2', {}, t('print.tiebreaks')),
      h('dl', {}, s.tiebreaks.flatMap((tb) => [h('dt', {}, tb), h('dd', {}, tiebreakName(tb))]))));
  }
}

function tbValue(v) {
  if (v === undefined || v === null) return '';
  return Number.isInteger(v) ? String(v) : String(Math.round(v * 100) / 100);
}

/** A rating figure with its details as the cell's title. */
function ratingCell(kind, text, title) {
  return text ? h('td', { class: 'num', title, dataset: { [kind]: text } }, text) : h('td', { class: 'num' }, '');
}

/** `+10.0`, `−25.6`, `±0`: a change with its sign, to `decimals` places. */
function signed(value, decimals) {
  const text = Math.abs(value).toFixed(decimals);
  if (Number(text) === 0) return `±${text}`;
  return value < 0 ? `−${text}` : `+${text}`;
}

// ----- the chart: crosstable and wall chart -----

const COLOUR = { white: 'print.w', black: 'print.b' };

// A round of a player as a cell's text: "12w 1", "½ bye", "– exc.".
function chartText(c, useRank) {
  if (c.kind === 'open') return '';
  if (c.kind === 'game') {
    const opp = c.opponent ? `${useRank ? c.opponentRank ?? c.opponent : c.opponent}${c.colour ? t(COLOUR[c.colour]) : ''}` : '';
    return `${opp} ${c.result ?? ''}`.trim();
  }
  if (c.kind === 'absent') return t('print.sym.' + (c.status ?? 'absent'));
  if (c.kind === 'pairing-bye') return t('print.sym.pairing-bye', { points: points(c.points ?? 0) });
  return t('print.sym.' + c.kind);
}

function legend(keys) {
  return h('section', { class: 'legend', dataset: { legend: 'chart' } }, h('h2', {}, t('print.legend')),
    h('dl', {}, keys.flatMap(([sym, text]) => [h('dt', {}, sym), h('dd', {}, t(text))])));
}

const LEGEND = () => [
  ['12' + t('print.w'), 'print.legend.opponent'],
  [t('print.w') + ' / ' + t('print.b'), 'print.legend.colour'],
  ['1 ½ 0', 'print.legend.played'],
  ['+ −', 'print.legend.forfeit'],
  [t('print.sym.pairing-bye', { points: '' }).trim(), 'print.legend.pairingBye'],
  [t('print.sym.full-point-bye'), 'print.legend.fullBye'],
  [t('print.sym.half-point-bye'), 'print.legend.halfBye'],
  [t('print.sym.excused'), 'print.legend.excused'],
  [t('print.sym.club-duty'), 'print.legend.clubDuty'],
  [t('print.sym.unexcused'), 'print.legend.unexcused'],
];

async function renderCrosstable(main, tour) {
  pageSize(main, true);
  main.append(toolbar(tour, 'crosstable'));
  const c = await get(`/api/tournaments/${tour.id}/chart`);
  main.append(h('header', { class: 'print-head' }, h('div', {},
    h('h1', {}, `${c.name} — ${t('tour.crosstable')}`),
    h('p', { class: 'print-meta' }, c.after ? t('print.rankAfter', { round: c.after }) : t('print.noRanks'), ' · ', t('print.date', { date: today() })))));
  // Ranked after the last complete round, the table ends there (a round
  // in progress is the pairing list's); before any, every paired round.
  const shown = c.after || c.rounds;
  const rounds = Array.from({ length: shown }, (_, i) => i + 1);
  const total = (row) => (c.after ? row.cells[c.after - 1].total : row.points);
  const table = h('table', { class: 'crosstable print-table', dataset: { print: 'crosstable' } },
    h('thead', {}, h('tr', {},
      ['tour.rank', 'tour.no', 'tour.player', 'print.rtg'].map((k) => h('th', { scope: 'col', class: k === 'tour.player' ? null : 'num' }, t(k))),
      rounds.map((r) => h('th', { scope: 'col', class: 'round' }, t('print.roundShort', { round: r }))),
      h('th', { scope: 'col', class: 'num' }, t('print.pts')))),
    h('tbody', {}, c.rows.map((row) => h('tr', { dataset: { rank: String(row.rank ?? ''), player: String(row.player) } },
      cell(row.rank ? String(row.rank) : '', 'num'), cell(String(row.player), 'num'), cell(row.name, 'name'), cell(row.rating ? String(row.rating) : '', 'num'),
      row.cells.slice(0, shown).map((x) => h('td', { class: 'cell', dataset: { round: String(x.round), kind: x.kind } }, chartText(x, Boolean(c.after)))),
      cell(points(total(row)), 'num pts')))));
  main.append(scrollBox(table));
  main.append(legend(c.after ? LEGEND() : LEGEND().map(([s, k]) => [s, k === 'print.legend.opponent' ? 'print.legend.opponentNo' : k])));
}

async function renderWallchart(main, tour) {
  pageSize(main, true);
  main.append(toolbar(tour, 'wallchart'));
  const c = await get(`/api/tournaments/${tour.id}/chart`);
  main.append(h('header', { class: 'print-head' }, h('div', {},
    h('h1', {}, `${c.name} — ${t('print.wallchart')}`),
    h('p', { class: 'print-meta' }, t('print.wallchartHint'), ' · ', t('print.date', { date: today() })))));
  const rounds = Array.from({ length: c.totalRounds }, (_, i) => i + 1);
  const rows = [...c.rows].sort((a, b) => a.player - b.player);
  const table = h('table', { class: 'wallchart print-table', dataset: { print: 'wallchart' } },
    h('thead', {}, h('tr', {},
      ['tour.no', 'tour.player', 'print.rtg', 'tour.club'].map((k) => h('th', { scope: 'col', class: k === 'tour.no' || k === 'print.rtg' ? 'num' : null }, t(k))),
      rounds.map((r) => h('th', { scope: 'col', class: 'round' }, t('print.roundShort', { round: r }))),
      h('th', { scope: 'col', class: 'num' }, t('print.pts')), h('th', { scope: 'col', class: 'num' }, t('tour.rank')))),
    h('tbody', {}, rows.map((row) => h('tr', { dataset: { player: String(row.player) } },
      cell(String(row.player), 'num'), cell(row.name, 'name'), cell(row.rating ? String(row.rating) : '', 'num'), cell(row.club ?? '', 'club'),
      row.cells.map((x) => h('td', { class: 'cell', dataset: { round: String(x.round), kind: x.kind } },
        h('span', { class: 'game' }, chartText(x, false)),
        h('span', { class: 'total', dataset: { total: x.total ?? '' } }, points(x.total)))),
      cell(points(row.points), 'num pts'), cell(row.rank ? String(row.rank) : '', 'num')))));
  main.append(scrollBox(table));
  main.append(legend([...LEGEND().map(([s, k]) => [s, k === 'print.legend.opponent' ? 'print.legend.opponentNo' : k]), ['2½', 'print.legend.total']]));
}
