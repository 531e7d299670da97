//! What a member's event stream (`GET /api/stream/event`) tells: a
//! challenge to or from them, its decline or cancel, a game of theirs
//! that starts, their turn in a game of theirs and its end, and to
//! everyone the lobby's open challenges coming and going. The challenge
//! and game events are lichess's (its clients and bots read them); the
//! others are tempo's own.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::Value;
use tempo_host::Variant;
use tempo_host::lichess::LichessVariant;
use utoipa::ToSchema;

use crate::domain::challenges::{Challenge, ColorChoice};

/// One event, a line of the stream.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(tag = "type", rename_all = "camelCase")]
pub enum UserEvent {
    /// A challenge to or from the member (lichess's `challenge`).
    Challenge {
        challenge: Box<ChallengeJson>,
        compat: Compat,
    },
    /// A game of the member's starts (lichess's `gameStart`, from the
    /// member's seat).
    GameStart { game: Box<GameInfo> },
    /// The challenged member declined a challenge (told to both).
    ChallengeDeclined { challenge: Box<ChallengeJson> },
    /// The challenger took a challenge back (told to both).
    ChallengeCanceled { challenge: Box<ChallengeJson> },
    /// A challenge open to anyone was made, accepted or cancelled (told
    /// to every member with a stream: lobbies list them). Its expiry is
    /// not told: every listing carries `expiresAt`, and an expired one
    /// is neither listed nor accepted.
    OpenChallenge { challenge: OpenChallengeNote },
    /// A move (or, in the simultaneous variants, a commit) is due from the
    /// member in a game of theirs: the opponent moved, or a new step began
    /// after a reveal. Not sent for a game's first move (its start is).
    YourTurn { game: GameNote },
    /// A game of the member's ends (lichess's `gameFinish`, from the
    /// member's seat).
    GameFinish { game: Box<GameInfo> },
    /// A board of a tournament's current round was reported or got its
    /// result (told to every member with a stream: round pages refresh).
    TournamentBoard { board: BoardNote },
}

/// Lichess's `compat`: through which of its APIs the game can be played
/// (tempo's every game: both).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct Compat {
    pub bot: bool,
    pub board: bool,
}

impl Compat {
    pub const BOTH: Compat = Compat {
        bot: true,
        board: true,
    };
}

/// Lichess's variant object, owned (an event may come from another
/// instance).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct VariantJson {
    /// `standard`, `fromPosition`, `chess960`, `synchronschach`,
    /// `fairschach`.
    pub key: String,
    pub name: String,
    pub short: String,
}

impl From<LichessVariant> for VariantJson {
    fn from(v: LichessVariant) -> VariantJson {
        VariantJson {
            key: v.key.into(),
            name: v.name.into(),
            short: v.short.into(),
        }
    }
}

/// Lichess's perf object of a challenge.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct PerfJson {
    /// `Blitz`, `Chess960`, `Synchronschach`, … (the speed's name for
    /// orthodox chess, also from a set-up position:
    /// [`tempo_host::lichess::perf_name`]).
    pub name: String,
}

/// A member as lichess's light user object shows them (the fields of
/// [`crate::service::lichess::LichessUser`], owned here so that the
/// events do not depend on the store).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct LightUser {
    /// The name in lower case.
    pub id: String,
    /// The name as registered.
    pub name: String,
    /// `BOT` for a bot account, else `null`.
    pub title: Option<String>,
    /// The club rating in the game's rating group, rounded.
    pub rating: i64,
    /// Whether that rating is still provisional.
    pub provisional: bool,
}

/// A challenge as lichess's API shows it, with tempo's own fields beside.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ChallengeJson {
    pub id: String,
    /// The challenge's page, absolute (`/challenge/{id}`).
    pub url: String,
    /// `created`, `accepted`, `declined` or `canceled`.
    pub status: String,
    pub challenger: LightUser,
    /// `null` for a challenge open to anyone.
    pub dest_user: Option<LightUser>,
    pub variant: VariantJson,
    /// Whether the game counts for the club ratings.
    pub rated: bool,
    /// `ultraBullet`, `bullet`, `blitz`, `rapid`, `classical`,
    /// `correspondence`.
    pub speed: String,
    /// `{"type":"clock","limit","increment","show"}` (seconds),
    /// `{"type":"correspondence","daysPerTurn"}` or `{"type":"unlimited"}`.
    #[schema(value_type = Object)]
    pub time_control: Value,
    /// The challenger's choice: `white`, `black`, `random`.
    pub color: ColorChoice,
    /// The challenger's colour in the game: `white` or `black` (a random
    /// one is drawn when the challenge is made).
    pub final_color: String,
    pub perf: PerfJson,
    /// `in` (to the caller) or `out` (from the caller): in the lists.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub direction: Option<String>,
    /// The start position when it is not the standard one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub initial_fen: Option<String>,
    /// A declined challenge: the reason in English.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub decline_reason: Option<String>,
    /// A declined challenge: lichess's key (`generic`, `tooFast`, …).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub decline_reason_key: Option<String>,
    /// tempo's clock: the PGN TimeControl (`300+3`), `null` untimed.
    pub clock: Option<String>,
    /// tempo's start position as given.
    pub fen: Option<String>,
    /// tempo's Chess960 position number, if given.
    pub chess960: Option<u16>,
    /// tempo's variant options.
    pub rules: BTreeMap<String, String>,
    /// A challenge open to anyone: until when it waits (RFC 3339).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expires_at: Option<String>,
}

/// Lichess's opponent in a game event.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct Opponent {
    /// `null` for a table game's guest (no account), as lichess's for
    /// its AI.
    pub id: Option<String>,
    pub username: String,
    /// Left out for a guest (as lichess's for its AI).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rating: Option<i64>,
}

/// Lichess's game status object.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct StatusJson {
    pub id: u32,
    /// `started`, `mate`, `resign`, `outoftime`, `draw`, `aborted`, …
    pub name: String,
}

/// A game from one player's seat, as lichess's `gameStart`, `gameFinish`
/// and `nowPlaying` show it, with tempo's fields beside.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct GameInfo {
    pub id: String,
    pub game_id: String,
    /// The same as `id` (tempo has no per-player game addresses).
    pub full_id: String,
    /// The player's colour.
    pub color: String,
    /// The position now, as everyone sees it (a hidden commit is not in
    /// it).
    pub fen: String,
    /// Whether the player has moved.
    pub has_moved: bool,
    /// Whether a move (or a commit) is due from the player.
    pub is_my_turn: bool,
    /// The last move in UCI; empty before the first and in the
    /// simultaneous variants.
    pub last_move: String,
    pub opponent: Opponent,
    /// The perf's key: `blitz`, `chess960`, `synchronschach`, … (the
    /// speed's key for orthodox chess, also from a set-up position:
    /// [`tempo_host::lichess::perf_key`]).
    pub perf: String,
    pub rated: bool,
    /// The player's clock in seconds (none for an untimed game).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seconds_left: Option<i64>,
    /// `friend` (a challenge), `lobby` (a challenge open to anyone),
    /// `tournament`.
    pub source: String,
    pub speed: String,
    pub variant: VariantJson,
    pub compat: Compat,
    pub status: StatusJson,
    /// The winner's colour, when the game was decided.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub winner: Option<String>,
    /// tempo's result when the game ended: `1-0`, `0-1`, `1/2-1/2`, `*`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<String>,
    /// tempo's reason of the end (`checkmate`, `resign`, `timeout`, …).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// The tournament board the game is played for, if any.
    #[serde(default, flatten, skip_serializing_if = "Option::is_none")]
    pub board: Option<BoardNote>,
}

/// A challenge open to anyone as the lobby lists it.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct OpenChallengeNote {
    pub id: String,
    pub challenger: String,
    #[schema(value_type = String)]
    pub variant: Variant,
    pub clock: Option<String>,
    pub color: ColorChoice,
    /// Whether the game counts for the club ratings.
    pub rated: bool,
    /// `open`, `accepted` or `cancelled`.
    pub status: String,
}

/// A game whose turn it is.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct GameNote {
    pub id: String,
    pub game_id: String,
}

/// A tournament board.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct BoardNote {
    pub tournament: String,
    pub round: u32,
    pub board: u32,
}

impl UserEvent {
    /// A challenge made (or pending when a stream begins).
    pub fn challenge(challenge: ChallengeJson) -> UserEvent {
        UserEvent::Challenge {
            challenge: Box::new(challenge),
            compat: Compat::BOTH,
        }
    }

    /// A direct challenge closed without a game: declined or cancelled.
    pub fn challenge_closed(challenge: ChallengeJson, declined: bool) -> UserEvent {
        let challenge = Box::new(challenge);
        if declined {
            UserEvent::ChallengeDeclined { challenge }
        } else {
            UserEvent::ChallengeCanceled { challenge }
        }
    }

    /// A challenge open to anyone, now `status` (`open`, `accepted`,
    /// `cancelled`).
    pub fn open_challenge_now(challenge: &Challenge, status: &str) -> UserEvent {
        UserEvent::OpenChallenge {
            challenge: OpenChallengeNote {
                id: challenge.id.clone(),
                challenger: challenge.challenger.clone(),
                variant: challenge.spec.variant,
                clock: challenge.spec.clock.clone(),
                color: challenge.color,
                rated: challenge.rated,
                status: status.to_string(),
            },
        }
    }

    /// It is the member's turn in game `id`.
    pub fn your_turn(id: &str) -> UserEvent {
        UserEvent::YourTurn {
            game: GameNote {
                id: id.to_string(),
                game_id: id.to_string(),
            },
        }
    }

    /// A tournament board reported or settled.
    pub fn tournament_board(tournament: &str, round: u32, board: u32) -> UserEvent {
        UserEvent::TournamentBoard {
            board: BoardNote {
                tournament: tournament.to_string(),
                round,
                board,
            },
        }
    }

    /// The challenge a challenge event carries, if it is one.
    pub(crate) fn challenge_json(&self) -> Option<&ChallengeJson> {
        match self {
            UserEvent::Challenge { challenge, .. }
            | UserEvent::ChallengeDeclined { challenge }
            | UserEvent::ChallengeCanceled { challenge } => Some(challenge),
            _ => None,
        }
    }

    /// The event as a stream shows it: a challenge's `url`, carried as
    /// the page's path, made absolute with `origin`, the address the
    /// stream's own caller reached the server by (an event's sender could
    /// name any host).
    pub(crate) fn with_origin(mut self, origin: &str) -> UserEvent {
        if let UserEvent::Challenge { challenge, .. }
        | UserEvent::ChallengeDeclined { challenge }
        | UserEvent::ChallengeCanceled { challenge } = &mut self
            && challenge.url.starts_with('/')
        {
            challenge.url = format!("{origin}{}", challenge.url);
        }
        self
    }

    /// The event with fields of any length left out, for a notification
    /// to other instances that would be too long otherwise: an open
    /// challenge without its time control. `None` for a challenge event:
    /// its short form is a [`ShortChallenge`] the receiver expands.
    pub(crate) fn brief(&self) -> Option<UserEvent> {
        let mut short = self.clone();
        match &mut short {
            UserEvent::OpenChallenge { challenge } => challenge.clock = None,
            UserEvent::Challenge { .. }
            | UserEvent::ChallengeDeclined { .. }
            | UserEvent::ChallengeCanceled { .. } => return None,
            _ => {}
        }
        Some(short)
    }
}

/// Which challenge event a [`ShortChallenge`] stands for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) enum ChallengeEventKind {
    Challenge,
    ChallengeDeclined,
    ChallengeCanceled,
}

/// A challenge event too long for a notification (a time control
/// thousands of characters long): what the receiving instance needs to
/// build it again from the stored challenge.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct ShortChallenge {
    pub kind: ChallengeEventKind,
    pub id: String,
    #[serde(default)]
    pub decline_reason_key: Option<String>,
}

impl ShortChallenge {
    /// The short form of a challenge event, if it is one.
    pub(crate) fn of(event: &UserEvent) -> Option<ShortChallenge> {
        let kind = match event {
            UserEvent::Challenge { .. } => ChallengeEventKind::Challenge,
            UserEvent::ChallengeDeclined { .. } => ChallengeEventKind::ChallengeDeclined,
            UserEvent::ChallengeCanceled { .. } => ChallengeEventKind::ChallengeCanceled,
            _ => return None,
        };
        let challenge = event.challenge_json()?;
        Some(ShortChallenge {
            kind,
            id: challenge.id.clone(),
            decline_reason_key: challenge.decline_reason_key.clone(),
        })
    }
}
