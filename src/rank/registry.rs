//! The hybrid's signals, in one list: adding a signal is its file (its
//! [`Part`] and its [`Signal`](super::signal::Signal)) and its line here.
//! Apart from `signal.rs` so that no signal's file imports the list that
//! names it.

use super::signal::Registered;
use super::{centroid, fields, nearest, words};

/// The hybrid's signals, in the order they are scored, mixed and
/// explained (the first that names seeds starts every reason).
pub const HYBRID: &[Registered] = &[
    Registered { part: &nearest::NEAREST, make: nearest::make },
    Registered { part: &centroid::CENTROID, make: centroid::make },
    Registered { part: &words::WORDS, make: words::make },
    Registered { part: &fields::FIELDS, make: fields::make },
];

/// The parts of [`HYBRID`], in order.
#[cfg(test)]
pub fn parts() -> Vec<&'static super::Part> {
    HYBRID.iter().map(|r| r.part).collect()
}

/// Registered signal `name` (a test's way to name one).
#[cfg(test)]
pub fn id(name: &str) -> super::SignalId {
    super::SignalId(parts().into_iter().chain([&super::learned::LEARNED]).find(|p| p.name == name).expect("a registered signal"))
}
