//! What the end-to-end tests share: the binary, the shared data and the
//! default model, provisioned the way the README says (`models/fetch`, once).
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::Once;

pub const BIN: &str = env!("CARGO_BIN_EXE_paperscout");

pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

pub fn model_dir() -> PathBuf {
    static FETCH: Once = Once::new();
    FETCH.call_once(|| {
        let ok = Command::new(root().join("models/fetch")).arg("-q").status().expect("run models/fetch");
        assert!(ok.success(), "models/fetch failed");
    });
    root().join("models/all-MiniLM-L6-v2")
}

/// One of the three fixture listing pages.
pub fn page(name: &str) -> String {
    root().join("../shared/fixtures/listings").join(name).to_string_lossy().into_owned()
}

pub fn pages() -> Vec<String> {
    ["cs.DC-2025-07-11.txt", "cs.DC-2026-03-02.txt", "cs.DC-2026-03-03.txt"].iter().map(|p| page(p)).collect()
}

pub fn corpus() -> PathBuf {
    root().join("../shared/data/corpus/arxiv-cs-2025-2026.jsonl.gz")
}

/// `paperscout ARGS --library LIB` with the default model.
pub fn command(lib: &Path, args: &[&str]) -> Command {
    let mut c = Command::new(BIN);
    c.args(args).arg("--library").arg(lib).env("PAPERSCOUT_MODEL", model_dir());
    c
}

pub fn output(lib: &Path, args: &[&str]) -> Output {
    command(lib, args).output().expect("run paperscout")
}

/// Runs it, asserts success and returns stdout.
pub fn ok(lib: &Path, args: &[&str]) -> String {
    let out = output(lib, args);
    assert!(out.status.success(), "paperscout {args:?} failed: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

pub fn json_lines(s: &str) -> Vec<serde_json::Value> {
    s.lines().map(|l| serde_json::from_str(l).expect("JSON line")).collect()
}
