// A table seat's phone (/table/{gameId}/play#<seat token>): the hidden
// input of the sources' device. No login: the seat token (from the
// address's fragment, never sent in a request line; kept in the tab's
// sessionStorage so that a reload works) authorises this seat's moves and
// stream. The board from the player's side; the move is picked and changed
// freely while the own clock runs (nothing is sent), and one large "stop
// my clock" commits it. The opponent's clock, running or stopped, stays in
// sight; then the reveal, the record, resign/draw in a small menu, the
// result and the downloads. Plain HTTP on a LAN address is enough: nothing
// here needs a secure context.

import { t, setLang, languages, lang } from '../i18n.js';
import { seatInit, seatPost } from '../api.js';
import { h } from '../dom.js';
import { parsePosition, uciToDigits } from '../fen.js';
import { destinations, choicesFor } from '../moves.js';
import { ask } from '../dialog.js';
import { toast } from '../app.js';
import { TableView } from '../table-view.js';
import { choiceButtons } from '../game-view.js';
import { gameActions } from '../game-controls.js';

let page = null;

export function leave() {
  page?.stop();
  page = null;
}

export async function render(main, [id]) {
  leave();
  main.classList.add('table-play');
  page = new SeatPage(main, id);
  await page.start();
}

const storeKey = (id) => `tempo.seat.${id}`;

// The seat token from the fragment (then kept, and the fragment dropped
// from the address bar, out of sight), else from this tab's storage.
function seatToken(id) {
  const fromHash = decodeURIComponent(location.hash.slice(1));
  if (/^seat_[0-9a-f]{16,128}$/.test(fromHash)) {
    sessionStorage.setItem(storeKey(id), JSON.stringify({ token: fromHash }));
    history.replaceState(null, '', location.pathname);
    return { token: fromHash };
  }
  try {
    return JSON.parse(sessionStorage.getItem(storeKey(id)) || 'null') || {};
  } catch {
    return {};
  }
}

class SeatPage {
  constructor(main, id) {
    this.main = main;
    this.id = id;
    const kept = seatToken(id);
    this.token = kept.token || null;
    this.color = kept.color || null; // the seat's colour, once known
    // This seat's committed, not yet revealed choice ({step, choice}): the
    // server does not send a seat its own sealed move back, so the phone
    // keeps it (also across a reload) until the reveal.
    this.sealed = kept.sealed || null;
    this.pending = null; // the picked, not yet committed choice
    this.promotion = null; // the choices of a pawn's promotion
    this.step = null;
    this.view = null;
  }

  stop() {
    this.view?.stop();
  }

  async start() {
    if (!this.token) {
      this.refused(null);
      return;
    }
    this.view = new TableView(this.id, {
      init: seatInit(this.token),
      onMove: (from, to) => this.onBoardMove(from, to),
      onChange: () => this.onChange(),
      onRefused: (err) => this.refused(err),
    });
    this.view.extraDecor = (decor) => this.decorate(decor);
    this.build();
    try {
      await this.view.start();
    } catch (err) {
      if ([401, 403].includes(err.status)) this.refused(err);
      else throw err;
    }
  }

  build() {
    const v = this.view;
    this.entry = h('div', { class: 'seat-entry', dataset: { seatEntry: '' } });
    this.stopButton = h('button', {
      type: 'button', class: 'primary stop-clock', dataset: { action: 'commit' }, disabled: true,
      onclick: () => this.commit(),
    }, t('table.stopClock'));
    this.drawBox = h('div', { class: 'seat-draw', hidden: true });
    this.menu = h('details', { class: 'seat-menu no-print' });
    this.main.append(
      v.title, v.result, v.top.el,
      h('div', { class: 'seat-board' }, v.boardBox),
      v.bottom.el, v.controls.notice, this.entry, this.stopButton, this.drawBox, v.phase, v.reveal, v.notice,
      v.record, v.downloads, this.menu,
    );
  }

  // The seat gone (renewed, revoked, the game over) or never given: say so,
  // and show the game as the display does, without the seat.
  refused(err) {
    this.view?.stop();
    const box = h('div', { class: 'card seat-refused', role: 'alert', dataset: { refused: err ? String(err.status) : 'none' } },
      h('h1', {}, t(err ? 'table.refusedTitle' : 'table.noSeatTitle')),
      h('p', {}, t(err ? 'table.refused' : 'table.noSeat')));
    this.main.replaceChildren(box);
    sessionStorage.removeItem(storeKey(this.id));
    const view = new TableView(this.id);
    this.view = view;
    this.main.append(view.title, view.top.el, view.boardBox, view.bottom.el, view.reveal, view.result, view.record, view.downloads);
    view.start().catch(() => {});
  }

  // ----- what the seat may do -----

  // The tab's memory of this seat: token, colour, the sealed choice.
  keep() {
    sessionStorage.setItem(storeKey(this.id), JSON.stringify({ token: this.token, color: this.color, sealed: this.sealed }));
  }

  // This seat's own committed choice of the current step, if any.
  mine() {
    const s = this.view.state;
    return this.sealed && this.color && s.committed[this.color] && this.sealed.step === s.step ? this.sealed.choice : null;
  }

  onChange() {
    const s = this.view.state;
    if (!s) return;
    if (s.step !== this.step) {
      this.step = s.step;
      this.pending = null;
      this.promotion = null;
    }
    const color = this.seatColor();
    if (color && color !== this.color) {
      this.color = color;
      this.keep();
    }
    // Revealed (or the game over): the sealed choice is public or void.
    if (this.sealed && (this.sealed.step !== s.step || s.status !== 'started' || !s.committed[this.color])) {
      this.sealed = null;
      this.keep();
    }
    if (this.color && this.view.board.orientation !== this.color) this.view.board.setOrientation(this.color);
    if (!this.canChoose()) this.pending = null;
    // Drawn after the view (which calls this first): the board's offers,
    // the entry, the menu.
    queueMicrotask(() => this.render());
  }

  // The seat's colour: the seat's stream says it in its first line.
  seatColor() {
    const seat = this.view.full?.seat;
    return seat === 'white' || seat === 'black' ? seat : this.color;
  }

  due() {
    const s = this.view.state;
    if (!this.color || !s || s.status !== 'started') return null;
    return s.due[this.color];
  }

  canChoose() {
    const s = this.view.state;
    return !!this.due() && !s.committed[this.color] && !s.paused && (s.legal || []).length > 0;
  }

  onBoardMove(from, to) {
    if (!this.canChoose()) return;
    const s = this.view.state;
    const candidates = choicesFor(s.legal || [], from, to, parsePosition(s.fen).board);
    if (candidates.length === 1) this.pick(candidates[0]);
    else if (candidates.length > 1) {
      this.promotion = candidates;
      this.render();
    }
  }

  // Picking is free: nothing is sent until the clock is stopped.
  pick(choice) {
    this.promotion = null;
    if (!this.canChoose()) return;
    this.pending = choice;
    this.view.render();
    this.render();
  }

  async commit() {
    const choice = this.pending;
    if (!choice || !this.canChoose()) return;
    const s = this.view.state;
    const step = s.step;
    this.stopButton.disabled = true;
    // Kept before it is sent: a reload while the answer is on its way
    // (the stream may already show the commit) still shows the choice;
    // only the server's state says whether it counts (sealedChoice).
    this.sealed = { step, choice };
    this.keep();
    try {
      await seatPost(this.token, `/api/board/game/${this.id}/move/${encodeURIComponent(choice)}`);
      // The stream may have brought the reveal already: then it stays.
      if (this.view.state.step === step && this.view.state.phase !== 'alternating') {
        this.view.rebaseClocks();
        this.view.state.committed[this.color] = true;
        this.sealed = { step, choice };
        this.keep();
      }
      this.pending = null;
      this.view.render();
      this.render();
    } catch (err) {
      this.sealed = null;
      this.keep();
      if ([401, 403].includes(err.status)) this.refused(err);
      else {
        toast(t('error.generic', { reason: err.message }), 'error');
        this.render();
      }
    }
  }

  async act(path, question, confirmText) {
    if (question && !(await ask(t(question), t(confirmText)))) return;
    this.menu.open = false;
    try {
      await seatPost(this.token, `/api/board/game/${this.id}/${path}`);
    } catch (err) {
      if ([401, 403].includes(err.status)) this.refused(err);
      else toast(t('error.generic', { reason: err.message }), 'error');
    }
  }

  // ----- drawing -----

  decorate(decor) {
    const mine = this.pending || this.mine();
    if (mine && mine !== '-') {
      const m = mine.replace(/^x/, '');
      decor.arrows.push({ from: m.slice(0, 2), to: m.slice(2, 4), kind: 'mine' });
      decor.mark(m.slice(2, 4), 'entered');
    }
  }

  render() {
    const v = this.view;
    const s = v.state;
    if (!s || !v.full) return;
    const pos = parsePosition(s.fen);
    v.board.setDests(this.canChoose() ? destinations(s.legal, pos.board) : new Map());
    this.renderEntry();
    this.renderDraw();
    this.renderMenu();
  }

  renderEntry() {
    const s = this.view.state;
    const due = this.due();
    const say = (key, vars) => h('p', { class: 'seat-prompt' }, t(key, vars));
    this.entry.replaceChildren();
    this.stopButton.hidden = true;
    if (s.status !== 'started') return;
    if (!this.color) {
      this.entry.append(say('table.waitSeat'));
      return;
    }
    if (s.paused) {
      this.entry.append(say('game.pausedByArbiter'));
      return;
    }
    if (!due) {
      this.entry.append(say('table.waitOpponent'));
      return;
    }
    if (s.committed[this.color]) {
      this.entry.append(say('table.stopped', { choice: choiceText(this.mine()) }));
      return;
    }
    const exchange = due.startsWith('capture-on-');
    this.entry.append(say(exchange ? 'game.exchangePrompt' : 'table.pickPrompt', { square: due.replace('capture-on-', '') }));
    this.entry.append(...choiceButtons({
      promotion: this.promotion, exchange: exchange && (s.legal || []), pending: this.pending, pick: (c) => this.pick(c),
    }));
    this.entry.append(h('p', { class: 'seat-picked' }, t('table.picked'), ' ',
      h('strong', { class: 'pending-move', dataset: { pending: this.pending || '' } }, this.pending ? choiceText(this.pending) : '–')));
    this.stopButton.hidden = false;
    this.stopButton.disabled = !this.pending;
  }

  // An offer of the opponent's answers at once, outside the menu.
  renderDraw() {
    const s = this.view.state;
    const offer = s.status === 'started' && this.color ? s.drawOffer : null;
    this.drawBox.hidden = !offer;
    this.drawBox.replaceChildren();
    if (!offer) return;
    if (offer === this.color) {
      this.drawBox.append(h('p', { class: 'hint', dataset: { draw: 'offered' } }, t('controls.drawSent')));
      return;
    }
    this.drawBox.append(h('p', { dataset: { draw: 'incoming' } }, t('game.drawOffered')),
      h('div', { class: 'choices' },
        h('button', { type: 'button', class: 'primary', dataset: { action: 'draw-yes' }, onclick: () => this.act('draw/yes') }, t('game.acceptDraw')),
        h('button', { type: 'button', dataset: { action: 'draw-no' }, onclick: () => this.act('draw/no') }, t('game.declineDraw'))));
  }

  renderMenu() {
    const s = this.view.state;
    const open = this.menu.open;
    const items = [];
    if (s.status === 'started' && this.color) {
      // An offer's answers are outside the menu (renderDraw).
      if (!s.drawOffer && !s.abortable) items.push({ key: 'game.offerDraw', action: 'draw', path: 'draw/yes' });
      items.push(...gameActions(s));
    }
    const langs = languages().map((l) => h('button', {
      type: 'button', dataset: { setLang: l }, 'aria-pressed': String(l === lang()), onclick: () => setLang(l),
    }, l.toUpperCase()));
    this.menu.replaceChildren(
      h('summary', { dataset: { action: 'menu' } }, t('table.menu')),
      h('div', { class: 'seat-menu-items' },
        items.map(({ key, action, path, question, cls }) => h('button', {
          type: 'button', class: cls || '', dataset: { action }, onclick: () => this.act(path, question, key),
        }, t(key))),
        h('span', { class: 'seat-langs', role: 'group', 'aria-label': t('table.language') }, langs)),
    );
    this.menu.open = open;
  }
}

// A choice as the phone shows it: the move and its digit code, or the
// exchange's decline.
function choiceText(choice) {
  if (!choice) return '';
  if (choice === '-') return t('game.decline');
  return `${choice.replace(/^x/, '')} (${uciToDigits(choice)})`;
}
