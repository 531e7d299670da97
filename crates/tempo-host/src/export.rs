//! A game as lichess's game export writes it in JSON (`GET
//! /game/export/{id}` with `Accept: application/json`), with tempo's own
//! `result`, `reason` and `record` beside. Everything in it is public:
//! the record and the moves hold revealed choices only.

use serde_json::{Value, json};

use crate::HostedGame;
use crate::lichess;

impl HostedGame {
    /// The export's fields that the game itself knows: `id`, `variant`
    /// (the key), `speed`, `perf` (the key), `createdAt`, `lastMoveAt`,
    /// `status`, `winner`, `players` (`{"user":{"name","id"}}`; the server
    /// adds ratings), `moves` (SAN, space-separated; a simultaneous game's
    /// record lines as the PGN has them), `clock` (lichess's export
    /// writes it in seconds: `initial`, `increment`, `totalTime`, which
    /// is the initial time and 40 increments), `daysPerTurn`, `initialFen`
    /// (unless the standard start), and tempo's `result`, `reason`,
    /// `record`.
    pub fn lichess_export(&self) -> Value {
        let header = self.header();
        let control = self.control();
        let kind = lichess::game_variant(header);
        let speed = lichess::speed(control);
        let player = |name: &str| json!({"user": {"name": name, "id": name.to_lowercase()}});
        let mut export = json!({
            "id": header.id,
            "variant": kind.key,
            "speed": speed.key(),
            "perf": lichess::perf_key(kind, speed),
            "createdAt": self.created_at,
            "lastMoveAt": self.last_move_at,
            "status": lichess::status(self.end).name(),
            "players": {"white": player(&header.white), "black": player(&header.black)},
            "moves": self.record.join(" "),
            "record": self.record,
        });
        if let Some(clock) = lichess::clock(control) {
            let (initial, increment) = (clock.initial / 1000, clock.increment / 1000);
            export["clock"] = json!({
                "initial": initial,
                "increment": increment,
                "totalTime": initial + 40 * increment,
            });
        }
        if let Some(days) = lichess::days_per_turn(control) {
            export["daysPerTurn"] = days.into();
        }
        if kind.key != "standard" {
            export["initialFen"] = header.fen.clone().into();
        }
        if let Some((result, reason)) = self.end {
            export["result"] = result.as_str().into();
            export["reason"] = reason.name().into();
            if let Some(winner) = lichess::winner(result) {
                export["winner"] = json!(winner);
            }
        }
        export
    }
}
