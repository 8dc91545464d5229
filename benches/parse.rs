//! How long parsing the 74,728-paper corpus takes next to merely reading it.
//!
//! The bar: parsing must take well under the time to read the file
//! twice. `read_raw_twice` reads the compressed file twice;
//! `read_and_gunzip_twice` reads and decompresses it twice (what any consumer
//! of the file must pay); `parse` does the whole job once (read, gunzip,
//! detect, parse, clean) and drops the papers. A gzipped input this big is
//! decompressed on a second thread while the calling thread parses the
//! lines already out (`listing::pipeline`), so on two cores `parse` costs
//! about one read and gunzip plus freeing the papers.
//! Run: `cargo bench --bench parse`.

use criterion::{criterion_group, criterion_main, Criterion};
use std::io::Read;
use std::path::Path;
use std::time::Duration;

const CORPUS: &str = "../shared/data/corpus/arxiv-cs-2025-2026.jsonl.gz";

fn read_and_gunzip(path: &Path) -> usize {
    let bytes = std::fs::read(path).expect("corpus readable");
    let mut out = Vec::new();
    flate2::read::MultiGzDecoder::new(&bytes[..]).read_to_end(&mut out).expect("gzip");
    out.len()
}

fn bench(c: &mut Criterion) {
    let path = Path::new(CORPUS);
    if !path.exists() {
        eprintln!("skipping: {CORPUS} not found");
        return;
    }
    let mut g = c.benchmark_group("corpus");
    g.sample_size(10).measurement_time(Duration::from_secs(20));
    g.bench_function("read_raw_twice", |b| b.iter(|| std::fs::read(path).unwrap().len() + std::fs::read(path).unwrap().len()));
    g.bench_function("read_and_gunzip_twice", |b| b.iter(|| read_and_gunzip(path) + read_and_gunzip(path)));
    g.bench_function("parse", |b| {
        b.iter(|| {
            let parsed = paperscout::listing::parse_path(path).unwrap();
            assert_eq!(parsed.papers.len(), 74_728);
            parsed.papers.len()
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
