// A game's page, for its players and for spectators alike: the board,
// both clocks, entering → changing → committing a choice, the opponent's
// commit sign (never what), the reveal of both moves at once, phases,
// the record, resign/draw, exports; replay once the game is over.

import { t, addCatalogue, hasKey } from '../i18n.js';
import { get, post, me } from '../api.js';
import { h } from '../dom.js';
import { Board } from '../board.js';
import { parsePosition, uciToDigits } from '../fen.js';
import { toast } from '../app.js';
import { matchInput, destinations, choicesFor, premoveDestinations } from '../moves.js';
import { play, soundOn, setSoundOn } from '../sound.js';
import { RecordView, splitLine } from '../record.js';
import catalogue from '../i18n/game.js';
import ratingsCatalogue from '../i18n/ratings.js';
import { GameControls, variantOf } from '../game-controls.js';
import { fullscreenButton } from '../fullscreen.js';
import { renderDownloads } from '../game-downloads.js';
import {
  GameFeed, other, phaseText, revealNodes, boardDecor, positionOf, timeOf, clockRuns, showClock, readLog, lastStepOf, choiceButtons,
} from '../game-view.js';

addCatalogue(catalogue);
addCatalogue(ratingsCatalogue);

let session = null; // the page's live state; leave() ends it

export function leave() {
  session?.stop();
  session = null;
}

export async function render(main, [id]) {
  leave();
  session = new GamePage(main, id);
  await session.start();
}

class GamePage {
  constructor(main, id) {
    this.main = main;
    this.id = id;
    this.feed = new GameFeed(`/api/board/game/stream/${id}`, {
      onLine: (line) => this.onLine(line),
      over: () => this.over(),
      onReconnecting: () => { this.status.textContent = t('game.reconnecting'); },
    });
    this.full = null;
    this.state = null;
    this.color = null; // the viewer's seat, or null for a spectator
    this.pending = null; // the entered, not yet committed choice
    this.lastReveal = null;
    this.lastCheck = null;
    this.timer = null;
    this.stopped = false;
    this.controls = new GameControls(this);
    this.pageKeys = new AbortController(); // the record's keys, for the page's life
  }

  stop() {
    this.stopped = true;
    this.controls.stop();
    this.feed.stop();
    this.pageKeys.abort();
    clearInterval(this.timer);
  }

  async start() {
    this.build();
    this.recordView.listen(this.pageKeys.signal);
    // 100 ms: the tenths under ten seconds tick smoothly.
    this.timer = setInterval(() => {
      this.tickClocks();
      this.warnLowTime();
    }, 100);
    await this.feed.start();
  }

  over() {
    return !!this.state && this.state.status !== 'started';
  }

  // ----- layout -----

  build() {
    const big = new URLSearchParams(location.search).get('view') === 'big';
    this.main.classList.toggle('big', big);
    this.title = h('h1', {}, t('game.title'));
    // Rated or casual: gameFull says (`rated`).
    this.ratedMark = h('p', { class: 'hint rated-mark', dataset: { rated: '' } });
    this.boardBox = h('div', { class: 'board-box' });
    this.board = new Board(this.boardBox, {
      onMove: (from, to) => this.onBoardMove(from, to),
      onCancel: () => this.cancelPremove(),
    });
    this.top = this.playerPanel();
    this.bottom = this.playerPanel();
    this.phase = h('p', { class: 'phase-banner', 'aria-live': 'polite', dataset: { phase: '' } });
    this.status = h('p', { class: 'status', role: 'status', 'aria-live': 'polite' });
    this.reveal = h('div', { class: 'reveal', 'aria-live': 'polite', dataset: { reveal: '' } });
    this.entry = h('div', { class: 'entry card no-print' });
    this.recordView = new RecordView({ onChange: () => this.render() });
    this.record = this.recordView.list;
    this.actions = h('div', { class: 'actions no-print' });
    this.exports = h('p', { class: 'exports no-print' });
    this.replay = h('div', { class: 'replay no-print' });
    this.digits = h('pre', { class: 'mono digits', hidden: true, dataset: { digits: '' } });
    const side = h('div', { class: 'side' },
      this.top.el, this.phase, this.controls.notice, this.status, this.reveal, this.entry, this.bottom.el,
      h('section', { class: 'card' }, h('h2', {}, t('game.record')), this.recordView.el, this.digits),
      this.actions, this.exports);
    this.main.append(this.title, this.ratedMark, h('div', { class: 'game' }, h('div', {}, this.boardBox, this.soundSetting(), this.replay), side));
  }

  playerPanel() {
    const name = h('span', { class: 'name' });
    const sign = h('span', { class: 'commit-sign', hidden: true, dataset: { state: 'waiting' } });
    const clock = h('span', { class: 'clock', role: 'timer', 'aria-live': 'off' });
    const el = h('div', { class: 'player' }, h('span', {}, name, ' ', sign), clock);
    return { el, name, sign, clock };
  }

  // ----- the stream -----

  onLine(line) {
    this.controls.onLine(line);
    switch (line.type) {
      case 'gameFull':
        this.full = line;
        this.color = this.seat();
        this.board.setOrientation(this.color || 'white');
        this.setState(line.state);
        this.loadHistory();
        this.showRated(line.rated);
        break;
      case 'gameState':
        this.setState(line);
        break;
      case 'committed':
        if (this.state) {
          this.rebaseClocks();
          this.state.committed[line.color] = true;
          this.render();
        }
        break;
      case 'reveal':
        this.onReveal(line);
        break;
      case 'move':
        play(/x/.test(line.san || '') ? 'capture' : 'move');
        this.lastReveal = { move: line };
        this.positions?.push(positionOf(line));
        break;
      default:
        break;
    }
  }

  showRated(rated) {
    this.ratedMark.dataset.rated = String(!!rated);
    this.ratedMark.textContent = rated ? t('ratings.ratedGame') : t('ratings.casualGame');
  }

  seat() {
    const user = me();
    if (!user || !this.full) return null;
    const name = user.username.toLowerCase();
    if (this.full.white.name.toLowerCase() === name) return 'white';
    if (this.full.black.name.toLowerCase() === name) return 'black';
    return null;
  }

  setState(state) {
    const stepChanged = !this.state || this.state.step !== state.step;
    const ended = this.state?.status === 'started' && state.status !== 'started';
    if (stepChanged) this.promotion = null;
    this.state = state;
    this.receivedAt = performance.now();
    if (stepChanged || !this.myDue()) this.pending = null;
    this.render();
    // The replay needs the whole game: read it once it is over.
    if (ended) this.loadHistory();
    if (ended) play('gameEnd');
    this.playPremove();
  }

  onReveal(line) {
    this.lastReveal = line;
    this.positions?.push(positionOf(line));
    const check = (line.events || []).find((e) => e.type === 'check');
    this.lastCheck = check ? check.color : null;
    if (this.color) navigator.vibrate?.(60);
    play('reveal');
  }

  async loadHistory() {
    // The replay needs every position since the start.
    try {
      const entries = await readLog(this.id);
      this.positions = [];
      for (const e of entries) {
        if (e.type === 'gameCreated') this.positions.push({ fen: e.fen, arrows: [] });
        if (e.type === 'reveal') {
          this.positions.push(positionOf(e));
        }
        if (e.type === 'move') {
          this.positions.push(positionOf(e));
        }
        // An arbiter's restore takes the steps after it back, as the
        // record does.
        if (e.type === 'arbiter' && e.action?.kind === 'restore') {
          this.positions.length = Math.min(this.positions.length, e.action.step + 1);
        }
      }
      const last = lastStepOf(entries);
      if (last && !this.lastReveal) this.lastReveal = last;
      this.render();
    } catch {
      // The page works without the history; only the replay needs it.
    }
  }

  // ----- what the viewer may do -----

  myDue() {
    if (!this.color || !this.state || this.state.status !== 'started') return null;
    return this.state.due[this.color];
  }

  canChoose() {
    return !!this.myDue() && !this.state.committed[this.color] && !this.state.paused && (this.state.legal || []).length > 0;
  }

  alternating() {
    return this.state.phase === 'alternating';
  }

  onBoardMove(from, to) {
    if (this.recordView.browsing()) return;
    if (!this.canChoose() && this.premoveAllowed()) {
      this.premove = { from, to };
      this.render();
      return;
    }
    const candidates = choicesFor(this.state.legal || [], from, to, parsePosition(this.state.fen).board);
    if (candidates.length === 1) this.enter(candidates[0]);
    else if (candidates.length > 1) this.askPromotion(candidates);
  }

  askPromotion(candidates) {
    this.promotion = candidates;
    this.render();
  }

  enter(choice) {
    this.promotion = null;
    // A move is entered on the live position only, never on one browsed.
    if (this.recordView.browsing()) {
      toast(t('record.backFirst'), 'error');
      return;
    }
    if (!this.canChoose()) return;
    if (this.alternating()) {
      // Orthodox play: a move is played at once, as on any chess server.
      this.send(choice);
      return;
    }
    this.pending = choice;
    this.render();
    this.entry.querySelector('[data-action="commit"]')?.focus();
  }

  async send(choice) {
    const step = this.state.step;
    try {
      await post(`/api/board/game/${this.id}/move/${encodeURIComponent(choice)}`);
      // The stream may already have brought the reveal this commit caused:
      // then the state is newer than the commit, and stays as it is.
      if (!this.alternating() && this.state.step === step) {
        this.rebaseClocks();
        this.state.committed[this.color] = true;
        this.state.mine = choice;
      }
      this.pending = null;
      this.render();
    } catch (err) {
      toast(t('error.generic', { reason: err.message }), 'error');
    }
  }

  // ----- the board: destinations, premove, sounds -----

  // What the board offers: the legal choices (a castling under both
  // spellings), or in orthodox play while the opponent moves, premoves.
  boardDests(board) {
    if (this.canChoose()) return destinations(this.state.legal, board);
    if (this.premoveAllowed()) return premoveDestinations(board, this.color[0]);
    return new Map();
  }

  premoveAllowed() {
    const s = this.state;
    return !!this.color && s.status === 'started' && !s.paused && this.alternating() && !s.due[this.color];
  }

  // A premove is played as soon as the turn comes if it is legal then
  // (a promotion becomes a queen, as on lichess), else dropped.
  playPremove() {
    const p = this.premove;
    if (!p || this.premoveAllowed()) return;
    this.premove = null;
    if (!this.canChoose() || !this.alternating()) return;
    const candidates = choicesFor(this.state.legal, p.from, p.to, parsePosition(this.state.fen).board);
    const choice = candidates.length > 1 ? candidates.find((c) => c.endsWith('q')) : candidates[0];
    if (choice) this.enter(choice);
    else this.render();
  }

  cancelPremove() {
    if (!this.premove) return;
    this.premove = null;
    this.render();
  }

  // Once per game, when the viewer's own clock falls under ten seconds.
  warnLowTime() {
    const s = this.state;
    if (!s || !this.color || this.lowTimeWarned || s.status !== 'started') return;
    const base = this.timeOf(this.color);
    if (base === null) return;
    const left = this.running(this.color) ? base - (performance.now() - this.receivedAt) : base;
    if (left < 10000) {
      this.lowTimeWarned = true;
      play('lowTime');
    }
  }

  soundSetting() {
    const box = h('input', { type: 'checkbox', dataset: { setting: 'sound' } });
    box.checked = soundOn();
    box.addEventListener('change', () => setSoundOn(box.checked));
    return h('label', { class: 'sound-setting no-print' }, box, ' ', t('board.sound'));
  }

  // ----- rendering -----

  render() {
    if (!this.full || !this.state) return;
    const s = this.state;
    const full = this.full;
    const pos = parsePosition(s.fen);
    const bottomColor = this.board.orientation;
    this.title.textContent = `${full.white.name} – ${full.black.name} · ${t('variant.' + variantOf(full))}`;
    // As on lichess, the tab says when the viewer's move is due.
    const tab = (this.color && s.status === 'started' && this.canChoose() ? t('game.yourTurnTitle') + ' · ' : '') +
      this.title.textContent + ' · tempo';
    this.main.dataset.ownTitle = '';
    if (document.title.replace(/^\(\d+\) /, '') !== tab) document.title = tab;
    for (const [panel, color] of [[this.bottom, bottomColor], [this.top, other(bottomColor)]]) {
      panel.name.textContent = `${full[color].name} (${t('color.' + color)})`;
      panel.color = color;
      const committed = s.status === 'started' && s.committed[color] && !!s.due[color];
      // The viewer's own sign says "you committed"; the other's says only that.
      panel.sign.hidden = !committed;
      panel.sign.dataset.state = committed ? 'committed' : 'waiting';
      panel.sign.textContent = committed ? (color === this.color ? t('game.youCommitted') : t('game.committed')) : '';
      panel.sign.title = committed ? t('game.committedLong', { name: full[color].name }) : '';
    }
    this.board.setPieces(pos.board);
    const decor = boardDecor(pos, this.lastReveal);
    const { marks, mark } = decor;
    let { arrows } = decor;
    if (this.premove) for (const sq of [this.premove.from, this.premove.to]) mark(sq, 'premove');
    const mine = this.pending || (this.color && s.committed[this.color] ? s.mine : null);
    if (mine && mine !== '-') {
      const m = mine.replace(/^x/, '');
      arrows = arrows.concat([{ from: m.slice(0, 2), to: m.slice(2, 4), kind: 'mine' }]);
      mark(m.slice(2, 4), 'entered');
    }
    this.board.setMarks(marks);
    this.board.setArrows(arrows);
    this.board.setDests(this.boardDests(pos.board));
    this.showBrowsed();
    this.renderPhase();
    this.renderReveal();
    this.renderEntry();
    this.renderRecord();
    this.renderActions();
    this.renderExports();
    this.renderReplay();
    this.tickClocks();
  }

  renderPhase() {
    this.phase.textContent = phaseText(this.state, this.full, this.lastCheck);
    this.phase.dataset.phase = this.state.phase;
  }

  renderReveal() {
    this.reveal.replaceChildren(...revealNodes(this.state, this.lastReveal));
  }

  renderEntry() {
    const s = this.state;
    // A stream line re-renders the page: what is half typed stays.
    const typing = this.entry.querySelector('input[name="move"]');
    const typed = typing && this.entryStep === s.step ? typing.value : '';
    const focused = !!typing && document.activeElement === typing;
    this.entryStep = s.step;
    this.entry.replaceChildren();
    if (!this.color || s.status !== 'started') {
      this.entry.hidden = true;
      return;
    }
    this.entry.hidden = false;
    const due = this.myDue();
    if (s.paused) {
      this.entry.append(h('p', {}, t('game.pausedByArbiter')));
      return;
    }
    if (!due) {
      this.entry.append(h('p', { class: 'hint' }, t('game.waitOpponent')));
      return;
    }
    if (s.committed[this.color]) {
      this.entry.append(h('p', {}, t('game.committedWait', { choice: s.mine || '' })));
      return;
    }
    const exchange = due.startsWith('capture-on-');
    const prompt = exchange
      ? t('game.exchangePrompt', { square: due.replace('capture-on-', '') })
      : this.alternating() ? t('game.yourMove') : t('game.enterPrompt');
    this.entry.append(h('p', {}, prompt));
    this.entry.append(...choiceButtons({
      promotion: this.promotion, exchange: exchange && (s.legal || []), pending: this.pending, pick: (c) => this.enter(c),
    }));
    const input = h('input', {
      name: 'move', autocomplete: 'off', spellcheck: false, 'aria-label': t('game.keyboardLabel'),
      placeholder: t('game.keyboardPlaceholder'),
    });
    const form = h('form', { class: 'entry-row', dataset: { form: 'move' } }, input,
      h('button', { type: 'submit' }, this.alternating() ? t('game.play') : t('game.enter')));
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      const choice = matchInput(input.value, s.legal || [], parsePosition(s.fen).board);
      if (!choice) {
        toast(t('game.notLegal', { text: input.value }), 'error');
        return;
      }
      input.value = '';
      this.enter(choice);
    });
    this.entry.append(form);
    input.value = typed;
    if (focused) input.focus();
    if (!this.alternating()) {
      this.entry.append(h('div', { class: 'entry-row' },
        h('span', {}, t('game.entered')), ' ',
        h('span', { class: 'pending-move', dataset: { pending: this.pending || '' } }, this.pending ? `${this.pending} (${uciToDigits(this.pending)})` : '–'),
        h('button', {
          type: 'button', class: 'primary', dataset: { action: 'commit' }, disabled: !this.pending,
          onclick: () => this.pending && this.send(this.pending),
        }, t('game.commit')),
        this.pending ? h('button', { type: 'button', dataset: { action: 'clear' }, onclick: () => { this.pending = null; this.render(); } }, t('game.change')) : '',
      ));
    }
  }

  toggleDigits() {
    this.digits.hidden = !this.digits.hidden;
    if (!this.digits.hidden) this.loadDigits();
  }

  // The digit code as the download has it (the server writes both: one
  // implementation), without the file's '#' head; read when shown and
  // again when the record grows while it is shown.
  async loadDigits() {
    const length = (this.state?.record || []).length;
    this.digitsFor = length;
    try {
      const text = await get(`/api/game/${this.id}/record?format=digits`);
      if (this.digitsFor !== length) return;
      this.digits.textContent = String(text).split('\n').filter((l) => l && !l.startsWith('#')).join('\n');
    } catch {
      this.digitsFor = null; // read again with the next record
    }
  }

  renderRecord() {
    const s = this.state;
    const plies = ['standard', 'chess960'].includes(variantOf(this.full));
    this.recordView.update(s.record || [], plies);
    if (!this.digits.hidden && this.digitsFor !== (s.record || []).length) this.loadDigits();
    // A step the history missed (it was read while the step came): read
    // it again, once for each length of the record.
    const want = (s.record || []).length + 1;
    if (this.positions && this.positions.length !== want && this.historyFor !== want) {
      this.historyFor = want;
      this.loadHistory();
    }
  }

  // The browsed position on the board instead of the live one (which the
  // page keeps up to date underneath); nothing to enter there.
  showBrowsed() {
    if (!this.recordView.browsing()) return;
    const p = this.positions?.[this.recordView.index];
    if (!p) return;
    const pos = parsePosition(p.fen);
    this.board.setPieces(pos.board);
    this.board.setMarks(new Map(pos.paused.map((sq) => [sq, ['paused']])));
    this.board.setArrows(p.arrows);
    this.board.setDests(new Map());
  }

  renderActions() {
    const s = this.state;
    if (s.status !== 'started') {
      const reason = hasKey('reason.' + s.reason) ? t('reason.' + s.reason) : s.reason || '';
      this.status.textContent = t('game.over', { result: s.result || '*', reason });
      this.status.dataset.result = s.result || '';
    } else {
      this.status.textContent = s.paused ? t('game.paused') : '';
    }
    // The buttons that apply now (game-controls.js).
    this.controls.render();
  }

  renderExports() {
    const big = this.main.classList.contains('big');
    // The downloads (PGN, notation, digit code, signed log) on a line of
    // their own, the shared component the table pages use too.
    this.exports.replaceChildren(
      renderDownloads(h('span', { class: 'downloads' }), this.id), h('br'),
      h('button', { type: 'button', class: 'link', dataset: { action: 'digits' }, onclick: () => this.toggleDigits() }, t('game.digitCode')), ' · ',
      h('a', { href: big ? `/game/${this.id}` : `/game/${this.id}?view=big`, dataset: { link: '', action: 'projector' } }, big ? t('game.normalView') : t('game.projector')), ' · ',
      ...(big ? [fullscreenButton(), ' · '] : []),
      h('button', { type: 'button', class: 'link', dataset: { action: 'flip' }, onclick: () => { this.board.setOrientation(other(this.board.orientation)); this.render(); } }, t('game.flip')),
      // Spread: replaceChildren would write an array as its text.
      ...(['arbiter', 'admin'].includes(me()?.role)
        ? [' · ', h('a', { href: `/arbiter?game=${this.id}`, dataset: { link: '', action: 'arbiter' } }, t('game.arbiter'))]
        : []),
    );
  }

  renderReplay() {
    if (this.state.status === 'started' || !this.positions || this.positions.length < 2) {
      this.replay.replaceChildren();
      return;
    }
    if (this.replay.firstChild) return;
    const n = this.positions.length - 1;
    const label = h('span', {});
    const slider = h('input', { type: 'range', min: '0', max: String(n), value: String(n), 'aria-label': t('game.replay') });
    const show = () => {
      const i = Number(slider.value);
      const line = (this.state.record || [])[i - 1];
      label.textContent = t('game.replayStep', { step: i, of: n }) + (line ? ` · ${splitLine(line).moves}` : '');
      this.recordView.go(i);
    };
    slider.addEventListener('input', show);
    this.replay.append(h('label', { class: 'field' }, h('span', {}, t('game.replay')), slider), label);
    label.textContent = t('game.replayStep', { step: n, of: n });
  }

  // Whether the clock of `c` runs now (the state's readings are from
  // when it arrived).
  running(c) {
    return clockRuns(this.full, this.state, c);
  }

  // The time of `c` when the state arrived, or null in an untimed game
  // (whose `wtime`/`btime` are lichess's 2147483647, not a clock).
  timeOf(c) {
    return timeOf(this.full, this.state, c);
  }

  // Takes the time run since the state arrived off the running clocks, so
  // that a clock that stops now (a commit) stops where it showed.
  rebaseClocks() {
    const now = performance.now();
    const elapsed = now - (this.receivedAt || now);
    for (const c of ['white', 'black']) {
      if (this.running(c)) this.state[c === 'white' ? 'wtime' : 'btime'] -= elapsed;
    }
    this.receivedAt = now;
  }

  tickClocks() {
    if (!this.state) return;
    const elapsed = performance.now() - (this.receivedAt || performance.now());
    this.controls.tick(elapsed);
    for (const panel of [this.top, this.bottom]) {
      if (panel.color) showClock(panel.clock, this.full, this.state, panel.color, elapsed);
    }
  }
}
