//! The server's library work, off the async threads and a few at a time:
//! threads, memory and open files stay bounded however many requests
//! arrive.

use super::failure::Failure;
use crate::error::Kind;

/// Library work running at once, by cost (the rest wait without a thread).
/// Together fewer than `state::READERS`, so that work holding one reader can
/// always get a second.
pub const LIGHT_SLOTS: usize = 8;
pub const HEAVY_SLOTS: usize = 3;

/// Library work in flight: threads, memory and open files stay bounded
/// however many requests arrive; the rest wait here, costing no thread.
/// Two queues, so that a burst of digests and searches (tens of ms of CPU
/// each) does not make every quick lookup wait behind it.
static LIGHT: tokio::sync::Semaphore = tokio::sync::Semaphore::const_new(LIGHT_SLOTS);
static HEAVY: tokio::sync::Semaphore = tokio::sync::Semaphore::const_new(HEAVY_SLOTS);

/// What a request's library work costs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cost {
    /// Lookups and writes: a millisecond or so.
    Light,
    /// Ranking a day, running the model (passwords have threads of their
    /// own: `hashing`).
    Heavy,
}

/// Runs quick library work off the async threads (see [`blocking_as`]).
pub async fn blocking<T: Send + 'static>(f: impl FnOnce() -> Result<T, Failure> + Send + 'static) -> Result<T, Failure> {
    blocking_as(Cost::Light, f).await
}

/// Runs library work off the async threads, a few at a time per cost; a
/// panic in it is a 500, never the end of the server.
pub async fn blocking_as<T: Send + 'static>(cost: Cost, f: impl FnOnce() -> Result<T, Failure> + Send + 'static) -> Result<T, Failure> {
    let queue = if cost == Cost::Heavy { &HEAVY } else { &LIGHT };
    let Ok(_slot) = queue.acquire().await else {
        return Err(Failure::unavailable("the server is shutting down"));
    };
    match tokio::task::spawn_blocking(f).await {
        Ok(r) => r,
        Err(e) => {
            crate::messages::error(format_args!("a request failed inside: {e}"));
            Err(Failure::of(Kind::Internal, "internal error"))
        }
    }
}
