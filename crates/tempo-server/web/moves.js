// The viewer's legal choices as the server lists them (`e2e4`, `e7e8q`,
// `xd4e5` for an exchange capture, `-` to decline), and what a typed
// move means: UCI, the sources' digit code, or SAN.

import { digitsToUci } from './fen.js';

const squaresOf = (choice) => {
  const m = choice.replace(/^x/, '');
  return [m.slice(0, 2), m.slice(2, 4)];
};

// Map from → Set(to) of the choices that move a piece.
export function destinations(legal) {
  const dests = new Map();
  for (const c of legal || []) {
    if (c === '-') continue;
    const [from, to] = squaresOf(c);
    if (!dests.has(from)) dests.set(from, new Set());
    dests.get(from).add(to);
  }
  return dests;
}

// The choices from `from` to `to` (several when a pawn promotes).
export function choicesFor(legal, from, to) {
  return (legal || []).filter((c) => {
    if (c === '-') return false;
    const [f, tt] = squaresOf(c);
    return f === from && tt === to;
  });
}

// What `text` means among `legal` on `board` (Map square → "wP"), or null.
export function matchInput(text, legal, board) {
  const raw = String(text || '').trim();
  if (!raw) return null;
  if (legal.includes(raw.toLowerCase())) return raw.toLowerCase();
  if (['-', 'decline', 'ablehnen', '--'].includes(raw.toLowerCase())) return legal.includes('-') ? '-' : null;
  const digits = digitsToUci(raw.replace(/\s+/g, ''));
  if (digits) {
    if (legal.includes(digits)) return digits;
    if (legal.includes('x' + digits)) return 'x' + digits;
    return null;
  }
  const uci = raw.toLowerCase().replace(/[-x]/g, '');
  if (/^[a-h][1-8][a-h][1-8][qrbn]?$/.test(uci)) {
    if (legal.includes(uci)) return uci;
    if (legal.includes('x' + uci)) return 'x' + uci;
  }
  return matchSan(raw, legal, board);
}

function matchSan(text, legal, board) {
  const san = text.replace(/[+#!?]/g, '').replace(/0/g, 'O');
  const roleOf = (sq) => board.get(sq)?.[1];
  if (/^O-O(-O)?$/i.test(san)) {
    // Castling: the king's two-square step, or (Chess960, simultaneous
    // games) the king onto its own rook; O-O to the h-side, O-O-O to the a-side.
    const long = san.length > 3;
    const found = legal.filter((c) => {
      const [from, to] = squaresOf(c);
      const king = board.get(from);
      if (king?.[1] !== 'K') return false;
      const step = to.charCodeAt(0) - from.charCodeAt(0);
      const ontoRook = board.get(to) === king[0] + 'R';
      return (Math.abs(step) >= 2 || ontoRook) && (step < 0) === long;
    });
    return found.length === 1 ? found[0] : null;
  }
  const m = san.match(/^([KQRBN])?([a-h])?([1-8])?x?([a-h][1-8])(?:=?([QRBNqrbn]))?$/);
  if (!m) return null;
  const [, role = 'P', file, rank, to, promo] = m;
  const found = legal.filter((c) => {
    if (c === '-') return false;
    const [f, tt] = squaresOf(c);
    const p = c.length > (c.startsWith('x') ? 5 : 4) ? c.slice(-1) : '';
    return tt === to && roleOf(f) === role && (!file || f[0] === file) && (!rank || f[1] === rank)
      && (promo ? p === promo.toLowerCase() : p === '');
  });
  return found.length === 1 ? found[0] : null;
}
