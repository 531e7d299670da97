// The rules of both variants in German and English, with diagrams of real
// positions: the examples come from /assets/rules-examples.json, which a
// Rust test resolves with the engine (crates/tempo-cli/tests/rules_examples.rs),
// so what the page shows is what the engine does.

import { t, addCatalogue } from '../i18n.js';
import { h } from '../dom.js';
import { diagram } from '../board.js';
import { parsePosition } from '../fen.js';
import catalogue from '../i18n/rules.js';

addCatalogue(catalogue);

const COMMON = 5;
const SYNC = 6;
const FAIR = 9;
const CLOCK = 3;

function list(prefix, n, extra = [], tag = 'ol') {
  const items = [];
  for (let i = 1; i <= n; i++) items.push(h('li', {}, t(`${prefix}.${i}`)));
  for (const key of extra) items.push(h('li', {}, t(key)));
  return h(tag, {}, items);
}

function section(id, title, ...content) {
  return h('section', { class: 'card', id, 'aria-labelledby': id + '-h' }, h('h2', { id: id + '-h' }, title), ...content);
}

// A choice as the engine writes it → an arrow (or none for "..", "-").
function arrow(choice, kind) {
  const m = /^x?([a-h][1-8])([a-h][1-8])/.exec(choice || '');
  return m ? [{ from: m[1], to: m[2], kind }] : [];
}

function shownChoice(choice) {
  return choice && choice !== '..' && choice !== '-' ? choice : t('rules.nothing');
}

function figure(title, when, fen, { arrows = [], highlight = [], caption = [] } = {}) {
  const position = parsePosition(fen);
  const marks = new Map();
  for (const sq of position.paused) marks.set(sq, ['paused']);
  for (const sq of highlight) marks.set(sq, [...(marks.get(sq) || []), 'event']);
  const box = h('div', { class: 'diagram-box' });
  const label = t('rules.diagram', { title, when });
  diagram(box, position.board, { marks, arrows, label });
  box.firstElementChild.dataset.fen = fen;
  // A picture, not an input: no tab stop per diagram (its squares keep their labels).
  for (const sq of box.querySelectorAll('[tabindex]')) sq.tabIndex = -1;
  return h('figure', { dataset: { fen } },
    box,
    h('figcaption', {}, h('strong', {}, when), ...caption.map((c) => h('div', {}, c)),
      h('div', { class: 'fen mono' }, t('rules.fen', { fen }))),
  );
}

function example(ex) {
  const title = t(`rules.ex.${ex.id}.title`);
  const figures = [];
  ex.steps.forEach((step, i) => {
    const when = ex.steps.length > 1 ? t('rules.beforeStep', { n: i + 1 }) : t('rules.before');
    figures.push(figure(title, when, step.fen, {
      arrows: [...arrow(step.white, 'white'), ...arrow(step.black, 'black')],
      caption: [t('rules.moves', { white: shownChoice(step.white), black: shownChoice(step.black) }), t('rules.record', { record: step.record })],
    }));
  });
  const last = ex.steps[ex.steps.length - 1];
  figures.push(figure(title, t('rules.after'), last.after, { highlight: last.highlight || [] }));
  const refusedKey = `rules.ex.${ex.id}.refused`;
  return h('article', { class: 'card example', id: 'ex-' + ex.id, dataset: { example: ex.id, variant: ex.variant } },
    h('h3', {}, title),
    h('p', { class: 'hint' }, t('rules.variantOf', { variant: t('variant.' + ex.variant) })),
    h('p', {}, t(`rules.ex.${ex.id}.text`)),
    h('div', { class: 'examples' }, figures),
    ex.refused ? h('p', { dataset: { refused: ex.refused.white || ex.refused.black } }, t(refusedKey)) : null,
  );
}

export async function render(main) {
  const toc = h('nav', { class: 'card', 'aria-label': t('rules.toc') },
    h('ul', {},
      [['common', 'rules.common'], ['sync', 'rules.sync'], ['fair', 'rules.fair'], ['clock', 'rules.clock'], ['examples', 'rules.examples']]
        .map(([id, key]) => h('li', {}, h('a', { href: '#' + id }, t(key))))));
  const examples = h('div', { 'aria-live': 'polite' }, h('p', { class: 'hint' }, t('rules.examples.loading')));
  main.append(
    h('h1', {}, t('rules.title')),
    h('p', {}, t('rules.intro')),
    toc,
    section('common', t('rules.common'), list('rules.common', COMMON)),
    section('sync', t('rules.sync'), list('rules.sync', SYNC)),
    section('fair', t('rules.fair'), list('rules.fair', FAIR, ['rules.fair.ep', 'rules.fair.rest'], 'ul')),
    section('clock', t('rules.clock'), list('rules.clock', CLOCK, [], 'ul')),
    h('section', { id: 'examples', 'aria-labelledby': 'examples-h' },
      h('h2', { id: 'examples-h' }, t('rules.examples')),
      h('p', { class: 'hint' }, t('rules.examples.hint')),
      examples),
  );
  try {
    const r = await fetch('/assets/rules-examples.json');
    if (!r.ok) throw new Error(r.statusText);
    const data = await r.json();
    examples.replaceChildren(...data.examples.map(example));
    // A link to an example (/rules#ex-swap) finds it once it is drawn.
    if (location.hash) document.getElementById(decodeURIComponent(location.hash.slice(1)))?.scrollIntoView();
  } catch (err) {
    examples.replaceChildren(h('p', { class: 'error', role: 'alert' }, t('rules.examples.failed', { reason: err.message })));
  }
}
