// A table game's display (/table/{gameId}): the table's screen, a tablet
// or the club room's projector. No login and no input: the board large,
// both clocks and commit signs, the reveal, the record, the result and the
// downloads; readable from a few metres (big type, high contrast, the
// whole landscape screen, no navigation).

import { t } from '../i18n.js';
import { h } from '../dom.js';
import { fullscreenButton } from '../fullscreen.js';
import { TableView } from '../table-view.js';
import { other } from '../game-view.js';

let view = null;

export function leave() {
  view?.stop();
  view = null;
}

export async function render(main, [id]) {
  leave();
  main.classList.add('table-display');
  view = new TableView(id);
  const flip = h('button', {
    type: 'button', class: 'link', dataset: { action: 'flip' },
    onclick: () => { view.board.setOrientation(other(view.board.orientation)); view.render(); },
  }, t('game.flip'));
  const tools = h('p', { class: 'table-tools no-print' }, fullscreenButton(), ' · ', flip);
  main.append(
    h('div', { class: 'table-screen' },
      h('div', { class: 'table-board' }, view.boardBox),
      h('div', { class: 'table-side' },
        view.title, view.top.el, view.controls.notice, view.phase, view.reveal, view.result, view.notice, view.bottom.el,
        view.record, view.downloads, tools)),
  );
  await view.start();
  main.dataset.ownTitle = '';
  document.title = `${view.title.textContent} · tempo`;
}
