//! Any bytes as a Parquet file to `ingest`: footer, schema, pages and rows
//! through arrow-rs and paperscout's conversion. No panic, no runaway memory;
//! every paper read has an id that reads back and a calendar date.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(mut reader) = paperscout_fuzz::parquet::Reader::new(bytes::Bytes::copy_from_slice(data), "fuzz") else {
        return;
    };
    while let Some(Ok(rows)) = reader.next_rows() {
        for p in &rows.papers {
            let id = paperscout_fuzz::paper::ArxivId { id: p.id.clone(), version: p.version };
            assert_eq!(paperscout_fuzz::paper::ArxivId::parse(&id.to_string()), Some(id), "id of {p:?}");
            if let Some(date) = &p.listing_date {
                paperscout_fuzz::check_date(date);
            }
        }
        for g in &rows.given {
            assert!(g.paper < rows.papers.len());
        }
    }
});
