// Tournaments for the director: create or import; one tournament's page
// (tournament-evening.js: the evening in order); standings, crosstable,
// printable lists (A4 and projector), TRF export. Everyone may look.

import { t, addCatalogue } from '../i18n.js';
import { get, post, isDirector } from '../api.js';
import { h, field, select } from '../dom.js';
import { navigate, act, routeNumber } from '../app.js';
import { CLOCKS } from './lobby.js';
import catalogue from '../i18n/tournaments.js';
import { renderDetail, leave } from './tournament-evening.js';

addCatalogue(catalogue);

// The page of one tournament (tournament-evening.js) follows its round live.
export { leave };

const SYSTEMS = ['dutch', 'keizer', 'round-robin'];
const VARIANTS = ['standard', 'fairschach', 'synchronschach'];
const PRESETS = ['source', 'example', 'ratio', 'participants', 'club', 'strict', 'stable', 'frozen', 'top100'];

export async function render(main, [id, view]) {
  if (!id) return renderList(main);
  const mine = routeNumber();
  const tour = await get(`/api/tournaments/${id}`);
  // Left while loading: the next page is shown (and this one's live
  // updates must not start, as its leave() has already run).
  if (mine !== routeNumber()) return;
  if (view) return (await import('./tournament-print.js')).render(main, tour, view);
  return renderDetail(main, tour);
}

// ----- the list and a new tournament -----

async function renderList(main) {
  main.append(h('h1', {}, t('tour.title')));
  const { tournaments } = await get('/api/tournaments');
  main.append(h('section', { class: 'card' },
    tournaments.length
      ? h('ul', {}, tournaments.map((x) => h('li', {},
          h('a', { href: `/tournaments/${x.id}`, dataset: { link: '', tournament: x.id } }, x.name),
          ' · ', t('system.' + x.system))))
      : h('p', { class: 'hint' }, t('tour.none'))));
  if (isDirector()) main.append(h('div', { class: 'columns' }, createForm(), importForm()));
}

function createForm() {
  const keizer = h('fieldset', {}, h('legend', {}, t('tour.keizer')),
    field(t('tour.preset'), select('preset', [['', '—'], ...PRESETS.map((p) => [p, p])], 'club')),
    field(t('tour.keizerSettings'), h('input', { name: 'keizerSettings', placeholder: 'top 50, colour-tie higher' })));
  const form = h('form', { class: 'card', dataset: { form: 'tournament' } },
    h('h2', {}, t('tour.new')),
    field(t('tour.name'), h('input', { name: 'name', required: true, maxlength: '100' })),
    field(t('tour.system'), select('system', SYSTEMS.map((s) => [s, t('system.' + s)]), 'dutch')),
    h('label', { class: 'check' }, h('input', { type: 'checkbox', name: 'double' }), ' ', t('tour.double')),
    field(t('tour.rounds'), h('input', { name: 'rounds', type: 'number', min: '1', max: '99', value: '5', required: true })),
    field(t('tour.variant'), select('variant', VARIANTS.map((v) => [v, t('variant.' + v)]), 'standard')),
    h('label', { class: 'check' }, h('input', { type: 'checkbox', name: 'chess960' }), ' ', t('tour.chess960')),
    field(t('lobby.clock'), select('clock', CLOCKS.map(([v, text]) => [v, text.startsWith('clock.') ? t(text) : text]), '1800+30')),
    field(t('tour.tiebreaks'), h('input', { name: 'tiebreaks', placeholder: 'BH-C1,BH,SB' })),
    keizer,
    h('button', { type: 'submit', class: 'primary', dataset: { action: 'create-tournament' } }, t('tour.create')),
  );
  const sync = () => {
    keizer.hidden = form.system.value !== 'keizer';
    form.double.parentElement.hidden = form.system.value !== 'round-robin';
  };
  form.system.addEventListener('change', sync);
  sync();
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const body = { name: form.name.value.trim(), system: form.system.value, rounds: Number(form.rounds.value), variant: form.variant.value };
    if (form.chess960.checked) body.chess960 = true;
    if (form.clock.value) body.clock = form.clock.value;
    if (form.tiebreaks.value.trim()) body.tiebreaks = form.tiebreaks.value.split(',').map((s) => s.trim()).filter(Boolean);
    if (body.system === 'keizer') {
      // A preset first, then single settings as `tempo pair` takes them.
      const keizer = form.preset.value ? { preset: form.preset.value } : {};
      for (const part of form.keizerSettings.value.split(',')) {
        const [key, ...value] = part.trim().split(/\s+/);
        if (key && value.length) keizer[key] = value.join(' ');
      }
      if (Object.keys(keizer).length) body.keizer = keizer;
    }
    if (body.system === 'round-robin' && form.double.checked) body.double = true;
    const r = await act(post('/api/tournaments', body));
    if (r) navigate(`/tournaments/${r.id}`);
  });
  return form;
}

function importForm() {
  const form = h('form', { class: 'card', dataset: { form: 'import' } },
    h('h2', {}, t('tour.import')),
    field(t('tour.trfFile'), h('input', { type: 'file', name: 'file', accept: '.trf,.txt,text/plain' })),
    field(t('tour.trfText'), h('textarea', { name: 'trf', rows: '6', class: 'mono' })),
    h('button', { type: 'submit', dataset: { action: 'import' } }, t('tour.importButton')));
  form.file.addEventListener('change', async () => {
    const file = form.file.files[0];
    if (file) form.trf.value = await file.text();
  });
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const r = await act(post('/api/tournaments', { trf: form.trf.value }));
    if (r) navigate(`/tournaments/${r.id}`);
  });
  return form;
}
