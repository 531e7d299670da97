import { t } from '../i18n.js';
import { post, setSession } from '../api.js';
import { h, field } from '../dom.js';
import { navigate } from '../app.js';

// Where to go after logging in: `next` if it is a page of this server.
function nextPage() {
  const next = new URLSearchParams(location.search).get('next');
  if (!next) return '/';
  try {
    const url = new URL(next, location.origin);
    return url.origin === location.origin ? url.pathname + url.search : '/';
  } catch {
    return '/';
  }
}

export async function render(main) {
  const error = h('p', { class: 'error', role: 'alert' });
  const form = h(
    'form',
    { class: 'card narrow', 'aria-labelledby': 'login-title' },
    h('h1', { id: 'login-title' }, t('login.title')),
    field(t('login.username'), h('input', { name: 'username', autocomplete: 'username', required: true, maxlength: '64' })),
    field(t('login.password'), h('input', { name: 'password', type: 'password', autocomplete: 'current-password', required: true })),
    h('button', { type: 'submit', class: 'primary', dataset: { action: 'login' } }, t('login.submit')),
    error,
    h('p', { class: 'hint' }, t('login.hint')),
  );
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    error.textContent = '';
    try {
      const session = await post('/api/session', {
        username: form.username.value.trim(),
        password: form.password.value,
      });
      setSession(session);
      navigate(nextPage(), true);
    } catch (err) {
      error.textContent = t('login.failed', { reason: err.message });
    }
  });
  main.append(form);
  form.username.focus();
}
