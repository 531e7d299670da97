// The piece images: drawn for tempo (no third-party set), 45×45 units.
// A piece is named as in the test contract: colour w/b, role KQRBNP.

const BASE = '<rect x="10" y="36" width="25" height="5" rx="1.5"/>';

const SHAPES = {
  P: `<circle cx="22.5" cy="12.5" r="5.5"/><path d="M15 36c0-9 4-14 7.5-16 3.5 2 7.5 7 7.5 16z"/>${BASE}`,
  R: `<path d="M11 9h5v4h4V9h5v4h4V9h5v9H11z"/><path d="M14 18h17l-1 18H15z"/>${BASE}`,
  B: `<circle cx="22.5" cy="7.5" r="2.8"/><path d="M15 35c-3-8 1-18 7.5-24 6.5 6 10.5 16 7.5 24z"/><path class="line" d="M25.5 15.5l-6 7"/>${BASE}`,
  N: `<path d="M12 36c1-7 4-11 7-14-3 1-6 3-8 4-3 1-4-2-3-5 1-4 4-8 7-10l2-5 2 4c5 1 9 5 10 10 2 4 4 10 4 16z"/><circle class="eye" cx="17.5" cy="14.5" r="1.3"/>`,
  Q: `<circle cx="8.5" cy="12" r="2.2"/><circle cx="17.5" cy="8.5" r="2.2"/><circle cx="27.5" cy="8.5" r="2.2"/><circle cx="36.5" cy="12" r="2.2"/><path d="M12 35L9 14l7 10 1.5-14 5 13 5-13 1.5 14 7-10-3 21z"/>${BASE}`,
  K: `<path d="M21.5 4h2v4h3v2h-3v5h-2v-5h-3V8h3z"/><path d="M13 35c-3-7-2-14 3-15 3-.5 5 2 6.5 5 1.5-3 3.5-5.5 6.5-5 5 1 6 8 3 15z"/>${BASE}`,
};

// The SVG markup of `piece` ("wP"), with `data-piece` for the test contract.
export function pieceSvg(piece, extraClass = '') {
  const color = piece[0] === 'w' ? 'white' : 'black';
  return `<svg class="piece ${color} ${extraClass}" data-piece="${piece}" viewBox="0 0 45 45" aria-hidden="true" focusable="false">${SHAPES[piece[1]]}</svg>`;
}

export const ROLE_NAMES = { K: 'king', Q: 'queen', R: 'rook', B: 'bishop', N: 'knight', P: 'pawn' };
