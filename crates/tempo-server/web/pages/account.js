import { t } from '../i18n.js';
import { getAll, post, me } from '../api.js';
import { h, field, select } from '../dom.js';
import { toast } from '../app.js';
import { emailCard } from './account-email.js';

export async function render(main) {
  const user = me();
  main.append(h('h1', {}, t('account.title') + ': ' + user.username));
  const pw = h(
    'form',
    { class: 'card' },
    h('h2', {}, t('account.password')),
    field(t('account.old'), h('input', { name: 'old', type: 'password', autocomplete: 'current-password', required: true })),
    field(t('account.new'), h('input', { name: 'new', type: 'password', autocomplete: 'new-password', minlength: '8', required: true })),
    h('button', { type: 'submit' }, t('account.change')),
  );
  pw.addEventListener('submit', async (e) => {
    e.preventDefault();
    try {
      await post('/api/account/password', { old: pw.old.value, new: pw.new.value });
      pw.reset();
      toast(t('account.changed'));
    } catch (err) {
      toast(t('error.generic', { reason: err.message }), 'error');
    }
  });
  main.append(pw);
  main.append(await emailCard());
  const list = h('ul', { class: 'members' });
  const section = h('section', { class: 'card' }, h('h2', {}, t('account.members')), list);
  main.append(section);
  const fill = async () => {
    const users = await getAll('/api/users', 'users');
    list.replaceChildren(...users.map((u) => h('li', {}, u.name, ' ', h('small', {}, t('role.' + u.role)))));
  };
  await fill();
  if (user.role === 'admin') {
    const add = h(
      'form',
      { class: 'inline-form', dataset: { form: 'add-member' } },
      h('h3', {}, t('account.addMember')),
      field(t('login.username'), h('input', { name: 'username', required: true, maxlength: '64', autocomplete: 'off' })),
      field(t('login.password'), h('input', { name: 'password', type: 'password', minlength: '8', required: true, autocomplete: 'new-password' })),
      field(t('account.role'), select('role', ['player', 'arbiter', 'admin'].map((r) => [r, t('role.' + r)]), 'player')),
      h('button', { type: 'submit' }, t('account.add')),
    );
    add.addEventListener('submit', async (e) => {
      e.preventDefault();
      try {
        const r = await post('/api/users', { username: add.username.value.trim(), password: add.password.value, role: add.role.value });
        add.reset();
        toast(t('account.added', { name: r.name }));
        await fill();
      } catch (err) {
        toast(t('error.generic', { reason: err.message }), 'error');
      }
    });
    section.append(add);
  }
}
