// Positions as the server writes them: plain FEN (orthodox games) or the
// extended notation of simultaneous games
// (<placement> <phase> <castling> <en passant> <paused> <half-moves> <pair>).

export const FILES = 'abcdefgh';

export function squareName(file, rank) {
  return FILES[file] + (rank + 1);
}

// Square name → {file, rank} (0-based), or null.
export function parseSquare(name) {
  if (!/^[a-h][1-8]$/.test(name)) return null;
  return { file: FILES.indexOf(name[0]), rank: Number(name[1]) - 1 };
}

// The placement field → Map square → piece ("wP").
export function parsePlacement(placement) {
  const board = new Map();
  const rows = placement.split('/');
  for (let r = 0; r < 8 && r < rows.length; r++) {
    let file = 0;
    for (const c of rows[r]) {
      if (/\d/.test(c)) {
        file += Number(c);
      } else if (file < 8) {
        const color = c === c.toUpperCase() ? 'w' : 'b';
        board.set(squareName(file, 7 - r), color + c.toUpperCase());
        file += 1;
      }
    }
  }
  return board;
}

// A position line → {board, phase, paused: [squares], extended}.
export function parsePosition(fen) {
  const fields = String(fen || '').trim().split(/\s+/);
  const board = parsePlacement(fields[0] || '8/8/8/8/8/8/8/8');
  const phase = fields[1] || 'w';
  const extended = !['w', 'b'].includes(phase);
  const paused = [];
  if (extended && fields[4] && fields[4] !== '-') {
    for (let i = 0; i + 1 < fields[4].length; i += 2) paused.push(fields[4].slice(i, i + 2));
  }
  return { board, phase, paused, extended, turn: extended ? null : phase };
}

// The sources' digit code (ICCF): e2e4 → 5254, promotion Q1 R2 B3 N4.
export function uciToDigits(uci) {
  if (uci === '-' ) return '-';
  const capture = uci.startsWith('x');
  const m = (capture ? uci.slice(1) : uci).match(/^([a-h])([1-8])([a-h])([1-8])([qrbn])?$/);
  if (!m) return uci;
  const f = (c) => FILES.indexOf(c) + 1;
  const promo = m[5] ? { q: 1, r: 2, b: 3, n: 4 }[m[5]] : '';
  return (capture ? 'x' : '') + f(m[1]) + m[2] + f(m[3]) + m[4] + promo;
}

// Digit code → UCI (the inverse of uciToDigits), or null.
export function digitsToUci(text) {
  const m = text.match(/^(x?)([1-8])([1-8])([1-8])([1-8])([1-4])?$/);
  if (!m) return null;
  const file = (d) => FILES[Number(d) - 1];
  const promo = m[6] ? 'qrbn'[Number(m[6]) - 1] : '';
  return m[1] + file(m[2]) + m[3] + file(m[4]) + m[5] + promo;
}
