//! What kind of failure an error is, decided where it is raised rather than
//! read back from its wording: each stage's error enum (`library::Error`,
//! `profile::Error`, `workflow::Error`) says its [`Kind`], and the front
//! doors turn a kind into what they answer (`serve::failure` into an HTTP
//! status, in one place). The message stays the sentence the reader sees.

/// The kinds a front door tells apart.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// What was asked for is not there: a paper, a day, a profile, a seed.
    NotFound,
    /// What was given cannot be read: an id, a date, a name, a value.
    BadInput,
    /// Another process holds what this needs; trying again later works.
    Busy,
    /// Anything else: the program's or the machine's fault, not the asker's.
    Internal,
}

/// An error that knows its kind.
pub trait Kinded {
    fn kind(&self) -> Kind;
}
