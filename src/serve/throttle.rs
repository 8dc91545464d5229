//! Sign-in attempts counted before their password is checked: an attempt
//! takes a slot for its user name and for its address first, so a burst
//! of guesses sent at once gets no more checks than guesses sent one by
//! one. Past `MAX_ATTEMPTS` in `WINDOW` (failures plus attempts still in
//! flight) sign-in waits (429). A table that is full refuses new names and
//! addresses (503) instead of forgetting old ones, which would let a
//! flood of made-up names wipe the count of a real one.

use std::collections::{HashMap, VecDeque};
use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Password checks allowed per user name and per address in `WINDOW`.
const MAX_ATTEMPTS: usize = 5;
const WINDOW: Duration = Duration::from_secs(15 * 60);
/// Names and addresses remembered at most (a few MB).
const CAPACITY: usize = 10_000;
/// What a client waits for when its slots are taken by attempts in
/// flight: a password check takes well under a second.
const IN_FLIGHT_WAIT: Duration = Duration::from_secs(2);

/// Why an attempt may not go on, and for how long.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refused {
    /// Its name or address has used its attempts (429).
    TooMany(Duration),
    /// The table holds as many names and addresses as it may (503).
    Full(Duration),
}

#[derive(Default)]
struct Tally {
    failures: VecDeque<Instant>,
    in_flight: usize,
}

impl Tally {
    fn forget_old(&mut self, now: Instant) {
        while self.failures.front().is_some_and(|t| now.duration_since(*t) >= WINDOW) {
            self.failures.pop_front();
        }
    }

    fn is_idle(&self) -> bool {
        self.failures.is_empty() && self.in_flight == 0
    }
}

/// Attempts by user name and by address, in the last `WINDOW`.
pub struct Throttle {
    tallies: Mutex<HashMap<String, Tally>>,
    capacity: usize,
}

impl Default for Throttle {
    fn default() -> Throttle {
        Throttle::with_capacity(CAPACITY)
    }
}

impl Throttle {
    pub fn with_capacity(capacity: usize) -> Throttle {
        Throttle { tallies: Mutex::new(HashMap::new()), capacity }
    }

    /// Takes a slot for each of `keys` (a user name's and an address's), or
    /// says why not. The slot is given back as a failure unless the
    /// attempt [`Attempt::succeeded`].
    pub fn begin(self: &Arc<Self>, keys: Vec<String>) -> Result<Attempt, Refused> {
        let now = Instant::now();
        let mut map = self.tallies.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        let mut wait = None;
        for k in &keys {
            if let Some(t) = map.get_mut(k) {
                t.forget_old(now);
                if t.failures.len() + t.in_flight >= MAX_ATTEMPTS {
                    let until = if t.failures.len() >= MAX_ATTEMPTS {
                        WINDOW.saturating_sub(now.duration_since(t.failures[t.failures.len() - MAX_ATTEMPTS]))
                    } else {
                        IN_FLIGHT_WAIT
                    };
                    wait = wait.max(Some(until));
                }
            }
        }
        if let Some(w) = wait {
            return Err(Refused::TooMany(w.max(Duration::from_secs(1))));
        }
        let new = keys.iter().filter(|k| !map.contains_key(*k)).count();
        if map.len() + new > self.capacity {
            map.retain(|_, t| {
                t.forget_old(now);
                !t.is_idle()
            });
            if map.len() + new > self.capacity {
                let oldest = map.values().filter_map(|t| t.failures.front()).min().copied();
                let wait = oldest.map_or(IN_FLIGHT_WAIT, |t| WINDOW.saturating_sub(now.duration_since(t)));
                return Err(Refused::Full(wait.max(Duration::from_secs(1))));
            }
        }
        for k in &keys {
            map.entry(k.clone()).or_default().in_flight += 1;
        }
        Ok(Attempt { throttle: self.clone(), keys, done: false })
    }

    fn end(&self, keys: &[String], failed: bool) {
        let now = Instant::now();
        let mut map = self.tallies.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        for (i, k) in keys.iter().enumerate() {
            let Some(t) = map.get_mut(k) else { continue };
            t.in_flight = t.in_flight.saturating_sub(1);
            if failed {
                t.failures.push_back(now);
                if t.failures.len() > MAX_ATTEMPTS {
                    t.failures.pop_front();
                }
            } else if i == 0 {
                // The right password clears its name's failures; its
                // address keeps its own.
                t.failures.clear();
            }
            if t.is_idle() {
                map.remove(k);
            }
        }
    }
}

/// A password check under way: it holds its slots until it ends, and one
/// dropped without an answer (a client gone, a panic) counts as a failure.
pub struct Attempt {
    throttle: Arc<Throttle>,
    /// The user name's key first.
    keys: Vec<String>,
    done: bool,
}

impl Attempt {
    pub fn failed(mut self) {
        self.done = true;
        self.throttle.end(&self.keys, true);
    }

    pub fn succeeded(mut self) {
        self.done = true;
        self.throttle.end(&self.keys, false);
    }
}

impl Drop for Attempt {
    fn drop(&mut self) {
        if !self.done {
            self.throttle.end(&self.keys, true);
        }
    }
}

/// The key a user name's attempts count against.
pub fn user_key(name: &str) -> String {
    format!("user:{name}")
}

/// The address attempts count against: an IPv4 address as itself (also
/// when it reaches a server on `[::]` as `::ffff:a.b.c.d`), an IPv6 one by
/// its /64, which one client usually has.
pub fn address_key(ip: IpAddr) -> String {
    match ip.to_canonical() {
        IpAddr::V4(v4) => format!("addr:{v4}"),
        IpAddr::V6(v6) => {
            let s = v6.segments();
            format!("addr:{:x}:{:x}:{:x}:{:x}::/64", s[0], s[1], s[2], s[3])
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys(user: &str, addr: &str) -> Vec<String> {
        vec![user_key(user), address_key(addr.parse().unwrap())]
    }

    #[test]
    fn attempts_in_flight_count_before_their_answer() {
        let t = Arc::new(Throttle::default());
        let running: Vec<Attempt> = (0..MAX_ATTEMPTS).map(|_| t.begin(keys("alice", "10.0.0.1")).unwrap()).collect();
        // None has failed yet, and still a sixth may not start.
        assert!(matches!(t.begin(keys("alice", "10.0.0.2")), Err(Refused::TooMany(_))));
        assert!(matches!(t.begin(keys("bob", "10.0.0.1")), Err(Refused::TooMany(_))));
        assert!(t.begin(keys("bob", "10.0.0.2")).is_ok());
        for a in running {
            a.failed();
        }
        let Err(Refused::TooMany(wait)) = t.begin(keys("alice", "10.0.0.3")) else { panic!("alice is over her limit") };
        assert!(wait > Duration::from_secs(14 * 60), "{wait:?}");
    }

    #[test]
    fn a_dropped_attempt_is_a_failure_and_success_clears_the_name() {
        let t = Arc::new(Throttle::default());
        for _ in 0..MAX_ATTEMPTS - 1 {
            drop(t.begin(keys("alice", "10.0.0.1")).unwrap());
        }
        t.begin(keys("alice", "10.0.0.1")).unwrap().succeeded();
        // Her name starts afresh; the address keeps its four failures.
        t.begin(keys("alice", "10.0.0.9")).unwrap().failed();
        assert!(t.begin(keys("carol", "10.0.0.1")).is_ok());
        assert!(matches!(t.begin(keys("dave", "10.0.0.1")), Err(Refused::TooMany(_))));
    }

    #[test]
    fn a_full_table_refuses_newcomers_and_keeps_counting_the_known() {
        let t = Arc::new(Throttle::with_capacity(20));
        for i in 0..10 {
            t.begin(keys(&format!("made-up-{i}"), &format!("10.0.1.{i}"))).unwrap().failed();
        }
        assert!(matches!(t.begin(keys("alice", "10.0.2.1")), Err(Refused::Full(_))));
        // A name and address already counted go on being counted.
        for _ in 0..MAX_ATTEMPTS - 1 {
            t.begin(keys("made-up-0", "10.0.1.0")).unwrap().failed();
        }
        assert!(matches!(t.begin(keys("made-up-0", "10.0.1.0")), Err(Refused::TooMany(_))));
    }

    #[test]
    fn ipv4_mapped_addresses_are_ipv4_and_ipv6_counts_by_64() {
        let key = |s: &str| address_key(s.parse().unwrap());
        assert_eq!(key("::ffff:127.0.0.2"), key("127.0.0.2"));
        assert_ne!(key("::ffff:127.0.0.2"), key("::ffff:127.0.0.1"));
        assert_ne!(key("::ffff:127.0.0.2"), key("::1"));
        assert_eq!(key("2001:db8:1:2::5"), key("2001:db8:1:2:ffff::1"));
        assert_ne!(key("2001:db8:1:2::5"), key("2001:db8:1:3::5"));
    }
}
