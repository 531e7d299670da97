// The lobby's games in play as small read-only boards with both clocks,
// each a way into the game page to watch it. The list is polled lightly
// (a page of 12, every few seconds); the clocks tick in between.

import { t } from '../i18n.js';
import { get } from '../api.js';
import { h } from '../dom.js';
import { diagram } from '../board.js';
import { parsePosition } from '../fen.js';
import { navigate } from '../app.js';

const SHOWN = 12;

// Milliseconds as a clock reads: d:hh:mm (a day or more), h:mm:ss, m:ss.
export function clockText(ms) {
  if (ms === null || ms === undefined) return '–';
  const s = Math.max(0, Math.floor(ms / 1000));
  const pad = (n) => String(n).padStart(2, '0');
  const [d, hrs, min, sec] = [Math.floor(s / 86400), Math.floor(s / 3600) % 24, Math.floor(s / 60) % 60, s % 60];
  if (d) return `${d}d ${pad(hrs)}:${pad(min)}`;
  if (hrs) return `${hrs}:${pad(min)}:${pad(sec)}`;
  return `${min}:${pad(sec)}`;
}

// Whether `color`'s clock runs: a side still to choose, in a game going on
// whose clocks run (they stand until the first moves, and in a pause).
export function running(state, color) {
  if (state.clockRunning === false || state.paused) return false;
  return state.status === 'started' && state.due?.[color] != null && !state.committed?.[color];
}

function miniGame(g) {
  const clock = (color) => h('span', { class: 'clock', role: 'timer', 'aria-live': 'off', dataset: { clock: color } });
  const player = (color) => h('div', { class: 'mini-player' },
    h('span', { class: 'name' }, color === 'white' ? g.white : g.black), clock(color));
  const box = h('div', { class: 'mini-board' });
  const label = t('lobby.miniBoard', { white: g.white, black: g.black });
  const board = diagram(box, parsePosition(g.state.fen).board, { label });
  // A small board is looked at, not played on: no square takes focus.
  for (const sq of board.el.querySelectorAll('[tabindex]')) sq.tabIndex = -1;
  box.addEventListener('click', () => navigate('/game/' + g.gameId));
  return h('li', { class: 'mini', dataset: { watch: g.gameId } },
    player('black'), box, player('white'),
    h('a', { href: '/game/' + g.gameId, dataset: { link: '' } }, `${g.white} – ${g.black}`),
    ' ', h('span', { class: 'hint' }, t('variant.' + g.variant)));
}

// The section that lists the games in play; `stop()` ends its timers.
export function runningGames() {
  const section = h('section', { class: 'card running', dataset: { section: 'running' } });
  let games = [];
  let fetched = 0; // when `games` was read (performance.now())
  let shown = ''; // the ids and steps drawn, to redraw boards only on a change
  const tick = () => {
    const elapsed = performance.now() - fetched;
    for (const g of games) {
      const el = section.querySelector(`[data-watch="${g.gameId}"]`);
      if (!el) continue;
      for (const color of ['white', 'black']) {
        // An untimed game's times are lichess's 2147483647: no clock.
        const left = g.clock ? g.state[color === 'white' ? 'wtime' : 'btime'] : null;
        const now = left == null ? null : left - (running(g.state, color) ? elapsed : 0);
        const c = el.querySelector(`[data-clock="${color}"]`);
        c.textContent = clockText(now);
        c.classList.toggle('running', running(g.state, color));
      }
    }
  };
  const draw = () => {
    const key = games.map((g) => `${g.gameId}:${g.state.seq}`).join(',');
    if (key === shown && section.firstChild) return;
    shown = key;
    section.replaceChildren(h('h2', {}, t('lobby.watch')),
      games.length ? h('ul', { class: 'minis' }, games.map(miniGame)) : h('p', { class: 'hint' }, t('lobby.noneRunning')));
  };
  const refresh = async () => {
    const answer = await get(`/api/games/playing?nb=${SHOWN}`);
    games = answer.games;
    fetched = performance.now();
    draw();
    tick();
  };
  const clocks = setInterval(tick, 500);
  return { section, refresh, stop: () => clearInterval(clocks) };
}
