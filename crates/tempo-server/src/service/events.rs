//! What a member's event stream (`GET /api/stream/event`) tells: a
//! challenge to or from them, its decline or cancel, a game of theirs
//! that starts, their turn in a game of theirs and its end, and to
//! everyone the lobby's open challenges coming and going.

use serde::{Deserialize, Serialize};
use tempo_host::Variant;
use utoipa::ToSchema;

use crate::domain::challenges::{Challenge, ColorChoice};

/// One event, a line of the stream.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(tag = "type", rename_all = "camelCase")]
pub enum UserEvent {
    /// A challenge to or from the member.
    Challenge { challenge: ChallengeNote },
    /// A game of the member's starts.
    GameStart { game: GameNote },
    /// The challenged member declined a challenge (told to both).
    ChallengeDeclined { challenge: NewChallengeNote },
    /// The challenger took a challenge back (told to both).
    ChallengeCanceled { challenge: NewChallengeNote },
    /// A challenge open to anyone was made, accepted or cancelled (told
    /// to every member with a stream: lobbies list them). Its expiry is
    /// not told: every listing carries `expiresAt`, and an expired one
    /// is neither listed nor accepted.
    OpenChallenge { challenge: OpenChallengeNote },
    /// A move (or, in the simultaneous variants, a commit) is due from the
    /// member in a game of theirs: the opponent moved, or a new step began
    /// after a reveal. Not sent for a game's first move (its start is).
    YourTurn { game: GameNote },
    /// A game of the member's ends.
    GameFinish { game: FinishNote },
    /// A board of a tournament's current round was reported or got its
    /// result (told to every member with a stream: round pages refresh).
    TournamentBoard { board: BoardNote },
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

/// A game that ends, and how.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct FinishNote {
    pub id: String,
    pub game_id: String,
    /// `1-0`, `0-1`, `1/2-1/2`, or `*` (aborted).
    pub result: String,
    /// Why it ended (`checkmate`, `resign`, `timeout`, `aborted`…).
    pub reason: String,
}

/// A challenge as an event names it.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(untagged)]
pub enum ChallengeNote {
    /// A challenge just made.
    New(NewChallengeNote),
    /// A challenge already open when the stream began.
    Open { id: String },
}

/// A challenge just made: who, whom, and which game.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct NewChallengeNote {
    pub id: String,
    pub challenger: String,
    pub dest_user: String,
    #[schema(value_type = String)]
    pub variant: Variant,
    pub clock: Option<String>,
    pub color: ColorChoice,
    /// Whether the game counts for the club ratings (as lichess's
    /// challenge event says).
    pub rated: bool,
}

/// A game that starts.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct GameNote {
    pub id: String,
    pub game_id: String,
    /// The tournament board the game is played for, if any.
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    pub board: Option<BoardNote>,
}

/// A tournament board.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct BoardNote {
    pub tournament: String,
    pub round: u32,
    pub board: u32,
}

impl UserEvent {
    /// A challenge just made, between `challenger` and `dest` (names as
    /// registered).
    pub fn new_challenge(challenge: &Challenge, challenger: &str, dest: &str) -> UserEvent {
        UserEvent::Challenge {
            challenge: ChallengeNote::New(NewChallengeNote {
                id: challenge.id.clone(),
                challenger: challenger.to_string(),
                dest_user: dest.to_string(),
                variant: challenge.spec.variant,
                clock: challenge.spec.clock.clone(),
                color: challenge.color,
                rated: challenge.rated,
            }),
        }
    }

    /// A direct challenge closed without a game: declined or cancelled.
    pub fn challenge_closed(challenge: &Challenge, declined: bool) -> UserEvent {
        let note = NewChallengeNote {
            id: challenge.id.clone(),
            challenger: challenge.challenger.clone(),
            dest_user: challenge.dest.clone(),
            variant: challenge.spec.variant,
            clock: challenge.spec.clock.clone(),
            color: challenge.color,
            rated: challenge.rated,
        };
        if declined {
            UserEvent::ChallengeDeclined { challenge: note }
        } else {
            UserEvent::ChallengeCanceled { challenge: note }
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

    /// A challenge open when a stream begins.
    pub fn open_challenge(id: &str) -> UserEvent {
        UserEvent::Challenge {
            challenge: ChallengeNote::Open { id: id.to_string() },
        }
    }

    /// It is the member's turn in game `id`.
    pub fn your_turn(id: &str) -> UserEvent {
        UserEvent::YourTurn {
            game: GameNote {
                id: id.to_string(),
                game_id: id.to_string(),
                board: None,
            },
        }
    }

    /// Game `id` ended with `result` for `reason`.
    pub fn game_finish(id: &str, result: &str, reason: &str) -> UserEvent {
        UserEvent::GameFinish {
            game: FinishNote {
                id: id.to_string(),
                game_id: id.to_string(),
                result: result.to_string(),
                reason: reason.to_string(),
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

    /// A game that starts (for a tournament `board`, if given).
    pub fn game_start(id: &str, board: Option<BoardNote>) -> UserEvent {
        UserEvent::GameStart {
            game: GameNote {
                id: id.to_string(),
                game_id: id.to_string(),
                board,
            },
        }
    }
}

impl UserEvent {
    /// The event in its short form, which fits any notification: a new
    /// challenge by its id alone (a reader asks for the rest), a closed
    /// or open one without its time control (the one field of any length).
    pub(crate) fn brief(&self) -> UserEvent {
        let mut short = self.clone();
        match &mut short {
            UserEvent::Challenge {
                challenge: ChallengeNote::New(note),
            } => return UserEvent::open_challenge(&note.id),
            UserEvent::ChallengeDeclined { challenge }
            | UserEvent::ChallengeCanceled { challenge } => challenge.clock = None,
            UserEvent::OpenChallenge { challenge } => challenge.clock = None,
            _ => {}
        }
        short
    }
}
