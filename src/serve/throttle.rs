//! Sign-in attempts counted: after `MAX_FAILURES` failures in `WINDOW` for
//! a user name or from an address, sign-in waits (429), so a password
//! cannot be guessed at the speed of the network.

use std::collections::{HashMap, VecDeque};
use std::net::IpAddr;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Failed sign-ins allowed per user name and per address in `WINDOW`.
const MAX_FAILURES: usize = 5;
const WINDOW: Duration = Duration::from_secs(15 * 60);
/// Names and addresses remembered at most; beyond, only addresses count.
const MAX_TRACKED: usize = 10_000;

/// Failed sign-ins by user name and by address, in the last `WINDOW`.
#[derive(Default)]
pub struct Throttle {
    failures: Mutex<HashMap<String, VecDeque<Instant>>>,
}

impl Throttle {
    /// How long until `keys` may try again, if any of them is over the limit.
    pub fn wait(&self, keys: &[String]) -> Option<Duration> {
        let now = Instant::now();
        let map = self.failures.lock().ok()?;
        keys.iter()
            .filter_map(|k| map.get(k))
            .filter_map(|times| {
                let recent: Vec<&Instant> = times.iter().filter(|t| now.duration_since(**t) < WINDOW).collect();
                (recent.len() >= MAX_FAILURES).then(|| WINDOW.saturating_sub(now.duration_since(*recent[recent.len() - MAX_FAILURES])))
            })
            .max()
    }

    pub fn fail(&self, keys: &[String]) {
        let now = Instant::now();
        let Ok(mut map) = self.failures.lock() else { return };
        if map.len() >= MAX_TRACKED {
            map.retain(|_, times| times.back().is_some_and(|t| now.duration_since(*t) < WINDOW));
        }
        for k in keys {
            if map.len() >= MAX_TRACKED && !map.contains_key(k) && !k.starts_with("addr:") {
                continue;
            }
            let times = map.entry(k.clone()).or_default();
            times.retain(|t| now.duration_since(*t) < WINDOW);
            times.push_back(now);
            if times.len() > MAX_FAILURES {
                times.pop_front();
            }
        }
    }

    pub fn forget(&self, key: &str) {
        if let Ok(mut map) = self.failures.lock() {
            map.remove(key);
        }
    }
}

/// The address failures count against: a whole /64 for IPv6, which one
/// client usually has.
pub fn address_key(ip: IpAddr) -> String {
    match ip {
        IpAddr::V4(v4) => format!("addr:{v4}"),
        IpAddr::V6(v6) => {
            let s = v6.segments();
            format!("addr:{:x}:{:x}:{:x}:{:x}::/64", s[0], s[1], s[2], s[3])
        }
    }
}
