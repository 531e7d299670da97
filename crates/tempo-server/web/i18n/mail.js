// The account page's e-mail card.
export default {
  de: {
    'mail.title': 'E-Mail für Fernschach',
    'mail.note':
      'Nur du siehst diese Adresse. Wenn der Server Mails verschickt, kommen sie bei einer Herausforderung an dich und in Fernschachpartien (Tage je Zug), wenn du am Zug bist, 12 Stunden vor Ablauf deiner Bedenkzeit und am Ende der Partie.',
    'mail.address': 'E-Mail-Adresse',
    'mail.lang': 'Sprache der Mails',
    'mail.both': 'Deutsch und Englisch',
    'mail.save': 'Speichern',
    'mail.remove': 'Adresse löschen',
    'mail.saved': 'E-Mail-Adresse gespeichert.',
    'mail.removed': 'E-Mail-Adresse gelöscht.',
  },
  en: {
    'mail.title': 'E-mail for correspondence',
    'mail.note':
      'Only you see this address. If the server sends mail, it comes for a challenge to you and, in correspondence games (days per move), when it is your move, 12 hours before your time runs out, and at the end of the game.',
    'mail.address': 'E-mail address',
    'mail.lang': 'Language of the mails',
    'mail.both': 'German and English',
    'mail.save': 'Save',
    'mail.remove': 'Remove address',
    'mail.saved': 'E-mail address saved.',
    'mail.removed': 'E-mail address removed.',
  },
};
