//! Pairing the next round with [`tempo_tourney::pairing::pair_next`] —
//! the entry point `tempo pair` uses — and storing it with the board order;
//! taking a pairing back.

use tempo_tourney::PlayerId;
use tempo_tourney::director::UnpairError;
use tempo_tourney::keizer::KeizerError;
use tempo_tourney::pairing::{self, Options, PairingError};

use super::model::{Board, Record, RoundRecord};
use super::{MAX_ROUNDS, Refusal, conflict, invalid};

impl Record {
    /// Pairs the next round with the tournament's system; its number.
    pub fn pair_next(&mut self) -> Result<u32, Refusal> {
        let options = Options {
            double_round_robin: self.s.double,
            keizer: None,
            max_rounds: Some(MAX_ROUNDS),
        };
        let pairing = pairing::pair_next(&self.t, self.s.system, &options)
            .map_err(|error| self.refusal(error))?;
        let round = pairing.round;
        pairing.write_to(&mut self.t);
        self.ensure_position(round)?;
        let boards = pairing
            .boards
            .iter()
            .zip(1..)
            .map(|(&(white, black), board)| Board {
                board,
                white,
                black,
                game_id: None,
            })
            .collect();
        self.s.rounds.retain(|r| r.round != round);
        self.s.rounds.push(RoundRecord {
            round,
            boards,
            bye: pairing.bye.map(|bye| bye.player),
            mode: None,
        });
        Ok(round)
    }

    /// A pairing error as the director reads it: a missing result by its
    /// board here (TRF has no board numbers), bad Keizer settings as bad
    /// input, anything else as a conflict with the tournament's state.
    fn refusal(&self, error: PairingError) -> Refusal {
        let next = self.t.paired_rounds() + 1;
        let missing = match &error {
            PairingError::MissingResult(m) => self.board_of(m.round, m.white),
            PairingError::Keizer(KeizerError::MissingResult { round, player }) => {
                self.board_of(*round, *player)
            }
            PairingError::KeizerSettings(_) => return invalid(error.to_string()),
            _ => None,
        };
        match missing {
            Some((round, b)) => conflict(format!(
                "round {round}, board {} ({}-{}) has no result: enter every result before pairing round {next}",
                b.board, b.white, b.black
            )),
            None => conflict(error.to_string()),
        }
    }

    /// The board `player` sat at in `round`.
    fn board_of(&self, round: u32, player: PlayerId) -> Option<(u32, Board)> {
        let boards = self.boards(round)?.boards;
        let board = boards
            .into_iter()
            .find(|b| b.white == player || b.black == player)?;
        Some((round, board))
    }

    /// Deletes the pairing (and any results) of the last paired round, so
    /// that it can be paired again; not once it has online games.
    pub fn unpair(&mut self, round: u32) -> Result<(), Refusal> {
        let refusal = |error: UnpairError| match error {
            UnpairError::NotPaired { round } => Refusal::NotFound(format!("round {round}")),
            UnpairError::NotLast { .. } => conflict(error.to_string()),
        };
        self.t.check_unpair(round).map_err(refusal)?;
        let boards = self.boards(round).expect("a paired round");
        if boards.boards.iter().any(|b| b.game_id.is_some()) {
            return Err(conflict(format!("round {round} is played online")));
        }
        self.t.unpair_last(round, boards.bye).map_err(refusal)?;
        self.s.rounds.retain(|r| r.round != round);
        Ok(())
    }
}
