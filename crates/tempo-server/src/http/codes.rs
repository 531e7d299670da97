//! The machine codes of the API's errors: each error answer carries one
//! beside its English `error`, so that a client (the web app in German)
//! shows its own text without reading the English. A code names the
//! typed error's variant; it never changes once published. The table in
//! docs/server.md and the web app's catalogue (web/i18n/errors.js) list
//! every one (tests below keep them so).

use serde::Serialize;
use utoipa::ToSchema;

/// Declares the codes once: the enum (its schema lists them for the
/// OpenAPI document), their wire names and the list of all.
macro_rules! codes {
    ($($(#[doc = $doc:literal])* $name:ident = $wire:literal,)*) => {
        /// A stable machine code for an error answer.
        // The wire names are the variants' in snake_case (a test holds
        // them to the table's); utoipa reads `rename_all` for the schema.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
        #[serde(rename_all = "snake_case")]
        pub(crate) enum Code {
            $($(#[doc = $doc])* $name,)*
        }

        impl Code {
            /// Every code, in the order of the table.
            #[cfg(test)]
            pub(crate) const ALL: &[Code] = &[$(Code::$name,)*];

            /// The code as the answer spells it.
            #[cfg(test)]
            pub(crate) fn as_str(self) -> &'static str {
                match self {
                    $(Code::$name => $wire,)*
                }
            }
        }
    };
}

codes! {
    // The request itself.
    /// The request is malformed (a body, a query, a value out of range).
    BadRequest = "bad_request",
    /// The request's text holds what the store cannot keep (a NUL).
    UnstorableText = "unstorable_text",
    /// A page or page size out of range.
    BadPage = "bad_page",
    /// No such route (path or action).
    RouteNotFound = "route_not_found",
    /// The route has no such method.
    MethodNotAllowed = "method_not_allowed",
    /// The body is larger than the server takes.
    BodyTooLarge = "body_too_large",
    /// The body is not JSON (no `content-type: application/json`).
    UnsupportedMediaType = "unsupported_media_type",
    /// The JSON body lacks a field or has one of the wrong type.
    BadBody = "bad_body",
    /// The request target is too long.
    UriTooLong = "uri_too_long",
    /// The request's headers are too many or too large.
    HeadersTooLarge = "headers_too_large",
    /// The request took longer than the server allows.
    Timeout = "timeout",
    // Who asks.
    /// The route needs a token or a login.
    LoginRequired = "login_required",
    /// The `Authorization` header is not `Bearer <token>`.
    BadAuthorization = "bad_authorization",
    /// The token is unknown or revoked.
    UnknownToken = "unknown_token",
    /// The browser session has ended.
    SessionEnded = "session_ended",
    /// The CSRF header is missing or wrong.
    BadCsrf = "bad_csrf",
    /// The caller's role may not do this (arbiter, admin).
    RoleRequired = "role_required",
    /// Only an admin adds members.
    NotAdmin = "not_admin",
    // Accounts.
    /// The username or password is wrong.
    WrongPassword = "wrong_password",
    /// The old password is wrong.
    OldPasswordWrong = "old_password_wrong",
    /// A username breaks the rules.
    BadUsername = "bad_username",
    /// A password breaks the rules.
    BadPassword = "bad_password",
    /// The name is taken.
    NameTaken = "name_taken",
    /// The name is reserved (the computer opponents', or a route's).
    NameReserved = "name_reserved",
    /// A role that is none of player, arbiter, admin.
    BadRole = "bad_role",
    /// No member of that name.
    UserNotFound = "user_not_found",
    /// Too many login attempts from the caller's address.
    RateLimited = "rate_limited",
    /// Too many failed logins for the account.
    AccountRateLimited = "account_rate_limited",
    // Challenges.
    /// The colour is not white, black or random.
    BadColor = "bad_color",
    /// A challenge parameter that cannot be read, is out of range, or
    /// excludes another one given.
    BadChallengeParameter = "bad_challenge_parameter",
    /// A lichess variant or option tempo does not offer.
    UnsupportedChallengeOption = "unsupported_challenge_option",
    /// A decline's reason that is not one of lichess's.
    BadDeclineReason = "bad_decline_reason",
    /// A challenge to oneself.
    ChallengeYourself = "challenge_yourself",
    /// An e-mail address or mail language that cannot be used.
    BadEmail = "bad_email",
    /// Too many open challenges.
    TooManyChallenges = "too_many_challenges",
    /// Too many challenges open to anyone waiting.
    TooManyOpenChallenges = "too_many_open_challenges",
    /// Accepting one's own open challenge.
    OwnChallenge = "own_challenge",
    /// No such challenge.
    ChallengeNotFound = "challenge_not_found",
    /// Only the challenged member may accept.
    NotTheChallenged = "not_the_challenged",
    /// The caller may not decline or cancel this challenge.
    NotYourChallenge = "not_your_challenge",
    /// The challenge is accepted, declined or cancelled already.
    ChallengeClosed = "challenge_closed",
    // Games.
    /// No such game.
    GameNotFound = "game_not_found",
    /// The game asked for cannot be made (variant, clock, position).
    BadGameSpec = "bad_game_spec",
    /// The caller does not play in the game.
    NotAPlayer = "not_a_player",
    /// An arbiter's ruling on their own game.
    OwnGame = "own_game",
    /// A move or commit too long.
    ChoiceTooLong = "choice_too_long",
    /// The game is over.
    GameOver = "game_over",
    /// A flag is due (the clock is settled first).
    FlagDue = "flag_due",
    /// The game is paused.
    Paused = "paused",
    /// It is not the caller's turn.
    NotYourTurn = "not_your_turn",
    /// The caller has committed for this step already.
    AlreadyCommitted = "already_committed",
    /// The move is illegal.
    IllegalMove = "illegal_move",
    /// The game has begun: it cannot be aborted.
    TooLateToAbort = "too_late_to_abort",
    /// A draw offer is open already.
    DrawAlreadyOffered = "draw_already_offered",
    /// No draw offer to decline.
    NoDrawOffer = "no_draw_offer",
    /// No draw to claim.
    NoDrawToClaim = "no_draw_to_claim",
    /// A clock value is refused.
    BadClock = "bad_clock",
    /// A stored log does not replay.
    GameUnloadable = "game_unloadable",
    // Tournaments.
    /// No such tournament.
    TournamentNotFound = "tournament_not_found",
    /// A tournament request is malformed or names impossible values.
    TournamentInvalid = "tournament_invalid",
    /// A tournament request does not fit its state.
    TournamentConflict = "tournament_conflict",
    /// The director may not make this change.
    TournamentForbidden = "tournament_forbidden",
    /// Something a tournament request names does not exist.
    NotFound = "not_found",
    // Ratings.
    /// A variant that has no rating (none of the server's variants).
    UnknownVariant = "unknown_variant",
    /// A result report by someone who plays on no side of the board.
    NotYourBoard = "not_your_board",
    /// A result report for a round other than the current one.
    RoundNotCurrent = "round_not_current",
    /// A result report for a board the round does not have.
    BoardNotFound = "board_not_found",
    /// A result report for a board that has its result.
    BoardHasResult = "board_has_result",
    /// A result report for a board played on the server.
    OnlineBoard = "online_board",
    /// A forfeit reported by a player (the director enters forfeits).
    ForfeitNotReported = "forfeit_not_reported",
    /// A reported result that is not 1-0, 0-1 or 1/2-1/2.
    BadReportResult = "bad_report_result",
    // Bots and chat.
    /// The route is for bot accounts only.
    NotABot = "not_a_bot",
    /// The account is a bot already.
    AlreadyBot = "already_bot",
    /// An account that has played a game cannot become a bot.
    BotHasPlayed = "bot_has_played",
    /// A chat line's room or text breaks the rules.
    BadChatLine = "bad_chat_line",
    /// The player room is the game's players' alone.
    ChatPlayersOnly = "chat_players_only",
    /// Too many chat lines from the caller.
    ChatRateLimited = "chat_rate_limited",
    /// Too many token tests from the caller's address.
    TokenTestRateLimited = "token_test_rate_limited",
    // Table games.
    /// A seat token on a route other than its game's play routes.
    SeatTokenNotHere = "seat_token_not_here",
    /// A seat token on another game's play route.
    SeatOtherGame = "seat_other_game",
    /// A seat token the director revoked (or replaced).
    SeatRevoked = "seat_revoked",
    /// A seat token whose game is over.
    SeatEnded = "seat_ended",
    /// A player's name at a table breaks the rules.
    BadPlayerName = "bad_player_name",
    /// Too many unfinished table games of one director.
    TooManyTables = "too_many_tables",
    /// No such table game.
    TableNotFound = "table_not_found",
    /// Only the table game's director may do this.
    NotTheDirector = "not_the_director",
    /// A seat has had the most tokens.
    TooManySeatTokens = "too_many_seat_tokens",
    // The server.
    /// The server is busy (a lock, the password hashing): try again.
    Busy = "busy",
    /// The store is unavailable: try again.
    StorageUnavailable = "storage_unavailable",
    /// The server failed (logged).
    InternalError = "internal_error",
}

#[cfg(test)]
mod tests {
    use super::Code;

    /// The docs' table and the web app's catalogue name every code (a
    /// code added here without text there fails).
    #[test]
    fn every_code_is_documented_and_translated() {
        let root = env!("CARGO_MANIFEST_DIR");
        let docs = std::fs::read_to_string(format!("{root}/../../docs/server.md")).unwrap();
        let web = std::fs::read_to_string(format!("{root}/web/i18n/errors.js")).unwrap();
        for code in Code::ALL {
            let name = code.as_str();
            assert!(
                docs.contains(&format!("| `{name}` |")),
                "docs/server.md: {name}"
            );
            // Once in the German catalogue, once in the English one.
            let keys = web.matches(&format!("'err.{name}':")).count();
            assert_eq!(keys, 2, "web/i18n/errors.js: {name}");
        }
    }

    #[test]
    fn codes_are_distinct_snake_case() {
        let mut seen = std::collections::HashSet::new();
        for code in Code::ALL {
            let name = code.as_str();
            assert!(seen.insert(name), "{name} twice");
            assert!(
                name.chars().all(|c| c.is_ascii_lowercase() || c == '_'),
                "{name}"
            );
            let wire = serde_json::to_value(code).unwrap();
            assert_eq!(wire, name);
        }
    }
}
