// One tournament's page, in the order of a club evening (issue #26):
//   1. tonight's round: the pairings with result entry for the director,
//      each board's report state (open, reported, disputed, confirmed), and
//      for a player of a board their own board with "report result"
//      buttons; live: a member's tab follows the event stream
//      (`tournamentBoard` events), a visitor's tab (a projector) polls;
//   2. check-in for the next round, once every result of tonight is in
//      (before that a quiet note says what is missing); it offers exactly
//      the statuses the tournament's system accepts (`attendanceStatuses`
//      of the tournament's JSON);
//   3. earlier rounds, the players, the log of corrections.
// Tables reflow into label/value lines on a phone (`table.stack`), so the
// page fits 360 px.

import { t } from '../i18n.js';
import { get, post, me, isDirector } from '../api.js';
import { h, field, select } from '../dom.js';
import { navigate, act } from '../app.js';
import { ask } from '../dialog.js';
import { subscribe } from '../events.js';

const RESULTS = ['1-0', '0-1', '1/2-1/2', '+-', '-+'];
// What a player reports, and how a button shows it.
const REPORTS = [['1-0', '1-0'], ['1/2-1/2', '½-½'], ['0-1', '0-1']];
// A visitor's page (no event stream) asks for the round this often.
const POLL_MS = 5000;

const shown = (result) => (result === '1/2-1/2' ? '½-½' : result);

let stopLive = null; // ends the live updates of the page shown
let refreshNow = null; // refreshes tonight's round of the page shown

export function leave() {
  stopLive?.();
  stopLive = null;
  refreshNow = null;
  document.getElementById('main')?.classList.remove('evening-page');
}

function nameOf(tour, id) {
  return tour.players.find((p) => p.id === id)?.name ?? `#${id}`;
}

function statusOf(tour, round, player) {
  return tour.attendance.find((a) => a.round === round && a.player === player)?.status ?? 'present';
}

// A cell of a table that reflows on a phone: its header as the label.
const td = (label, ...children) => h('td', { dataset: { label } }, ...children);

// The player (starting rank) the logged-in member is in `tour`, if any.
function myPlayer(tour) {
  const name = me()?.username?.toLowerCase();
  return name ? tour.players.find((p) => p.username?.toLowerCase() === name) : undefined;
}

export async function renderDetail(main, tour) {
  leave();
  main.classList.add('evening-page');
  const page = { tour, main };
  draw(page);
  live(page);
}

// The whole page from `page.tour`.
function draw(page) {
  const { tour, main } = page;
  const reload = () => navigate(`/tournaments/${tour.id}`, true);
  const director = isDirector();
  const rounds = tour.totalRounds ?? tour.pairedRounds;
  const current = tour.rounds[tour.pairedRounds - 1];
  const complete = tour.completeRounds === tour.pairedRounds;
  main.replaceChildren(
    h('h1', {}, tour.name),
    h('p', { class: 'hint' }, [t('system.' + tour.system), tour.double ? t('tour.double') : '', t('variant.' + tour.variant),
      tour.chess960 ? 'Chess960' : '', tour.clock || '', t('tour.progress', { paired: tour.pairedRounds, total: rounds ?? '?' })].filter(Boolean).join(' · ')),
    h('p', { class: 'no-print' },
      h('a', { href: `/tournaments/${tour.id}/standings`, dataset: { link: '' } }, t('tour.standings')), ' · ',
      h('a', { href: `/tournaments/${tour.id}/crosstable`, dataset: { link: '' } }, t('tour.crosstable')), ' · ',
      h('a', { href: `/tournaments/${tour.id}/wallchart`, dataset: { link: '' } }, t('print.wallchart')), ' · ',
      h('a', { href: `/api/tournaments/${tour.id}/trf`, download: `${tour.name}.trf` }, t('tour.exportTrf'))));
  page.mine = null;
  page.current = null;
  if (current) {
    page.mine = myBoard(tour, current);
    if (page.mine) main.append(page.mine);
    page.current = roundSection(tour, current, director, reload, true);
    main.append(page.current);
  }
  const next = tour.pairedRounds + 1;
  if (director && (!rounds || next <= rounds)) {
    main.append(complete ? checkinSection(tour, next, reload) : waitingNote(tour, next));
  }
  for (let r = tour.rounds.length - 1; r >= 1; r--) main.append(roundSection(tour, tour.rounds[r - 1], director, reload, false));
  main.append(playersSection(tour, director, reload));
  if (tour.log?.length) {
    main.append(h('section', { class: 'card' }, h('h2', {}, t('tour.log')),
      h('ul', {}, tour.log.map((l) => h('li', {}, t('tour.logLine', {
        at: new Date(l.at).toLocaleString(document.documentElement.lang), by: l.by, round: l.round, board: l.board,
        from: l.from ?? '–', to: l.to,
      }))))));
  }
}

// Keeps tonight's round current: events for a member, a poll for a
// visitor. A change of the round's completeness (check-in opens) or a
// new round redraws the page; else the round and the player's board alone.
function live(page) {
  const id = page.tour.id;
  let pending = null;
  let stopped = false;
  const refresh = async () => {
    const tour = await get(`/api/tournaments/${id}`);
    if (stopped) return; // the page was left (leave() stops it)
    const before = page.tour;
    page.tour = tour;
    if (tour.pairedRounds !== before.pairedRounds || tour.completeRounds !== before.completeRounds || !page.current) {
      draw(page);
      return;
    }
    const current = tour.rounds[tour.pairedRounds - 1];
    const fresh = roundSection(tour, current, isDirector(), () => navigate(`/tournaments/${id}`, true), true);
    page.current.replaceWith(fresh);
    page.current = fresh;
    const mine = myBoard(tour, current);
    if (page.mine && mine) page.mine.replaceWith(mine);
    else if (mine) fresh.before(mine);
    else page.mine?.remove();
    page.mine = mine;
  };
  const soon = () => {
    clearTimeout(pending);
    pending = setTimeout(() => refresh().catch(() => {}), 200);
  };
  refreshNow = soon;
  const unsubscribe = subscribe((event) => {
    if (event.type === 'streamOpen' || (event.type === 'tournamentBoard' && event.board?.tournament === id)) soon();
  });
  // A member's tab has the stream; a visitor's (a projector) asks.
  const poll = me() ? null : setInterval(soon, POLL_MS);
  stopLive = () => {
    stopped = true;
    clearTimeout(pending);
    clearInterval(poll);
    unsubscribe();
  };
}

// ----- tonight's round -----

// The logged-in player's board of tonight's round, with the buttons to
// report its result while it has none.
function myBoard(tour, round) {
  const me_ = myPlayer(tour);
  if (!me_) return null;
  const b = round.boards.find((x) => x.white === me_.id || x.black === me_.id);
  if (!b) return null;
  const side = b.white === me_.id ? 'white' : 'black';
  const other = side === 'white' ? 'black' : 'white';
  const state = b.result ? 'confirmed' : b.report?.state ?? 'open';
  const mineReported = b.report?.[side] ?? null;
  const theirs = b.report?.[other] ?? null;
  const section = h('section', { class: 'card my-board', dataset: { myBoard: String(b.board), myReportState: state } },
    h('h2', {}, t('eve.myBoard', { board: b.board, round: round.round })),
    h('p', { class: 'my-pairing' }, h('strong', {}, b.whiteName ?? nameOf(tour, b.white)), ' – ', h('strong', {}, b.blackName ?? nameOf(tour, b.black)),
      ' ', h('span', { class: 'hint' }, t(side === 'white' ? 'eve.youWhite' : 'eve.youBlack'))));
  const status = h('p', { role: 'status', dataset: { reportStatus: '' } });
  if (b.result) status.append(t('eve.entered', { result: shown(b.result) }));
  else if (b.display) status.append(t('eve.atTable'), ' ', h('a', { href: b.display }, t('tour.display')));
  else if (b.gameId) status.append(t('eve.online'), ' ', h('a', { href: `/game/${b.gameId}`, dataset: { link: '' } }, t('tour.game')));
  else if (state === 'disputed') status.append(t('eve.disputedMine', { mine: shown(mineReported), theirs: shown(theirs) }));
  else if (mineReported) status.append(t('eve.waiting', { result: shown(mineReported) }));
  else if (theirs) status.append(t('eve.opponentReported', { result: shown(theirs) }));
  else status.append(t('eve.reportPrompt'));
  section.append(status);
  if (!b.result && !b.gameId) {
    const buttons = h('div', { class: 'report-buttons', role: 'group', 'aria-label': t('eve.report') },
      REPORTS.map(([value, text]) => h('button', {
        type: 'button', class: value === mineReported ? 'primary' : '', dataset: { report: value },
        'aria-pressed': String(value === mineReported),
        onclick: async () => {
          const r = await act(post(`/api/tournaments/${tour.id}/rounds/${round.round}/report`, { board: b.board, result: value }),
            'eve.reported', { result: text });
          // The event comes too; one's own report shows at once.
          if (r) refreshNow?.();
        },
      }, text)));
    section.append(h('p', { class: 'hint' }, t('eve.reportHint')), buttons);
  }
  return section;
}

// A board's report state as a short badge.
function stateBadge(b) {
  const state = b.result ? 'confirmed' : b.report?.state ?? 'open';
  const text = state === 'reported'
    ? t('eve.stateReported', { result: shown(b.report.white ?? b.report.black) })
    : state === 'disputed'
      ? t('eve.stateDisputed', { white: shown(b.report.white), black: shown(b.report.black) })
      : t('eve.state.' + state);
  return h('span', { class: 'report-state', dataset: { state } }, text);
}

// A board's links: its game, or at a table its display and (for a
// director) the table's page with the seats' codes. The seat links
// themselves are not drawn here: this page may be on the projector.
function gameLinks(b, director) {
  if (b.display) {
    const display = h('a', { href: b.display, dataset: { display: String(b.board) } }, t('tour.display'));
    if (!director || b.result) return display;
    return h('span', {}, display, ' · ', h('a', { href: `/tables/${b.gameId}`, dataset: { seats: String(b.board) } }, t('tour.seats')));
  }
  return b.gameId ? h('a', { href: `/game/${b.gameId}`, dataset: { link: '' } }, t('tour.game')) : '';
}

function roundSection(tour, round, director, reload, tonight) {
  const L = {
    board: t('tour.board'), white: t('color.white'), black: t('color.black'), result: t('tour.result'), state: t('eve.report'),
  };
  const rows = round.boards.map((b) => {
    const result = b.result || '';
    let cell = result ? shown(result) : '–';
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
    const cells = [
      td(L.board, String(b.board)),
      td(L.white, b.whiteName ?? nameOf(tour, b.white), ' (', String(b.white), ')'),
      td(L.black, b.blackName ?? nameOf(tour, b.black), ' (', String(b.black), ')'),
      td(L.result, cell),
    ];
    if (tonight) {
      const state = td(L.state, stateBadge(b));
      // The director approves what a player reported (or decides a dispute).
      const reported = [...new Set([b.report?.white, b.report?.black].filter(Boolean))];
      if (director && !b.result && reported.length) {
        state.append(...reported.map((value) => h('button', {
          type: 'button', class: 'approve', dataset: { approve: value },
          'aria-label': t('eve.approveOf', { result: shown(value), board: b.board }),
          onclick: async () => {
            const r = await act(post(`/api/tournaments/${tour.id}/rounds/${round.round}/results`, { board: b.board, result: value }), 'tour.saved');
            if (r) reload();
          },
        }, t('eve.approve', { result: shown(value) }))));
      }
      cells.push(state);
    }
    cells.push(td('', gameLinks(b, director)));
    const state = b.result ? 'confirmed' : b.report?.state ?? 'open';
    return h('tr', { dataset: tonight ? { board: b.board, reportState: state } : { board: b.board } }, cells);
  });
  const heads = [L.board, L.white, L.black, L.result, ...(tonight ? [L.state] : []), ''];
  const table = h('table', { class: 'stack pairing-table' },
    h('thead', {}, h('tr', {}, heads.map((x) => h('th', {}, x)))), h('tbody', {}, rows));
  const open = round.boards.filter((b) => !b.result).length;
  const section = h('section', { class: tonight ? 'card' : '', dataset: tonight ? { round: round.round, current: '' } : { round: round.round } },
    tonight ? h('h2', {}, t('eve.tonight', { round: round.round })) : '',
    tonight && round.boards.length
      ? h('p', { class: 'hint', dataset: { openBoards: String(open) } },
          open ? t('eve.openBoards', { open, total: round.boards.length }) : t('eve.allIn'))
      : '',
    table,
    round.away?.length
      ? h('p', { dataset: { away: '' } }, round.away.map((a) => `${a.name} (${a.player}): ${t('print.status.' + a.status)}`).join(' · '))
      : round.bye ? h('p', {}, t('tour.bye', { name: round.byeName ?? nameOf(tour, round.bye) })) : '',
    round.chess960 ? h('p', { class: 'mono wrap' }, `Chess960 #${round.chess960.number}: ${round.chess960.fen}`) : '',
    h('p', { class: 'no-print' }, h('a', { href: `/tournaments/${tour.id}/print?round=${round.round}`, dataset: { link: '', action: 'print' } }, t('tour.printList'))));
  if (!tonight) return h('details', { class: 'card earlier', dataset: { earlier: String(round.round) } },
    h('summary', {}, t('tour.round', { round: round.round })), section);
  return section;
}

// ----- check-in for the next round -----

// Before tonight's results are in, quietly (tonight's round counts what is
// missing, live).
function waitingNote(tour, next) {
  return h('section', { class: 'card', dataset: { checkinWaits: String(next) } },
    h('h2', {}, t('tour.evening', { round: next })),
    h('p', { class: 'hint' }, t('eve.checkinLater', { round: next, current: tour.pairedRounds })));
}

function checkinSection(tour, round, reload) {
  const statuses = tour.attendanceStatuses ?? ['present'];
  const active = tour.players.filter((p) => (p.withdrawnAfter === null || p.withdrawnAfter === undefined || p.withdrawnAfter >= round)
    && (p.firstRound ?? 1) <= round);
  const L = { no: t('tour.no'), player: t('tour.player'), attendance: t('tour.attendance') };
  const rows = active.map((p) => {
    const choose = select('status', statuses.map((s) => [s, t('status.' + s)]), statusOf(tour, round, p.id));
    choose.dataset.attendance = p.id;
    choose.setAttribute('aria-label', t('tour.statusOf', { name: p.name }));
    choose.addEventListener('change', () =>
      act(post(`/api/tournaments/${tour.id}/attendance`, { round, player: p.id, status: choose.value }), 'tour.saved'));
    return h('tr', {}, td(L.no, String(p.id)), td(L.player, p.name), td(L.attendance, choose));
  });
  // Where the round's games are played: over the board (results entered
  // here), on the server (each member at their own device), or at tables
  // (every board a table game: two phones as inputs, one display).
  const modes = [['board', 'tour.overTheBoard', null], ['online', 'tour.online', true], ['table', 'tour.atTables', 'table']];
  const play = h('fieldset', { class: 'play-mode', dataset: { playMode: '' } }, h('legend', {}, t('tour.playMode')),
    modes.map(([value, key]) => h('label', { class: 'check' },
      h('input', { type: 'radio', name: 'play', value, checked: value === 'board' }), ' ', t(key))));
  const pair = h('button', {
    type: 'button', class: 'primary', dataset: { action: 'pair' },
    onclick: async () => {
      const chosen = play.querySelector('input:checked')?.value ?? 'board';
      const online = modes.find(([value]) => value === chosen)[2];
      const r = await act(post(`/api/tournaments/${tour.id}/rounds`, online === null ? {} : { online }), 'tour.paired', { round });
      if (r) reload();
    },
  }, t('tour.pair', { round }));
  return h('section', { class: 'card', dataset: { evening: String(round) } },
    h('h2', {}, t('tour.evening', { round })),
    h('p', { class: 'hint' }, t('tour.checkinHint'), ' ', t('eve.statusesOf.' + tour.system)),
    // Three columns fit a phone as they are: one line a player.
    h('table', { class: 'checkin' }, h('thead', {}, h('tr', {}, h('th', {}, L.no), h('th', {}, L.player), h('th', {}, L.attendance))), h('tbody', {}, rows)),
    play,
    pair);
}

// ----- the players -----

function playersSection(tour, director, reload) {
  const keys = ['tour.no', 'tour.player', 'tour.rating', 'tour.club', 'tour.account', 'tour.state'];
  const L = Object.fromEntries(keys.map((k) => [k, t(k)]));
  const rows = tour.players.map((p) => h('tr', {},
    td(L['tour.no'], String(p.id)), td(L['tour.player'], p.name), td(L['tour.rating'], p.rating ? String(p.rating) : ''),
    td(L['tour.club'], p.club || ''),
    td(L['tour.account'], p.username || (p.guest ? t('tour.guest') : '')),
    td(L['tour.state'], p.withdrawnAfter !== null && p.withdrawnAfter !== undefined ? t('tour.withdrawn', { round: p.withdrawnAfter })
      : p.firstRound > 1 ? t('tour.lateEntry', { round: p.firstRound }) : ''),
    td('', director && (p.withdrawnAfter === null || p.withdrawnAfter === undefined)
      ? h('button', { type: 'button', dataset: { action: 'withdraw', player: p.id }, onclick: async () => {
          if (!(await ask(t('tour.confirmWithdraw', { name: p.name }), t('tour.withdraw')))) return;
          if (await act(post(`/api/tournaments/${tour.id}/players/${p.id}/withdraw`), 'tour.saved')) reload();
        } }, t('tour.withdraw'))
      : '')));
  const section = h('section', { class: 'card', dataset: { section: 'players' } }, h('h2', {}, t('tour.players', { n: tour.players.length })),
    h('table', { class: 'stack' }, h('thead', {}, h('tr', {}, ...[...keys, ''].map((k) => h('th', {}, k ? t(k) : '')))), h('tbody', {}, rows)));
  if (director) {
    const form = h('form', { class: 'inline-form', dataset: { form: 'player' } },
      h('h3', {}, t('tour.addPlayer')),
      field(t('tour.player'), h('input', { name: 'name', required: true, maxlength: '100' })),
      field(t('tour.rating'), h('input', { name: 'rating', type: 'number', min: '0', max: '3500' })),
      field(t('tour.club'), h('input', { name: 'club', maxlength: '100' })),
      field(t('tour.account'), h('input', { name: 'username', maxlength: '64' })),
      h('label', { class: 'check' }, h('input', { type: 'checkbox', name: 'guest' }), ' ', t('tour.guest')),
      h('details', {}, h('summary', {}, t('tour.ratingFacts')),
        field(t('tour.birthYear'), h('input', { name: 'birthYear', type: 'number', min: '1900', max: '2100' })),
        field(t('tour.dwz'), h('input', { name: 'dwz', type: 'number', min: '1', max: '3500' })),
        field(t('tour.dwzIndex'), h('input', { name: 'dwzIndex', type: 'number', min: '0', max: '9999' })),
        field(t('tour.fideK'), select('fideK', [['', '—'], ['40', '40'], ['20', '20'], ['10', '10']], ''))),
      h('button', { type: 'submit', dataset: { action: 'add-player' } }, t('tour.add')));
    form.addEventListener('submit', async (e) => {
      e.preventDefault();
      const body = { name: form.name.value.trim() };
      if (form.rating.value) body.rating = Number(form.rating.value);
      if (form.club.value.trim()) body.club = form.club.value.trim();
      if (form.username.value.trim()) body.username = form.username.value.trim();
      if (form.guest.checked) body.guest = true;
      for (const [input, key] of [['birthYear', 'birth_year'], ['dwz', 'dwz'], ['dwzIndex', 'dwz_index'], ['fideK', 'fide_k']]) {
        if (form[input].value) body[key] = Number(form[input].value);
      }
      if (await act(post(`/api/tournaments/${tour.id}/players`, body), 'tour.added', { name: body.name })) reload();
    });
    section.append(form);
  }
  return section;
}
