//! CPU embedding throughput on a fixed corpus sample: the first 158 papers of
//! ../shared/data/corpus/arxiv-cs-2025-2026.jsonl.gz, embedded as
//! `title + ". " + abstract` (the text the pipeline embeds).
//!
//!     cargo bench --bench embed
//!     PAPERSCOUT_BENCH_SWEEP=1 cargo bench --bench embed   # batch sizes × threads
//!
//! Both precisions run: fp32 (the default) and `--precision bf16`. The
//! comparison with sentence-transformers is benches/compare_reference.sh.
//!
//! Criterion reports texts/s; the sample's token count is printed first, so
//! tokens/s = tokens × texts/s ÷ texts. Results: docs/benchmarks.md.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use paperscout::embed::{self, Embedder};
use paperscout::embed::{ModelArgs, Precision};
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::time::Duration;

const SAMPLE: usize = 158;

fn sample() -> Vec<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let path = root.join("../shared/data/corpus/arxiv-cs-2025-2026.jsonl.gz");
    let file = std::fs::File::open(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    BufReader::new(flate2::read::GzDecoder::new(file))
        .lines()
        .take(SAMPLE)
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(&l.unwrap()).unwrap();
            format!("{}. {}", v["title"].as_str().unwrap(), v["abstract"].as_str().unwrap())
        })
        .collect()
}

fn model_dir() -> std::path::PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let status = std::process::Command::new("bash").arg(root.join("models/fetch")).arg("-q").status().expect("cannot run models/fetch");
    assert!(status.success(), "models/fetch failed");
    root.join("models").join(embed::DEFAULT_NAME)
}

fn bench(c: &mut Criterion) {
    let texts = sample();
    let refs: Vec<&str> = texts.iter().map(String::as_str).collect();
    let dir = model_dir();
    let cores = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1);
    let mut configs: Vec<(Precision, usize, Option<usize>)> = Vec::new();
    for precision in [Precision::Fp32, Precision::Bf16] {
        if std::env::var_os("PAPERSCOUT_BENCH_SWEEP").is_some() {
            for threads in [Some(1), None] {
                for tokens in [2048, 4096, 8192, 32768] {
                    configs.push((precision, tokens, threads));
                }
            }
        } else {
            configs.push((precision, 4096, None));
        }
    }

    let mut group = c.benchmark_group("embed_corpus_sample");
    group.sample_size(10).warm_up_time(Duration::from_secs(1)).measurement_time(Duration::from_secs(90));
    group.throughput(Throughput::Elements(refs.len() as u64));
    let mut printed = false;
    for (precision, batch_tokens, threads) in configs {
        let args = ModelArgs {
            model: Some(dir.clone()),
            batch_tokens: Some(batch_tokens),
            threads,
            precision: Some(precision),
            ..ModelArgs::default()
        };
        let e = embed::open(&args).expect("load model");
        if !printed {
            let counts = e.token_counts(&refs).unwrap();
            let mut sorted = counts.clone();
            sorted.sort();
            eprintln!(
                "sample: {} texts, {} tokens (median {}, max {}); {}",
                refs.len(),
                counts.iter().sum::<usize>(),
                sorted[sorted.len() / 2],
                sorted[sorted.len() - 1],
                e.summary()
            );
            printed = true;
        }
        let name = format!(
            "{}/batch_tokens={batch_tokens}/threads={}",
            match precision {
                Precision::Fp32 => "fp32",
                Precision::Bf16 => "bf16",
                Precision::Fp16 => "fp16",
            },
            threads.unwrap_or(cores)
        );
        group.bench_function(name, |b| b.iter(|| e.embed(&refs, &|_| {}).unwrap()));
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
