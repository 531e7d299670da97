//! Password hashing off the async workers, a few at once.
//!
//! One Argon2id hash or check takes 19 MiB and tens of milliseconds of
//! CPU. Unbounded, a hundred parallel logins took two gigabytes and
//! starved the players' moves; here at most [`HashingPool::RUNNING`] run
//! at once on blocking threads, at most [`HashingPool::QUEUE`] more wait,
//! and any beyond are refused at once (the caller answers 429).

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use tokio::sync::Semaphore;

/// Why hashing gave no answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum HashingError {
    /// The queue is full.
    Full,
    /// The blocking thread went away (it panicked).
    Lost,
}

/// Runs password hashes a few at once, with a bounded queue.
#[derive(Debug)]
pub struct HashingPool {
    running: Arc<Semaphore>,
    /// Hashes admitted: running or waiting.
    admitted: Arc<AtomicUsize>,
    most_admitted: usize,
}

impl Default for HashingPool {
    fn default() -> HashingPool {
        HashingPool::new(HashingPool::RUNNING, HashingPool::QUEUE)
    }
}

/// A place among the admitted, given back on drop (also when the request
/// that took it is dropped, or after its hash has finished on its thread).
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

    pub fn new(running: usize, queue: usize) -> HashingPool {
        HashingPool {
            running: Arc::new(Semaphore::new(running.max(1))),
            admitted: Arc::default(),
            most_admitted: running.max(1) + queue,
        }
    }

    /// Hashes running or waiting now.
    pub fn admitted(&self) -> usize {
        self.admitted.load(Ordering::Acquire)
    }

    /// Runs `work` (a hash or a check) on a blocking thread once a place
    /// is free, or refuses at once if too many already wait. The place is
    /// held until `work` ends, even if the caller stops waiting for it.
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
        let permit = self
            .running
            .clone()
            .acquire_owned()
            .await
            .map_err(|_| HashingError::Lost)?;
        tokio::task::spawn_blocking(move || {
            let answer = work();
            drop((permit, admission));
            answer
        })
        .await
        .map_err(|_| HashingError::Lost)
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
    async fn a_caller_that_stops_waiting_gives_its_place_back() {
        let pool = HashingPool::new(1, 1);
        let (release, held) = mpsc::channel::<()>();
        let first = pool.run(move || held.recv().unwrap());
        tokio::pin!(first);
        // Running on its thread, it holds the one place that runs.
        assert!(
            tokio::time::timeout(Duration::from_millis(50), &mut first)
                .await
                .is_err()
        );
        assert_eq!(pool.admitted(), 1);
        let waiting = tokio::time::timeout(Duration::from_millis(50), pool.run(|| ())).await;
        assert!(waiting.is_err(), "waits behind the first");
        assert_eq!(pool.admitted(), 1, "the waiter's place came back");
        release.send(()).unwrap();
        assert_eq!(first.await, Ok(()));
        assert_eq!(pool.admitted(), 0);
    }
}
