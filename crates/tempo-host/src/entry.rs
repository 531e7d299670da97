//! The log's entries: what happened, when, in hash-chained order.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use tempo_chess::Color;
use tempo_sync::Choice;

use crate::chain::{Hash, hex, rfc3339_millis};
use crate::commit::Nonce;
use crate::end::End;
use crate::header::Header;

/// One entry of a game's log.
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    /// Its place in the log, from 0 (the header).
    pub seq: u64,
    /// The hash of the entry before ([`crate::chain::GENESIS`] for the first).
    pub prev: Hash,
    /// This entry's hash (see [`crate::chain`]).
    pub hash: Hash,
    /// Server time, milliseconds since the Unix epoch.
    pub at: u64,
    /// What happened: public once the entry exists.
    pub body: Body,
    /// The hidden choice of a [`Body::Committed`]: stored with the entry,
    /// shown to nobody before its reveal, and not part of the hash (the
    /// published commitment binds it).
    pub sealed: Option<Sealed>,
}

/// A hidden choice and its nonce.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Sealed {
    /// The choice as checked when it was committed; stored (and revealed)
    /// as the log writes it: UCI, `x` + UCI for an exchange capture, `-`
    /// for a decline.
    pub choice: Choice,
    /// The nonce of its commitment.
    pub nonce: Nonce,
}

/// A revealed choice.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Revealed {
    /// As [`Sealed::choice`].
    pub choice: Choice,
    /// The commitment's nonce, hex.
    pub nonce: String,
}

/// What happened.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "camelCase")]
pub enum Body {
    /// The game's header (the first entry).
    GameCreated(Header),
    /// A player committed a hidden choice: who, for which step, and the
    /// commitment — never the choice.
    Committed {
        color: Color,
        step: u32,
        commitment: String,
    },
    /// Every choice of a step at once, and what it did.
    Reveal {
        step: u32,
        white: Option<Revealed>,
        black: Option<Revealed>,
        /// The step's pair record line in UCI (`1. e2e4 e7e5`, markers
        /// included), as hashed; the game state shows it in SAN.
        record: String,
        /// The variant's events (captures, exchange rights, checks, phase).
        events: Vec<Value>,
        /// The position after the step (extended notation).
        fen: String,
    },
    /// A move of alternating play (orthodox and Chess960 games).
    Move {
        color: Color,
        uci: String,
        san: String,
        fen: String,
    },
    /// A draw offer.
    DrawOffer { color: Color },
    /// A draw offer declined.
    DrawDecline { color: Color },
    /// The game is over: the result and the reason.
    End(End),
    /// An arbiter's action, with the arbiter's name and reason.
    Arbiter {
        arbiter: String,
        reason: String,
        action: crate::ArbiterAction,
    },
}

impl Entry {
    /// The public form: one JSON object, a line of the NDJSON log.
    pub fn public(&self) -> Map<String, Value> {
        let Value::Object(mut object) =
            serde_json::to_value(&self.body).expect("a body serialises")
        else {
            unreachable!("bodies are tagged objects");
        };
        object.insert("seq".into(), self.seq.into());
        object.insert("prev".into(), hex(&self.prev).into());
        object.insert("hash".into(), hex(&self.hash).into());
        object.insert("at".into(), rfc3339_millis(self.at).into());
        object
    }

    /// The public form as one line of JSON.
    pub fn public_line(&self) -> String {
        Value::Object(self.public()).to_string()
    }
}
