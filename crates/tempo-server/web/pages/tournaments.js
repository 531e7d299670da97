// Tournaments for the director: create or import; one tournament's page
// (tournament-evening.js: the evening in order); standings, crosstable,
// printable lists (A4 and projector), TRF export. Everyone may look.

import { t, addCatalogue } from '../i18n.js';
import { get, post, me } from '../api.js';
import { h, field, select } from '../dom.js';
import { navigate, toast } from '../app.js';
import { diagram } from '../board.js';
import { parsePlacement } from '../fen.js';
import { CLOCKS } from './lobby.js';
import catalogue from '../i18n/tournaments.js';
import { renderDetail, leave } from './tournament-evening.js';

addCatalogue(catalogue);

// The page of one tournament (tournament-evening.js) follows its round live.
export { leave };

const SYSTEMS = ['dutch', 'keizer', 'round-robin'];
const VARIANTS = ['standard', 'fairschach', 'synchronschach'];
const PRESETS = ['source', 'example', 'ratio', 'participants', 'club', 'strict', 'stable', 'frozen', 'top100'];

const isDirector = () => ['arbiter', 'admin'].includes(me()?.role);

async function act(promise, okKey, vars) {
  try {
    const r = await promise;
    if (okKey) toast(t(okKey, vars));
    return r;
  } catch (err) {
    toast(t('error.generic', { reason: err.message }), 'error');
    return null;
  }
}

export async function render(main, [id, view]) {
  if (!id) return renderList(main);
  const tour = await get(`/api/tournaments/${id}`);
  if (view === 'print') return renderPrint(main, tour);
  if (view === 'standings') return renderStandingsPage(main, tour);
  if (view === 'crosstable') return renderCrosstablePage(main, tour);
  return renderDetail(main, tour);
}

// ----- the list and a new tournament -----

async function renderList(main) {
  main.append(h('h1', {}, t('tour.title')));
  const { tournaments } = await get('/api/tournaments');
  main.append(h('section', { class: 'card' },
    tournaments.length
      ? h('ul', {}, tournaments.map((x) => h('li', {},
          h('a', { href: `/tournaments/${x.id}`, dataset: { link: '', tournament: x.id } }, x.name),
          ' · ', t('system.' + x.system))))
      : h('p', { class: 'hint' }, t('tour.none'))));
  if (isDirector()) main.append(h('div', { class: 'columns' }, createForm(), importForm()));
}

function createForm() {
  const keizer = h('fieldset', {}, h('legend', {}, t('tour.keizer')),
    field(t('tour.preset'), select('preset', [['', '—'], ...PRESETS.map((p) => [p, p])], 'club')),
    field(t('tour.keizerSettings'), h('input', { name: 'keizerSettings', placeholder: 'top 50, colour-tie higher' })));
  const form = h('form', { class: 'card', dataset: { form: 'tournament' } },
    h('h2', {}, t('tour.new')),
    field(t('tour.name'), h('input', { name: 'name', required: true, maxlength: '100' })),
    field(t('tour.system'), select('system', SYSTEMS.map((s) => [s, t('system.' + s)]), 'dutch')),
    h('label', { class: 'check' }, h('input', { type: 'checkbox', name: 'double' }), ' ', t('tour.double')),
    field(t('tour.rounds'), h('input', { name: 'rounds', type: 'number', min: '1', max: '99', value: '5', required: true })),
    field(t('tour.variant'), select('variant', VARIANTS.map((v) => [v, t('variant.' + v)]), 'standard')),
    h('label', { class: 'check' }, h('input', { type: 'checkbox', name: 'chess960' }), ' ', t('tour.chess960')),
    field(t('lobby.clock'), select('clock', CLOCKS.map(([v, text]) => [v, text.startsWith('clock.') ? t(text) : text]), '1800+30')),
    field(t('tour.tiebreaks'), h('input', { name: 'tiebreaks', placeholder: 'BH-C1,BH,SB' })),
    keizer,
    h('button', { type: 'submit', class: 'primary', dataset: { action: 'create-tournament' } }, t('tour.create')),
  );
  const sync = () => {
    keizer.hidden = form.system.value !== 'keizer';
    form.double.parentElement.hidden = form.system.value !== 'round-robin';
  };
  form.system.addEventListener('change', sync);
  sync();
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const body = { name: form.name.value.trim(), system: form.system.value, rounds: Number(form.rounds.value), variant: form.variant.value };
    if (form.chess960.checked) body.chess960 = true;
    if (form.clock.value) body.clock = form.clock.value;
    if (form.tiebreaks.value.trim()) body.tiebreaks = form.tiebreaks.value.split(',').map((s) => s.trim()).filter(Boolean);
    if (body.system === 'keizer') {
      // A preset first, then single settings as `tempo pair` takes them.
      const keizer = form.preset.value ? { preset: form.preset.value } : {};
      for (const part of form.keizerSettings.value.split(',')) {
        const [key, ...value] = part.trim().split(/\s+/);
        if (key && value.length) keizer[key] = value.join(' ');
      }
      if (Object.keys(keizer).length) body.keizer = keizer;
    }
    if (body.system === 'round-robin' && form.double.checked) body.double = true;
    const r = await act(post('/api/tournaments', body));
    if (r) navigate(`/tournaments/${r.id}`);
  });
  return form;
}

function importForm() {
  const form = h('form', { class: 'card', dataset: { form: 'import' } },
    h('h2', {}, t('tour.import')),
    field(t('tour.trfFile'), h('input', { type: 'file', name: 'file', accept: '.trf,.txt,text/plain' })),
    field(t('tour.trfText'), h('textarea', { name: 'trf', rows: '6', class: 'mono' })),
    h('button', { type: 'submit', dataset: { action: 'import' } }, t('tour.importButton')));
  form.file.addEventListener('change', async () => {
    const file = form.file.files[0];
    if (file) form.trf.value = await file.text();
  });
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const r = await act(post('/api/tournaments', { trf: form.trf.value }));
    if (r) navigate(`/tournaments/${r.id}`);
  });
  return form;
}

// ----- one tournament -----

function nameOf(tour, id) {
  return tour.players.find((p) => p.id === id)?.name ?? `#${id}`;
}

// ----- print views -----

function renderPrint(main, tour) {
  const params = new URLSearchParams(location.search);
  const number = Number(params.get('round')) || tour.pairedRounds;
  const round = tour.rounds[number - 1];
  const big = params.get('view') === 'big';
  main.classList.toggle('projector', big);
  main.append(h('p', { class: 'no-print' },
    h('a', { href: `/tournaments/${tour.id}`, dataset: { link: '' } }, '← ' + tour.name), ' · ',
    h('a', { href: `/tournaments/${tour.id}/print?round=${number}${big ? '' : '&view=big'}`, dataset: { link: '' } }, big ? t('tour.a4') : t('tour.projector')), ' · ',
    h('button', { type: 'button', class: 'link', onclick: () => window.print() }, t('tour.printNow'))));
  main.append(h('h1', {}, `${tour.name} — ${t('tour.round', { round: number })}`));
  if (!round) {
    main.append(h('p', {}, t('tour.notPaired')));
    return;
  }
  main.append(h('table', { class: 'pairings' },
    h('thead', {}, h('tr', {}, h('th', {}, t('tour.board')), h('th', {}, t('color.white')), h('th', {}, ''), h('th', {}, t('color.black')))),
    h('tbody', {}, round.boards.map((b) => h('tr', {},
      h('td', {}, String(b.board)), h('td', {}, b.whiteName ?? nameOf(tour, b.white)), h('td', {}, b.result || '–'), h('td', {}, b.blackName ?? nameOf(tour, b.black)))))));
  if (round.bye) main.append(h('p', {}, t('tour.bye', { name: round.byeName ?? nameOf(tour, round.bye) })));
  if (round.chess960) {
    const box = h('div', { class: 'diagram-box' });
    main.append(h('section', { class: 'chess960' }, h('h2', {}, t('tour.position', { number: round.chess960.number })), box,
      h('p', { class: 'mono', dataset: { xfen: '' } }, round.chess960.fen)));
    diagram(box, parsePlacement(round.chess960.fen.split(' ')[0]), { label: `Chess960 #${round.chess960.number}` });
  }
}

async function standingsTable(tour) {
  const s = await get(`/api/tournaments/${tour.id}/standings`);
  const keizer = tour.system === 'keizer';
  const head = ['tour.rank', 'tour.no', 'tour.player', keizer ? 'tour.keizerScore' : 'tour.points'].map((k) => h('th', {}, t(k)));
  // The rating columns only where some player has a figure (docs/ratings.md).
  const fide = s.rows.some((r) => r.fide), dwz = s.rows.some((r) => r.dwz);
  return h('div', {}, h('p', { class: 'hint' }, t('tour.after', { round: s.round })),
    // Focusable, so that a keyboard can scroll the wide table on a phone.
    h('div', { class: 'scroll', tabindex: '0', role: 'region', 'aria-label': t('tour.standings') }, h('table', { class: 'standings' },
      h('thead', {}, h('tr', {}, head, s.tiebreaks.map((tb) => h('th', {}, tb)), keizer ? [h('th', {}, t('tour.value')), h('th', {}, t('tour.games'))] : '',
        fide ? h('th', {}, t('tour.fideChange')) : '', dwz ? h('th', {}, t('tour.dwzNew')) : '')),
      h('tbody', {}, s.rows.map((r) => h('tr', {},
        h('td', {}, String(r.rank)), h('td', {}, String(r.player)), h('td', {}, r.name ?? ''), h('td', {}, r.scoreText ?? String(r.score)),
        s.tiebreaks.map((tb) => h('td', {}, String(r.tiebreaks[tb] ?? ''))),
        keizer ? [h('td', {}, String(r.value ?? '')), h('td', {}, String(r.games ?? ''))] : '',
        fide ? ratingCell('fide', r.fide && signed(r.fide.change, 1), r.fide && t('tour.fideTitle', { k: r.fide.k, expected: r.fide.expected.toFixed(2) })) : '',
        dwz ? ratingCell('dwz', r.dwz && `${r.dwz.new} (${signed(r.dwz.new - r.dwz.old, 0)})`, r.dwz && t('tour.dwzTitle', { old: r.dwz.old, e: r.dwz.e, expected: r.dwz.expected.toFixed(3) })) : ''))))),
    fide || dwz ? h('p', { class: 'hint' }, t('tour.ratingNote')) : '');
}

/** A rating figure with its details as the cell's title. */
function ratingCell(kind, text, title) {
  return text ? h('td', { title, dataset: { [kind]: text } }, text) : h('td', {}, '');
}

function signed(value, decimals) {
  const text = Math.abs(value).toFixed(decimals);
  return value < 0 ? `−${text}` : `+${text}`;
}

async function renderStandingsPage(main, tour) {
  main.append(h('p', { class: 'no-print' }, h('a', { href: `/tournaments/${tour.id}`, dataset: { link: '' } }, '← ' + tour.name), ' · ',
    h('button', { type: 'button', class: 'link', onclick: () => window.print() }, t('tour.printNow'))));
  main.append(h('h1', {}, `${tour.name} — ${t('tour.standings')}`));
  main.append(tour.completeRounds ? await standingsTable(tour) : h('p', {}, t('tour.noStandings')));
}

async function renderCrosstablePage(main, tour) {
  const c = await get(`/api/tournaments/${tour.id}/crosstable`);
  main.append(h('p', { class: 'no-print' }, h('a', { href: `/tournaments/${tour.id}`, dataset: { link: '' } }, '← ' + tour.name)));
  main.append(h('h1', {}, `${tour.name} — ${t('tour.crosstable')}`));
  const rounds = Array.from({ length: c.rounds }, (_, i) => i + 1);
  main.append(h('div', { class: 'scroll' }, h('table', { class: 'crosstable' },
    h('thead', {}, h('tr', {}, h('th', {}, t('tour.no')), h('th', {}, t('tour.player')), rounds.map((r) => h('th', {}, String(r))), h('th', {}, t('tour.points')))),
    h('tbody', {}, c.players.map((p) => h('tr', {},
      h('td', {}, String(p.player)), h('td', {}, p.name),
      p.rounds.map((e) => h('td', { class: 'mono' }, e.opponent ? `${e.opponent}${e.colour === 'white' ? 'w' : e.colour === 'black' ? 'b' : ''}${e.result ?? ''}` : (e.result ?? (e.status ? t('status.' + e.status) : '')))),
      h('td', {}, String(p.points))))))));
}
