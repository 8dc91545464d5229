//! What a gist costs at ingest: `gist::of` over the first 5,000 papers of
//! the 74,728-paper corpus, beside what storing them costs without it
//! (`ingest --no-embed`, whose figures docs/benchmarks.md gives with and
//! without gists). Run: `cargo bench --bench gist`.

use criterion::{criterion_group, criterion_main, Criterion};
use std::path::Path;
use std::time::Duration;

const CORPUS: &str = "../shared/data/corpus/arxiv-cs-2025-2026.jsonl.gz";
const PAPERS: usize = 5_000;

fn bench(c: &mut Criterion) {
    let path = Path::new(CORPUS);
    if !path.exists() {
        eprintln!("skipping: {CORPUS} not found");
        return;
    }
    let mut papers = paperscout::listing::parse_path(path).expect("the corpus parses").papers;
    papers.truncate(PAPERS);
    let mut g = c.benchmark_group("gist");
    g.sample_size(10).measurement_time(Duration::from_secs(15));
    g.bench_function("of_5000_papers", |b| {
        b.iter(|| papers.iter().filter(|p| paperscout::gist::of(&p.title, &p.abstract_text).is_some()).count())
    });
    g.bench_function("sentences_of_5000_papers", |b| {
        b.iter(|| papers.iter().map(|p| paperscout::gist::sentences::split(&p.abstract_text).len()).sum::<usize>())
    });
    g.bench_function("stems_of_5000_abstracts", |b| {
        b.iter(|| papers.iter().map(|p| paperscout::gist::words::stems(&p.abstract_text).len()).sum::<usize>())
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
