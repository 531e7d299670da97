// What every view of a running game shares (the game page, the table's
// display and its phones): following the game's stream, the phase banner's
// text, the revealed step, the board's marks and arrows, the clocks.

import { t } from './i18n.js';
import { h } from './dom.js';
import { get, stream } from './api.js';
import { describeEvents, eventSquares, lastMarks } from './reveal.js';
import { splitLine, markOf } from './record.js';
import { clockText, variantOf } from './game-controls.js';

export const other = (c) => (c === 'white' ? 'black' : 'white');

// The input the board alone cannot give (the game page and the table's
// phone): a promotion's piece (`promotion`: the candidate choices) and an
// exchange's captures or its decline (`exchange`: the legal choices, the
// `pending` one pressed). `pick(choice)` takes one.
export function choiceButtons({ promotion, exchange, pending, pick }) {
  const nodes = [];
  if (promotion) {
    nodes.push(h('p', {}, t('game.promoteTo')),
      h('div', { class: 'choices' }, promotion.map((c) => h('button', {
        type: 'button', dataset: { choice: c }, onclick: () => pick(c),
      }, t('promotion.' + c.slice(-1))))));
  }
  if (exchange) {
    nodes.push(h('div', { class: 'choices' }, exchange.map((c) => h('button', {
      type: 'button', dataset: { choice: c }, 'aria-pressed': String(pending === c), onclick: () => pick(c),
    }, c === '-' ? t('game.decline') : t('game.captureWith', { from: c.slice(1, 3), to: c.slice(3, 5) })))));
  }
  return nodes;
}

// A game's stream, opened again when it is cut short (the server ends it
// with the game, as lichess's: then it stays closed). `init` adds to the
// request (a seat's Authorization); `onRefused(err)` takes a refusal (401,
// 403) after the first line, when opening it again cannot help.
export class GameFeed {
  constructor(path, { onLine, over, onReconnecting, onRefused, init }) {
    Object.assign(this, { path, onLine, over, onReconnecting, onRefused, init });
    this.controller = new AbortController();
    this.stopped = false;
  }

  stop() {
    this.stopped = true;
    this.controller.abort();
  }

  // Resolves with the first line; rejects if the first request fails.
  start() {
    let first = true;
    return new Promise((resolve, reject) => {
      stream(this.path, (line) => {
        this.onLine(line);
        if (first) {
          first = false;
          resolve();
        }
      }, this.controller.signal, undefined, this.init)
        .then(() => { if (!this.over()) this.reconnect(); })
        .catch((err) => {
          if (first) reject(err);
          else if ([401, 403].includes(err.status) && this.onRefused) this.onRefused(err);
          else if (!this.over()) this.reconnect();
        });
    });
  }

  reconnect() {
    if (this.stopped) return;
    this.onReconnecting?.();
    this.controller = new AbortController();
    setTimeout(() => {
      if (this.stopped) return;
      this.start().catch((err) => {
        if ([401, 403].includes(err.status) && this.onRefused) this.onRefused(err);
        else this.reconnect();
      });
    }, 2000);
  }
}

// A game's log entries (public: a commit there is only its hash).
export async function readLog(id) {
  const text = await get(`/api/game/${id}/log`);
  return String(text).split('\n').filter(Boolean).map((l) => JSON.parse(l));
}

// The last step of a log (a reveal, or {move} in orthodox play), for a
// page opened mid-game: the stream brings only the steps after it.
export function lastStepOf(entries) {
  const last = [...entries].reverse().find((e) => e.type === 'reveal' || e.type === 'move');
  if (!last) return null;
  return last.type === 'reveal' ? last : { move: last };
}

// The phase banner's text for `state` (lastCheck: the side a reveal left
// in check, for the first-move right).
export function phaseText(state, full, lastCheck) {
  const dueColors = ['white', 'black'].filter((c) => state.due[c]);
  switch (state.phase) {
    case 'first-move-right': {
      // Unknown on a page opened after the end (no check seen, none due).
      const checked = lastCheck || dueColors[0];
      return checked ? t('phase.firstMoveRight', { color: t('color.' + checked) }) : '';
    }
    case 'new-parry':
      return t('phase.newParry', { color: t('color.' + (dueColors[0] || 'white')) });
    case 'exchange': {
      const parts = dueColors.map((c) => t('phase.exchangeSide', { color: t('color.' + c), square: state.due[c].replace('capture-on-', '') }));
      return t('phase.exchange') + ' ' + parts.join('; ');
    }
    case 'alternating':
      return ['synchronschach', 'fairschach'].includes(variantOf(full))
        ? t('phase.orthodox', { color: t('color.' + (dueColors[0] || 'white')) })
        : '';
    default:
      return '';
  }
}

// The revealed step as the record has it (SAN, marks as signs).
export function revealedLine(state, reveal) {
  const record = state.record || [];
  const { moves, markers } = splitLine(record[record.length - 1] || reveal.record || '');
  return [moves, ...markers.map((m) => markOf(m).text)].join(' ');
}

// The reveal box's content: both moves at once and the special cases
// named (empty before the first reveal and in orthodox play).
export function revealNodes(state, reveal) {
  if (!reveal || reveal.type !== 'reveal') return [];
  const special = describeEvents(reveal.events || [], t);
  return [
    h('strong', {}, t('game.revealed')), ' ',
    h('span', { class: 'mono' }, revealedLine(state, reveal)),
    special.length ? h('ul', { class: 'special' }, special.map((s) => h('li', { dataset: { event: s.type } }, s.text))) : '',
  ];
}

// The board's marks (paused pieces, the last step, check, a reveal's
// special squares) and arrows (both revealed moves) for position `pos`
// after `lastReveal` (a reveal line or {move}). `mark(square, class)` adds
// one more.
export function boardDecor(pos, lastReveal) {
  const marks = new Map();
  const mark = (sq, cls) => marks.set(sq, [...(marks.get(sq) || []), cls]);
  for (const sq of pos.paused) mark(sq, 'paused');
  let arrows = [];
  if (lastReveal?.type === 'reveal') {
    arrows = arrowsOf(lastReveal.white?.choice, lastReveal.black?.choice);
    for (const sq of eventSquares(lastReveal.events || [])) mark(sq, 'event');
  }
  const last = lastMarks(lastReveal, pos.board);
  for (const sq of last.last) mark(sq, 'last');
  for (const sq of last.check) mark(sq, 'check');
  return { marks, arrows, mark };
}

// A reveal or a move of the log or the stream as a position to browse.
export function positionOf(e) {
  const arrows = e.type === 'move'
    ? arrowsOf(e.color === 'white' ? e.uci : null, e.color === 'black' ? e.uci : null)
    : arrowsOf(e.white?.choice, e.black?.choice);
  return { fen: e.fen, arrows };
}

export function arrowsOf(white, black) {
  const arrow = (choice, kind) => {
    if (!choice || choice === '-') return [];
    const m = choice.replace(/^x/, '');
    return [{ from: m.slice(0, 2), to: m.slice(2, 4), kind }];
  };
  return [...arrow(white, 'white'), ...arrow(black, 'black')];
}

// The time of `c` when `state` arrived, or null in an untimed game (whose
// `wtime`/`btime` are lichess's 2147483647, not a clock).
export function timeOf(full, state, c) {
  if (!full?.timeControl || !state) return null;
  return c === 'white' ? state.wtime : state.btime;
}

// Whether the clock of `c` runs now (`clockRunning` is false while the
// first moves are awaited).
export function clockRuns(full, state, c) {
  const s = state;
  return s.status === 'started' && !s.paused && s.clockRunning !== false && !!s.due[c] && !s.committed[c] && timeOf(full, s, c) !== null;
}

// Shows the clock of `c` in `el`, `elapsed` ms after the state arrived;
// returns what it showed ({left, running}).
export function showClock(el, full, state, c, elapsed) {
  const base = timeOf(full, state, c);
  const running = clockRuns(full, state, c);
  const left = base === null ? null : running ? base - elapsed : base;
  el.textContent = clockText(left);
  el.classList.toggle('running', running);
  el.classList.toggle('low', left !== null && left < 20000 && state.status === 'started');
  el.setAttribute('aria-label', t('game.clockOf', { color: t('color.' + c), time: clockText(left) }));
  return { left, running };
}
