// The viewer's legal choices as the server lists them (`e2e4`, `e7e8q`,
// `xd4e5` for an exchange capture, `-` to decline), and what a typed
// move means: UCI, the sources' digit code, or SAN.

import { digitsToUci } from './fen.js';

const squaresOf = (choice) => {
  const m = choice.replace(/^x/, '');
  return [m.slice(0, 2), m.slice(2, 4)];
};

// Map from → Set(to) of the choices that move a piece; with `board`
// (Map square → "wK") a castling also under its other spelling.
export function destinations(legal, board = null) {
  const dests = new Map();
  const add = (from, to) => {
    if (!dests.has(from)) dests.set(from, new Set());
    dests.get(from).add(to);
  };
  for (const c of legal || []) {
    if (c === '-') continue;
    const [from, to] = squaresOf(c);
    add(from, to);
  }
  if (board) for (const key of castlingAliases(legal, board).keys()) add(key.slice(0, 2), key.slice(2, 4));
  return dests;
}

// The choices from `from` to `to` (several when a pawn promotes); a
// castling named by its other spelling gives the spelling the server listed.
export function choicesFor(legal, from, to, board = null) {
  const found = (legal || []).filter((c) => {
    if (c === '-') return false;
    const [f, tt] = squaresOf(c);
    return f === from && tt === to;
  });
  if (found.length || !board) return found;
  const alias = castlingAliases(legal, board).get(from + to);
  return alias ? [alias] : [];
}

// Castling has two spellings: the king's step to its castling square
// (e1g1, what orthodox UCI lists) and the king onto its own rook (e1h1,
// what Chess960 and the simultaneous variants list). Each castling among
// `legal` under the spelling not listed: Map "e1h1" → "e1g1". A spelling
// that is also an ordinary king move (Chess960 b1c1 with the rook on a1)
// stays that move, as on lichess.
export function castlingAliases(legal, board) {
  const aliases = new Map();
  const plain = new Set((legal || []).map((c) => c.replace(/^x/, '').slice(0, 4)));
  for (const c of legal || []) {
    if (c === '-' || c.startsWith('x')) continue;
    const [from, to] = squaresOf(c);
    const king = board.get(from);
    if (king?.[1] !== 'K' || from[1] !== to[1]) continue;
    const step = to.charCodeAt(0) - from.charCodeAt(0);
    let alias = null;
    if (board.get(to) === king[0] + 'R') alias = (step > 0 ? 'g' : 'c') + from[1];
    else if (Math.abs(step) >= 2) alias = rookBeyond(board, from, Math.sign(step), king[0]);
    if (alias && alias !== from && alias !== to && !plain.has(from + alias)) aliases.set(from + alias, c);
  }
  return aliases;
}

// The first piece from `from` towards `dir` along the rank if it is a rook
// of `color` (the rook a king's castling step castles with).
function rookBeyond(board, from, dir, color) {
  for (let f = from.charCodeAt(0) + dir; f >= 97 && f <= 104; f += dir) {
    const sq = String.fromCharCode(f) + from[1];
    const piece = board.get(sq);
    if (piece) return piece === color + 'R' ? sq : null;
  }
  return null;
}

// Whether the move from → to on `board` takes a piece: an enemy piece on
// `to`, or a pawn's diagonal step to an empty square (en passant).
export function isCapture(board, from, to) {
  const mover = board.get(from);
  const target = board.get(to);
  if (!mover) return false;
  if (target) return target[0] !== mover[0];
  return mover[1] === 'P' && from[0] !== to[0];
}

// Where the pieces of `color` could go if the board were different
// (lichess premoves): every square of each piece's pattern, sliding pieces
// through other pieces, pawns forward and diagonally, a king on its first
// rank also to its castling squares and onto its rooks.
export function premoveDestinations(board, color) {
  const dests = new Map();
  for (const [from, piece] of board) {
    if (piece[0] !== color) continue;
    const to = patternSquares(from, piece, board);
    if (to.size) dests.set(from, to);
  }
  return dests;
}

const KNIGHT = [[1, 2], [2, 1], [2, -1], [1, -2], [-1, -2], [-2, -1], [-2, 1], [-1, 2]];
const KING = [[1, 0], [1, 1], [0, 1], [-1, 1], [-1, 0], [-1, -1], [0, -1], [1, -1]];
const ROOK_DIRS = [[1, 0], [-1, 0], [0, 1], [0, -1]];
const BISHOP_DIRS = [[1, 1], [1, -1], [-1, 1], [-1, -1]];

function patternSquares(from, piece, board) {
  const f0 = from.charCodeAt(0) - 97;
  const r0 = Number(from[1]) - 1;
  const out = new Set();
  const at = (f, r) => (f >= 0 && f < 8 && r >= 0 && r < 8 ? String.fromCharCode(97 + f) + (r + 1) : null);
  const jumps = (list) => list.forEach(([df, dr]) => at(f0 + df, r0 + dr) && out.add(at(f0 + df, r0 + dr)));
  const slide = (dirs) => dirs.forEach(([df, dr]) => {
    for (let i = 1; at(f0 + df * i, r0 + dr * i); i++) out.add(at(f0 + df * i, r0 + dr * i));
  });
  const [color, role] = piece;
  const forward = color === 'w' ? 1 : -1;
  if (role === 'N') jumps(KNIGHT);
  if (role === 'B' || role === 'Q') slide(BISHOP_DIRS);
  if (role === 'R' || role === 'Q') slide(ROOK_DIRS);
  if (role === 'P') {
    jumps([[0, forward], [1, forward], [-1, forward]]);
    if (r0 === (color === 'w' ? 1 : 6)) jumps([[0, 2 * forward]]);
  }
  if (role === 'K') {
    jumps(KING);
    if (r0 === (color === 'w' ? 0 : 7)) {
      jumps([[6 - f0, 0], [2 - f0, 0]].filter(([df]) => df !== 0));
      for (const [sq, p] of board) if (p === color + 'R' && sq[1] === from[1]) out.add(sq);
    }
  }
  return out;
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
    return castlingAliases(legal, board).get(uci) || null;
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
