//! Sign-in attempts counted before their password is checked. An attempt
//! takes a slot on each of its keys first, so a burst of guesses sent at
//! once gets no more checks than guesses sent one by one:
//!
//! - the user name *within the network it comes from* (an IPv4 /24, an
//!   IPv6 /48): guessing at a name from elsewhere does not lock its owner
//!   out, and a name stays limited per network;
//! - the name across all networks, a wider limit that does not apply in a
//!   network where the name has signed in (so a distributed guesser is
//!   slowed, and the owner at their desk is not);
//! - the address (IPv4 as itself, IPv6 by its /64);
//! - the network (/24, /48): the many addresses of one network share one
//!   budget, so that 5,000 addresses of a /24 are not 5,000 budgets; and
//!   the wider block around it (/16, /32), with a wider budget, so that a
//!   few hundred /24s of one provider are not a few hundred budgets.
//!
//! Past its limit in `WINDOW` (failures plus attempts in flight) a key
//! waits (429). A key over its limit turns an attempt away before any
//! new key is remembered, so a flood from a network stops growing the
//! table as soon as the network has used its budget. A guess turned away
//! before its password is checked (the checkers' queue is full) is charged
//! to the address and network it came from if they are already counted,
//! and remembers nothing new. A table that is full refuses new networks
//! (503) instead of forgetting old ones, which would let a flood wipe a
//! real name's count; a name signing in from a network where it has signed
//! in before has room kept for it. Those networks are kept with the
//! sessions, so a restart forgets none of them ([`Throttle::remember`]).

use std::collections::{HashMap, VecDeque};
use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Password checks allowed per name in a network, and per address, in `WINDOW`.
const MAX_ATTEMPTS: usize = 5;
/// Per network (/24, /48): a lab behind one NAT signs in from one address.
const NETWORK_ATTEMPTS: usize = 20;
/// Per block around a network (IPv4 /16, IPv6 /32).
const BLOCK_ATTEMPTS: usize = 100;
/// Per name, over every network where it has not signed in before.
const NAME_ATTEMPTS: usize = 50;
const WINDOW: Duration = Duration::from_secs(15 * 60);
/// Keys remembered at most (a few MB).
const CAPACITY: usize = 10_000;
/// Room beyond `CAPACITY` kept for names signing in from a known network.
const KNOWN_ROOM: usize = 1_000;
/// Networks remembered per name as known (where it signed in), and for how long.
const KNOWN_NETWORKS: usize = 8;
const KNOWN_FOR: Duration = Duration::from_secs(30 * 86_400);
/// What a client waits for when its slots are taken by attempts in
/// flight: a password check takes well under a second.
const IN_FLIGHT_WAIT: Duration = Duration::from_secs(2);

/// Why an attempt may not go on, and for how long.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refused {
    /// A key of it has used its attempts (429).
    TooMany(Duration),
    /// The table holds as many keys as it may (503).
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

/// Where a sign-in comes from and for whom: the keys it is counted under.
#[derive(Debug, Clone)]
pub struct Guess {
    name: String,
    network: Option<String>,
    block: Option<String>,
    address: Option<String>,
}

impl Guess {
    pub fn new(name: &str, from: Option<IpAddr>) -> Guess {
        Guess { name: name.to_string(), network: from.map(network_key), block: from.map(block_key), address: from.map(address_key) }
    }

    /// The network it comes from, as kept with a session it starts.
    pub fn network(&self) -> Option<&str> {
        self.network.as_deref()
    }

    /// (key, limit), the name within its network first; the name-wide
    /// key only where the name has not signed in from this network.
    fn keys(&self, known: bool) -> Vec<(String, usize)> {
        let net = self.network.as_deref().unwrap_or("net:unknown");
        let mut keys = vec![(format!("user:{}@{net}", self.name), MAX_ATTEMPTS)];
        if !known {
            keys.push((format!("user:{}", self.name), NAME_ATTEMPTS));
        }
        if let Some(a) = &self.address {
            keys.push((a.clone(), MAX_ATTEMPTS));
        }
        if let Some(n) = &self.network {
            keys.push((n.clone(), NETWORK_ATTEMPTS));
        }
        if let Some(b) = &self.block {
            keys.push((b.clone(), BLOCK_ATTEMPTS));
        }
        keys
    }
}

#[derive(Default)]
struct Table {
    tallies: HashMap<String, Tally>,
    /// Per name, the networks it signed in from, and when last.
    known: HashMap<String, Vec<(String, Instant)>>,
}

/// Attempts by name, address and network, in the last `WINDOW`.
pub struct Throttle {
    table: Mutex<Table>,
    capacity: usize,
}

impl Default for Throttle {
    fn default() -> Throttle {
        Throttle::with_capacity(CAPACITY)
    }
}

impl Throttle {
    pub fn with_capacity(capacity: usize) -> Throttle {
        Throttle { table: Mutex::new(Table::default()), capacity }
    }

    /// That `name` signed in from `network` (a session kept from before a
    /// restart): it has room there even when the table is full.
    pub fn remember(&self, name: &str, network: &str) {
        let mut table = self.table.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        let nets = table.known.entry(name.to_string()).or_default();
        if !nets.iter().any(|(n, _)| n == network) && nets.len() < KNOWN_NETWORKS {
            nets.push((network.to_string(), Instant::now()));
        }
    }

    /// Keys remembered now (for tests and measurements).
    pub fn len(&self) -> usize {
        self.table.lock().map_or(0, |t| t.tallies.len())
    }

    /// Takes a slot on each of the guess's keys, or says why not. The slot
    /// is given back as a failure unless the attempt [`Attempt::succeeded`]
    /// (or was [`Attempt::turned_away`] unchecked).
    pub fn begin(self: &Arc<Self>, guess: &Guess) -> Result<Attempt, Refused> {
        let now = Instant::now();
        let mut table = self.table.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        let net = guess.network.clone().unwrap_or_default();
        let known =
            table.known.get(&guess.name).is_some_and(|nets| nets.iter().any(|(n, at)| *n == net && now.duration_since(*at) < KNOWN_FOR));
        let keys = guess.keys(known);
        let mut wait = None;
        for (k, limit) in &keys {
            if let Some(t) = table.tallies.get_mut(k) {
                t.forget_old(now);
                if t.failures.len() + t.in_flight >= *limit {
                    let until = if t.failures.len() >= *limit {
                        WINDOW.saturating_sub(now.duration_since(t.failures[t.failures.len() - limit]))
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
        let new: Vec<bool> = keys.iter().map(|(k, _)| !table.tallies.contains_key(k)).collect();
        let adding = new.iter().filter(|n| **n).count();
        let room = if known { self.capacity + KNOWN_ROOM } else { self.capacity };
        if table.tallies.len() + adding > room {
            table.tallies.retain(|_, t| {
                t.forget_old(now);
                !t.is_idle()
            });
            if table.tallies.len() + adding > room {
                let oldest = table.tallies.values().filter_map(|t| t.failures.front()).min().copied();
                let wait = oldest.map_or(IN_FLIGHT_WAIT, |t| WINDOW.saturating_sub(now.duration_since(t)));
                return Err(Refused::Full(wait.max(Duration::from_secs(1))));
            }
        }
        for (k, _) in &keys {
            table.tallies.entry(k.clone()).or_default().in_flight += 1;
        }
        let keys = keys.into_iter().map(|(k, _)| k).zip(new).collect();
        Ok(Attempt { throttle: self.clone(), keys, name: guess.name.clone(), network: net, done: false })
    }

    fn end(&self, a: &Attempt, how: End) {
        let now = Instant::now();
        let mut table = self.table.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        for (k, new) in &a.keys {
            let Some(t) = table.tallies.get_mut(k) else { continue };
            t.in_flight = t.in_flight.saturating_sub(1);
            let name_key = k.starts_with("user:");
            let fail = match how {
                End::Failed => true,
                // Charged to where it came from, where that is counted already.
                End::TurnedAway => !name_key && !new,
                End::Succeeded => false,
            };
            if fail {
                t.failures.push_back(now);
                // Only the newest `BLOCK_ATTEMPTS`, the widest limit, matter.
                if t.failures.len() > BLOCK_ATTEMPTS {
                    t.failures.pop_front();
                }
            } else if how == End::Succeeded && name_key {
                // The right password clears its name's failures; its
                // address and network keep their own.
                t.failures.clear();
            }
            if t.is_idle() {
                table.tallies.remove(k);
            }
        }
        if how == End::Succeeded {
            let nets = table.known.entry(a.name.clone()).or_default();
            nets.retain(|(n, at)| *n != a.network && now.duration_since(*at) < KNOWN_FOR);
            nets.push((a.network.clone(), now));
            if nets.len() > KNOWN_NETWORKS {
                nets.remove(0);
            }
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum End {
    Failed,
    Succeeded,
    TurnedAway,
}

/// A password check under way: it holds its slots until it ends, and one
/// dropped without an answer (a client gone, a panic) counts as a failure.
pub struct Attempt {
    throttle: Arc<Throttle>,
    /// Each key, and whether this attempt added it.
    keys: Vec<(String, bool)>,
    name: String,
    network: String,
    done: bool,
}

impl Attempt {
    pub fn failed(mut self) {
        self.done = true;
        self.throttle.clone().end(&self, End::Failed);
    }

    pub fn succeeded(mut self) {
        self.done = true;
        self.throttle.clone().end(&self, End::Succeeded);
    }

    /// Its password was never checked (the checkers were busy).
    pub fn turned_away(mut self) {
        self.done = true;
        self.throttle.clone().end(&self, End::TurnedAway);
    }
}

impl Drop for Attempt {
    fn drop(&mut self) {
        if !self.done {
            self.throttle.clone().end(self, End::Failed);
        }
    }
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

/// The block around an address's network: its IPv4 /16, its IPv6 /32
/// (what one provider is often given).
pub fn block_key(ip: IpAddr) -> String {
    match ip.to_canonical() {
        IpAddr::V4(v4) => {
            let o = v4.octets();
            format!("block:{}.{}.0.0/16", o[0], o[1])
        }
        IpAddr::V6(v6) => {
            let s = v6.segments();
            format!("block:{:x}:{:x}::/32", s[0], s[1])
        }
    }
}

/// The network an address belongs to: its IPv4 /24, its IPv6 /48 (what
/// one site is given, 65,536 /64s).
pub fn network_key(ip: IpAddr) -> String {
    match ip.to_canonical() {
        IpAddr::V4(v4) => {
            let o = v4.octets();
            format!("net:{}.{}.{}.0/24", o[0], o[1], o[2])
        }
        IpAddr::V6(v6) => {
            let s = v6.segments();
            format!("net:{:x}:{:x}:{:x}::/48", s[0], s[1], s[2])
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn guess(user: &str, addr: &str) -> Guess {
        Guess::new(user, Some(addr.parse().unwrap()))
    }

    #[test]
    fn attempts_in_flight_count_before_their_answer() {
        let t = Arc::new(Throttle::default());
        let running: Vec<Attempt> = (0..MAX_ATTEMPTS).map(|_| t.begin(&guess("alice", "10.0.0.1")).unwrap()).collect();
        // None has failed yet, and still a sixth may not start: not for her
        // name in this network, not from this address.
        assert!(matches!(t.begin(&guess("alice", "10.0.0.2")), Err(Refused::TooMany(_))));
        assert!(matches!(t.begin(&guess("bob", "10.0.0.1")), Err(Refused::TooMany(_))));
        assert!(t.begin(&guess("bob", "10.0.0.2")).is_ok());
        for a in running {
            a.failed();
        }
        let Err(Refused::TooMany(wait)) = t.begin(&guess("alice", "10.0.0.3")) else { panic!("alice is over her limit here") };
        assert!(wait > Duration::from_secs(14 * 60), "{wait:?}");
    }

    #[test]
    fn guessing_from_another_network_does_not_lock_the_owner_out() {
        let t = Arc::new(Throttle::default());
        // Alice signs in from her lab's network, and is known there.
        t.begin(&guess("alice", "192.0.2.10")).unwrap().succeeded();
        // Others guess at her name from many networks: each network is
        // limited, and together they reach the name-wide limit.
        for n in 0..NAME_ATTEMPTS / MAX_ATTEMPTS {
            for i in 0..MAX_ATTEMPTS {
                t.begin(&guess("alice", &format!("198.51.{n}.{i}"))).unwrap().failed();
            }
            assert!(matches!(t.begin(&guess("alice", &format!("198.51.{n}.99"))), Err(Refused::TooMany(_))));
        }
        assert!(matches!(t.begin(&guess("alice", "203.0.113.7")), Err(Refused::TooMany(_))), "the name-wide limit");
        // From her own network she still signs in.
        t.begin(&guess("alice", "192.0.2.11")).unwrap().succeeded();
    }

    #[test]
    fn a_network_shares_one_budget_and_stops_growing_the_table() {
        let t = Arc::new(Throttle::default());
        let mut refused = 0;
        for i in 0..250 {
            match t.begin(&guess(&format!("made-up-{i}"), &format!("10.9.8.{i}"))) {
                Ok(a) => a.failed(),
                Err(Refused::TooMany(_)) => refused += 1,
                Err(Refused::Full(_)) => panic!("never full"),
            }
        }
        assert_eq!(refused, 250 - NETWORK_ATTEMPTS);
        // Per failure: the name here, the name, the address; the network and its block once.
        assert_eq!(t.len(), 3 * NETWORK_ATTEMPTS + 2);
        // Another network is untouched.
        assert!(t.begin(&guess("bob", "10.9.9.1")).is_ok());
    }

    #[test]
    fn a_guess_turned_away_unchecked_remembers_nothing_new() {
        let t = Arc::new(Throttle::default());
        t.begin(&guess("mallory", "10.0.0.1")).unwrap().turned_away();
        assert_eq!(t.len(), 0, "nothing was counted before, so nothing is now");
        t.begin(&guess("mallory", "10.0.0.1")).unwrap().failed();
        let before = t.len();
        for i in 0..MAX_ATTEMPTS - 1 {
            t.begin(&guess(&format!("n{i}"), "10.0.0.1")).unwrap().turned_away();
        }
        assert_eq!(t.len(), before, "no new keys");
        // ... but the address and network already counted pay for them.
        assert!(matches!(t.begin(&guess("n9", "10.0.0.1")), Err(Refused::TooMany(_))), "the address has used its five");
    }

    #[test]
    fn a_full_table_refuses_newcomers_and_keeps_room_for_known_names() {
        // Ten failures from ten /24s of one /16: 4 keys each, and the block once.
        let t = Arc::new(Throttle::with_capacity(41));
        t.begin(&guess("alice", "10.0.9.1")).unwrap().succeeded();
        for i in 0..10 {
            t.begin(&guess(&format!("made-up-{i}"), &format!("10.0.{i}.1"))).unwrap().failed();
        }
        assert!(matches!(t.begin(&guess("bob", "10.1.2.1")), Err(Refused::Full(_))));
        // A name and network already counted go on being counted.
        for _ in 0..MAX_ATTEMPTS - 1 {
            t.begin(&guess("made-up-0", "10.0.0.1")).unwrap().failed();
        }
        assert!(matches!(t.begin(&guess("made-up-0", "10.0.0.1")), Err(Refused::TooMany(_))));
        // Alice, from where she signed in before, is not turned away.
        t.begin(&guess("alice", "10.0.9.2")).unwrap().succeeded();
    }

    #[test]
    fn a_block_of_networks_shares_a_wider_budget() {
        let t = Arc::new(Throttle::default());
        let mut checked = 0;
        for n in 0..10 {
            for i in 0..NETWORK_ATTEMPTS {
                if let Ok(a) = t.begin(&guess(&format!("n{n}-{i}"), &format!("10.7.{n}.{i}"))) {
                    a.failed();
                    checked += 1;
                }
            }
        }
        assert_eq!(checked, BLOCK_ATTEMPTS, "ten /24s of one /16");
        assert!(t.begin(&guess("x", "10.8.0.1")).is_ok(), "another /16");
    }

    #[test]
    fn a_network_remembered_from_a_session_has_room() {
        let t = Arc::new(Throttle::with_capacity(8));
        t.remember("alice", &network_key("10.0.9.1".parse().unwrap()));
        t.begin(&guess("made-up", "10.0.0.1")).unwrap().failed();
        t.begin(&guess("made-up", "10.0.1.1")).unwrap().failed();
        assert!(matches!(t.begin(&guess("bob", "10.1.2.1")), Err(Refused::Full(_))));
        t.begin(&guess("alice", "10.0.9.2")).unwrap().succeeded();
    }

    #[test]
    fn ipv4_mapped_addresses_are_ipv4_and_ipv6_counts_by_64_and_48() {
        let key = |s: &str| address_key(s.parse().unwrap());
        assert_eq!(key("::ffff:127.0.0.2"), key("127.0.0.2"));
        assert_ne!(key("::ffff:127.0.0.2"), key("::ffff:127.0.0.1"));
        assert_ne!(key("::ffff:127.0.0.2"), key("::1"));
        assert_eq!(key("2001:db8:1:2::5"), key("2001:db8:1:2:ffff::1"));
        assert_ne!(key("2001:db8:1:2::5"), key("2001:db8:1:3::5"));
        let net = |s: &str| network_key(s.parse().unwrap());
        assert_eq!(net("10.1.2.3"), net("::ffff:10.1.2.200"));
        assert_ne!(net("10.1.2.3"), net("10.1.3.3"));
        assert_eq!(net("2001:db8:1:2::5"), net("2001:db8:1:ffff::1"));
        assert_ne!(net("2001:db8:1::"), net("2001:db8:2::"));
    }
}
