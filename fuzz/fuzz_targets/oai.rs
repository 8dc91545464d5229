//! The OAI-PMH reader on any text, and its resumption token.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    if let Ok(parsed) = paperscout_fuzz::listing::oai::parse(&text, "fuzz") {
        paperscout_fuzz::check(&parsed);
    }
    let _ = paperscout_fuzz::listing::oai::resumption(&text);
});
