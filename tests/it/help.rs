//! `--help` shows the options people use; `--help-all` adds the engine
//! tuning flags under a heading of their own; hidden flags still work.

use std::process::Command;

fn run(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_paperscout")).args(args).output().unwrap();
    (out.status.success(), String::from_utf8_lossy(&out.stdout).into_owned(), String::from_utf8_lossy(&out.stderr).into_owned())
}

#[test]
fn help_is_short_and_help_all_has_the_rest() {
    let (ok, short, _) = run(&["daily", "--help"]);
    assert!(ok);
    for flag in ["--top", "--date", "--profile", "--format", "--fetch", "--mail-to", "--model", "--help-all"] {
        assert!(short.contains(flag), "{flag} missing from daily --help:\n{short}");
    }
    for flag in ["--batch-tokens", "--threads", "--backend", "--precision", "--device", "--method", "--timeout", "--retries"] {
        assert!(!short.contains(flag), "{flag} in daily --help:\n{short}");
    }
    let (ok, all, _) = run(&["daily", "--help-all"]);
    assert!(ok);
    let heading = all.find("Engine tuning:").expect("a heading for the tuning flags");
    for flag in ["--batch-tokens", "--threads", "--backend", "--precision", "--device", "--method", "--timeout", "--retries"] {
        let at = all.find(flag).unwrap_or_else(|| panic!("{flag} missing from --help-all:\n{all}"));
        assert!(at > heading, "{flag} before the heading:\n{all}");
    }
    assert!(all.lines().count() > short.lines().count() + 20);
    // `-h` too, and the same for the other commands that take the flags.
    for cmd in [&["daily", "-h"][..], &["ingest", "--help"], &["like", "--help"], &["seed", "add", "--help"], &["fetch", "--help"]] {
        let (ok, text, _) = run(cmd);
        assert!(ok && !text.contains("--batch-tokens") && text.contains("--help-all"), "{cmd:?}:\n{text}");
    }
    // For `embed` the batch and device are the point: shown.
    let (_, embed, _) = run(&["embed", "--help"]);
    assert!(embed.contains("--batch-tokens") && embed.contains("--device"), "{embed}");
}

#[test]
fn a_hidden_flag_is_still_a_flag() {
    let dir = tempfile::tempdir().unwrap();
    let lib = dir.path().join("none");
    let (ok, _, err) = run(&["daily", "--threads", "1", "--method", "knn", "--library", lib.to_str().unwrap()]);
    assert!(!ok);
    // It fails on the missing library, not on the flags.
    assert!(!err.contains("unexpected argument") && !err.contains("invalid value") && err.contains("library"), "{err}");
    let (ok, _, err) = run(&["daily", "--no-such-flag"]);
    assert!(!ok && err.contains("unexpected argument"), "{err}");
}
