// The arbiter's page: the clock-correction calculator (tempo arbiter
// clock-reset in a form, each step shown with its values) and a game's
// arbiter actions (pause, resume, set clock, add time, penalty, restore,
// result), each with a reason that the log keeps.

import { t, addCatalogue } from '../i18n.js';
import { get, post, me } from '../api.js';
import { h, field, select } from '../dom.js';
import { toast } from '../app.js';
import catalogue from '../i18n/arbiter.js';
import { variantOf } from '../game-controls.js';

addCatalogue(catalogue);

const COLORS = ['white', 'black'];

// "1:02:03", "12:30", "-0:30", "90s", "5m" → milliseconds, or null.
export function parseDuration(text) {
  const s = String(text).trim();
  let m = s.match(/^([+-]?)(\d+)(?::(\d{1,2}))?(?::(\d{1,2}))?$/);
  if (m && m[3] !== undefined) {
    const parts = [m[2], m[3], m[4]].filter((p) => p !== undefined).map(Number);
    const [hh, mm, ss] = parts.length === 3 ? parts : [0, parts[0], parts[1]];
    if (mm >= 60 && parts.length === 3) return null;
    if (ss >= 60) return null;
    return (m[1] === '-' ? -1 : 1) * ((hh * 60 + mm) * 60 + ss) * 1000;
  }
  m = s.match(/^([+-]?)(\d+)\s*(s|m|min|h)$/);
  if (m) {
    const unit = { s: 1000, m: 60000, min: 60000, h: 3600000 }[m[3]];
    return (m[1] === '-' ? -1 : 1) * Number(m[2]) * unit;
  }
  return null;
}

function clockText(millis) {
  const sign = millis < 0 ? '-' : '';
  const total = Math.round(Math.abs(millis) / 1000);
  return `${sign}${Math.floor(total / 3600)}:${String(Math.floor(total / 60) % 60).padStart(2, '0')}:${String(total % 60).padStart(2, '0')}`;
}

function playerFields(color) {
  const input = (name, attrs) => h('input', { name: `${color}-${name}`, ...attrs });
  return h('fieldset', { dataset: { player: color } },
    h('legend', {}, t('color.' + color)),
    field(t('arbiter.played'), input('played', { type: 'number', min: '0', max: '10000', inputmode: 'numeric' })),
    field(t('arbiter.legal'), input('legal', { type: 'number', min: '0', max: '10000', inputmode: 'numeric' })),
    field(t('arbiter.displayed'), input('displayed', { placeholder: '20:00', autocomplete: 'off' })),
  );
}

function warningText(w) {
  if (w.kind === 'displayAboveAllotted') return t('arbiter.warn.above', { displayed: w.displayed, allotted: w.allotted });
  if (w.kind === 'noTimeLeft') return t('arbiter.warn.noTime', { estimate: w.estimate });
  return w.text;
}

function allocLine(a) {
  return t('arbiter.alloc', { n: a.moves, total: a.total, base: a.base, bonuses: a.bonuses, increments: a.increments });
}

// One player's worked correction: the steps (2), (3), (4) and formula (5).
function explanation(color, r, control) {
  const lines = [];
  const p = r.played;
  const l = r.legal;
  if (r.unchanged) {
    lines.push(t('arbiter.unchanged'));
  } else {
    if (control.severalPeriods) {
      lines.push(allocLine(r.allocPlayed), allocLine(r.allocLegal));
      lines.push(t('arbiter.step2.periods', { p, alloc: r.allocPlayed.total, displayed: r.displayed, used: r.step2Used }));
    } else {
      lines.push(t('arbiter.step2', { p, initial: control.initial, increment: control.increment, alloc: r.allocPlayed.total, displayed: r.displayed, used: r.step2Used }));
    }
    lines.push(t('arbiter.step3', { p, l, used: r.step2Used, legalUsed: r.step3LegalUsed }));
    lines.push(control.severalPeriods
      ? t('arbiter.step4.periods', { l, alloc: r.allocLegal.total, legalUsed: r.step3LegalUsed, set: r.step4Set })
      : t('arbiter.step4', { l, initial: control.initial, increment: control.increment, alloc: r.allocLegal.total, legalUsed: r.step3LegalUsed, set: r.step4Set }));
    lines.push(t('arbiter.formula5', { p, l, initial: control.initial, displayed: r.displayed, value: r.formula5 })
      + ' ' + (r.formula5Agrees ? t('arbiter.formula5.same') : t('arbiter.formula5.differs', { p, l })));
  }
  return h('section', { class: 'card', dataset: { explain: color } },
    h('h3', {}, t('color.' + color)),
    h('p', {}, t('arbiter.inputs', { p, l, displayed: r.displayed })),
    h('ol', { class: 'steps mono', role: 'list' }, lines.map((x) => h('li', {}, x))),
    h('p', { class: 'result' }, t('arbiter.set'), ' ',
      h('strong', { class: 'mono big-time', dataset: { result: color } }, r.set),
      ' ', h('span', { class: 'hint' }, t('arbiter.rounding', { exact: r.step4Set }))),
    r.warnings.length ? h('ul', { class: 'error' }, r.warnings.map((w) => h('li', {}, warningText(w)))) : null,
  );
}

function calculator() {
  const out = h('div', { 'aria-live': 'polite', dataset: { calculator: 'result' } });
  const form = h('form', { class: 'card', dataset: { form: 'clock-reset' } },
    h('h2', {}, t('arbiter.calc')),
    h('p', { class: 'hint' }, t('arbiter.calc.hint')),
    field(t('arbiter.control'), h('input', { name: 'control', value: '5400+30', required: true, autocomplete: 'off' })),
    h('p', { class: 'hint' }, t('arbiter.control.hint')),
    h('div', { class: 'columns' }, playerFields('white'), playerFields('black')),
    h('p', { class: 'hint' }, t('arbiter.players.hint')),
    h('button', { type: 'submit', class: 'primary', dataset: { action: 'calculate' } }, t('arbiter.calculate')),
  );
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const body = { control: form.control.value.trim() };
    for (const c of COLORS) {
      const played = form[`${c}-played`].value.trim();
      const legal = form[`${c}-legal`].value.trim();
      const displayed = form[`${c}-displayed`].value.trim();
      if (!played && !legal && !displayed) continue;
      if (!played || !legal || !displayed) {
        out.replaceChildren(h('p', { class: 'error', role: 'alert' }, t('arbiter.incomplete', { color: t('color.' + c) })));
        return;
      }
      body[c] = { played: Number(played), legal: Number(legal), displayed };
    }
    if (!body.white && !body.black) {
      out.replaceChildren(h('p', { class: 'error', role: 'alert' }, t('arbiter.nothing')));
      return;
    }
    try {
      const r = await post('/api/arbiter/clock-reset', body);
      out.replaceChildren(
        h('p', {}, t('arbiter.controlRead', { pgn: r.control.pgn, human: r.control.human })),
        ...COLORS.filter((c) => r[c]).map((c) => explanation(c, r[c], r.control)),
      );
    } catch (err) {
      out.replaceChildren(h('p', { class: 'error', role: 'alert' }, t('error.generic', { reason: err.message })));
    }
  });
  // A shared address fills the form and calculates at once:
  // /arbiter?control=5400%2B30&white=40,35,20:00[&black=P,L,T]
  const query = new URLSearchParams(location.search);
  if (query.get('control')) {
    form.control.value = query.get('control');
    let any = false;
    for (const c of COLORS) {
      const parts = (query.get(c) || '').split(',');
      if (parts.length !== 3) continue;
      ['played', 'legal', 'displayed'].forEach((k, i) => (form[`${c}-${k}`].value = parts[i].trim()));
      any = true;
    }
    if (any) setTimeout(() => form.requestSubmit(), 0);
  }
  return h('div', {}, form, out);
}

const KINDS = ['pause', 'resume', 'setClock', 'addTime', 'penalty', 'restore', 'setResult'];

function actions() {
  const user = me();
  const section = h('section', { class: 'card', dataset: { form: 'arbiter-actions' } }, h('h2', {}, t('arbiter.actions')));
  if (!user || !['arbiter', 'admin'].includes(user.role)) {
    section.append(h('p', { class: 'hint' }, t('arbiter.needRole')));
    return section;
  }
  const color = (name) => select(name, COLORS.map((c) => [c, t('color.' + c)]));
  const parts = {
    setClock: [field(t('arbiter.color'), color('color')), field(t('arbiter.time'), h('input', { name: 'time', placeholder: '0:25:00', autocomplete: 'off' }))],
    addTime: [field(t('arbiter.color'), color('color')), field(t('arbiter.add'), h('input', { name: 'time', placeholder: '2:00', autocomplete: 'off' }))],
    penalty: [field(t('arbiter.offender'), color('offender'))],
    restore: [
      field(t('arbiter.step'), h('input', { name: 'step', type: 'number', min: '0', inputmode: 'numeric' })),
      field(t('arbiter.clockMode'), select('clock', ['exact', 'proportional', 'keep'].map((m) => [m, t('arbiter.clock.' + m)]), 'exact')),
    ],
    setResult: [field(t('arbiter.result'), select('result', [['1-0', '1-0'], ['0-1', '0-1'], ['1/2-1/2', '½-½'], ['*', t('arbiter.result.open')]]))],
  };
  const extra = h('div', {});
  const kind = select('kind', KINDS.map((k) => [k, t('arbiter.kind.' + k)]), 'pause');
  const gameInput = h('input', { name: 'game', required: true, pattern: '[A-Za-z0-9]{1,64}', autocomplete: 'off',
    value: new URLSearchParams(location.search).get('game') || '' });
  const info = h('div', { class: 'game-info', 'aria-live': 'polite' });
  // The game as it stands: players, clocks, and its steps (for a restore).
  const showGame = async () => {
    const id = gameInput.value.trim();
    if (!/^[A-Za-z0-9]{1,64}$/.test(id)) {
      info.replaceChildren();
      return;
    }
    try {
      const g = await get('/api/game/' + encodeURIComponent(id));
      const s = g.state || {};
      const clock = (ms) => (typeof ms === 'number' ? clockText(ms) : '–');
      info.replaceChildren(
        h('p', {}, h('strong', {}, `${g.white?.name ?? ''} – ${g.black?.name ?? ''}`), ' · ', t('variant.' + variantOf(g)),
          ' · ', s.status !== 'started' ? t('arbiter.over', { result: s.result ?? '', reason: s.reason ?? '' }) : t('arbiter.running'),
          s.paused ? ' · ' + t('arbiter.paused') : ''),
        g.timeControl ? h('p', { class: 'mono' }, `${t('color.white')} ${clock(s.wtime)} · ${t('color.black')} ${clock(s.btime)}`) : null,
        h('details', {}, h('summary', {}, t('arbiter.steps', { n: (s.record || []).length })),
          h('ol', { class: 'record', start: '0' },
            h('li', { value: '0' }, t('arbiter.step0')),
            (s.record || []).map((line, i) => h('li', { value: String(i + 1) }, t('arbiter.stepAfter', { line }))))),
      );
    } catch (err) {
      info.replaceChildren(h('p', { class: 'error' }, t('error.generic', { reason: err.message })));
    }
  };
  gameInput.addEventListener('change', showGame);
  if (gameInput.value) showGame();
  const form = h('form', {},
    field(t('arbiter.game'), gameInput),
    info,
    field(t('arbiter.kind'), kind),
    extra,
    field(t('arbiter.reason'), h('textarea', { name: 'reason', required: true, maxlength: '500', rows: '2' })),
    h('button', { type: 'submit', class: 'primary', dataset: { action: 'arbiter' } }, t('arbiter.apply')),
  );
  const sync = () => extra.replaceChildren(...(parts[kind.value] || []));
  kind.addEventListener('change', sync);
  sync();
  const status = h('p', { 'aria-live': 'polite' });
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const reason = form.reason.value.trim();
    if (!reason) {
      status.replaceChildren(h('span', { class: 'error' }, t('arbiter.reasonNeeded')));
      return;
    }
    const action = { kind: kind.value };
    if (action.kind === 'setClock' || action.kind === 'addTime') {
      const millis = parseDuration(form.time.value);
      if (millis === null || (action.kind === 'setClock' && millis < 0)) {
        status.replaceChildren(h('span', { class: 'error' }, t('arbiter.badTime')));
        return;
      }
      action.color = form.color.value;
      action.millis = millis;
    } else if (action.kind === 'penalty') {
      action.offender = form.offender.value;
    } else if (action.kind === 'restore') {
      if (form.step.value === '') {
        status.replaceChildren(h('span', { class: 'error' }, t('arbiter.stepNeeded')));
        return;
      }
      action.step = Number(form.step.value);
      action.clock = form.clock.value;
    } else if (action.kind === 'setResult') {
      action.result = form.result.value;
    }
    const id = form.game.value.trim();
    try {
      await post(`/api/game/${encodeURIComponent(id)}/arbiter`, { reason, action });
      status.replaceChildren(t('arbiter.done', { action: t('arbiter.kind.' + action.kind), game: id }), ' ',
        h('a', { href: '/game/' + id, dataset: { link: '' } }, t('arbiter.toGame')), ' · ',
        h('a', { href: '/log/' + id, dataset: { link: '' } }, t('arbiter.toLog')));
      toast(t('arbiter.done', { action: t('arbiter.kind.' + action.kind), game: id }));
      showGame();
    } catch (err) {
      status.replaceChildren(h('span', { class: 'error', role: 'alert' }, t('error.generic', { reason: err.message })));
    }
  });
  section.append(h('p', { class: 'hint' }, t('arbiter.actions.hint')), form, status);
  return section;
}

export async function render(main) {
  main.append(h('h1', {}, t('arbiter.title')), calculator(), actions());
}
