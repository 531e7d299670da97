// A button that puts the page on the whole screen and back (Fullscreen
// API), for the projector view; its label says which it does now.

import { t, addCatalogue } from './i18n.js';
import { h } from './dom.js';
import catalogue from './i18n/fullscreen.js';

addCatalogue(catalogue);

const label = () => t(document.fullscreenElement ? 'fullscreen.leave' : 'fullscreen.enter');

// One listener for every such button (pages draw them again and again).
document.addEventListener('fullscreenchange', () => {
  for (const b of document.querySelectorAll('[data-action="fullscreen"]')) b.textContent = label();
});

export function fullscreenButton() {
  const button = h('button', { type: 'button', class: 'link', dataset: { action: 'fullscreen' } }, label());
  button.addEventListener('click', async () => {
    try {
      if (document.fullscreenElement) await document.exitFullscreen();
      else await document.documentElement.requestFullscreen();
    } catch {
      // Refused (not allowed here, or no full screen): the page stays as it is.
    }
  });
  button.hidden = !document.fullscreenEnabled;
  return button;
}
