// A table game as its display and its phones show it (pages/table-*.js):
// the board, both players with their clocks (running or stopped, said in
// words too) and their commit signs (never what), the phase, the reveal of
// both moves at once, the record in the sources' notation, the result and,
// at the end, the downloads. The phone adds the input (pages/table-play.js).

import { t, addCatalogue, hasKey } from './i18n.js';
import { h } from './dom.js';
import { Board } from './board.js';
import { parsePosition } from './fen.js';
import { RecordView } from './record.js';
import { play } from './sound.js';
import { GameControls, variantOf } from './game-controls.js';
import { renderDownloads } from './game-downloads.js';
import {
  GameFeed, other, phaseText, revealNodes, boardDecor, showClock, readLog, lastStepOf,
} from './game-view.js';
import gameCatalogue from './i18n/game.js';
import catalogue from './i18n/table.js';

addCatalogue(gameCatalogue);
addCatalogue(catalogue);

export class TableView {
  // options: {onMove(from, to), init (the stream request's additions; by
  // default no credentials),
  // onChange() after each line, onRefused(err)}
  constructor(id, options = {}) {
    this.id = id;
    this.options = options;
    this.full = null;
    this.state = null;
    this.lastReveal = null;
    this.lastCheck = null;
    this.receivedAt = 0;
    this.extraDecor = null; // (decor) → adds the page's own marks and arrows
    this.build();
    this.feed = new GameFeed(`/api/board/game/stream/${id}`, {
      onLine: (line) => this.onLine(line),
      over: () => this.over(),
      onReconnecting: () => { this.notice.textContent = t('game.reconnecting'); },
      onRefused: options.onRefused,
      // Without a seat's token: no cookies either. A display (or a refused
      // phone) in a browser logged in as a member seated in the game would
      // otherwise get that player's own view, with the sealed move.
      init: options.init || { credentials: 'omit' },
    });
  }

  build() {
    this.title = h('h1', { class: 'table-title' }, t('table.title'));
    this.boardBox = h('div', { class: 'board-box' });
    this.board = new Board(this.boardBox, { onMove: this.options.onMove });
    this.top = playerPanel();
    this.bottom = playerPanel();
    this.phase = h('p', { class: 'phase-banner', 'aria-live': 'polite', dataset: { phase: '' } });
    this.notice = h('p', { class: 'status', role: 'status', 'aria-live': 'polite' });
    this.result = h('p', { class: 'table-result', role: 'status', hidden: true, dataset: { result: '' } });
    this.reveal = h('div', { class: 'reveal', 'aria-live': 'polite', dataset: { reveal: '' } });
    this.recordView = new RecordView({ onChange: () => {} });
    this.record = h('section', { class: 'card table-record' }, h('h2', {}, t('game.record')), this.recordView.el);
    // The first-move timer only (its buttons are the phone's own).
    this.controls = new GameControls(this);
    this.downloads = h('p', { class: 'exports table-downloads', hidden: true, dataset: { downloads: '' } });
  }

  async start() {
    // 100 ms: the tenths under ten seconds tick smoothly.
    this.timer = setInterval(() => this.tickClocks(), 100);
    await this.feed.start();
    // Opened mid-game: the last step from the log (its marks, the reveal).
    readLog(this.id).then((entries) => {
      if (this.lastReveal) return;
      this.lastReveal = lastStepOf(entries);
      this.render();
    }).catch(() => {});
  }

  stop() {
    clearInterval(this.timer);
    this.feed.stop();
  }

  over() {
    return !!this.state && this.state.status !== 'started';
  }

  onLine(line) {
    switch (line.type) {
      case 'gameFull':
        this.full = line;
        this.setState(line.state);
        break;
      case 'gameState':
        this.setState(line);
        break;
      case 'committed':
        if (this.state) {
          this.rebaseClocks();
          this.state.committed[line.color] = true;
        }
        break;
      case 'reveal': {
        this.lastReveal = line;
        const check = (line.events || []).find((e) => e.type === 'check');
        this.lastCheck = check ? check.color : null;
        play('reveal');
        break;
      }
      case 'move':
        this.lastReveal = { move: line };
        play(/x/.test(line.san || '') ? 'capture' : 'move');
        break;
      default:
        break;
    }
    this.options.onChange?.(line);
    this.render();
  }

  setState(state) {
    const ended = this.state?.status === 'started' && state.status !== 'started';
    this.state = state;
    this.receivedAt = performance.now();
    this.notice.textContent = '';
    if (ended) play('gameEnd');
  }

  // Takes the time run since the state arrived off the running clocks, so
  // that a clock that stops now stops where it showed.
  rebaseClocks() {
    const now = performance.now();
    const elapsed = now - (this.receivedAt || now);
    for (const c of ['white', 'black']) {
      if (this.clockOf(c)?.running) this.state[c === 'white' ? 'wtime' : 'btime'] -= elapsed;
    }
    this.receivedAt = now;
  }

  clockOf(c) {
    return [this.top, this.bottom].find((p) => p.color === c)?.shown;
  }

  render() {
    if (!this.full || !this.state) return;
    const s = this.state;
    const full = this.full;
    this.title.textContent = `${full.white.name} – ${full.black.name}`;
    const bottomColor = this.board.orientation;
    for (const [panel, color] of [[this.bottom, bottomColor], [this.top, other(bottomColor)]]) {
      panel.color = color;
      panel.el.dataset.color = color;
      panel.name.textContent = full[color].name;
      panel.side.textContent = t('color.' + color);
      const committed = s.status === 'started' && s.committed[color] && !!s.due[color];
      panel.sign.hidden = !committed;
      panel.sign.dataset.state = committed ? 'committed' : 'waiting';
      panel.sign.textContent = committed ? t('table.committed') : '';
    }
    const pos = parsePosition(s.fen);
    this.board.setPieces(pos.board);
    const decor = boardDecor(pos, this.lastReveal);
    this.extraDecor?.(decor);
    this.board.setMarks(decor.marks);
    this.board.setArrows(decor.arrows);
    // After the end the result says what there is to say.
    this.phase.textContent = s.status === 'started' ? phaseText(s, full, this.lastCheck) : '';
    this.phase.dataset.phase = s.phase;
    this.reveal.replaceChildren(...revealNodes(s, this.lastReveal));
    this.recordView.update(s.record || [], ['standard', 'chess960'].includes(variantOf(full)));
    this.renderResult();
    this.tickClocks();
  }

  renderResult() {
    const s = this.state;
    const over = s.status !== 'started';
    this.result.hidden = !over && !s.paused;
    this.result.dataset.result = over ? s.result || '*' : '';
    if (over) {
      const reason = hasKey('reason.' + s.reason) ? t('reason.' + s.reason) : s.reason || '';
      this.result.textContent = t('game.over', { result: s.result || '*', reason });
    } else {
      this.result.textContent = s.paused ? t('game.paused') : '';
    }
    this.downloads.hidden = !over;
    if (over && !this.downloads.firstChild) renderDownloads(this.downloads, this.id);
  }

  tickClocks() {
    if (!this.state || !this.full) return;
    const elapsed = performance.now() - (this.receivedAt || performance.now());
    this.controls.tick(elapsed);
    for (const panel of [this.top, this.bottom]) {
      if (!panel.color) continue;
      panel.shown = showClock(panel.clock, this.full, this.state, panel.color, elapsed);
      const running = panel.shown.running;
      if (panel.el.dataset.clock !== (running ? 'running' : 'stopped')) {
        panel.el.dataset.clock = running ? 'running' : 'stopped';
        panel.running.textContent = t(running ? 'table.clockRunning' : 'table.clockStopped');
      }
    }
  }
}

// One player's line: name and colour, the commit sign, the clock and, in
// words, whether it runs.
function playerPanel() {
  const name = h('span', { class: 'name' });
  const side = h('span', { class: 'side-name' });
  const sign = h('span', { class: 'commit-sign', hidden: true, dataset: { state: 'waiting' } });
  const clock = h('span', { class: 'clock', role: 'timer', 'aria-live': 'off' });
  const running = h('span', { class: 'clock-state' });
  const el = h('div', { class: 'player table-player', dataset: { clock: '' } },
    h('span', { class: 'who' }, name, ' ', side, ' ', sign),
    h('span', { class: 'time' }, running, clock));
  return { el, name, side, sign, clock, running, color: null, shown: null };
}
