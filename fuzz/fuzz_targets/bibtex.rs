//! Any text as a BibTeX seed file: no panic, no stack overflow, no runaway
//! time or memory (libFuzzer's -timeout and -rss_limit_mb), and every seed
//! it gives is well formed.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    if let Ok(seeds) = paperscout_fuzz::seed_files::parse_bibtex(&text, "fuzz") {
        seeds.iter().for_each(paperscout_fuzz::check_seed);
    }
});
