//! `like ID` on a large library: process start to output, and the searches
//! behind it (exact scan, the bit sketch a one-shot query scans, the HNSW
//! index `serve` opens: recall@10 of the last two against exact).
//!
//! Needs a library built from the 74,728-paper corpus:
//!   paperscout ingest ../shared/data/corpus/arxiv-cs-2025-2026.jsonl.gz --library target/corpus-lib
//!   PAPERSCOUT_BENCH_LIBRARY=target/corpus-lib cargo bench --bench like
//! `daily` is measured too when the library's default profile has seeds
//! (`paperscout seed add … --library target/corpus-lib`).

use criterion::{criterion_group, criterion_main, Criterion};
use paperscout::library::{Library, UseIndex};
use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};

fn bench(c: &mut Criterion) {
    let dir = PathBuf::from(std::env::var("PAPERSCOUT_BENCH_LIBRARY").unwrap_or_else(|_| "target/corpus-lib".into()));
    let Ok(lib) = Library::open_read(&dir) else {
        eprintln!("skipping: no library at {} (see the comment at the top of benches/like.rs)", dir.display());
        return;
    };
    let model = lib.store.default_model().unwrap().expect("library has vectors");
    let t = Instant::now();
    let hnsw = lib.vectors(&model, UseIndex::Always).unwrap();
    eprintln!("index ready in {:.1}s ({} vectors)", t.elapsed().as_secs_f64(), hnsw.flat.count);
    let t = Instant::now();
    let sketched = lib.vectors(&model, UseIndex::Never).unwrap();
    eprintln!("sketch ready in {:.1}s", t.elapsed().as_secs_f64());
    let flat = &hnsw.flat;

    // Queries: every n-th paper of the library, as `like ID` would ask.
    let step = (flat.count / 500).max(1);
    let queries: Vec<usize> = (0..flat.count).step_by(step).take(500).collect();
    let ids: Vec<String> =
        queries.iter().take(50).filter_map(|&q| lib.store.get_paper_by_rowid(flat.rowid(q)).ok().flatten()).map(|p| p.paper.id).collect();

    for (name, vectors) in [("HNSW", &hnsw), ("sketch", &sketched)] {
        let mut hits = 0;
        let mut total = 0;
        let mut spent = Duration::ZERO;
        for &q in &queries {
            let not_q = |m: paperscout::library::vectors::RowMeta| m.rowid != flat.rowid(q);
            let exact = flat.top_k(flat.vector(q), 10, not_q);
            let s = Instant::now();
            let found = vectors.search(flat.vector(q), 10, not_q).unwrap();
            spent += s.elapsed();
            total += exact.len();
            hits += exact.iter().filter(|(i, _)| found.iter().any(|(j, _)| j == i)).count();
        }
        eprintln!(
            "{name} recall@10 vs exact: {:.4} over {} queries; {:.2} ms/query",
            hits as f64 / total as f64,
            queries.len(),
            (spent / queries.len() as u32).as_secs_f64() * 1e3
        );
    }

    let mut g = c.benchmark_group("like");
    g.sample_size(20).measurement_time(Duration::from_secs(10));
    let mut qi = 0;
    g.bench_function("exact_scan_in_process", |b| {
        b.iter(|| {
            qi = (qi + 1) % queries.len();
            let q = queries[qi];
            flat.top_k(flat.vector(q), 10, |m| m.rowid != flat.rowid(q))
        })
    });
    let bin = env!("CARGO_BIN_EXE_paperscout");
    let mut n = 0;
    g.bench_function("like_id_process_start_to_output", |b| {
        b.iter(|| {
            n = (n + 1) % ids.len();
            let out = Command::new(bin).args(["like", &ids[n], "-k", "10", "--library"]).arg(&dir).output().unwrap();
            assert!(out.status.success());
            out.stdout.len()
        })
    });
    let default = paperscout::library::store::ProfileKey::of(None, "default");
    let has_seeds = !paperscout::profile::list(lib.store.db(), &default).unwrap().is_empty();
    if has_seeds {
        g.bench_function("daily_process_start_to_output", |b| {
            b.iter(|| {
                let out = Command::new(bin).args(["daily", "--top", "20", "--library"]).arg(&dir).output().unwrap();
                assert!(out.status.success());
                out.stdout.len()
            })
        });
    } else {
        eprintln!("no seeds in the default profile: daily not measured");
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
