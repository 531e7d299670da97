//! What a player's event says of a game of theirs (lichess's `gameStart`
//! and `gameFinish`, the `nowPlaying` list): the last move in UCI and
//! whether a side has moved yet.

use tempo_chess::Color;
use tempo_chess::uci;

use crate::HostedGame;
use crate::game::Board;

impl HostedGame {
    /// The last move in UCI, castling as lichess writes it in the game
    /// ([`crate::lichess::castling_style`]: `e1g1`; king takes rook from a
    /// Chess960 start, as `state.moves` writes it). `None` before the
    /// first move, and in the simultaneous variants, whose moves come in
    /// pairs (the game stream's `state.moves` lists them).
    pub fn last_move(&self) -> Option<String> {
        let Board::Orthodox(game) = &self.board else {
            return None;
        };
        let mut before = game.clone();
        let mv = before.undo()?;
        let style = crate::lichess::castling_style(self.header());
        Some(uci::write_with(before.position(), mv, style))
    }

    /// Whether `color` has moved (in the simultaneous variants: a step
    /// was revealed, or `color` committed to the first; for that
    /// player's own event only).
    pub fn has_moved(&self, color: Color) -> bool {
        match &self.board {
            Board::Orthodox(game) => {
                let played = game.moves().len();
                // The side to move now moved first if an even number of
                // moves were played.
                let turn = game.position().turn();
                let first = if played % 2 == 0 { turn } else { !turn };
                played >= if color == first { 1 } else { 2 }
            }
            Board::Sync(_) => self.step > 0 || self.has_committed(color),
        }
    }
}

#[cfg(test)]
mod tests {
    use tempo_chess::Color;
    use tempo_chess::uci;

    use crate::{Command, GameSpec, Header, HostedGame, Variant};

    fn game(spec: GameSpec) -> HostedGame {
        let header = Header::new("g", &spec, "a", "b").unwrap();
        HostedGame::create(header, 0).unwrap().0
    }

    fn play(game: &mut HostedGame, color: Color, choice: &str) {
        let command = Command::Play {
            color,
            choice: choice.into(),
        };
        game.handle(command, 1, [0; 32]).unwrap();
    }

    #[test]
    fn last_moves_in_lichess_castling() {
        let fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
        let mut standard = game(GameSpec {
            fen: Some(fen.into()),
            ..GameSpec::default()
        });
        assert_eq!(standard.last_move(), None);
        assert!(!standard.has_moved(Color::White));
        play(&mut standard, Color::White, "e1g1");
        assert_eq!(standard.last_move().as_deref(), Some("e1g1"));
        assert!(standard.has_moved(Color::White));
        assert!(!standard.has_moved(Color::Black));
        play(&mut standard, Color::Black, "e8c8");
        assert_eq!(standard.last_move().as_deref(), Some("e8c8"));
        assert!(standard.has_moved(Color::Black));

        let mut c960 = game(GameSpec {
            variant: Variant::Chess960,
            fen: Some("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1".into()),
            ..GameSpec::default()
        });
        play(&mut c960, Color::White, "e1h1");
        assert_eq!(c960.last_move().as_deref(), Some("e1h1"));
    }

    #[test]
    fn a_standard_game_from_a_chess960_number_castles_king_takes_rook() {
        // A start whose first move may be castling (the king beside its
        // rook): as lichess, and as `state.moves`, king takes rook.
        let (number, pos, mv) = (0..960)
            .find_map(|n| {
                let pos = tempo_chess::chess960::start_position(n).unwrap();
                let castle = pos
                    .legal_moves()
                    .into_iter()
                    .find(|&m| pos.is_castling(m))?;
                Some((n, pos, castle))
            })
            .unwrap();
        let uci = uci::write_with(&pos, mv, uci::CastlingStyle::Chess960);
        let mut g = game(GameSpec {
            chess960: Some(number),
            ..GameSpec::default()
        });
        play(&mut g, Color::White, &uci);
        assert_eq!(g.last_move(), Some(uci));
        assert_eq!(
            crate::lichess::castling_style(g.header()),
            uci::CastlingStyle::Chess960
        );
    }

    #[test]
    fn black_first_from_a_position() {
        let mut g = game(GameSpec {
            fen: Some("4k3/8/8/8/8/8/8/4K3 b - - 0 1".into()),
            ..GameSpec::default()
        });
        play(&mut g, Color::Black, "e8d8");
        assert!(g.has_moved(Color::Black));
        assert!(!g.has_moved(Color::White));
    }

    #[test]
    fn simultaneous_games_have_no_single_last_move() {
        let mut g = game(GameSpec {
            variant: Variant::Synchronschach,
            ..GameSpec::default()
        });
        play(&mut g, Color::White, "e2e4");
        assert!(g.has_moved(Color::White));
        assert!(!g.has_moved(Color::Black));
        play(&mut g, Color::Black, "e7e5");
        assert_eq!(g.last_move(), None);
        assert!(g.has_moved(Color::Black));
    }
}
