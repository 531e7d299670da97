// h('button', {type: 'button', dataset: {action: 'commit'}, onclick}, 'Text')
// builds elements without HTML strings, so names from the server are text.

export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k === 'dataset') Object.assign(el.dataset, v);
    else if (k.startsWith('on')) el.addEventListener(k.slice(2), v);
    else if (k === 'class') el.className = v;
    else if (k in el && typeof v !== 'string') el[k] = v;
    else el.setAttribute(k, v === true ? '' : v);
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

// A labelled form field: <label>text <input …></label>.
export function field(label, input) {
  return h('label', { class: 'field' }, h('span', {}, label), input);
}

// A select of [value, text] options.
export function select(name, options, value) {
  return h(
    'select',
    { name },
    options.map(([v, text]) => h('option', { value: v, selected: v === value }, text)),
  );
}

export function localTime(iso) {
  if (!iso) return '';
  const d = new Date(iso);
  return d.toLocaleString(document.documentElement.lang, { dateStyle: 'medium', timeStyle: 'short' });
}
