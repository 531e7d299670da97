// The record to take home, as downloads: PGN, the sources' notation and
// their digit code (text files the server writes, GET
// /api/game/{id}/record, which `tempo sync replay` reads back), the signed
// log, and the link to check it in the browser (/log/{id}). Shared by the
// game page and the table pages (display, phone): the hooks
// `data-download="pgn|sources|digits|log"` and `data-action="check-log"`
// stay as they are. Every file holds revealed choices only, so the links
// may be shown during the game as well as at its end.

import { t, addCatalogue } from './i18n.js';
import { h } from './dom.js';
import catalogue from './i18n/downloads.js';

addCatalogue(catalogue);

// [hook, address, file name] of each download of game `id`.
export function downloads(id) {
  const game = encodeURIComponent(id);
  return [
    ['pgn', `/api/game/export/${game}`, `tempo-${id}.pgn`],
    ['sources', `/api/game/${game}/record?format=sources`, `tempo-${id}-notation.txt`],
    ['digits', `/api/game/${game}/record?format=digits`, `tempo-${id}-digits.txt`],
    ['log', `/api/game/${game}/log`, `tempo-${id}.ndjson`],
  ];
}

// Draws the downloads of game `id` into `container` (its children
// replaced): "Download: PGN · Notation · Digit code · Signed log · Check
// the log". Returns the container.
export function renderDownloads(container, id) {
  const links = downloads(id).map(([kind, href, file]) => h('a', {
    href, download: file, title: t(`downloads.${kind}.hint`), dataset: { download: kind },
  }, t('downloads.' + kind)));
  const check = h('a', { href: `/log/${encodeURIComponent(id)}`, dataset: { link: '', action: 'check-log' } }, t('downloads.check'));
  container.setAttribute('role', 'group');
  container.setAttribute('aria-label', t('downloads.group'));
  container.dataset.downloads = id;
  container.replaceChildren(
    h('span', { class: 'downloads-title' }, t('downloads.title')), ' ',
    ...[...links, check].flatMap((a, i) => (i ? [' · ', a] : [a])),
  );
  return container;
}
