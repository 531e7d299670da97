// Tournaments for the director: create or import, register players, the
// evening's check-in, pairing, results by board, standings, crosstable,
// printable lists (A4 and projector), TRF export. Everyone may look.

import { t, addCatalogue } from '../i18n.js';
import { get, post, me } from '../api.js';
import { h, field, select } from '../dom.js';
import { navigate, toast } from '../app.js';
import { ask } from '../dialog.js';
import { CLOCKS } from './lobby.js';
import catalogue from '../i18n/tournaments.js';

addCatalogue(catalogue);

const SYSTEMS = ['dutch', 'keizer', 'round-robin'];
const VARIANTS = ['standard', 'fairschach', 'synchronschach'];
const PRESETS = ['source', 'example', 'ratio', 'participants', 'club', 'strict', 'stable', 'frozen', 'top100'];
const STATUSES = ['present', 'excused', 'unexcused', 'club-duty', 'half-point-bye', 'full-point-bye'];
const RESULTS = ['1-0', '0-1', '1/2-1/2', '+-', '-+'];

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
  if (view) return (await import('./tournament-print.js')).render(main, tour, view);
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

function statusOf(tour, round, player) {
  return tour.attendance.find((a) => a.round === round && a.player === player)?.status ?? 'present';
}

async function renderDetail(main, tour) {
  const reload = () => navigate(`/tournaments/${tour.id}`, true);
  const rounds = tour.totalRounds ?? tour.pairedRounds;
  main.append(h('h1', {}, tour.name),
    h('p', { class: 'hint' }, [t('system.' + tour.system), tour.double ? t('tour.double') : '', t('variant.' + tour.variant),
      tour.chess960 ? 'Chess960' : '', tour.clock || '', t('tour.progress', { paired: tour.pairedRounds, total: rounds ?? '?' })].filter(Boolean).join(' · ')),
    h('p', { class: 'no-print' },
      h('a', { href: `/tournaments/${tour.id}/standings`, dataset: { link: '' } }, t('tour.standings')), ' · ',
      h('a', { href: `/tournaments/${tour.id}/crosstable`, dataset: { link: '' } }, t('tour.crosstable')), ' · ',
      h('a', { href: `/tournaments/${tour.id}/wallchart`, dataset: { link: '' } }, t('print.wallchart')), ' · ',
      h('a', { href: `/api/tournaments/${tour.id}/trf`, download: `${tour.name}.trf` }, t('tour.exportTrf'))));
  const director = isDirector();
  const next = tour.pairedRounds + 1;
  const complete = tour.completeRounds === tour.pairedRounds;
  if (director && (!rounds || next <= rounds)) main.append(eveningSection(tour, next, complete, reload));
  for (let r = tour.rounds.length; r >= 1; r--) main.append(roundSection(tour, tour.rounds[r - 1], director, reload));
  main.append(playersSection(tour, director, reload));
  if (tour.log?.length) {
    main.append(h('section', { class: 'card' }, h('h2', {}, t('tour.log')),
      h('ul', {}, tour.log.map((l) => h('li', {}, t('tour.logLine', {
        at: new Date(l.at).toLocaleString(document.documentElement.lang), by: l.by, round: l.round, board: l.board,
        from: l.from ?? '–', to: l.to,
      }))))));
  }
}

function eveningSection(tour, round, complete, reload) {
  const active = tour.players.filter((p) => p.withdrawnAfter === null || p.withdrawnAfter === undefined || p.withdrawnAfter >= round);
  const rows = active.map((p) => {
    const choose = select('status', STATUSES.map((s) => [s, t('status.' + s)]), statusOf(tour, round, p.id));
    choose.dataset.attendance = p.id;
    choose.setAttribute('aria-label', t('tour.statusOf', { name: p.name }));
    choose.addEventListener('change', () =>
      act(post(`/api/tournaments/${tour.id}/attendance`, { round, player: p.id, status: choose.value }), 'tour.saved'));
    return h('tr', {}, h('td', {}, String(p.id)), h('td', {}, p.name), h('td', {}, choose));
  });
  const online = h('input', { type: 'checkbox', name: 'online' });
  const pair = h('button', {
    type: 'button', class: 'primary', dataset: { action: 'pair' }, disabled: !complete,
    onclick: async () => {
      const r = await act(post(`/api/tournaments/${tour.id}/rounds`, online.checked ? { online: true } : {}), 'tour.paired', { round });
      if (r) reload();
    },
  }, t('tour.pair', { round }));
  return h('section', { class: 'card', dataset: { evening: String(round) } },
    h('h2', {}, t('tour.evening', { round })),
    h('p', { class: 'hint' }, t('tour.checkinHint')),
    h('table', {}, h('thead', {}, h('tr', {}, h('th', {}, t('tour.no')), h('th', {}, t('tour.player')), h('th', {}, t('tour.attendance')))), h('tbody', {}, rows)),
    h('p', {}, h('label', { class: 'check' }, online, ' ', t('tour.online'))),
    complete ? '' : h('p', { class: 'error' }, t('tour.missingResults')),
    pair);
}

function roundSection(tour, round, director, reload) {
  const rows = round.boards.map((b) => {
    let result = b.result || '';
    let cell = result || '–';
    if (director) {
      const choose = select('result', [['', '–'], ...RESULTS.map((r) => [r, r])], result);
      choose.dataset.resultBoard = b.board;
      choose.setAttribute('aria-label', t('tour.resultOf', { board: b.board }));
      choose.addEventListener('change', async () => {
        if (!choose.value) return;
        const r = await act(post(`/api/tournaments/${tour.id}/rounds/${round.round}/results`, { board: b.board, result: choose.value }), 'tour.saved');
        if (r) reload();
      });
      cell = choose;
    }
    return h('tr', { dataset: { board: b.board } },
      h('td', {}, String(b.board)),
      h('td', {}, b.whiteName ?? nameOf(tour, b.white), ' (', String(b.white), ')'),
      h('td', {}, b.blackName ?? nameOf(tour, b.black), ' (', String(b.black), ')'),
      h('td', {}, cell),
      h('td', {}, b.gameId ? h('a', { href: `/game/${b.gameId}`, dataset: { link: '' } }, t('tour.game')) : ''));
  });
  const section = h('section', { class: 'card', dataset: { round: round.round } },
    h('h2', {}, t('tour.round', { round: round.round })),
    h('table', {}, h('thead', {}, h('tr', {}, h('th', {}, t('tour.board')), h('th', {}, t('color.white')), h('th', {}, t('color.black')), h('th', {}, t('tour.result')), h('th', {}, ''))), h('tbody', {}, rows)),
    round.away?.length
      ? h('p', { dataset: { away: '' } }, round.away.map((a) => `${a.name} (${a.player}): ${t('print.status.' + a.status)}`).join(' · '))
      : round.bye ? h('p', {}, t('tour.bye', { name: round.byeName ?? nameOf(tour, round.bye) })) : '',
    round.chess960 ? h('p', { class: 'mono' }, `Chess960 #${round.chess960.number}: ${round.chess960.fen}`) : '',
    h('p', { class: 'no-print' }, h('a', { href: `/tournaments/${tour.id}/print?round=${round.round}`, dataset: { link: '', action: 'print' } }, t('tour.printList'))));
  return section;
}

function playersSection(tour, director, reload) {
  const rows = tour.players.map((p) => h('tr', {},
    h('td', {}, String(p.id)), h('td', {}, p.name), h('td', {}, p.rating ? String(p.rating) : ''), h('td', {}, p.club || ''),
    h('td', {}, p.username || (p.guest ? t('tour.guest') : '')),
    h('td', {}, p.withdrawnAfter !== null && p.withdrawnAfter !== undefined ? t('tour.withdrawn', { round: p.withdrawnAfter })
      : p.firstRound > 1 ? t('tour.lateEntry', { round: p.firstRound }) : ''),
    h('td', {}, director && (p.withdrawnAfter === null || p.withdrawnAfter === undefined)
      ? h('button', { type: 'button', dataset: { action: 'withdraw', player: p.id }, onclick: async () => {
          if (!(await ask(t('tour.confirmWithdraw', { name: p.name }), t('tour.withdraw')))) return;
          if (await act(post(`/api/tournaments/${tour.id}/players/${p.id}/withdraw`), 'tour.saved')) reload();
        } }, t('tour.withdraw'))
      : '')));
  const section = h('section', { class: 'card' }, h('h2', {}, t('tour.players', { n: tour.players.length })),
    h('table', {}, h('thead', {}, h('tr', {}, ...['tour.no', 'tour.player', 'tour.rating', 'tour.club', 'tour.account', 'tour.state', ''].map((k) => h('th', {}, k ? t(k) : '')))), h('tbody', {}, rows)));
  if (director) {
    const form = h('form', { class: 'inline-form', dataset: { form: 'player' } },
      h('h3', {}, t('tour.addPlayer')),
      field(t('tour.player'), h('input', { name: 'name', required: true, maxlength: '100' })),
      field(t('tour.rating'), h('input', { name: 'rating', type: 'number', min: '0', max: '3500' })),
      field(t('tour.club'), h('input', { name: 'club', maxlength: '100' })),
      field(t('tour.account'), h('input', { name: 'username', maxlength: '64' })),
      h('label', { class: 'check' }, h('input', { type: 'checkbox', name: 'guest' }), ' ', t('tour.guest')),
      h('button', { type: 'submit', dataset: { action: 'add-player' } }, t('tour.add')));
    form.addEventListener('submit', async (e) => {
      e.preventDefault();
      const body = { name: form.name.value.trim() };
      if (form.rating.value) body.rating = Number(form.rating.value);
      if (form.club.value.trim()) body.club = form.club.value.trim();
      if (form.username.value.trim()) body.username = form.username.value.trim();
      if (form.guest.checked) body.guest = true;
      if (await act(post(`/api/tournaments/${tour.id}/players`, body), 'tour.added', { name: body.name })) reload();
    });
    section.append(form);
  }
  return section;
}
