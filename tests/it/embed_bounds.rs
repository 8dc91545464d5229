//! Embedding memory does not grow with the input: the tokenizer sees only a
//! prefix the model can read (issue 13). Run in a process of its own, so
//! the process's peak memory is this test's.

use crate::common;

use paperscout::embed::{self, Embedder};
use paperscout::embed::{ModelArgs, Precision};

/// Peak resident memory of this process so far, in KiB.
fn peak_kib() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    let line = status.lines().find(|l| l.starts_with("VmHWM:")).unwrap();
    line.split_whitespace().nth(1).unwrap().parse().unwrap()
}

#[test]
fn a_huge_tail_changes_neither_the_vector_nor_the_memory() {
    if !common::in_own_process("embed_bounds::a_huge_tail_changes_neither_the_vector_nor_the_memory") {
        return;
    }
    let args = ModelArgs { model: Some(common::model_dir()), precision: Some(Precision::Fp32), ..ModelArgs::default() };
    let e = embed::open(&args).unwrap();
    // Well over max_seq_length (256) tokens, so the model reads none of the tail.
    let text: String = (0..400).map(|i| format!("scheduling{} of inference jobs, ", i % 7)).collect();
    let alone = e.embed(&[&text], &|_| {}).unwrap();
    assert_eq!(e.token_counts(&[&text]).unwrap(), vec![256]);

    let mut huge = text.clone();
    while huge.len() < text.len() + (50 << 20) {
        huge.push_str(" a tail nobody reads, with words and numbers 12345");
    }
    let before = peak_kib();
    let with_tail = e.embed(&[&huge, &text], &|_| {}).unwrap();
    let grown_mib = (peak_kib() - before) / 1024;
    eprintln!("{} bytes: {grown_mib} MiB more at peak", huge.len());
    assert_eq!(with_tail[0], alone[0], "the tail changed the vector");
    assert_eq!(with_tail[1], alone[0]);
    // Tokenizing all of it would take ~6 GB (~125 MB per MB); the prefix takes next to nothing.
    assert!(grown_mib < 100, "embedding a 50 MB text took {grown_mib} MiB more");

    // Texts of words longer than the prefix, or of long runs of spaces,
    // still give the vector of the whole text.
    let spaced = format!("{}{}", " ".repeat(20_000), text);
    let v = e.embed(&[&spaced], &|_| {}).unwrap();
    assert_eq!(v[0], alone[0]);
}
