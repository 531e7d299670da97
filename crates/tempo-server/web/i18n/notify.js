// The notifications of the app shell (events.js).
export default {
  de: {
    'notify.region': 'Benachrichtigungen',
    'notify.close': 'Schließen',
    'notify.challenge': '{name} fordert dich heraus: {variant}, {clock}',
    'notify.perDay': '1 Tag je Zug',
    'notify.perDays': '{days} Tage je Zug',
    'notify.accept': 'Annehmen',
    'notify.decline': 'Ablehnen',
    'notify.gameStart': 'Eine Partie von dir beginnt.',
    'notify.yourTurn': 'Du bist am Zug.',
    'notify.open': 'Zur Partie',
  },
  en: {
    'notify.region': 'Notifications',
    'notify.close': 'Close',
    'notify.challenge': '{name} challenges you: {variant}, {clock}',
    'notify.perDay': '1 day per move',
    'notify.perDays': '{days} days per move',
    'notify.accept': 'Accept',
    'notify.decline': 'Decline',
    'notify.gameStart': 'A game of yours starts.',
    'notify.yourTurn': 'It is your move.',
    'notify.open': 'Open the game',
  },
};
