// The account page's e-mail card: the member's own address for
// correspondence mails and their language (GET/POST /api/account/email).

import { t, addCatalogue, lang } from '../i18n.js';
import { get, post } from '../api.js';
import { h, field, select } from '../dom.js';
import { toast } from '../app.js';
import catalogue from '../i18n/mail.js';

addCatalogue(catalogue);

export async function emailCard() {
  const current = await get('/api/account/email');
  const langs = [['de', t('lang.de')], ['en', t('lang.en')], ['', t('mail.both')]];
  const remove = h('button', { type: 'button', class: 'danger', dataset: { action: 'remove-email' } }, t('mail.remove'));
  const form = h(
    'form',
    { class: 'card', dataset: { form: 'email' } },
    h('h2', {}, t('mail.title')),
    h('p', {}, t('mail.note')),
    field(
      t('mail.address'),
      h('input', { name: 'email', type: 'email', autocomplete: 'email', maxlength: '254', value: current.email || '' }),
    ),
    field(t('mail.lang'), select('lang', langs, current.email ? current.lang || '' : lang())),
    h('button', { type: 'submit' }, t('mail.save')),
    ' ',
    remove,
  );
  remove.hidden = !current.email;
  const save = async (email) => {
    try {
      const r = await post('/api/account/email', { email, lang: form.lang.value || null });
      form.email.value = r.email || '';
      remove.hidden = !r.email;
      toast(t(r.email ? 'mail.saved' : 'mail.removed'));
    } catch (err) {
      toast(t('error.generic', { reason: err.message }), 'error');
    }
  };
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    save(form.email.value.trim());
  });
  remove.addEventListener('click', () => save(null));
  return form;
}
