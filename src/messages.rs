//! Every line paperscout writes to stderr that is not a result: warnings,
//! notes on what a step did, and errors that a server logs and goes on
//! from. The stages say them here rather than print, so where they go and
//! how they look is decided once (as ripgrep keeps its in
//! crates/core/messages.rs): the command line shows them to its user, and
//! a server's stderr is its log.

use std::fmt::Display;
use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};

/// Whether details are said too (`--verbose`): set once, by the front door.
static VERBOSE: AtomicBool = AtomicBool::new(false);

/// How much is said beyond results, warnings and errors: the notes alone,
/// or their details too.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Level {
    Normal,
    /// Details: which model file and device were chosen, per-file counts,
    /// timings.
    Verbose,
}

/// Sets the level for the rest of the run.
pub fn set_level(level: Level) {
    VERBOSE.store(level == Level::Verbose, Ordering::Relaxed);
}

/// Whether details are said: for a step whose detail costs work to gather.
pub fn verbose() -> bool {
    VERBOSE.load(Ordering::Relaxed)
}

/// A detail of what a step chose or did, said only at [`Level::Verbose`].
pub fn detail(message: impl Display) {
    if verbose() {
        say(format_args!("{message}"));
    }
}

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

/// Whether a long step may draw its bar: the front door says (a command
/// on a terminal does; a server, whose stderr is its log, does not).
static BARS: AtomicBool = AtomicBool::new(false);

/// Lets the steps of this run draw progress bars, or not.
pub fn show_progress(on: bool) {
    BARS.store(on, Ordering::Relaxed);
}

/// How far a long step has come ("embedding 1200/75000 texts"), as a bar
/// on stderr with rate and ETA, where the front door allows bars and
/// stderr is a terminal.
pub struct Progress(indicatif::ProgressBar);

/// A bar for `what`, of no length yet.
pub fn progress(what: &str) -> Progress {
    use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
    let target = if BARS.load(Ordering::Relaxed) { ProgressDrawTarget::stderr() } else { ProgressDrawTarget::hidden() };
    let bar = ProgressBar::with_draw_target(Some(0), target);
    bar.set_style(
        ProgressStyle::with_template("{msg} {bar:40} {pos}/{len} texts, {per_sec}, ETA {eta}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    bar.set_message(what.to_string());
    Progress(bar)
}

impl Progress {
    /// `done` of `total`.
    pub fn set(&self, done: usize, total: usize) {
        self.0.set_length(total as u64);
        self.0.set_position(done as u64);
    }
}

impl Drop for Progress {
    /// A finished or abandoned step leaves no bar behind.
    fn drop(&mut self) {
        self.0.finish_and_clear();
    }
}
