// The record of a game (`data-record`): one entry per step in SAN, the
// markers the server writes in braces behind a simultaneous step
// (tempo_sync::san: `{paused white e4; collision d5}`) shown as short
// signs, with a legend under the list for the signs in use; and browsing
// as on lichess: click an entry or press ←/→/Home/End to look at an
// earlier position while the live game goes on, one key (End) or one
// button back to it.

import { t, addCatalogue, hasKey } from './i18n.js';
import { h } from './dom.js';
import catalogue from './i18n/record.js';

addCatalogue(catalogue);

// Plain characters, not emoji: they read the same in every font.
export const SIGNS = {
  paused: '‖',
  collision: '⊗',
  swap: '⇄',
  void: '∅',
  'first-move': '¹',
  'new-parry': '↻',
  exchange: '×',
  check: '+',
  orthodox: '⇆',
};

const RESULTS = ['1-0', '0-1', '1/2-1/2', '*'];

// '3. Nd5 Nd5 {collision d5; paused white d5}' →
// { moves: '3. Nd5 Nd5', markers: ['collision d5', 'paused white d5'] }.
// Old UCI lines split the same way.
export function splitLine(line) {
  const markers = [];
  const moves = String(line)
    .replace(/\{([^}]*)\}/g, (_, inner) => {
      markers.push(...inner.split(';').map((m) => m.trim()).filter(Boolean));
      return '';
    })
    .replace(/\s+/g, ' ')
    .trim();
  return { moves, markers };
}

// One marker as a mark { kind, text, title }: `kind` names its legend
// entry (null: a result or an unknown word, shown as words).
export function markOf(marker) {
  const words = marker.split(/\s+/);
  const [kind, ...rest] = words;
  const side = (w) => (w === 'white' || w === 'black' ? t('record.short.' + w) : '');
  const title = words.map((w) => (hasKey('marker.' + w) ? t('marker.' + w) : w)).join(' ');
  const sign = SIGNS[kind];
  switch (kind) {
    case 'paused':
      return { kind, text: sign + rest.slice(1).join(','), title };
    case 'collision':
      return { kind, text: sign + (rest[0] || ''), title };
    case 'exchange':
      return { kind, text: sign + (rest[1] || ''), title };
    case 'swap':
    case 'orthodox':
      return { kind, text: sign, title };
    case 'void':
    case 'first-move':
    case 'new-parry':
    case 'check':
      return { kind, text: sign + side(rest[0]), title };
    default:
      break;
  }
  if (RESULTS.includes(kind)) {
    const reason = rest.join(' ');
    const named = hasKey('reason.' + reason) ? t('reason.' + reason) : reason;
    return { kind: null, text: reason ? `${kind} (${named})` : kind, title: '' };
  }
  return { kind: null, text: title, title: '' };
}

export class RecordView {
  // onChange(): the shown position changed (the page draws the board).
  constructor({ onChange }) {
    this.onChange = onChange;
    this.index = null; // the position shown: null = live, 0 = the start, i = after step i
    this.count = 0; // steps in the record
    this.list = h('ol', { class: 'record', 'aria-label': t('game.record'), dataset: { record: '' } });
    this.legend = h('div', { class: 'record-legend', hidden: true, dataset: { legend: '' } });
    const nav = (key, action, sign, go) => h('button', {
      type: 'button', dataset: { nav: action }, 'aria-label': t(key), title: t(key), onclick: go,
    }, sign);
    this.nav = h('div', { class: 'record-nav no-print', role: 'group', 'aria-label': t('record.nav') },
      nav('record.first', 'first', '«', () => this.go(0)),
      nav('record.prev', 'prev', '‹', () => this.step(-1)),
      nav('record.next', 'next', '›', () => this.step(1)),
      nav('record.live', 'last', '»', () => this.go(null)));
    this.viewing = h('p', { class: 'record-viewing', role: 'status', hidden: true });
    this.liveButton = h('button', {
      type: 'button', class: 'primary no-print', hidden: true, dataset: { action: 'live' }, onclick: () => this.go(null),
    }, t('record.live'));
    this.el = h('div', { class: 'record-view' }, this.list, this.legend, this.nav, this.viewing, this.liveButton);
  }

  // Keys on the whole page, except where they mean something else: text
  // fields, an open dialog, and the arrows on the board, which move its
  // keyboard focus (it takes them first: defaultPrevented).
  listen(signal) {
    document.addEventListener('keydown', (e) => this.onKey(e), { signal });
  }

  onKey(e) {
    if (e.altKey || e.ctrlKey || e.metaKey || e.shiftKey || e.defaultPrevented) return;
    if (e.target?.closest?.('input, textarea, select, [contenteditable], dialog')) return;
    if (document.querySelector('dialog[open]')) return;
    const keys = {
      ArrowLeft: () => this.step(-1),
      ArrowRight: () => this.step(1),
      Home: () => this.go(0),
      End: () => this.go(null),
    };
    if (!keys[e.key]) return;
    e.preventDefault();
    keys[e.key]();
  }

  browsing() {
    return this.index !== null;
  }

  current() {
    return this.index === null ? this.count : this.index;
  }

  step(delta) {
    this.go(this.current() + delta);
  }

  // Shows position `index` (null or the last one: live).
  go(index) {
    const next = index === null || index >= this.count ? null : Math.max(0, index);
    if (next === this.index) return;
    this.index = next;
    this.onChange();
  }

  // Draws the record: `lines` as the state has them (SAN plies when
  // `plies`, i.e. orthodox play, else one line per step).
  update(lines, plies) {
    this.count = lines.length;
    // An arbiter's restore shortens the record: what was shown is gone.
    if (this.index !== null && this.index >= this.count) this.index = null;
    const shown = this.current();
    const entry = (i, text) => h('button', {
      type: 'button', class: 'ply', tabindex: '-1', dataset: { ply: String(i + 1) },
      'aria-current': shown === i + 1 ? 'step' : null, onclick: () => this.go(i + 1),
    }, text);
    const used = new Set();
    const items = [];
    if (plies) {
      for (let i = 0; i < lines.length; i += 2) {
        items.push(h('li', {}, `${i / 2 + 1}. `, entry(i, lines[i]), lines[i + 1] ? [' ', entry(i + 1, lines[i + 1])] : ''));
      }
    } else {
      lines.forEach((line, i) => {
        const { moves, markers } = splitLine(line);
        const marks = markers.map(markOf);
        for (const m of marks) if (m.kind) used.add(m.kind);
        items.push(h('li', {}, entry(i, moves), marks.flatMap((m) => [' ', h('span', {
          class: 'mark', dataset: { mark: m.kind || 'text' }, title: m.title || null,
        }, m.text)])));
      });
    }
    this.list.replaceChildren(...items);
    this.renderLegend(used);
    this.viewing.hidden = !this.browsing();
    this.viewing.textContent = this.browsing()
      ? (this.index === 0 ? t('record.start') : t('record.viewing', { step: this.index, of: this.count }))
      : '';
    this.liveButton.hidden = !this.browsing();
    this.scroll();
  }

  renderLegend(used) {
    const kinds = Object.keys(SIGNS).filter((k) => used.has(k));
    this.legend.hidden = kinds.length === 0;
    this.legend.replaceChildren(...(kinds.length ? [
      h('strong', {}, t('record.legend')),
      h('dl', {}, kinds.flatMap((k) => [h('dt', { dataset: { mark: k } }, SIGNS[k]), h('dd', {}, t('record.legend.' + k))])),
    ] : []));
  }

  // Keeps the shown entry in sight inside the list (never scrolls the page).
  scroll() {
    const current = this.list.querySelector('[aria-current="step"]');
    if (!this.browsing() || !current) {
      this.list.scrollTop = this.list.scrollHeight;
      return;
    }
    const box = this.list.getBoundingClientRect();
    const r = current.getBoundingClientRect();
    if (r.top < box.top) this.list.scrollTop -= box.top - r.top;
    else if (r.bottom > box.bottom) this.list.scrollTop += r.bottom - box.bottom;
  }
}
