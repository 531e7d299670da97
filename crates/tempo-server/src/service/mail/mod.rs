//! E-mail for correspondence (off unless `tempo serve --smtp URL`): a
//! challenge to a member, their turn in a correspondence game, a reminder
//! before its deadline, its end. A request only puts a job in a bounded
//! queue; a background worker looks up the member's address and language
//! and sends, retrying a little; a mail that cannot go is logged and
//! dropped — play never waits for mail and never fails because of it.

mod smtp;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::time::Duration;

use tempo_chess::Color;
use tempo_clock::{Category, TimeControl};
use tempo_host::chain::rfc3339_millis;
use tempo_host::{Body, Entry, HostedGame};
use tokio::sync::{Semaphore, mpsc};

use crate::domain::mail::{Lang, Notice, letter, message};
pub use crate::domain::mail::{MailError, SmtpUrl};
pub use smtp::SmtpError;

use crate::domain::challenges::Challenge;
use crate::storage::Store;

/// Jobs waiting before new ones are dropped (and logged).
const QUEUE: usize = 1_000;
/// Mails being sent at once.
const SENDING: usize = 4;
/// The waits before the second and the third attempt at a mail.
const RETRIES: [Duration; 2] = [Duration::from_secs(10), Duration::from_secs(120)];
/// How long before a correspondence move's deadline its reminder goes.
pub const REMIND_BEFORE: u64 = 12 * 3_600 * 1_000;
/// Longest time-control text a mail repeats.
const MAX_CLOCK_TEXT: usize = 80;

/// How the server sends mail.
#[derive(Debug, Clone)]
pub struct MailSettings {
    pub smtp: SmtpUrl,
    /// The sender's address (`--smtp-from`).
    pub from: String,
    /// The server's public URL, for links (no trailing `/`).
    pub public_url: String,
}

/// The mail queue's handle in the server state: off (no `--smtp`), or
/// the sender of jobs to the worker.
#[derive(Debug, Clone, Default)]
pub struct Mail {
    queue: Option<Arc<Queue>>,
}

#[derive(Debug)]
struct Queue {
    jobs: mpsc::Sender<Job>,
    /// Whether a full queue was logged (once until it has room again).
    full: AtomicBool,
}

/// What the worker is asked to do.
#[derive(Debug)]
enum Job {
    /// Mail `notice` to member `to` (if they gave an address).
    Send { to: String, notice: Notice },
    /// Game `game`'s next reminder is due at `at` (`None`: none).
    RemindAt { game: String, at: Option<u64> },
    /// Answered once every job queued before it has been taken (and each
    /// reminder instant among them stored).
    Settled(tokio::sync::oneshot::Sender<()>),
}

impl Mail {
    /// Starts the worker that sends through `settings` (TLS settings read
    /// now: a server without certificate authorities says so at start).
    pub fn start(store: Store, settings: MailSettings) -> Result<Mail, SmtpError> {
        let tls = smtp::tls_config(&settings.smtp)?;
        let (jobs, receiver) = mpsc::channel(QUEUE);
        tokio::spawn(work(store, Arc::new(settings), tls, receiver));
        Ok(Mail {
            queue: Some(Arc::new(Queue {
                jobs,
                full: AtomicBool::new(false),
            })),
        })
    }

    /// Whether mail is on.
    pub fn is_on(&self) -> bool {
        self.queue.is_some()
    }

    /// Waits until the worker has taken every job queued so far: the
    /// mails are on their way and each game's reminder instant is stored.
    /// Without mail, or with the queue full, at once.
    pub async fn settled(&self) {
        let (done, wait) = tokio::sync::oneshot::channel();
        self.push(Job::Settled(done));
        let _ = wait.await;
    }

    /// Queues `job`, never waiting: a full queue drops it.
    fn push(&self, job: Job) {
        let Some(queue) = &self.queue else {
            return;
        };
        match queue.jobs.try_send(job) {
            Ok(()) => queue.full.store(false, Relaxed),
            Err(mpsc::error::TrySendError::Full(_)) => {
                if !queue.full.swap(true, Relaxed) {
                    tracing::warn!("the mail queue is full: mails are dropped");
                }
            }
            Err(mpsc::error::TrySendError::Closed(_)) => {
                tracing::error!("the mail worker has stopped");
            }
        }
    }

    /// A direct challenge: its member hears of it by mail (any clock: a
    /// challenge waits in the lobby until answered, and a member who is
    /// away learns of it).
    pub(crate) fn challenge(&self, challenge: &Challenge, from: &str, dest: &str) {
        let clock = challenge.spec.clock.as_ref().map(|c| {
            let mut text: String = c.chars().take(MAX_CLOCK_TEXT).collect();
            if text.len() < c.len() {
                text.push('…');
            }
            text
        });
        self.push(Job::Send {
            to: dest.to_string(),
            notice: Notice::Challenge {
                from: from.to_string(),
                variant: challenge.spec.variant.to_string(),
                clock,
            },
        });
    }

    /// Mails `to` that their move in game `game` against `opponent` is due
    /// by `deadline` (ms since the epoch).
    pub(crate) fn remind(&self, to: &str, game: &str, opponent: &str, deadline: u64) {
        self.push(Job::Send {
            to: to.to_string(),
            notice: Notice::Reminder {
                game: game.to_string(),
                opponent: opponent.to_string(),
                deadline: rfc3339_millis(deadline),
            },
        });
    }

    /// Entries of game `id` are stored: in a correspondence game, the
    /// players to move hear that it is their turn (when the step began
    /// with these entries), both hear of its end, and the next reminder
    /// is set.
    pub(crate) fn stored(&self, id: &str, game: &HostedGame, entries: &[Entry]) {
        if !self.is_on() || !is_correspondence(game) {
            return;
        }
        let Some(at) = entries.last().map(|e| e.at) else {
            return;
        };
        let header = game.header();
        let opponent = |c: Color| c.fold(&header.black, &header.white).clone();
        if let Some((result, reason)) = game.end() {
            for color in Color::ALL {
                self.push(Job::Send {
                    to: color.fold(&header.white, &header.black).clone(),
                    notice: Notice::End {
                        game: id.to_string(),
                        opponent: opponent(color),
                        result: result.to_string(),
                        reason: reason.to_string(),
                    },
                });
            }
            return;
        }
        let Some(last) = turn_began(entries) else {
            return;
        };
        let mut remind_at = None;
        for color in Color::ALL {
            if game.choices(color).is_empty() {
                continue;
            }
            let deadline = game
                .reading(color, at)
                .map(|left| at.saturating_add(left.0.max(0) as u64));
            self.push(Job::Send {
                to: color.fold(&header.white, &header.black).clone(),
                notice: Notice::YourTurn {
                    game: id.to_string(),
                    opponent: opponent(color),
                    last: last.clone(),
                    deadline: deadline.map(rfc3339_millis),
                },
            });
            // No reminder when less than its lead is left already: this
            // mail gives the deadline.
            if let Some(remind) = deadline
                .and_then(|d| d.checked_sub(REMIND_BEFORE))
                .filter(|&r| r > at)
            {
                remind_at = Some(remind_at.map_or(remind, |r: u64| r.min(remind)));
            }
        }
        self.push(Job::RemindAt {
            game: id.to_string(),
            at: remind_at,
        });
    }
}

/// Whether `game` is played at correspondence speed (days per move).
fn is_correspondence(game: &HostedGame) -> bool {
    game.header()
        .clock
        .as_deref()
        .and_then(|clock| clock.parse::<TimeControl>().ok())
        .and_then(|control| control.category())
        == Some(Category::Correspondence)
}

/// Whether `entries` begin a new turn (the game's start, a move, a
/// reveal), and the move that began it, as its mail names it.
fn turn_began(entries: &[Entry]) -> Option<Option<String>> {
    entries.iter().rev().find_map(|entry| match &entry.body {
        Body::GameCreated(_) => Some(None),
        Body::Move { san, .. } => Some(Some(san.clone())),
        Body::Reveal { record, .. } => Some(Some(record.clone())),
        _ => None,
    })
}

/// The worker: takes jobs in order; sends up to [`SENDING`] mails at once.
async fn work(
    store: Store,
    settings: Arc<MailSettings>,
    tls: Option<Arc<rustls::ClientConfig>>,
    mut jobs: mpsc::Receiver<Job>,
) {
    let sending = Arc::new(Semaphore::new(SENDING));
    while let Some(job) = jobs.recv().await {
        match job {
            Job::RemindAt { game, at } => {
                if let Err(e) = store.set_remind_at(&game, at).await {
                    tracing::error!(game, error = %e, "storing a game's reminder");
                }
            }
            Job::Settled(done) => {
                let _ = done.send(());
            }
            Job::Send { to, notice } => {
                let address = match store.email(&to).await {
                    Ok(Some(address)) => address,
                    Ok(None) => continue,
                    Err(e) => {
                        tracing::error!(user = to, error = %e, "reading a member's address");
                        continue;
                    }
                };
                let lang = address.lang.as_deref().and_then(|l| Lang::parse(l).ok());
                let letter = letter(&notice, lang, &settings.public_url);
                let now = std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map_or(0, |d| d.as_millis() as u64);
                let outgoing = smtp::Outgoing {
                    message: message(
                        &settings.from,
                        &address.email,
                        &letter,
                        now,
                        &crate::domain::random_id(),
                    ),
                    from: settings.from.clone(),
                    to: address.email,
                };
                let Ok(permit) = sending.clone().acquire_owned().await else {
                    return;
                };
                let (settings, tls) = (settings.clone(), tls.clone());
                tokio::spawn(async move {
                    deliver(&settings, tls.as_ref(), &to, &outgoing).await;
                    drop(permit);
                });
            }
        }
    }
}

/// Sends one mail, trying again after each of [`RETRIES`]; a mail that
/// cannot go is logged once.
async fn deliver(
    settings: &MailSettings,
    tls: Option<&Arc<rustls::ClientConfig>>,
    user: &str,
    mail: &smtp::Outgoing,
) {
    let hello = hello_name(&settings.public_url);
    let mut waits = RETRIES.iter();
    loop {
        match smtp::send(&settings.smtp, tls, &hello, mail).await {
            Ok(()) => return,
            Err(e) => match waits.next() {
                Some(wait) => tokio::time::sleep(*wait).await,
                None => {
                    tracing::warn!(user, error = %e, "a mail was not sent (three attempts)");
                    return;
                }
            },
        }
    }
}

/// The host name the server gives in EHLO: its public URL's.
fn hello_name(public_url: &str) -> String {
    let rest = public_url.split_once("://").map_or(public_url, |(_, r)| r);
    let host = rest.split(['/', ':']).next().unwrap_or_default();
    if host.is_empty() || host.contains(['[', ']']) {
        "localhost".to_string()
    } else {
        host.to_string()
    }
}
