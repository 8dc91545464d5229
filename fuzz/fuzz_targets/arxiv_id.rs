//! Any string as an arXiv id: no panic, and what is accepted reads back the same.
#![no_main]
use libfuzzer_sys::fuzz_target;
use paperscout_fuzz::paper::ArxivId;

fuzz_target!(|data: &[u8]| {
    let s = String::from_utf8_lossy(data);
    if let Some(id) = ArxivId::parse(&s) {
        assert!(id.id.is_ascii() && !id.id.is_empty(), "{s:?} -> {id:?}");
        assert_eq!(ArxivId::parse(&id.to_string()).as_ref(), Some(&id), "{s:?}");
    }
});
