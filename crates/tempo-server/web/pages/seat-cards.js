// The seat cards of a round played at tables (issue #29): one card a
// seat, each with the player's name, colour, board and the seat's QR code,
// printed on their own page after the pairing list, to cut apart and hand
// to the players. Not on the list itself: the list hangs on the wall, and
// whoever scans a seat's code plays that seat. Only a director's pairing
// list carries seat links, so only a director's print has cards.

import { t } from '../i18n.js';
import { h } from '../dom.js';

const SIDES = ['white', 'black'];

/**
 * The cards of `list`'s open table boards, or null if it has none (a
 * member's or visitor's list, a round not at tables, every result in).
 * `qrCode(figure, text, caption, options)` draws a code into a figure.
 */
export async function seatCards(list, qrCode) {
  const boards = list.boards.filter((b) => b.seats && !b.result);
  if (!boards.length) return null;
  const drawn = [];
  // A revoked seat (a lost phone) has no link until the director renews it.
  const cards = boards.flatMap((b) => SIDES.filter((side) => b.seats[side]).map((side) => {
    const other = side === 'white' ? 'black' : 'white';
    const figure = h('figure', { class: 'qr seat-qr' });
    const caption = t('seat.qr', { board: b.board, colour: t('color.' + side), name: b[side].name });
    // The server draws the seat's code from the game and the colour: the
    // token never goes into a request line (nor a log or a Referer).
    const gameId = (b.display || b.seats[side]).split('/')[2];
    drawn.push(qrCode(figure, null, caption, { showText: false, src: `/api/tables/${gameId}/seats/${side}/qr` }));
    return h('article', { class: 'seat-card', dataset: { seatCard: `${b.board}-${side}`, side } },
      h('p', { class: 'seat-where' }, t('seat.where', { board: b.board, round: list.round })),
      h('p', { class: 'seat-colour' }, t('color.' + side)),
      h('p', { class: 'seat-name' }, b[side].name),
      h('p', { class: 'seat-opponent' }, t('seat.against', { name: b[other].name, colour: t('color.' + other) })),
      figure,
      h('p', { class: 'seat-how' }, t('seat.how')));
  }));
  await Promise.all(drawn);
  return h('section', { class: 'seat-cards', dataset: { seatCards: String(list.round) }, 'aria-labelledby': 'seat-cards-title' },
    h('h2', { id: 'seat-cards-title' }, t('seat.title', { round: list.round })),
    h('p', { class: 'hint' }, t('seat.hint')),
    h('div', { class: 'seat-grid' }, cards));
}

/** The toolbar's switch that leaves the cards out (the wall's copy). */
export function cardsSwitch(section) {
  const box = h('input', { type: 'checkbox', name: 'seatCards', checked: true });
  box.addEventListener('change', () => { section.hidden = !box.checked; });
  return h('label', { class: 'check' }, box, ' ', t('seat.print'));
}
