//! Password checks on threads of their own. Each argon2 check takes 19 MiB
//! and tens of milliseconds of a core; sharing the pages' pool let a crowd
//! at the sign-in door starve the pages, and running on any of tokio's
//! blocking threads left an allocator arena of that size behind on each.
//! Here a fixed few threads check, a short queue waits, and a sign-in
//! beyond it is told to come back (503) instead of waiting in memory.

use super::failure::Failure;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::mpsc::{sync_channel, SyncSender, TryRecvError, TrySendError};
use std::sync::{Arc, Mutex};

/// Checks waiting for a thread at most; at ~50 ms each, a second or two.
const QUEUE: usize = 32;

type Job = Box<dyn FnOnce() + Send>;

pub struct Hashing {
    jobs: SyncSender<Job>,
}

impl Hashing {
    /// One thread per two cores (at least one, at most four): the other
    /// cores stay with the pages.
    pub fn start() -> Hashing {
        let cores = std::thread::available_parallelism().map_or(1, usize::from);
        Hashing::with_threads((cores / 2).clamp(1, 4))
    }

    pub fn with_threads(threads: usize) -> Hashing {
        let (jobs, queue) = sync_channel::<Job>(QUEUE);
        let queue = Arc::new(Mutex::new(queue));
        for i in 0..threads.max(1) {
            let queue = queue.clone();
            let spawned = std::thread::Builder::new().name(format!("paperscout-password-{i}")).spawn(move || {
                let mut worked = false;
                loop {
                    let next = match queue.lock() {
                        Ok(q) => q.try_recv(),
                        Err(_) => return,
                    };
                    let job = match next {
                        Ok(job) => job,
                        Err(TryRecvError::Disconnected) => return,
                        Err(TryRecvError::Empty) => {
                            if std::mem::take(&mut worked) {
                                give_memory_back();
                            }
                            match queue.lock().map(|q| q.recv()) {
                                Ok(Ok(job)) => job,
                                _ => return,
                            }
                        }
                    };
                    job();
                    worked = true;
                }
            });
            if let Err(e) = spawned {
                crate::messages::warning(format_args!("cannot start a password-checking thread: {e}"));
            }
        }
        Hashing { jobs }
    }

    /// Runs `check` on a password thread; 503 when the queue is full.
    pub async fn run<T: Send + 'static>(&self, check: impl FnOnce() -> Result<T, Failure> + Send + 'static) -> Result<T, Failure> {
        let (answer, answered) = tokio::sync::oneshot::channel();
        let job: Job = Box::new(move || {
            let result = catch_unwind(AssertUnwindSafe(check))
                .unwrap_or_else(|_| Err(Failure::from_error(anyhow::anyhow!("a password check panicked"))));
            let _ = answer.send(result);
        });
        match self.jobs.try_send(job) {
            Ok(()) => answered.await.unwrap_or_else(|_| Err(Failure::unavailable("the password check stopped"))),
            Err(TrySendError::Full(_)) => Err(Failure::unavailable("too many sign-ins at once: try again in a few seconds")),
            Err(TrySendError::Disconnected(_)) => Err(Failure::unavailable("the server is shutting down")),
        }
    }
}

impl Hashing {
    /// [`Hashing::run`] of `check` on `arg`; when no thread or queue place
    /// takes it, `arg` is handed to `turned_away` instead (a sign-in's
    /// attempt that was never checked).
    pub async fn run_or_return<A: Send + 'static, T: Send + 'static>(
        &self,
        arg: A,
        check: impl FnOnce(A) -> Result<T, Failure> + Send + 'static,
        turned_away: impl FnOnce(A),
    ) -> Result<T, Failure> {
        let slot = Arc::new(Mutex::new(Some(arg)));
        let inside = slot.clone();
        let result = self
            .run(move || {
                let arg = inside.lock().ok().and_then(|mut s| s.take()).ok_or_else(|| Failure::unavailable("the check was given up"))?;
                check(arg)
            })
            .await;
        if let Some(arg) = slot.lock().ok().and_then(|mut s| s.take()) {
            turned_away(arg);
        }
        result
    }
}

/// After a burst of sign-ins: the allocator keeps what the connections,
/// pages and hashes of the burst freed; hand it back to the system
/// (glibc's `malloc_trim` walks every arena).
fn give_memory_back() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim only returns free memory; it touches nothing in use.
    unsafe {
        libc::malloc_trim(0);
    }
}
