// What a reveal did, named for people: the special cases of simultaneous
// play (collision, swap, a capture of a piece that moved away, first-move
// right, void move, paused pieces, exchange, switch to orthodox play).

const square = (bb) => (Array.isArray(bb) ? bb.join(', ') : String(bb ?? ''));

// [{type, text}] for the events worth naming.
export function describeEvents(events, t) {
  const out = [];
  const color = (c) => t('color.' + c);
  for (const e of events) {
    switch (e.type) {
      case 'collision':
        out.push({ type: e.type, text: t('event.collision', { square: e.square, removed: removedText(e, t) }) });
        break;
      case 'swap':
        out.push({ type: e.type, text: t('event.swap', { a: e.white_from ?? e.whiteFrom, b: e.black_from ?? e.blackFrom }) });
        break;
      case 'evaded':
        out.push({ type: e.type, text: t('event.evaded', { color: color(e.color), square: e.square }) });
        break;
      case 'voided':
        out.push({ type: e.type, text: t('event.voided.' + e.reason, { color: color(e.color), move: e.mv }) });
        break;
      case 'first-move':
        out.push({ type: e.type, text: t('event.firstMove', { color: color(e.color) }) });
        break;
      case 'paused':
        out.push({ type: e.type, text: t('event.paused', { color: color(e.color), squares: square(e.squares) }) });
        break;
      case 'exchange-right':
        out.push({ type: e.type, text: t('event.exchangeRight', { color: color(e.color), square: e.square }) });
        break;
      case 'exchange-ended':
        out.push({ type: e.type, text: t(e.declined ? 'event.exchangeDeclined' : 'event.exchangeEnded', { color: color(e.color), square: e.square }) });
        break;
      case 'switched-to-orthodox':
        out.push({ type: e.type, text: t('event.orthodox', { color: color(e.to_move ?? e.toMove) }) });
        break;
      case 'captured':
        out.push({ type: e.type, text: t('event.captured', { piece: t(`piece.${e.color[0]}.${e.role}`), square: e.square }) });
        break;
      case 'check':
        out.push({ type: e.type, text: t('event.check', { color: color(e.color) }) });
        break;
      case 'game-over':
        out.push({ type: e.type, text: t('event.gameOver', { result: e.result }) });
        break;
      default:
        break;
    }
  }
  return out;
}

function removedText(e, t) {
  const w = e.white_removed ?? e.whiteRemoved;
  const b = e.black_removed ?? e.blackRemoved;
  if (w && b) return t('event.bothRemoved');
  if (w) return t('event.removed', { color: t('color.white') });
  if (b) return t('event.removed', { color: t('color.black') });
  return t('event.noneRemoved');
}

// The squares a reveal's special events happened on (to highlight).
export function eventSquares(events) {
  const squares = new Set();
  for (const e of events) {
    if (['collision', 'evaded', 'exchange-right'].includes(e.type)) squares.add(e.square);
    if (e.type === 'swap') {
      squares.add(e.white_from ?? e.whiteFrom);
      squares.add(e.black_from ?? e.blackFrom);
    }
  }
  return [...squares].filter(Boolean);
}

// The squares to mark after the last step: both moves of a reveal (or the
// one move of orthodox play) as `last`, a king left in check as `check`.
// `last` is a reveal line or {move: a move line}; `board` Map square → "wK".
export function lastMarks(last, board) {
  const out = { last: [], check: [] };
  if (!last) return out;
  const ends = (choice) => {
    if (!choice || choice === '-') return [];
    const m = choice.replace(/^x/, '');
    return [m.slice(0, 2), m.slice(2, 4)];
  };
  const kingOf = (color) => [...board].find(([, p]) => p === color[0] + 'K')?.[0];
  if (last.type === 'reveal') {
    out.last = [...ends(last.white?.choice), ...ends(last.black?.choice)];
    for (const e of last.events || []) if (e.type === 'check') out.check.push(kingOf(e.color));
  } else if (last.move) {
    out.last = ends(last.move.uci);
    // SAN marks a check (+) or mate (#) of the side now to move.
    if (/[+#]$/.test(last.move.san || '')) out.check.push(kingOf(last.move.color === 'white' ? 'black' : 'white'));
  }
  out.check = out.check.filter(Boolean);
  return out;
}
