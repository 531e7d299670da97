//! A challenge as lichess's API shows it (its answer, `GET /api/challenge`,
//! the events): the players as lichess's light users with their club
//! ratings, the variant, speed, perf and time control lichess names, the
//! challenger's final colour, tempo's own fields beside.

use tempo_clock::TimeControl;
use tempo_host::GameSpec;
use tempo_host::lichess;

use crate::domain::challenges::{Challenge, ChallengeStatus, DeclineReason};
use crate::service::AppState;
use crate::service::events::{
    ChallengeEventKind, ChallengeJson, LightUser, PerfJson, ShortChallenge, UserEvent,
};
use crate::service::lichess::{LichessUser, user};
use crate::storage::StoreError;

fn light(user: LichessUser) -> LightUser {
    LightUser {
        id: user.id,
        name: user.name,
        title: user.title,
        rating: user.rating,
        provisional: user.provisional,
    }
}

/// Lichess's name of a challenge's status.
fn status_name(status: ChallengeStatus) -> &'static str {
    match status {
        ChallengeStatus::Open => "created",
        ChallengeStatus::Accepted => "accepted",
        ChallengeStatus::Declined => "declined",
        ChallengeStatus::Cancelled => "canceled",
    }
}

/// The start lichess's clients set up, when it is not the standard one: a
/// set-up position, or a Chess960 position named by its number (one drawn
/// when the challenge is accepted is not known before).
fn initial_fen(spec: &GameSpec) -> Option<String> {
    lichess::set_up_start(spec.fen.as_deref(), spec.chess960)
}

/// `challenge` as lichess shows it; `origin` is the server's address as
/// the caller reached it (for `url`), `""` for an event: its `url` is the
/// page's path, made absolute by each receiving stream ([`UserEvent::with_origin`]).
pub(crate) async fn challenge_json(
    state: &AppState,
    challenge: &Challenge,
    origin: &str,
) -> Result<ChallengeJson, StoreError> {
    let spec = &challenge.spec;
    let control: Option<TimeControl> = spec.clock.as_deref().and_then(|c| c.parse().ok());
    let speed = lichess::speed(control.as_ref());
    let from_position = lichess::is_from_position(spec.variant, spec.fen.as_deref(), spec.chess960);
    let kind = lichess::variant(spec.variant, from_position);
    let challenger = light(user(state, &challenge.challenger, spec.variant).await?);
    let dest_user = if challenge.is_open_to_all() && challenge.status == ChallengeStatus::Open {
        None
    } else {
        Some(light(user(state, &challenge.dest, spec.variant).await?))
    };
    let final_color = if challenge.challenger_white() {
        "white"
    } else {
        "black"
    };
    Ok(ChallengeJson {
        id: challenge.id.clone(),
        url: format!("{origin}/challenge/{}", challenge.id),
        status: status_name(challenge.status).into(),
        challenger,
        dest_user,
        variant: kind.into(),
        rated: challenge.rated,
        speed: speed.key().into(),
        time_control: lichess::time_control(control.as_ref()),
        color: challenge.color,
        final_color: final_color.into(),
        perf: PerfJson {
            name: lichess::perf_name(kind, speed).into(),
        },
        direction: None,
        initial_fen: initial_fen(spec),
        decline_reason: None,
        decline_reason_key: None,
        clock: spec.clock.clone(),
        fen: spec.fen.clone(),
        chess960: spec.chess960,
        rules: spec.rules.clone(),
        expires_at: challenge
            .open_until
            .map(|ms| tempo_host::chain::rfc3339_millis(ms.max(0) as u64)),
    })
}

/// Sets a declined challenge's reason.
pub(crate) fn with_reason(mut json: ChallengeJson, reason: DeclineReason) -> ChallengeJson {
    json.decline_reason = Some(reason.text().into());
    json.decline_reason_key = Some(reason.key().into());
    json
}

/// Builds again the challenge event another instance told in its short
/// form (the challenge as stored now). `None` if the challenge is gone,
/// or for a `challenge` event if it is no longer open (its close's event
/// follows: a `challenge` showing it closed would be stale).
pub(crate) async fn expand(
    state: &AppState,
    short: &ShortChallenge,
) -> Result<Option<UserEvent>, StoreError> {
    let Some(challenge) = state.store.challenge(&short.id).await? else {
        return Ok(None);
    };
    if short.kind == ChallengeEventKind::Challenge && challenge.status != ChallengeStatus::Open {
        return Ok(None);
    }
    // The page by its path: each stream makes it absolute.
    let json = challenge_json(state, &challenge, "").await?;
    Ok(Some(match short.kind {
        ChallengeEventKind::Challenge => UserEvent::challenge(json),
        ChallengeEventKind::ChallengeDeclined => {
            let reason = short
                .decline_reason_key
                .as_deref()
                .and_then(DeclineReason::from_key)
                .unwrap_or_default();
            UserEvent::challenge_closed(with_reason(json, reason), true)
        }
        ChallengeEventKind::ChallengeCanceled => UserEvent::challenge_closed(json, false),
    }))
}

#[cfg(test)]
mod tests {
    use tempo_host::Variant;

    use super::*;

    #[test]
    fn set_up_positions_and_initial_fens() {
        let spec = |variant, fen: Option<&str>, chess960| GameSpec {
            variant,
            fen: fen.map(str::to_string),
            chess960,
            ..GameSpec::default()
        };
        let standard = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        assert_eq!(initial_fen(&spec(Variant::Standard, None, None)), None);
        assert_eq!(
            initial_fen(&spec(Variant::Standard, Some(standard), None)),
            None
        );
        // The standard pieces with Black to move: a set-up start.
        let black = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1";
        assert_eq!(
            initial_fen(&spec(Variant::Standard, Some(black), None)).as_deref(),
            Some(black)
        );
        assert!(
            initial_fen(&spec(
                Variant::Standard,
                Some("8/8/8/8/8/8/8/K1k5 w - - 0 1"),
                None
            ))
            .is_some()
        );
        // A Chess960 number, in a Chess960 game and in a Standard one.
        for variant in [Variant::Chess960, Variant::Standard] {
            let fen = initial_fen(&spec(variant, None, Some(0))).unwrap();
            assert!(fen.starts_with("bbqnnrkr/pppppppp/"), "{fen}");
        }
        // One drawn when the challenge is accepted is not known before.
        assert_eq!(initial_fen(&spec(Variant::Chess960, None, None)), None);
        assert_eq!(status_name(ChallengeStatus::Cancelled), "canceled");
        assert_eq!(status_name(ChallengeStatus::Open), "created");
    }

    /// A `challenge` note read after its challenge closed is dropped (its
    /// close's event follows); the close's own note is built; the page is
    /// named by its path, for each stream to make absolute.
    #[tokio::test]
    async fn a_challenge_no_longer_open_is_not_announced_again() {
        use crate::domain::accounts::{Role, User};
        use crate::domain::challenges::ColorChoice;
        let dir = std::env::temp_dir().join(format!(
            "tempo-expand-test-{}-{:x}",
            std::process::id(),
            rand::random::<u64>()
        ));
        std::fs::create_dir_all(&dir).unwrap();
        let store = crate::storage::Store::open_dir(&dir).await.unwrap();
        let state = AppState::new(store).await.unwrap();
        for name in ["anna", "ben"] {
            let user = User {
                name: name.into(),
                role: Role::Player,
            };
            state.store.add_user(&user, "x", 0).await.unwrap();
        }
        let challenge = Challenge {
            id: "abcdefghijkl".into(),
            challenger: "anna".into(),
            dest: "ben".into(),
            spec: GameSpec::default(),
            color: ColorChoice::Random,
            status: ChallengeStatus::Open,
            game_id: None,
            open_until: None,
            rated: false,
        };
        assert!(state.store.add_challenge(&challenge, 0, 10).await.unwrap());
        let short = |kind| ShortChallenge {
            kind,
            id: challenge.id.clone(),
            decline_reason_key: None,
        };
        let open = expand(&state, &short(ChallengeEventKind::Challenge))
            .await
            .unwrap()
            .unwrap();
        assert_eq!(
            open.challenge_json().unwrap().url,
            "/challenge/abcdefghijkl"
        );
        let closed = ChallengeStatus::Cancelled;
        assert!(
            state
                .store
                .close_challenge(&challenge.id, closed)
                .await
                .unwrap()
        );
        let stale = expand(&state, &short(ChallengeEventKind::Challenge)).await;
        assert!(stale.unwrap().is_none());
        let cancel = expand(&state, &short(ChallengeEventKind::ChallengeCanceled)).await;
        assert!(matches!(
            cancel.unwrap(),
            Some(UserEvent::ChallengeCanceled { .. })
        ));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
