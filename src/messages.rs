//! Every line paperscout writes to stderr that is not a result: warnings,
//! notes on what a step did, and errors that a server logs and goes on
//! from. The stages say them here rather than print, so where they go and
//! how they look is decided once (as ripgrep keeps its in
//! crates/core/messages.rs): the command line shows them to its user, and
//! a server's stderr is its log.

use std::fmt::Display;
use std::io::Write;

/// Something the reader should know went wrong but did not stop the work:
/// `warning: …`.
pub fn warning(message: impl Display) {
    say(format_args!("warning: {message}"));
}

/// What a step did or is doing (counts, the model it loaded, the device it
/// chose), for whoever watches the run.
pub fn note(message: impl Display) {
    say(format_args!("{message}"));
}

/// A failure the program reports and ends with, or that a server logs for
/// one request and goes on from: `error: …`.
pub fn error(message: impl Display) {
    say(format_args!("error: {message}"));
}

/// One line, whole: a closed or full stderr is no reason to fail the work.
fn say(line: std::fmt::Arguments) {
    let mut err = std::io::stderr().lock();
    let _ = writeln!(err, "{line}");
}
