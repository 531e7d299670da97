//! Group commit: commands of many games wait together for one
//! transaction, so that one sync to disk acknowledges them all. Each
//! command is answered only after its entries are durable.

use tempo_host::Entry;
use tokio::sync::{mpsc, oneshot};

use crate::storage::{Append, NextFlag, Store, StoreError};

/// Commands waiting for a write at most.
const QUEUE: usize = 4096;
/// Games written in one transaction at most.
const BATCH: usize = 512;

struct Job {
    game: String,
    entries: Vec<Entry>,
    /// What becomes of the game's stored next flag.
    next_flag: NextFlag,
    done: oneshot::Sender<Result<Vec<Entry>, StoreError>>,
}

/// The handle to the writing task.
#[derive(Debug, Clone)]
pub struct Writer {
    jobs: mpsc::Sender<Job>,
}

impl std::fmt::Debug for Job {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Job({}, {} entries)", self.game, self.entries.len())
    }
}

impl Writer {
    /// Starts the writing task over `store`.
    pub fn start(store: Store) -> Writer {
        let (jobs, receiver) = mpsc::channel(QUEUE);
        tokio::spawn(run(store, receiver));
        Writer { jobs }
    }

    /// Stores `entries` of `game` and updates its stored next flag as
    /// `next_flag` says; returns them once they are durable.
    pub async fn append(
        &self,
        game: &str,
        entries: Vec<Entry>,
        next_flag: NextFlag,
    ) -> Result<Vec<Entry>, StoreError> {
        let (done, answer) = oneshot::channel();
        let job = Job {
            game: game.to_string(),
            entries,
            next_flag,
            done,
        };
        let stopped = || StoreError::Io("the writer has stopped".into());
        self.jobs.send(job).await.map_err(|_| stopped())?;
        answer.await.map_err(|_| stopped())?
    }
}

async fn run(store: Store, mut receiver: mpsc::Receiver<Job>) {
    while let Some(first) = receiver.recv().await {
        let mut jobs = vec![first];
        while jobs.len() < BATCH {
            match receiver.try_recv() {
                Ok(job) => jobs.push(job),
                Err(_) => break,
            }
        }
        let batch: Vec<Append> = jobs
            .iter()
            .map(|j| (j.game.as_str(), j.entries.as_slice(), j.next_flag))
            .collect();
        match store.append_batch(&batch).await {
            Ok(()) => {
                for job in jobs {
                    let _ = job.done.send(Ok(job.entries));
                }
            }
            Err(err) if jobs.len() == 1 => {
                let job = jobs.pop().expect("one job");
                let _ = job.done.send(Err(err));
            }
            Err(_) => {
                // One job spoilt the batch (a seq another instance took):
                // each on its own, so that only that one fails.
                for job in jobs {
                    let result = store.append(&job.game, &job.entries, job.next_flag).await;
                    let _ = job.done.send(result.map(|()| job.entries));
                }
            }
        }
    }
}
