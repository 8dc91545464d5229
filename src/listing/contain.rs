//! Third-party readers that answer some malformed input with a panic
//! (arrow-rs on a footer that points outside the file; biblatex on
//! `month = 0` in an entry another one inherits from, where it subtracts
//! one from the month). A file we were given is never a reason to stop.

/// Runs a call into `reader`, turning a panic into that file's error
/// ("the `reader` failed: …") and keeping its message off stderr. The hook
/// stays quiet only on this thread and only during the call; it also stands
/// in front of a fuzzer's own hook, which would otherwise abort.
pub fn quietly<T>(reader: &str, f: impl FnOnce() -> T) -> Result<T, String> {
    use std::cell::Cell;
    use std::panic;
    thread_local!(static QUIET: Cell<bool> = const { Cell::new(false) });
    static HOOK: std::sync::Once = std::sync::Once::new();
    HOOK.call_once(|| {
        let previous = panic::take_hook();
        panic::set_hook(Box::new(move |info| {
            if !QUIET.with(Cell::get) {
                previous(info)
            }
        }));
    });
    QUIET.with(|q| q.set(true));
    let result = panic::catch_unwind(panic::AssertUnwindSafe(f));
    QUIET.with(|q| q.set(false));
    result.map_err(|payload| {
        let why = payload.downcast_ref::<&str>().map(|s| s.to_string()).or_else(|| payload.downcast_ref::<String>().cloned());
        format!("the {reader} failed: {}", why.unwrap_or_else(|| "malformed input".into()))
    })
}

#[cfg(test)]
mod tests {
    use super::quietly;

    #[test]
    fn a_panic_is_an_error_naming_the_reader() {
        assert_eq!(quietly("Parquet reader", || -> u8 { panic!("boom") }).unwrap_err(), "the Parquet reader failed: boom");
        assert_eq!(quietly("BibTeX reader", || 7), Ok(7));
    }
}
