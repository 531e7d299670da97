//! Pairing a round with the tournament's system — the functions `tempo
//! pair` uses —, and taking a pairing back.

use tempo_chess::Color;
use tempo_tourney::model::ByeKind;
use tempo_tourney::{PlayerId, ResultCode, RoundEntry, Tournament, dutch, keizer, roundrobin};

use super::model::{Board, Record, RoundRecord, System, blank};
use super::{MAX_ROUNDS, Refusal, conflict, invalid};

impl Record {
    /// Pairs the next round with the tournament's system; its number.
    pub fn pair_next(&mut self) -> Result<u32, Refusal> {
        let round = self.t.paired_rounds() + 1;
        if round > MAX_ROUNDS {
            return Err(conflict(format!("at most {MAX_ROUNDS} rounds")));
        }
        if let Some(total) = self.t.total_rounds
            && round > total
            && !(self.s.system == System::RoundRobin && round == 1)
        {
            return Err(conflict(format!("all {total} rounds are paired")));
        }
        if let Some((r, b)) = self.first_missing(round - 1) {
            return Err(conflict(format!(
                "round {r}, board {} ({}-{}) has no result: enter every result before pairing round {round}",
                b.board, b.white, b.black
            )));
        }
        let (pairs, bye, forfeits) = match self.s.system {
            System::Dutch => {
                let input = dutch::input_for_round(&self.t, round)
                    .map_err(|e| conflict(format!("round {round}: {e}")))?;
                let p = dutch::pair(&input).map_err(|e| conflict(format!("round {round}: {e}")))?;
                (p.boards, p.bye, Vec::new())
            }
            System::Keizer => {
                let settings = keizer::settings_from_tournament(&self.t)
                    .map_err(|e| invalid(format!("keizer: {e}")))?;
                let p = keizer::pair_tournament(&self.t, &settings)
                    .map_err(|e| conflict(format!("round {round}: {e}")))?;
                let pairs = p.boards.iter().map(|b| (b.white, b.black)).collect();
                (pairs, p.bye, Vec::new())
            }
            System::RoundRobin => self.round_robin(round)?,
        };
        if pairs.is_empty() {
            return Err(conflict(format!("round {round}: nobody to pair")));
        }
        for &(white, black) in &pairs {
            let blank_game = |o, c| RoundEntry::game(o, c, ResultCode::Blank);
            if let Some(p) = self.t.player_mut(white) {
                p.set_entry(round, blank_game(black, Color::White));
            }
            if let Some(p) = self.t.player_mut(black) {
                p.set_entry(round, blank_game(white, Color::Black));
            }
        }
        if let Some(id) = bye {
            // A round robin's free round scores nothing (C.05); a Swiss or
            // Keizer bye is the pairing-allocated one.
            let kind = match self.s.system {
                System::RoundRobin => ByeKind::ZeroPoint,
                _ => ByeKind::PairingAllocated,
            };
            if let Some(p) = self.t.player_mut(id) {
                p.set_entry(round, RoundEntry::bye(kind));
            }
        }
        self.ensure_position(round)?;
        let boards: Vec<Board> = pairs
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
            boards: boards.clone(),
            bye,
        });
        for (board, result) in forfeits {
            self.set_result(round, board, result, "pairing", 0, false)?;
        }
        Ok(round)
    }

    /// Deletes the pairing (and any results) of the last paired round, so
    /// that it can be paired again; not once it has online games.
    pub fn unpair(&mut self, round: u32) -> Result<(), Refusal> {
        let paired = self.t.paired_rounds();
        if round == 0 || round > paired {
            return Err(Refusal::NotFound(format!("round {round}")));
        }
        if round != paired {
            return Err(conflict(format!(
                "only the last paired round ({paired}) can be deleted"
            )));
        }
        let boards = self.boards(round).expect("a paired round");
        if boards.boards.iter().any(|b| b.game_id.is_some()) {
            return Err(conflict(format!("round {round} is played online")));
        }
        for p in &mut self.t.players {
            let bye = boards.bye == Some(p.id);
            if let Some(e) = p.rounds.get_mut(round as usize - 1)
                && (e.was_paired() || bye)
            {
                *e = blank();
            }
            while p.rounds.last().is_some_and(|e| *e == blank()) {
                p.rounds.pop();
            }
        }
        self.s.rounds.retain(|r| r.round != round);
        Ok(())
    }

    /// Round `round` of the Berger table for the players by starting rank;
    /// boards with an absent or withdrawn player are forfeits.
    #[allow(clippy::type_complexity)]
    fn round_robin(
        &mut self,
        round: u32,
    ) -> Result<
        (
            Vec<(PlayerId, PlayerId)>,
            Option<PlayerId>,
            Vec<(u32, &'static str)>,
        ),
        Refusal,
    > {
        let mut ids: Vec<PlayerId> = self.t.players.iter().map(|p| p.id).collect();
        ids.sort_unstable();
        if ids.len() < 2 {
            return Err(conflict("a round robin needs at least 2 players"));
        }
        let table = roundrobin::schedule(ids.len() as u32, self.s.double);
        if round == 1 {
            if table.len() as u32 > MAX_ROUNDS {
                return Err(conflict(format!("more than {MAX_ROUNDS} rounds")));
            }
            self.t.total_rounds = Some(table.len() as u32);
        }
        let Some(pairings) = table.get(round as usize - 1) else {
            return Err(conflict(format!("all {} rounds are paired", table.len())));
        };
        let id = |n: PlayerId| ids[n as usize - 1];
        let mut pairs = Vec::new();
        let mut bye = None;
        let mut forfeits = Vec::new();
        let away = |t: &Tournament, p: PlayerId| {
            !t.is_active_in(p, round)
                || t.absence_kind(p, round).is_some()
                || t.requested_bye(p, round).is_some()
        };
        for pairing in pairings {
            match pairing.black {
                None => bye = Some(id(pairing.white)),
                Some(black) => {
                    let (w, b) = (id(pairing.white), id(black));
                    let board = pairs.len() as u32 + 1;
                    match (away(&self.t, w), away(&self.t, b)) {
                        (false, true) => forfeits.push((board, "+-")),
                        (true, false) => forfeits.push((board, "-+")),
                        _ => {}
                    }
                    pairs.push((w, b));
                }
            }
        }
        Ok((pairs, bye, forfeits))
    }
}
