//! Board geometry as `const fn`s on plain square numbers (`a1` = 0, ...
//! `h8` = 63) and `u64` sets: the single definition of how pieces move.
//!
//! The crate evaluates these at compile time into its tables, and the build
//! script (`build.rs`, which includes this file) uses them to search the
//! magic numbers and fill the sliding-attack table. So nothing here may use
//! the crate's types.

/// Steps of a knight as (file, rank) offsets.
pub(crate) const KNIGHT_STEPS: [(i32, i32); 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];

/// Steps of a king as (file, rank) offsets.
pub(crate) const KING_STEPS: [(i32, i32); 8] = [
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
];

/// A white pawn's captures; a black pawn's are the same with the rank
/// offset negated.
pub(crate) const WHITE_PAWN_STEPS: [(i32, i32); 2] = [(-1, 1), (1, 1)];

/// A black pawn's captures.
pub(crate) const BLACK_PAWN_STEPS: [(i32, i32); 2] = [(-1, -1), (1, -1)];

/// Directions of a rook.
pub(crate) const ROOK_DIRECTIONS: [(i32, i32); 4] = [(1, 0), (0, 1), (-1, 0), (0, -1)];

/// Directions of a bishop.
pub(crate) const BISHOP_DIRECTIONS: [(i32, i32); 4] = [(1, 1), (-1, 1), (-1, -1), (1, -1)];

/// The square `(df, dr)` away from `sq`, or `None` off the board.
pub(crate) const fn offset(sq: usize, (df, dr): (i32, i32)) -> Option<usize> {
    let file = (sq % 8) as i32 + df;
    let rank = (sq / 8) as i32 + dr;
    if file >= 0 && file < 8 && rank >= 0 && rank < 8 {
        Some((rank * 8 + file) as usize)
    } else {
        None
    }
}

/// The squares one step away from `sq`, for each step that stays on the
/// board.
pub(crate) const fn leaps(sq: usize, steps: &[(i32, i32)]) -> u64 {
    let mut set = 0;
    let mut i = 0;
    while i < steps.len() {
        if let Some(to) = offset(sq, steps[i]) {
            set |= 1 << to;
        }
        i += 1;
    }
    set
}

/// The squares a piece sliding from `sq` along `directions` reaches when
/// `occupied` squares block: up to and including the first occupied square
/// of each ray.
pub(crate) const fn slide(sq: usize, directions: &[(i32, i32)], occupied: u64) -> u64 {
    let mut set = 0;
    let mut d = 0;
    while d < directions.len() {
        let mut from = sq;
        while let Some(to) = offset(from, directions[d]) {
            set |= 1 << to;
            if occupied & (1 << to) != 0 {
                break;
            }
            from = to;
        }
        d += 1;
    }
    set
}

/// The squares whose occupancy can change what a slider on `sq` attacks:
/// its rays without the last square of each (a blocker there stops
/// nothing further).
#[allow(dead_code, reason = "the build script's, and the crate's tests")]
pub(crate) const fn relevant_blockers(sq: usize, directions: &[(i32, i32)]) -> u64 {
    let mut set = 0;
    let mut d = 0;
    while d < directions.len() {
        let mut from = sq;
        while let Some(to) = offset(from, directions[d]) {
            if offset(to, directions[d]).is_none() {
                break;
            }
            set |= 1 << to;
            from = to;
        }
        d += 1;
    }
    set
}

/// The direction (one of the eight) that leads from `a` to `b`, if they
/// share a rank, file or diagonal and differ.
const fn direction(a: usize, b: usize) -> Option<(i32, i32)> {
    let df = (b % 8) as i32 - (a % 8) as i32;
    let dr = (b / 8) as i32 - (a / 8) as i32;
    if (df == 0 && dr == 0) || (df != 0 && dr != 0 && df.abs() != dr.abs()) {
        None
    } else {
        Some((df.signum(), dr.signum()))
    }
}

/// The squares strictly between `a` and `b` if they share a line, else none.
pub(crate) const fn between(a: usize, b: usize) -> u64 {
    let Some(dir) = direction(a, b) else {
        return 0;
    };
    let mut set = 0;
    let mut sq = a;
    while let Some(to) = offset(sq, dir) {
        if to == b {
            break;
        }
        set |= 1 << to;
        sq = to;
    }
    set
}

/// The whole line, edge to edge, through `a` and `b` if they share one,
/// else none.
pub(crate) const fn line(a: usize, b: usize) -> u64 {
    let Some((df, dr)) = direction(a, b) else {
        return 0;
    };
    slide(a, &[(df, dr), (-df, -dr)], 0) | 1 << a
}

/// One set per square.
pub(crate) const fn per_square(kind: PerSquare) -> [u64; 64] {
    let mut table = [0; 64];
    let mut sq = 0;
    while sq < 64 {
        table[sq] = match kind {
            PerSquare::Leaps(steps) => leaps(sq, steps),
            PerSquare::Rays(directions) => slide(sq, directions, 0),
        };
        sq += 1;
    }
    table
}

/// What [`per_square`] fills a table with (a `const fn` cannot take a
/// closure).
#[derive(Clone, Copy)]
pub(crate) enum PerSquare {
    /// [`leaps`] with these steps.
    Leaps(&'static [(i32, i32)]),
    /// [`slide`] along these directions on an empty board.
    Rays(&'static [(i32, i32)]),
}

/// One set per pair of squares: [`between`] or [`line`].
pub(crate) const fn per_pair(lines: bool) -> [[u64; 64]; 64] {
    let mut table = [[0; 64]; 64];
    let mut a = 0;
    while a < 64 {
        let mut b = 0;
        while b < 64 {
            table[a][b] = if lines { line(a, b) } else { between(a, b) };
            b += 1;
        }
        a += 1;
    }
    table
}
