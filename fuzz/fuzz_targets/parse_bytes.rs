//! Bytes as a file holds them: gzip, encodings and line ends, format
//! detection, then whichever parser the content asks for.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(parsed) = paperscout_fuzz::listing::parse_bytes(data, "fuzz") {
        paperscout_fuzz::check(&parsed);
    }
});
