//! Password hashing off the async workers, a few at once.
//!
//! One Argon2id hash or check takes 19 MiB and tens of milliseconds of
//! CPU. Unbounded, a hundred parallel logins took two gigabytes and
//! starved the players' moves; here they run on [`HashingPool::RUNNING`]
//! threads of their own (the same threads every time, so that the
//! allocator's memory for them does not spread over a growing set of
//! threads), at most [`HashingPool::QUEUE`] more wait, and any beyond are
//! refused at once (the caller answers 429).

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, mpsc};

use tokio::sync::oneshot;

/// Why hashing gave no answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum HashingError {
    /// The queue is full.
    Full,
    /// The work panicked, or the pool's threads are gone.
    Lost,
}

/// A hash to run, and its place among the admitted.
type Job = Box<dyn FnOnce() + Send>;

/// Runs password hashes on a few threads, with a bounded queue.
#[derive(Debug)]
pub struct HashingPool {
    jobs: mpsc::Sender<Job>,
    /// Hashes admitted: running or waiting.
    admitted: Arc<AtomicUsize>,
    most_admitted: usize,
}

impl Default for HashingPool {
    fn default() -> HashingPool {
        HashingPool::new(HashingPool::RUNNING, HashingPool::QUEUE)
    }
}

/// A place among the admitted, given back on drop: when its hash has run,
/// or was skipped because nobody waits for it any more.
struct Admission(Arc<AtomicUsize>);

impl Drop for Admission {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}

impl HashingPool {
    /// Hashes at once (each holds its 19 MiB while it runs).
    pub const RUNNING: usize = 2;
    /// Hashes waiting at most; one more is refused at once.
    pub const QUEUE: usize = 16;

    /// A pool of `running` threads (they end when the pool is dropped).
    pub fn new(running: usize, queue: usize) -> HashingPool {
        let running = running.max(1);
        let (sender, receiver) = mpsc::channel::<Job>();
        let receiver = Arc::new(Mutex::new(receiver));
        for n in 0..running {
            let receiver = receiver.clone();
            let spawned = std::thread::Builder::new()
                .name(format!("password-hash-{n}"))
                .spawn(move || {
                    loop {
                        let job = match receiver.lock() {
                            Ok(receiver) => receiver.recv(),
                            Err(_) => return,
                        };
                        match job {
                            Ok(job) => job(),
                            Err(_) => return,
                        }
                    }
                });
            if let Err(e) = spawned {
                tracing::error!(error = %e, "starting a password hashing thread");
            }
        }
        HashingPool {
            jobs: sender,
            admitted: Arc::default(),
            most_admitted: running + queue,
        }
    }

    /// Hashes running or waiting now.
    pub fn admitted(&self) -> usize {
        self.admitted.load(Ordering::Acquire)
    }

    /// Runs `work` (a hash or a check) on one of the pool's threads once
    /// one is free, or refuses at once if too many already wait. If the
    /// caller stops waiting, work not yet begun is skipped; work begun
    /// keeps its place until it ends.
    pub(crate) async fn run<T: Send + 'static>(
        &self,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, HashingError> {
        let admitted = self
            .admitted
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |n| {
                (n < self.most_admitted).then_some(n + 1)
            });
        if admitted.is_err() {
            return Err(HashingError::Full);
        }
        let admission = Admission(self.admitted.clone());
        let (answer, answered) = oneshot::channel();
        let job: Job = Box::new(move || {
            if answer.is_closed() {
                return;
            }
            let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(work));
            // The place is free before the caller hears the answer.
            drop(admission);
            if let Ok(value) = outcome {
                let _ = answer.send(value);
            }
        });
        self.jobs.send(job).map_err(|_| HashingError::Lost)?;
        answered.await.map_err(|_| HashingError::Lost)
    }
}

#[cfg(test)]
mod tests {
    use std::sync::mpsc;
    use std::time::Duration;

    use super::*;

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_few_run_a_few_wait_the_rest_are_refused_at_once() {
        let pool = Arc::new(HashingPool::new(2, 3));
        let (release, held) = mpsc::channel::<()>();
        let held = Arc::new(std::sync::Mutex::new(held));
        let running = Arc::new(AtomicUsize::new(0));
        let most_running = Arc::new(AtomicUsize::new(0));
        let mut tasks = Vec::new();
        for _ in 0..5 {
            let (pool, held, running, most_running) = (
                pool.clone(),
                held.clone(),
                running.clone(),
                most_running.clone(),
            );
            tasks.push(tokio::spawn(async move {
                pool.run(move || {
                    let now = running.fetch_add(1, Ordering::SeqCst) + 1;
                    most_running.fetch_max(now, Ordering::SeqCst);
                    held.lock().unwrap().recv().unwrap();
                    running.fetch_sub(1, Ordering::SeqCst);
                })
                .await
            }));
        }
        while pool.admitted() < 5 {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        // Two run, three wait: a sixth is refused without waiting.
        let refused = tokio::time::timeout(Duration::from_millis(100), pool.run(|| ())).await;
        assert_eq!(refused, Ok(Err(HashingError::Full)));
        for _ in 0..5 {
            release.send(()).unwrap();
        }
        for task in tasks {
            assert_eq!(task.await.unwrap(), Ok(()));
        }
        assert_eq!(most_running.load(Ordering::SeqCst), 2);
        assert_eq!(pool.admitted(), 0);
        assert_eq!(pool.run(|| 7).await, Ok(7));
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_caller_that_stops_waiting_costs_no_hash() {
        let pool = HashingPool::new(1, 1);
        let (release, held) = mpsc::channel::<()>();
        let first = pool.run(move || held.recv().unwrap());
        tokio::pin!(first);
        // Running on its thread, it holds the one thread.
        assert!(
            tokio::time::timeout(Duration::from_millis(50), &mut first)
                .await
                .is_err()
        );
        assert_eq!(pool.admitted(), 1);
        let ran = Arc::new(AtomicUsize::new(0));
        let counted = ran.clone();
        let waiting = tokio::time::timeout(
            Duration::from_millis(50),
            pool.run(move || counted.fetch_add(1, Ordering::SeqCst)),
        )
        .await;
        assert!(waiting.is_err(), "waits behind the first");
        release.send(()).unwrap();
        assert_eq!(first.await, Ok(()));
        // The waiter gave up: its hash is skipped and its place comes back.
        assert_eq!(pool.run(|| 7).await, Ok(7));
        assert_eq!(ran.load(Ordering::SeqCst), 0);
        assert_eq!(pool.admitted(), 0);
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_panic_loses_one_answer_not_the_thread() {
        let pool = HashingPool::new(1, 0);
        assert_eq!(
            pool.run(|| panic!("a broken hash")).await,
            Err::<(), _>(HashingError::Lost)
        );
        assert_eq!(pool.run(|| 7).await, Ok(7));
        assert_eq!(pool.admitted(), 0);
    }
}
