// The board: 64 square elements (data-square="e4") in a grid, pieces as
// our own SVGs (data-piece="wP"), an SVG overlay for arrows. Moves are
// entered by click-click, by drag, or by keyboard (arrows + Enter).
// A selected piece's destinations carry data-dest="move" (a dot) or
// data-dest="capture" (a ring round the piece to be taken).

import { pieceSvg, ROLE_NAMES } from './pieces.js';
import { FILES, parseSquare, squareName } from './fen.js';
import { isCapture } from './moves.js';
import { t } from './i18n.js';

const SLIDE_MS = 200;

export class Board {
  // options: {orientation: 'white'|'black', onMove(from, to) → bool, label,
  // onCancel() when a click or right-click on the board enters nothing}
  constructor(container, options = {}) {
    this.container = container;
    this.orientation = options.orientation || 'white';
    this.onMove = options.onMove || null;
    this.onCancel = options.onCancel || null;
    this.pieces = new Map();
    this.dests = new Map(); // from square → Set of to squares the player may choose
    this.marks = new Map(); // square → Set of css classes
    this.arrows = [];
    this.selected = null;
    this.focus = 'e2';
    this.el = document.createElement('div');
    this.el.className = 'board';
    this.el.setAttribute('role', 'grid');
    this.el.setAttribute('aria-label', options.label || t('board.label'));
    container.replaceChildren(this.el);
    this.el.addEventListener('click', (e) => this.clicked(e));
    this.el.addEventListener('keydown', (e) => this.key(e));
    this.el.addEventListener('pointerdown', (e) => this.dragStart(e));
    this.el.addEventListener('contextmenu', (e) => this.rightClicked(e));
    this.build();
  }

  build() {
    this.el.replaceChildren();
    this.squares = new Map();
    for (let row = 0; row < 8; row++) {
      const rowEl = document.createElement('div');
      rowEl.setAttribute('role', 'row');
      rowEl.className = 'row';
      for (let col = 0; col < 8; col++) {
        const [file, rank] = this.orientation === 'white' ? [col, 7 - row] : [7 - col, row];
        const name = squareName(file, rank);
        const sq = document.createElement('div');
        sq.className = `sq ${(file + rank) % 2 ? 'light' : 'dark'}`;
        sq.dataset.square = name;
        sq.setAttribute('role', 'gridcell');
        sq.tabIndex = name === this.focus ? 0 : -1;
        if (row === 7) sq.insertAdjacentHTML('beforeend', `<span class="coord file" aria-hidden="true" data-coord="${FILES[file]}"></span>`);
        if (col === 0) sq.insertAdjacentHTML('beforeend', `<span class="coord rank" aria-hidden="true" data-coord="${rank + 1}"></span>`);
        rowEl.append(sq);
        this.squares.set(name, sq);
      }
      this.el.append(rowEl);
    }
    this.overlay = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
    this.overlay.setAttribute('class', 'overlay');
    this.overlay.setAttribute('viewBox', '0 0 8 8');
    this.overlay.setAttribute('aria-hidden', 'true');
    this.el.append(this.overlay);
    this.render();
  }

  setOrientation(orientation) {
    if (orientation !== this.orientation) {
      this.orientation = orientation;
      this.build();
    }
  }

  // pieces: Map square → "wP". The pieces that moved since the last call
  // slide to their squares, all at once (a reveal's two moves, a castling's
  // king and rook), unless the reader asked for less motion.
  setPieces(pieces) {
    const slides = slidesBetween(this.pieces, pieces);
    this.pieces = pieces;
    this.render();
    if (slides.length && !matchMedia('(prefers-reduced-motion: reduce)').matches) this.slide(slides);
  }

  slide(slides) {
    const sign = this.orientation === 'white' ? 1 : -1;
    for (const [from, to] of slides) {
      const el = this.squares.get(to)?.querySelector('[data-piece]');
      const a = parseSquare(from);
      const b = parseSquare(to);
      if (!el) continue;
      // The piece starts where it was (in its own widths, which are the
      // square's) and glides home.
      el.style.transition = 'none';
      el.style.transform = `translate(${(a.file - b.file) * sign * 100 / 0.92}%, ${(b.rank - a.rank) * sign * 100 / 0.92}%)`;
      el.getBoundingClientRect();
      el.style.transition = `transform ${SLIDE_MS}ms ease-out`;
      el.style.transform = '';
      el.dataset.sliding = '';
      setTimeout(() => delete el.dataset.sliding, SLIDE_MS);
    }
  }

  // dests: Map from → Set(to); empty when the viewer may not move.
  setDests(dests) {
    this.dests = dests;
    if (this.selected && !dests.has(this.selected)) this.selected = null;
    this.render();
  }

  // marks: Map square → array of classes (last move, paused, check…)
  setMarks(marks) {
    this.marks = marks;
    this.render();
  }

  // arrows: [{from, to, kind: 'white'|'black'|'mine'}]
  setArrows(arrows) {
    this.arrows = arrows;
    this.drawArrows();
  }

  render() {
    for (const [name, sq] of this.squares) {
      const piece = this.pieces.get(name);
      const old = sq.querySelector('[data-piece]');
      if (!piece && old) old.remove();
      if (piece && (!old || old.dataset.piece !== piece)) {
        if (old) old.remove();
        sq.insertAdjacentHTML('afterbegin', pieceSvg(piece));
      }
      const marks = this.marks.get(name) || [];
      sq.className = `sq ${sq.classList.contains('light') ? 'light' : 'dark'} ${marks.join(' ')}`;
      if (this.selected === name) sq.classList.add('selected');
      if (this.selected && this.dests.get(this.selected)?.has(name)) {
        sq.classList.add('dest');
        sq.dataset.dest = isCapture(this.pieces, this.selected, name) ? 'capture' : 'move';
      } else {
        delete sq.dataset.dest;
      }
      if (this.dests.has(name)) sq.classList.add('movable');
      sq.setAttribute('aria-label', this.describe(name, piece, marks));
      sq.setAttribute('aria-selected', this.selected === name ? 'true' : 'false');
    }
  }

  describe(name, piece, marks) {
    let text = name;
    if (piece) text += ', ' + t(`piece.${piece[0]}.${ROLE_NAMES[piece[1]]}`);
    if (marks.includes('paused')) text += ', ' + t('board.paused');
    if (marks.includes('last')) text += ', ' + t('board.lastMove');
    if (marks.includes('check')) text += ', ' + t('board.check');
    if (marks.includes('premove')) text += ', ' + t('board.premove');
    if (this.selected === name) text += ', ' + t('board.selected');
    return text;
  }

  drawArrows() {
    const center = (name) => {
      const s = parseSquare(name);
      const x = this.orientation === 'white' ? s.file : 7 - s.file;
      const y = this.orientation === 'white' ? 7 - s.rank : s.rank;
      return [x + 0.5, y + 0.5];
    };
    const parts = [
      '<defs>',
      ...['white', 'black', 'mine'].map(
        (k) => `<marker id="head-${k}" class="head ${k}" viewBox="0 0 10 10" refX="5" refY="5" markerWidth="3" markerHeight="3" orient="auto"><path d="M0 0L10 5L0 10z"/></marker>`,
      ),
      '</defs>',
    ];
    for (const a of this.arrows) {
      if (!parseSquare(a.from) || !parseSquare(a.to)) continue;
      const [x1, y1] = center(a.from);
      const [x2, y2] = center(a.to);
      const len = Math.hypot(x2 - x1, y2 - y1) || 1;
      const ex = x2 - ((x2 - x1) / len) * 0.3;
      const ey = y2 - ((y2 - y1) / len) * 0.3;
      parts.push(`<line class="arrow ${a.kind}" x1="${x1}" y1="${y1}" x2="${ex}" y2="${ey}" marker-end="url(#head-${a.kind})"/>`);
    }
    this.overlay.innerHTML = parts.join('');
  }

  squareAt(target) {
    return target.closest?.('[data-square]')?.dataset.square || null;
  }

  // A click (or Enter) on square `name`: select a piece that may move,
  // or enter the move to a destination of the selected piece.
  activate(name) {
    if (!name) return;
    if (this.selected && this.selected !== name && this.dests.get(this.selected)?.has(name)) {
      const from = this.selected;
      this.selected = null;
      this.render();
      this.onMove?.(from, name);
      return;
    }
    this.selected = this.dests.has(name) && this.selected !== name ? name : null;
    this.render();
    if (!this.selected) this.onCancel?.();
  }

  rightClicked(e) {
    e.preventDefault();
    this.selected = null;
    this.render();
    this.onCancel?.();
  }

  clicked(e) {
    if (this.dragged) return;
    this.activate(this.squareAt(e.target));
  }

  key(e) {
    const name = this.squareAt(e.target);
    if (!name) return;
    const s = parseSquare(name);
    const sign = this.orientation === 'white' ? 1 : -1;
    const moves = { ArrowUp: [0, 1], ArrowDown: [0, -1], ArrowLeft: [-1, 0], ArrowRight: [1, 0] };
    if (moves[e.key]) {
      e.preventDefault();
      const [df, dr] = moves[e.key];
      const file = Math.min(7, Math.max(0, s.file + df * sign));
      const rank = Math.min(7, Math.max(0, s.rank + dr * sign));
      this.moveFocus(squareName(file, rank));
    } else if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      this.activate(name);
    } else if (e.key === 'Escape') {
      this.selected = null;
      this.render();
    }
  }

  moveFocus(name) {
    this.squares.get(this.focus)?.setAttribute('tabindex', '-1');
    this.focus = name;
    const sq = this.squares.get(name);
    sq.tabIndex = 0;
    sq.focus();
  }

  dragStart(e) {
    const from = this.squareAt(e.target);
    if (!from || !this.dests.has(from) || e.button !== 0) return;
    const pieceEl = this.squares.get(from).querySelector('[data-piece]');
    if (!pieceEl) return;
    e.preventDefault();
    const size = this.el.getBoundingClientRect().width / 8;
    const startX = e.clientX;
    const startY = e.clientY;
    let ghost = null;
    const move = (ev) => {
      if (!ghost && Math.hypot(ev.clientX - startX, ev.clientY - startY) > 4) {
        // Now it is a drag, not a click.
        this.dragged = true;
        this.selected = from;
        this.render();
        ghost = pieceEl.cloneNode(true);
        ghost.removeAttribute('data-piece');
        ghost.classList.add('ghost');
        ghost.style.width = ghost.style.height = `${size}px`;
        document.body.append(ghost);
        pieceEl.classList.add('lifted');
      }
      if (ghost) {
        ghost.style.left = `${ev.clientX - size / 2}px`;
        ghost.style.top = `${ev.clientY - size / 2}px`;
      }
    };
    const up = (ev) => {
      window.removeEventListener('pointermove', move);
      window.removeEventListener('pointerup', up);
      if (!ghost) return; // a click: the click handler selects
      ghost.remove();
      pieceEl.classList.remove('lifted');
      const over = document.elementFromPoint(ev.clientX, ev.clientY);
      const to = over && this.el.contains(over) ? this.squareAt(over) : null;
      if (to && to !== from) this.activate(to);
      else {
        this.selected = null;
        this.render();
      }
      // The click that follows a drag is not a second click.
      setTimeout(() => (this.dragged = false), 0);
    };
    window.addEventListener('pointermove', move);
    window.addEventListener('pointerup', up);
  }
}

// [from, to] for each piece of `after` on a square it did not hold in
// `before`, paired with the nearest square that lost the same piece; none
// for a jump of many pieces (a new game, a step of the replay far away).
export function slidesBetween(before, after) {
  const gone = [...before].filter(([sq, p]) => after.get(sq) !== p);
  const came = [...after].filter(([sq, p]) => before.get(sq) !== p);
  if (!before.size || came.length > 4) return [];
  const slides = [];
  for (const [to, piece] of came) {
    const b = parseSquare(to);
    let best = null;
    for (const [from, p] of gone) {
      if (p !== piece) continue;
      const a = parseSquare(from);
      const d = Math.abs(a.file - b.file) + Math.abs(a.rank - b.rank);
      if (!best || d < best.d) best = { from, d };
    }
    if (best) {
      slides.push([best.from, to]);
      gone.splice(gone.findIndex(([sq]) => sq === best.from), 1);
    }
  }
  return slides;
}

// A static diagram (rules page, print views): the same squares, no input.
export function diagram(container, placementMap, { orientation = 'white', marks = new Map(), arrows = [], label } = {}) {
  const board = new Board(container, { orientation, label });
  board.el.classList.add('diagram');
  board.setPieces(placementMap);
  board.setMarks(marks);
  board.setArrows(arrows);
  return board;
}
