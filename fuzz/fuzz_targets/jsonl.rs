//! The jsonl parser on any text, whether or not detection would pick it.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    if let Ok(parsed) = paperscout_fuzz::listing::jsonl::parse(&text, "fuzz") {
        paperscout_fuzz::check(&parsed);
    }
});
