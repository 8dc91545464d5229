//! Any text as a CSL-JSON seed file: no panic, and every seed well formed.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    if let Ok(seeds) = paperscout_fuzz::seed_files::parse_csl_json(&text, "fuzz") {
        seeds.iter().for_each(paperscout_fuzz::check_seed);
    }
});
