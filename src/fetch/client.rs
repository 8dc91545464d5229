//! A polite HTTP client for arXiv: a descriptive User-Agent, one request
//! every `min_interval` at most, retries with exponential backoff on 429 and
//! 5xx (honouring `Retry-After`), and a timeout on every request.

use std::io::Read;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Sent with every request so arXiv can tell who is calling.
pub const USER_AGENT: &str = concat!(
    "paperscout/",
    env!("CARGO_PKG_VERSION"),
    " (daily arXiv digest; +https://github.com/paperscout/paperscout)"
);

/// The longest `Retry-After` we honour; a longer one is an error.
const MAX_RETRY_AFTER: Duration = Duration::from_secs(300);

/// How gently to ask. `arxiv()` is arXiv's stated limit; tests use milliseconds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Politeness {
    /// Least time between the starts of two requests.
    pub min_interval: Duration,
    /// Retries after a 429 or 5xx (so up to `max_retries + 1` attempts).
    pub max_retries: u32,
    /// First backoff; it doubles on every retry.
    pub base_backoff: Duration,
    /// Whole-request timeout (connect, headers and body).
    pub timeout: Duration,
}

impl Politeness {
    /// One request every 3 seconds, 4 retries from 5 s, 60 s timeout.
    pub fn arxiv() -> Politeness {
        Politeness {
            min_interval: Duration::from_secs(3),
            max_retries: 4,
            base_backoff: Duration::from_secs(5),
            timeout: Duration::from_secs(60),
        }
    }
}

impl Default for Politeness {
    fn default() -> Self {
        Politeness::arxiv()
    }
}

/// Why a download failed; every message names the URL.
#[derive(Debug, thiserror::Error)]
pub enum FetchError {
    #[error("{url}: HTTP {status}{}", if *.attempts > 1 { format!(" (after {} attempts)", .attempts) } else { String::new() })]
    Status { url: String, status: u16, attempts: u32 },
    #[error("{url}: {message}")]
    Transport { url: String, message: String },
    #[error("{url}: the response was cut off after {received} bytes ({message})")]
    Truncated { url: String, received: usize, message: String },
}

impl FetchError {
    /// The HTTP status, when the server answered with an error.
    pub fn status(&self) -> Option<u16> {
        match self {
            FetchError::Status { status, .. } => Some(*status),
            _ => None,
        }
    }
}

/// One agent shared by every request of a run, so the rate limit holds across them.
pub struct Client {
    agent: ureq::Agent,
    politeness: Politeness,
    last_start: Mutex<Option<Instant>>,
    /// Reports retries and waits (stderr in the CLI).
    log: Box<dyn Fn(&str) + Send + Sync>,
}

impl Client {
    pub fn new(politeness: Politeness) -> Client {
        let agent = ureq::AgentBuilder::new()
            .user_agent(USER_AGENT)
            .timeout(politeness.timeout)
            .build();
        Client { agent, politeness, last_start: Mutex::new(None), log: Box::new(|_| {}) }
    }

    /// Where retry notices go.
    pub fn with_log(mut self, log: impl Fn(&str) + Send + Sync + 'static) -> Client {
        self.log = Box::new(log);
        self
    }

    pub fn politeness(&self) -> Politeness {
        self.politeness
    }

    /// GETs `url` and returns the whole body, retrying 429 and 5xx answers.
    pub fn get(&self, url: &str) -> Result<Vec<u8>, FetchError> {
        let mut attempt = 0u32;
        loop {
            attempt += 1;
            self.wait_turn();
            let wait = match self.agent.get(url).call() {
                Ok(resp) => return read_body(url, resp),
                Err(ureq::Error::Status(status, resp)) => {
                    let retryable = status == 429 || (500..600).contains(&status);
                    if !retryable || attempt > self.politeness.max_retries {
                        return Err(FetchError::Status { url: url.to_string(), status, attempts: attempt });
                    }
                    let backoff = self.politeness.base_backoff * 2u32.saturating_pow(attempt - 1);
                    match resp.header("Retry-After").and_then(parse_retry_after) {
                        Some(after) if after > MAX_RETRY_AFTER => {
                            return Err(FetchError::Status { url: url.to_string(), status, attempts: attempt })
                        }
                        Some(after) => {
                            (self.log)(&format!("{url}: HTTP {status}; retrying after {} s as asked", after.as_secs_f64()));
                            after
                        }
                        None => {
                            (self.log)(&format!("{url}: HTTP {status}; retrying in {:.1} s", backoff.as_secs_f64()));
                            backoff
                        }
                    }
                }
                Err(ureq::Error::Transport(t)) => {
                    return Err(FetchError::Transport { url: url.to_string(), message: transport_message(&t) });
                }
            };
            std::thread::sleep(wait);
        }
    }

    /// Sleeps until `min_interval` has passed since the previous request began.
    fn wait_turn(&self) {
        let mut last = self.last_start.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(prev) = *last {
            let since = prev.elapsed();
            if since < self.politeness.min_interval {
                std::thread::sleep(self.politeness.min_interval - since);
            }
        }
        *last = Some(Instant::now());
    }
}

fn read_body(url: &str, resp: ureq::Response) -> Result<Vec<u8>, FetchError> {
    let mut body = Vec::new();
    match resp.into_reader().read_to_end(&mut body) {
        Ok(_) => Ok(body),
        Err(e) if matches!(e.kind(), std::io::ErrorKind::TimedOut | std::io::ErrorKind::WouldBlock) => {
            Err(FetchError::Transport { url: url.to_string(), message: format!("timed out reading the response: {e}") })
        }
        Err(e) => Err(FetchError::Truncated { url: url.to_string(), received: body.len(), message: e.to_string() }),
    }
}

fn transport_message(t: &ureq::Transport) -> String {
    let text = t.to_string();
    // ureq's message starts with the URL already; keep only the reason.
    let reason = match t.message() {
        Some(m) => m.to_string(),
        None => text,
    };
    let io_timeout = std::error::Error::source(t)
        .and_then(|s| s.downcast_ref::<std::io::Error>())
        .is_some_and(|e| matches!(e.kind(), std::io::ErrorKind::TimedOut | std::io::ErrorKind::WouldBlock));
    if io_timeout || reason.to_ascii_lowercase().contains("timed out") {
        format!("timed out ({reason})")
    } else {
        reason
    }
}

/// `Retry-After` as seconds or as an HTTP date.
pub fn parse_retry_after(value: &str) -> Option<Duration> {
    let v = value.trim();
    if let Ok(secs) = v.parse::<u64>() {
        return Some(Duration::from_secs(secs));
    }
    let when = chrono::DateTime::parse_from_rfc2822(v).ok()?;
    let ms = (when.with_timezone(&chrono::Utc) - chrono::Utc::now()).num_milliseconds().max(0);
    Some(Duration::from_millis(ms as u64))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn retry_after_forms() {
        assert_eq!(parse_retry_after("7"), Some(Duration::from_secs(7)));
        assert_eq!(parse_retry_after("Wed, 21 Oct 2015 07:28:00 GMT"), Some(Duration::ZERO));
        assert_eq!(parse_retry_after("soon"), None);
    }
}
