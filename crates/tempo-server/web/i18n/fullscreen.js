export default {
  de: {
    'fullscreen.enter': 'Vollbild',
    'fullscreen.leave': 'Vollbild beenden',
  },
  en: {
    'fullscreen.enter': 'Full screen',
    'fullscreen.leave': 'Leave full screen',
  },
};
