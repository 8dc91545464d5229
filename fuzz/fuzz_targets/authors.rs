//! Any author line: names and affiliations that line up, trimmed, in NFC,
//! without TeX.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let line = String::from_utf8_lossy(data);
    let (names, affiliations) = paperscout_fuzz::listing::fuzzing::authors(&line);
    assert!(affiliations.is_empty() || affiliations.len() == names.len(), "{names:?} {affiliations:?}");
    for name in &names {
        assert!(!name.is_empty() && name.trim() == name, "{name:?}");
        assert!(!name.contains("  "), "{name:?}");
    }
});
