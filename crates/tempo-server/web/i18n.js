// Translation: every visible string goes through t(key). Each area of the
// app brings its catalogue ({de: {...}, en: {...}}); the language comes
// from the stored choice, else the browser, else German.

const LANGS = ['de', 'en'];
const STORE_KEY = 'tempo.lang';
const strings = { de: {}, en: {} };
let current = pick();
const listeners = [];

function pick() {
  const stored = localStorage.getItem(STORE_KEY);
  if (LANGS.includes(stored)) return stored;
  for (const l of navigator.languages || [navigator.language || '']) {
    const base = String(l).slice(0, 2).toLowerCase();
    if (LANGS.includes(base)) return base;
  }
  return 'de';
}

export function addCatalogue(catalogue) {
  for (const l of LANGS) Object.assign(strings[l], catalogue[l]);
}

export function lang() {
  return current;
}

export function languages() {
  return LANGS;
}

export function setLang(l) {
  if (!LANGS.includes(l)) return;
  current = l;
  localStorage.setItem(STORE_KEY, l);
  document.documentElement.lang = l;
  for (const f of listeners) f(l);
}

export function onLangChange(f) {
  listeners.push(f);
}

// t('clock.left', {min: 3}) → the string with {min} filled in. A missing
// key shows itself (and warns), so it is found, not hidden.
export function t(key, vars = {}) {
  let s = strings[current][key] ?? strings.en[key];
  if (s === undefined) {
    console.warn('missing string', key);
    return key;
  }
  return s.replace(/\{(\w+)\}/g, (_, k) => (k in vars ? String(vars[k]) : `{${k}}`));
}

export function hasKey(key) {
  return key in strings[current] || key in strings.en;
}

// The catalogues as loaded (for the completeness test).
export function catalogues() {
  return strings;
}

document.documentElement.lang = current;
