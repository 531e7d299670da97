//! The credential a request was made with (a token, a browser session),
//! and the news of credentials that ended on this instance (revoked,
//! logged out, the password changed). A stream opened with one
//! ([`super::accounts::until_ended`]) ends at once on that news, and the
//! store is asked every [`RECHECK`] for an end elsewhere (another
//! instance on the same PostgreSQL, an expired session): once per
//! credential, however many streams it has open, so that the store's
//! load grows with the credentials streaming, not with their streams.

use std::collections::HashMap;
use std::future::Future;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use tokio::sync::broadcast::error::RecvError;
use tokio::sync::{broadcast, watch};
use tokio::task::AbortHandle;

use crate::domain::accounts;

/// How often a stream's credential is looked up again in the store.
pub const RECHECK: Duration = Duration::from_secs(5);

/// What a request was made with, by its stored hash.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) enum Credential {
    Token(String),
    Session(String),
}

impl Credential {
    /// The credential of a Bearer token.
    pub(crate) fn token(token: &str) -> Credential {
        Credential::Token(accounts::token_hash(token))
    }

    /// The credential of a session id (the cookie's value).
    pub(crate) fn session(id: &str) -> Credential {
        Credential::Session(accounts::token_hash(id))
    }
}

/// Credentials that ended on this instance.
#[derive(Debug, Clone)]
pub(crate) enum Ended {
    Token(String),
    Session(String),
    /// Every token and session of an account, but the session `keep`.
    Account {
        user: String,
        keep: Option<String>,
    },
}

impl Ended {
    /// Whether `credential`, used by `user`, is among these.
    pub(crate) fn covers(&self, credential: &Credential, user: &str) -> bool {
        match (self, credential) {
            (Ended::Token(ended), Credential::Token(hash)) => ended == hash,
            (Ended::Session(ended), Credential::Session(hash)) => ended == hash,
            (Ended::Account { user: ended, keep }, credential) => {
                ended.eq_ignore_ascii_case(user)
                    && !matches!(credential, Credential::Session(hash) if Some(hash) == keep.as_ref())
            }
            _ => false,
        }
    }
}

/// The one watch over a credential that has streams open: a task that
/// follows the news and looks in the store, and tells them all when the
/// credential ends.
#[derive(Debug)]
struct Watch {
    ended: watch::Receiver<bool>,
    /// Streams waiting on it; the last to leave stops the task.
    streams: usize,
    task: AbortHandle,
}

/// The credentials watched, one entry per credential with a stream open
/// (a credential names one user, so it alone is the key).
type Watches = Mutex<HashMap<Credential, Watch>>;

fn lock(watches: &Watches) -> MutexGuard<'_, HashMap<Credential, Watch>> {
    // Every change under the lock is one step: a poisoned map is whole.
    watches
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Tells streams on this instance which credentials ended.
#[derive(Debug)]
pub struct AccessEnds {
    sender: broadcast::Sender<Ended>,
    watches: Arc<Watches>,
}

impl Default for AccessEnds {
    fn default() -> AccessEnds {
        AccessEnds {
            // A watch that falls behind asks the store instead.
            sender: broadcast::channel(256).0,
            watches: Arc::default(),
        }
    }
}

/// A stream's share of a [`Watch`]; leaving gives it up.
struct Joined {
    watches: Arc<Watches>,
    credential: Credential,
}

impl Drop for Joined {
    fn drop(&mut self) {
        let mut watches = lock(&self.watches);
        if let Some(watch) = watches.get_mut(&self.credential) {
            watch.streams -= 1;
            if watch.streams == 0 {
                watch.task.abort();
                watches.remove(&self.credential);
            }
        }
    }
}

impl AccessEnds {
    pub(crate) fn tell(&self, ended: Ended) {
        // Nobody listening: no stream to end.
        let _ = self.sender.send(ended);
    }

    /// Credentials watched now.
    #[cfg(test)]
    fn watched(&self) -> usize {
        lock(&self.watches).len()
    }

    /// Completes when `credential` (of `user`) ends: at once on news from
    /// this instance, else when `stands` (a look in the store) says it no
    /// longer stands. The credential's first stream starts its watch, which
    /// looks at once (an end before this call) and then every [`RECHECK`];
    /// later streams join it; the last to leave stops it. The watch follows
    /// the news from its start, so no end after this call is missed.
    pub(crate) fn until_ended<S, F>(
        &self,
        credential: Credential,
        user: String,
        stands: S,
    ) -> impl Future<Output = ()> + Send + 'static
    where
        S: Fn(Credential) -> F + Send + 'static,
        F: Future<Output = bool> + Send + 'static,
    {
        let mut watches = lock(&self.watches);
        let mut ended = match watches.get_mut(&credential) {
            Some(watch) => {
                watch.streams += 1;
                watch.ended.clone()
            }
            None => {
                let (tell, ended) = watch::channel(false);
                let news = self.sender.subscribe();
                let task = tokio::spawn(watch_credential(
                    credential.clone(),
                    user,
                    news,
                    stands,
                    tell,
                ))
                .abort_handle();
                watches.insert(
                    credential.clone(),
                    Watch {
                        ended: ended.clone(),
                        streams: 1,
                        task,
                    },
                );
                ended
            }
        };
        drop(watches);
        let joined = Joined {
            watches: self.watches.clone(),
            credential,
        };
        async move {
            let _joined = joined;
            // An error: the watch is gone (it cannot be while joined, but
            // ending the stream is then the safe answer).
            let _ = ended.wait_for(|ended| *ended).await;
        }
    }
}

/// One credential's watch: ends (telling its streams) when the credential
/// ends.
async fn watch_credential<S, F>(
    credential: Credential,
    user: String,
    mut news: broadcast::Receiver<Ended>,
    stands: S,
    tell: watch::Sender<bool>,
) where
    S: Fn(Credential) -> F,
    F: Future<Output = bool>,
{
    let mut recheck = tokio::time::interval(RECHECK);
    recheck.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        let still = tokio::select! {
            ended = news.recv() => match ended {
                Ok(ended) => !ended.covers(&credential, &user),
                // News missed: the store knows.
                Err(RecvError::Lagged(_)) => stands(credential.clone()).await,
                Err(RecvError::Closed) => false,
            },
            _ = recheck.tick() => stands(credential.clone()).await,
        };
        if !still {
            let _ = tell.send(true);
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_account_end_covers_all_but_the_kept_session() {
        let token = Credential::token("tempo_abc");
        let session = Credential::session("s1");
        let kept = Credential::session("s2");
        let ended = Ended::Account {
            user: "anna".into(),
            keep: match &kept {
                Credential::Session(hash) => Some(hash.clone()),
                Credential::Token(_) => None,
            },
        };
        assert!(ended.covers(&token, "Anna"));
        assert!(ended.covers(&session, "anna"));
        assert!(!ended.covers(&kept, "anna"));
        assert!(!ended.covers(&token, "ben"));
        assert!(Ended::Token(accounts::token_hash("tempo_abc")).covers(&token, "anna"));
        assert!(!Ended::Token(accounts::token_hash("tempo_abc")).covers(&session, "anna"));
        assert!(!Ended::Session(accounts::token_hash("s1")).covers(&kept, "anna"));
        assert!(Ended::Session(accounts::token_hash("s1")).covers(&session, "anna"));
    }

    /// A fake store: counts its looks; says "ended" once `gone` is set.
    #[derive(Clone, Default)]
    struct FakeStore {
        looks: Arc<std::sync::atomic::AtomicUsize>,
        gone: Arc<std::sync::atomic::AtomicBool>,
    }

    impl FakeStore {
        fn looks(&self) -> usize {
            self.looks.load(std::sync::atomic::Ordering::SeqCst)
        }

        fn stream(
            &self,
            ends: &AccessEnds,
            credential: &Credential,
        ) -> tokio::task::JoinHandle<()> {
            let store = self.clone();
            tokio::spawn(
                ends.until_ended(credential.clone(), "anna".into(), move |_| {
                    let store = store.clone();
                    async move {
                        store
                            .looks
                            .fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                        !store.gone.load(std::sync::atomic::Ordering::SeqCst)
                    }
                }),
            )
        }
    }

    /// Lets the spawned tasks run at the paused clock's present.
    async fn settle() {
        for _ in 0..10 {
            tokio::task::yield_now().await;
        }
    }

    #[tokio::test(start_paused = true)]
    async fn many_streams_of_one_credential_share_one_look_per_period() {
        let ends = AccessEnds::default();
        let token = Credential::token("tempo_abc");
        let store = FakeStore::default();
        let streams: Vec<_> = (0..100).map(|_| store.stream(&ends, &token)).collect();
        settle().await;
        assert_eq!(store.looks(), 1, "one look at once for all 100");
        for period in 1..=3 {
            tokio::time::advance(RECHECK).await;
            settle().await;
            assert_eq!(store.looks(), 1 + period, "one look per period");
        }
        // Another credential has a watch of its own.
        let other = FakeStore::default();
        let session = other.stream(&ends, &Credential::session("s1"));
        settle().await;
        assert_eq!((ends.watched(), other.looks()), (2, 1));
        // An end found in the store ends every stream within a period.
        store.gone.store(true, std::sync::atomic::Ordering::SeqCst);
        tokio::time::advance(RECHECK).await;
        settle().await;
        for stream in streams {
            assert!(stream.is_finished(), "every stream ended");
        }
        assert!(!session.is_finished());
        assert_eq!(ends.watched(), 1, "the ended credential's watch is gone");
        // The last stream to leave stops the look.
        let looks = other.looks();
        session.abort();
        settle().await;
        assert_eq!(ends.watched(), 0);
        tokio::time::advance(RECHECK * 3).await;
        settle().await;
        assert_eq!(other.looks(), looks, "no look after the last stream left");
    }

    #[tokio::test(start_paused = true)]
    async fn news_of_an_end_ends_every_stream_at_once_and_spares_others() {
        let ends = AccessEnds::default();
        let token = Credential::token("tempo_abc");
        let kept = Credential::token("tempo_xyz");
        let store = FakeStore::default();
        let streams: Vec<_> = (0..20).map(|_| store.stream(&ends, &token)).collect();
        let other = store.stream(&ends, &kept);
        settle().await;
        ends.tell(Ended::Token(accounts::token_hash("tempo_abc")));
        settle().await;
        for stream in streams {
            assert!(stream.is_finished());
        }
        assert!(!other.is_finished());
        // A stream opened afterwards starts a fresh watch, looking at once.
        let looks = store.looks();
        let again = store.stream(&ends, &token);
        settle().await;
        assert_eq!(store.looks(), looks + 1);
        assert!(!again.is_finished());
        ends.tell(Ended::Account {
            user: "ANNA".into(),
            keep: None,
        });
        settle().await;
        assert!(again.is_finished() && other.is_finished());
        assert_eq!(ends.watched(), 0);
    }
}
