//! One Zotero item as `seed sync zotero` reads it from the database: a key,
//! a `dateAdded` and the fields a sync asks for, each any text. The input is
//! cut at NUL bytes: key, dateAdded, then (field, value) pairs, the field
//! chosen by the first byte of its piece. No panic; the seed is well formed
//! and its moment RFC 3339.
#![no_main]
use libfuzzer_sys::fuzz_target;
use std::collections::HashMap;

const FIELDS: [&str; 7] = ["title", "abstractNote", "url", "DOI", "extra", "archiveID", "number"];
const NOW: &str = "2026-03-01T00:00:00.000000Z";

fuzz_target!(|data: &[u8]| {
    let mut pieces = data.split(|&b| b == 0);
    let text = |p: &[u8]| String::from_utf8_lossy(p).into_owned();
    let key = text(pieces.next().unwrap_or_default());
    let added = text(pieces.next().unwrap_or_default());
    let mut fields = HashMap::new();
    while let (Some(name), Some(value)) = (pieces.next(), pieces.next()) {
        let name = FIELDS[usize::from(name.first().copied().unwrap_or(0)) % FIELDS.len()];
        fields.insert(name.to_string(), text(value));
    }
    if let Some((seed, at)) = paperscout_fuzz::seed_files::zotero_item(&key, &added, &fields, NOW) {
        paperscout_fuzz::check_seed(&seed);
        assert!(chrono::DateTime::parse_from_rfc3339(&at).is_ok(), "{at:?}");
        assert_eq!(seed.date.as_deref(), at.get(..10), "{seed:?}");
    }
});
