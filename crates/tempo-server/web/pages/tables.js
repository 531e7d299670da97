// The director's table games: /tables/new makes one (two names — a
// member's username seats the member, any other name a guest —, variant,
// clock, Chess960 position) through POST /api/tables; /tables/{gameId}
// shows it: the display's link, both seats as QR codes to scan at the
// table (a print layout: one A4 sheet, both codes with name and colour,
// one cut line between them), and renew/revoke for a lost phone.

import { t, addCatalogue } from '../i18n.js';
import { get, post, del } from '../api.js';
import { h, field, select } from '../dom.js';
import { navigate, toast, routeNumber } from '../app.js';
import { ask } from '../dialog.js';
import { CLOCKS } from './lobby.js';
import lobbyCatalogue from '../i18n/lobby.js';
import catalogue from '../i18n/table.js';

addCatalogue(lobbyCatalogue);
addCatalogue(catalogue);

const VARIANTS = ['fairschach', 'synchronschach', 'standard', 'chess960'];

export async function render(main, [id]) {
  if (id === 'new') renderNew(main);
  else await renderTable(main, id);
}

// An absolute address on this server (what a phone scans).
const absolute = (path) => new URL(path, location.origin).href;

function renderNew(main) {
  const name = (n) => h('input', { name: n, required: true, maxlength: '50', autocomplete: 'off' });
  const position = field(t('lobby.chess960'), h('input', { name: 'chess960', type: 'number', min: '0', max: '959', placeholder: t('lobby.randomPosition') }));
  const form = h('form', { class: 'card narrow-form', dataset: { form: 'table' } },
    field(t('table.whiteName'), name('white')),
    field(t('table.blackName'), name('black')),
    h('p', { class: 'hint' }, t('table.namesHint')),
    field(t('lobby.variant'), select('variant', VARIANTS.map((v) => [v, t('variant.' + v)]), 'fairschach')),
    position,
    field(t('lobby.clock'), select('clock', CLOCKS.map(([v, text]) => [v, text.startsWith('clock.') ? t(text) : text]), '900+10')),
    h('button', { type: 'submit', class: 'primary', dataset: { action: 'create-table' } }, t('table.create')));
  const sync = () => { position.hidden = form.variant.value !== 'chess960'; };
  form.variant.addEventListener('change', sync);
  sync();
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const body = {
      variant: form.variant.value,
      white: { name: form.white.value.trim() },
      black: { name: form.black.value.trim() },
    };
    if (form.clock.value) body.clock = form.clock.value;
    if (body.variant === 'chess960' && form.chess960.value !== '') body.chess960 = Number(form.chess960.value);
    try {
      const made = await post('/api/tables', body);
      navigate('/tables/' + made.gameId);
    } catch (err) {
      toast(t('error.generic', { reason: err.message }), 'error');
    }
  });
  main.append(h('h1', {}, t('table.newTitle')), h('p', { class: 'hint' }, t('table.newIntro')), form);
}

async function renderTable(main, id) {
  const mine = routeNumber();
  const table = await get(`/api/tables/${id}`);
  if (mine !== routeNumber()) return;
  main.classList.add('tables-page');
  const display = absolute(table.display);
  const redraw = () => navigate(location.pathname, true);
  const seatAction = async (color, how) => {
    const key = how === 'renew' ? 'table.confirmRenew' : 'table.confirmRevoke';
    if (!(await ask(t(key, { name: nameOf(table, color) }), t(how === 'renew' ? 'table.renew' : 'table.revoke')))) return;
    try {
      if (how === 'renew') await post(`/api/tables/${id}/seats/${color}`);
      else await del(`/api/tables/${id}/seats/${color}`);
      toast(t(how === 'renew' ? 'table.renewed' : 'table.revoked'));
      redraw();
    } catch (err) {
      toast(t('error.generic', { reason: err.message }), 'error');
    }
  };
  const { status } = table;
  main.append(
    h('div', { class: 'no-print' },
      h('h1', {}, t('table.tableTitle', { white: nameOf(table, 'white'), black: nameOf(table, 'black') })),
      h('p', { class: 'hint', dataset: { status } }, t('table.status'), ' ', statusText(table)),
      h('p', {}, t('table.displayLink'), ' ', h('a', { href: display, dataset: { display: '' } }, display)),
      h('p', { class: 'print-tools' },
        h('button', { type: 'button', class: 'primary', dataset: { action: 'print' }, onclick: () => window.print() }, t('table.print')),
        h('a', { href: '/tables/new', dataset: { link: '' } }, t('table.another')))),
    h('div', { class: 'seat-sheet' },
      ['white', 'black'].flatMap((color, i) => [
        i === 1 ? h('div', { class: 'cut-line', 'aria-hidden': 'true' }, '✂ ', t('table.cut')) : '',
        seatCard(table, id, color, seatAction),
      ])),
  );
}

const nameOf = (table, color) => table[color].name;

const statusText = (table) => t(table.finished ? 'table.over' : 'table.running');

// One seat: the player's name and colour, the QR code of the seat's
// address, the address itself, renew and revoke.
function seatCard(table, id, color, act) {
  // No url: the seat is revoked (or ended with the game).
  const seat = table.seats[color];
  const url = seat.url ? absolute(seat.url) : null;
  const name = nameOf(table, color);
  const { member } = table[color];
  return h('section', { class: 'card seat-card', dataset: { seat: color } },
    h('h2', {}, name, ' · ', t('color.' + color)),
    member ? h('p', { class: 'hint' }, t('table.member')) : '',
    url
      ? h('figure', { class: 'seat-qr' },
        // Drawn by the server from the game and the colour: the token
        // stays out of request lines (and so out of logs and Referers).
        // `v`: a renewed seat's code is not the image cached before.
        h('img', { src: `/api/tables/${id}/seats/${color}/qr?v=${Date.now()}`, alt: t('table.qrAlt', { name, color: t('color.' + color) }), width: '200', height: '200' }),
        h('figcaption', {}, t('table.scan')))
      : h('p', { class: 'hint', dataset: { revoked: '' } }, t('table.noLiveSeat')),
    url ? h('p', { class: 'seat-url no-print' }, h('a', { href: url, dataset: { seatLink: color } }, t('table.openSeat'))) : '',
    h('p', { class: 'seat-actions no-print' },
      h('button', { type: 'button', dataset: { action: 'renew', color }, onclick: () => act(color, 'renew') }, t('table.renew')),
      url ? h('button', { type: 'button', class: 'danger', dataset: { action: 'revoke', color }, onclick: () => act(color, 'revoke') }, t('table.revoke')) : ''),
  );
}
