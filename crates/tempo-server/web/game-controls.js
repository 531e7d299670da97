// The game page's controls, as lichess shows them: only the buttons that
// apply (Abort before the first moves, Claim draw when a claim would be
// granted, as the state says: `abortable`, `drawClaimable`), the draw
// offer's course (offered, declined, the opponent's offer with its
// answers), the first-move timer, and after the end Rematch (the same
// challenge with colours swapped) and New game. Clocks show tenths under
// ten seconds.

import { t, addCatalogue } from './i18n.js';
import { get, post, me } from './api.js';
import { subscribe } from './events.js';
import { h } from './dom.js';
import { toast, navigate } from './app.js';
import { ask } from './dialog.js';
import catalogue from './i18n/gamecontrols.js';

addCatalogue(catalogue);

const other = (c) => (c === 'white' ? 'black' : 'white');

// A clock reading: `d hh:mm` for days, `h:mm:ss`, `mm:ss`, and under ten
// seconds `00:09.3` (tenths, rounded down as lichess does, so that 0.0
// is the fall).
export function clockText(ms) {
  if (ms === null || ms === undefined) return '–';
  if (ms < 10000) {
    const tenths = Math.max(0, Math.floor(ms / 100));
    return `00:0${Math.floor(tenths / 10)}.${tenths % 10}`;
  }
  const total = Math.ceil(ms / 1000);
  const days = Math.floor(total / 86400);
  const hours = Math.floor((total % 86400) / 3600);
  const min = Math.floor((total % 3600) / 60);
  const sec = total % 60;
  const two = (n) => String(n).padStart(2, '0');
  if (days) return `${days}d ${two(hours)}:${two(min)}`;
  if (hours) return `${hours}:${two(min)}:${two(sec)}`;
  return `${two(min)}:${two(sec)}`;
}

// tempo's name of a game's variant, from gameFull's lichess variant object
// (`fromPosition` is orthodox chess from a set-up position).
export function variantOf(full) {
  const key = full?.variant?.key;
  return key === 'fromPosition' ? 'standard' : key;
}

// The rematch's challenge body: the game's variant, options, time control
// and start (a `fromPosition` game's FEN below), the viewer's colour
// swapped.
export function rematchBody(full, color) {
  const body = { variant: variantOf(full), color: other(color) };
  if (full.timeControl) body.clock = full.timeControl;
  const rules = {};
  for (const word of String(full.rules || '').split(/\s+/).filter(Boolean)) {
    const [key, ...value] = word.split('=');
    if (key && value.length) rules[key] = value.join('=');
  }
  if (Object.keys(rules).length) body.rules = rules;
  if (full.chess960 !== null && full.chess960 !== undefined) body.chess960 = full.chess960;
  else if (full.variant?.key === 'fromPosition' || (full.initialFen && !full.initialFen.startsWith('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR '))) {
    body.fen = full.initialFen;
  }
  return body;
}

// The ways out of a running game that apply (the game page's buttons, the
// table phone's menu): a draw claim when it would be granted; Abort before
// the first moves, else Resign. Each: its text's key, the `data-action`,
// the play route's path, the question that confirms it, a class.
export function gameActions(s) {
  const items = [];
  if (s.drawClaimable) items.push({ key: 'game.claimDraw', action: 'claim-draw', path: 'claim-draw' });
  if (s.abortable) items.push({ key: 'game.abort', action: 'abort', path: 'abort', question: 'game.confirmAbort' });
  else items.push({ key: 'game.resign', action: 'resign', path: 'resign', question: 'game.confirmResign', cls: 'danger' });
  return items;
}

// One page's controls; `page` is the game page (its state, seat, id and
// `actions`/`status` elements).
export class GameControls {
  constructor(page) {
    this.page = page;
    this.declinedAt = null; // when the viewer's draw offer was declined
    this.rematch = null; // { sent: id } or { incoming: challenge }
    this.events = null; // unsubscribes from the member's events once the game is over
    this.notice = h('p', { class: 'first-move', role: 'status', hidden: true, dataset: { firstMove: '' } });
  }

  stop() {
    this.events?.();
    this.events = null;
  }

  // A stream line the controls care for: a declined draw offer.
  onLine(line) {
    if (line.type === 'drawDecline' && line.color !== this.page.color) this.declinedAt = performance.now();
  }

  async act(path, question, confirmText) {
    if (question && !(await ask(t(question), t(confirmText)))) return;
    try {
      await post(`/api/board/game/${this.page.id}/${path}`);
    } catch (err) {
      toast(t('error.generic', { reason: err.message }), 'error');
    }
  }

  button(key, action, onclick, cls = '') {
    return h('button', { type: 'button', class: cls, dataset: { action }, onclick }, t(key));
  }

  render() {
    const { state: s, color } = this.page;
    const box = this.page.actions;
    box.replaceChildren();
    if (s.status !== 'started') {
      this.renderOver(box);
      return;
    }
    if (!color) return;
    if (s.drawOffer) this.declinedAt = null;
    box.append(...this.drawControls(s, color));
    for (const { key, action, path, question, cls } of gameActions(s)) {
      box.append(this.button(key, action, () => this.act(path, question, key), cls));
    }
  }

  drawControls(s, color) {
    const offer = s.drawOffer;
    if (offer && offer !== color) {
      return [h('span', { dataset: { draw: 'incoming' } }, t('game.drawOffered')),
        this.button('game.acceptDraw', 'draw-yes', () => this.act('draw/yes'), 'primary'),
        this.button('game.declineDraw', 'draw-no', () => this.act('draw/no'))];
    }
    if (offer === color) return [h('span', { class: 'hint', dataset: { draw: 'offered' } }, t('controls.drawSent'))];
    const declined = this.declinedAt !== null ? [h('span', { class: 'hint', dataset: { draw: 'declined' } }, t('controls.drawDeclined'))] : [];
    // No draw offer before the first moves: Abort is the way out then.
    if (s.abortable) return declined;
    return [...declined, this.button('game.offerDraw', 'draw', () => this.act('draw/yes'))];
  }

  renderOver(box) {
    const { color } = this.page;
    if (!color) return;
    const r = this.rematch;
    if (r?.incoming) {
      box.append(h('span', { dataset: { rematch: 'incoming' } }, t('controls.rematchOffered', { name: r.incoming.challenger.name })),
        this.button('controls.acceptRematch', 'rematch-yes', () => this.answerRematch('accept'), 'primary'),
        this.button('controls.declineRematch', 'rematch-no', () => this.answerRematch('decline')));
    } else if (r?.sent) {
      box.append(h('span', { class: 'hint', dataset: { rematch: 'sent' } }, t('controls.rematchSent')));
    } else if (r?.declined) {
      box.append(h('span', { class: 'hint', dataset: { rematch: 'declined' } }, t('controls.rematchDeclined')));
    } else {
      box.append(this.button('controls.rematch', 'rematch', () => this.sendRematch(), 'primary'));
    }
    box.append(this.button('controls.newGame', 'new-game', () => navigate('/')));
    this.follow();
  }

  opponent() {
    return this.page.full[other(this.page.color)].name;
  }

  async sendRematch() {
    try {
      const body = rematchBody(this.page.full, this.page.color);
      // A rated game's rematch is rated too, as on lichess.
      if (this.page.ratedMark?.dataset.rated === 'true') body.rated = true;
      const made = await post('/api/challenge/' + encodeURIComponent(this.opponent()), body);
      this.rematch = { sent: made.id };
    } catch (err) {
      toast(t('error.generic', { reason: err.message }), 'error');
    }
    this.render();
  }

  async answerRematch(answer) {
    const id = this.rematch.incoming.id;
    try {
      const r = await post(`/api/challenge/${id}/${answer}`);
      if (r.gameId) {
        navigate('/game/' + r.gameId);
        return;
      }
      this.rematch = null;
    } catch (err) {
      toast(t('error.generic', { reason: err.message }), 'error');
    }
    this.render();
  }

  // After the end, the member's events (the app's one stream, events.js,
  // which also opens the new game for both): the opponent's rematch
  // challenge (shown here with its answers) and its decline or cancel.
  follow() {
    if (this.events || !me()) return;
    this.events = subscribe((event) => {
      if (['challenge', 'challengeDeclined', 'challengeCanceled'].includes(event.type)) this.lookForRematch();
    });
  }

  // The open challenges between the two players: the opponent's to the
  // viewer is a rematch offer; the viewer's own, gone, was declined.
  async lookForRematch() {
    const pending = await get('/api/challenge').catch(() => null);
    if (!pending || this.events === null) return;
    const opponent = this.opponent().toLowerCase();
    const incoming = pending.in.find((c) => c.challenger.id === opponent);
    if (incoming) this.rematch = { incoming };
    else if (this.rematch?.sent && !pending.out.some((c) => c.id === this.rematch.sent)) this.rematch = { declined: true };
    else if (this.rematch?.incoming) this.rematch = null;
    this.render();
  }

  // The first-move timer: who owes a first move and how long is left;
  // called with the clocks.
  tick(elapsed) {
    const s = this.page.state;
    const first = s?.status === 'started' ? s.firstMove : null;
    this.notice.hidden = !first;
    if (!first) return;
    const left = Math.max(0, (first.left ?? 0) - (s.paused ? 0 : elapsed));
    const seconds = Math.ceil(left / 1000);
    const who = first.color ? t('color.' + first.color) : t('controls.bothSides');
    this.notice.textContent = t('controls.firstMove', { who, seconds });
    this.notice.dataset.firstMove = first.color || 'both';
  }
}
