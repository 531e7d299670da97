//! The record as the two text files the players take home: the sources'
//! notation (one line per pair, both moves on it, special cases marked;
//! [`tempo_sync::san`]) and the sources' digit code for correspondence
//! ([`tempo_sync::digits`]). Each starts with `#` comment lines naming the
//! game, which `tempo sync replay` skips, so the file reads back as it is
//! (`--digits` for the second). Both hold revealed choices only.

use std::fmt::Write as _;

use crate::HostedGame;
use crate::game::Board;

impl HostedGame {
    /// The `#` lines in front of either file: game, players, variant and
    /// its options, start position, time control.
    fn record_head(&self) -> String {
        let h = self.header();
        let mut head = String::new();
        let _ = writeln!(head, "# tempo game {}: {} – {}", h.id, h.white, h.black);
        let _ = writeln!(head, "# Variant: {}", h.variant);
        if !h.rules.is_empty() {
            let _ = writeln!(head, "# Rules: {}", h.rules);
        }
        let _ = writeln!(head, "# Start: {}", h.fen);
        if let Some(clock) = &h.clock {
            let _ = writeln!(head, "# TimeControl: {clock}");
        }
        if let Some((result, reason)) = self.end() {
            let _ = writeln!(head, "# Result: {result} ({reason})");
        }
        head
    }

    /// The record in the sources' notation: a simultaneous game's record
    /// lines as they are (`2. exd5 Qxd5 {collision d5}`); an alternating
    /// game's SAN moves two to a line (`1. e4 e5`, `31... Kd7` when Black
    /// begins).
    pub fn sources_text(&self) -> String {
        let mut text = self.record_head();
        match &self.board {
            Board::Sync(_) => {
                for line in &self.record {
                    text.push_str(line);
                    text.push('\n');
                }
            }
            Board::Orthodox(_) => {
                for line in self.orthodox_pairs(|_, san| san.to_string()) {
                    text.push_str(&line);
                    text.push('\n');
                }
            }
        }
        text
    }

    /// The record in the sources' digit code: a simultaneous game's steps
    /// as [`tempo_sync::digits`] writes them (`1 65254 65755`: piece digit,
    /// ICCF move, `/marker`); an alternating game's moves in ICCF two to a
    /// line (`1. 5254 5755`).
    pub fn digits_text(&self) -> String {
        let mut text = self.record_head();
        match (&self.board, self.header().board()) {
            (Board::Sync(_), Ok(Board::Sync(start))) => {
                // The record replays from the start (tempo_sync::record
                // reads the SAN lines it wrote); each step then writes its
                // digit line with the position and events it had.
                let Ok((_, steps)) = tempo_sync::record::replay(&start, &self.record.join("\n"))
                else {
                    return text;
                };
                let mut game = start;
                for step in steps {
                    let Ok((next, resolution)) = game.step(step.white, step.black) else {
                        break;
                    };
                    text.push_str(&resolution.digits);
                    text.push('\n');
                    game = next;
                }
            }
            (Board::Orthodox(game), Ok(Board::Orthodox(start))) => {
                let mut pos = start.position().clone();
                let mut codes = Vec::new();
                for &mv in game.moves() {
                    codes.push(tempo_chess::iccf::write(&pos, mv));
                    pos.play(mv);
                }
                for line in self.orthodox_pairs(|i, _| codes[i].clone()) {
                    text.push_str(&line);
                    text.push('\n');
                }
            }
            _ => {}
        }
        text
    }

    /// An alternating game's moves two to a line with move numbers, each
    /// written by `word(index, san)`.
    fn orthodox_pairs(&self, word: impl Fn(usize, &str) -> String) -> Vec<String> {
        let Ok(Board::Orthodox(start)) = self.header().board() else {
            return Vec::new();
        };
        let first = start.position();
        let black_begins = first.turn() == tempo_chess::Color::Black;
        let mut number = first.fullmove_number();
        let mut lines = Vec::new();
        let mut line = String::new();
        for (i, san) in self.record.iter().enumerate() {
            let black = (i % 2 == 1) != black_begins;
            if !black {
                line = format!("{number}. {}", word(i, san));
            } else if line.is_empty() {
                line = format!("{number}... {}", word(i, san));
            } else {
                line.push(' ');
                line.push_str(&word(i, san));
            }
            if black {
                lines.push(std::mem::take(&mut line));
                number += 1;
            }
        }
        if !line.is_empty() {
            lines.push(line);
        }
        lines
    }
}
