//! What a request that cannot be answered gets: a status and one clear
//! sentence, as JSON under /api/ and as a page elsewhere.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;

#[derive(Debug)]
pub struct Failure {
    pub status: StatusCode,
    pub message: String,
}

impl Failure {
    pub fn bad_request(message: impl Into<String>) -> Failure {
        Failure { status: StatusCode::BAD_REQUEST, message: message.into() }
    }

    pub fn not_found(message: impl Into<String>) -> Failure {
        Failure { status: StatusCode::NOT_FOUND, message: message.into() }
    }

    pub fn forbidden(message: impl Into<String>) -> Failure {
        Failure { status: StatusCode::FORBIDDEN, message: message.into() }
    }

    pub fn unavailable(message: impl Into<String>) -> Failure {
        Failure { status: StatusCode::SERVICE_UNAVAILABLE, message: message.into() }
    }

    /// An error from the library stages. Those the user caused (an id not
    /// in the library, a bad date) are told apart by their wording, as the
    /// command line prints them; the rest are the server's fault.
    pub fn from_error(e: anyhow::Error) -> Failure {
        let message = format!("{e:#}");
        let status = if message.contains("is not in the library") {
            StatusCode::NOT_FOUND
        } else if message.contains("is not a date") || message.contains("is not an arXiv id") || message.contains("is not a profile name") {
            StatusCode::BAD_REQUEST
        } else if message.contains("is busy") {
            StatusCode::SERVICE_UNAVAILABLE
        } else {
            eprintln!("error: {message}");
            StatusCode::INTERNAL_SERVER_ERROR
        };
        Failure { status, message }
    }
}

impl From<anyhow::Error> for Failure {
    fn from(e: anyhow::Error) -> Failure {
        Failure::from_error(e)
    }
}

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
    /// Ranking a day, running the model, hashing a password.
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
            eprintln!("error: a request failed inside: {e}");
            Err(Failure { status: StatusCode::INTERNAL_SERVER_ERROR, message: "internal error".into() })
        }
    }
}

/// The JSON form of a failure: `{"error": "…"}`.
pub struct ApiError(pub Failure);

impl<E: Into<Failure>> From<E> for ApiError {
    fn from(e: E) -> ApiError {
        ApiError(e.into())
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut res = (self.0.status, Json(serde_json::json!({ "error": self.0.message }))).into_response();
        if self.0.status == StatusCode::SERVICE_UNAVAILABLE {
            res.headers_mut().insert(axum::http::header::RETRY_AFTER, axum::http::HeaderValue::from_static("2"));
        }
        res
    }
}
