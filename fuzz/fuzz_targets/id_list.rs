//! Any text as a seed file, told apart by content as `seed add` does (BibTeX,
//! CSL-JSON or a list of ids): no panic; ids read back unchanged.
#![no_main]
use libfuzzer_sys::fuzz_target;
use paperscout_fuzz::paper::ArxivId;
use paperscout_fuzz::seed_files::{read, SeedFile};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    match read(&text, "fuzz") {
        Ok(SeedFile::Ids(ids)) => {
            for (line, id) in ids {
                assert!(line >= 1 && line <= text.lines().count(), "line {line}");
                assert_eq!(ArxivId::parse(&id.to_string()).as_ref(), Some(&id), "{text:?}");
            }
        }
        Ok(SeedFile::Seeds(seeds)) => seeds.iter().for_each(paperscout_fuzz::check_seed),
        Err(_) => {}
    }
});
