// The app's own dialogs in place of confirm(): a modal <dialog> with the
// question and two buttons; the promise answers true for the confirming one.
//   if (await ask(t('game.resignQ'), t('game.resign'))) …

import { h } from './dom.js';
import { t } from './i18n.js';

export function ask(question, confirmText, cancelText = t('dialog.cancel')) {
  return new Promise((resolve) => {
    const yes = h('button', { type: 'button', class: 'primary', dataset: { answer: 'yes' } }, confirmText);
    const no = h('button', { type: 'button', dataset: { answer: 'no' } }, cancelText);
    const dialog = h(
      'dialog',
      { class: 'ask', 'aria-label': question },
      h('p', {}, question),
      h('div', { class: 'actions' }, no, yes),
    );
    const close = (answer) => {
      dialog.close();
      dialog.remove();
      resolve(answer);
    };
    yes.addEventListener('click', () => close(true));
    no.addEventListener('click', () => close(false));
    dialog.addEventListener('cancel', (e) => {
      e.preventDefault();
      close(false);
    });
    document.body.append(dialog);
    dialog.showModal();
    yes.focus();
  });
}
