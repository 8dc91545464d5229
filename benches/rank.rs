//! The hybrid ranking's own cost, apart from the library: learning a
//! profile after a rating (1,000 seeds and ratings, 200 background papers)
//! and scoring a day of 1,500 papers with it (the reader's mix of signals
//! fit to those ratings included), beside the cold knn method
//! in the same run. Synthetic unit vectors (384 dimensions) and word
//! vectors of 80 terms, so it needs no library or model:
//!   cargo bench --bench rank

use criterion::{criterion_group, criterion_main, Criterion};
use paperscout::paper::Paper;
use paperscout::rank::{Candidate, Method, Ranker, SeedVector, Terms};
use std::hint::black_box;

/// xorshift64: varied, reproducible inputs.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn unit(&mut self, dim: usize) -> Vec<f32> {
        let v: Vec<f32> = (0..dim).map(|_| (self.next() % 2001) as f32 / 1000.0 - 1.0).collect();
        let n = v.iter().map(|x| x * x).sum::<f32>().sqrt();
        v.into_iter().map(|x| x / n).collect()
    }

    fn terms(&mut self) -> Terms {
        let mut ids: Vec<u32> = (0..80).map(|_| (self.next() % 20_000) as u32).collect();
        ids.sort_unstable();
        ids.dedup();
        // BM25 weights of an abstract: a few units each, rare terms more.
        let weight = |i: u32| 1.0 + (i % 7) as f32;
        Terms {
            query: ids.iter().map(|&i| weight(i)).collect(),
            idf: ids.iter().map(|&i| weight(i)).collect(),
            surface: ids.iter().map(|i| format!("w{i}")).collect(),
            phrase: ids.iter().map(|i| i % 3 == 0).collect(),
            quotable: ids.iter().map(|i| i % 6 != 3).collect(),
            telling: vec![1.0; ids.len()],
            entries: ids.into_iter().map(|i| (i, 0.8 * weight(i))).collect(),
        }
    }
}

fn bench(c: &mut Criterion) {
    let mut rng = Rng(7);
    let dim = 384;
    let seeds: Vec<SeedVector> = (0..1000)
        .map(|i| SeedVector {
            label: format!("s{i}"),
            vector: rng.unit(dim),
            terms: rng.terms(),
            subjects: vec![["cs.LG", "cs.CL", "cs.DC"][i % 3].to_string()],
            weight: 1.0,
            // 200 seeds the user gave, 500 👍 and 300 👎.
            negative: i >= 700,
            rated: i >= 200,
            added: String::new(),
        })
        .collect();
    let background: Vec<Vec<f32>> = (0..200).map(|_| rng.unit(dim)).collect();
    let day: Vec<(Vec<f32>, Terms, Paper)> = (0..1500)
        .map(|i| {
            let subjects = vec![["cs.LG", "cs.CV", "cs.DC", "math.OC"][i % 4].to_string()];
            (rng.unit(dim), rng.terms(), Paper { subjects, ..paperscout::paper::UNKNOWN.clone() })
        })
        .collect();
    let candidates: Vec<Candidate<'_>> = day.iter().map(|(v, t, p)| Candidate { paper: p, vector: v, terms: t, own_seed: None }).collect();

    let mut g = c.benchmark_group("rank");
    g.sample_size(20);
    g.bench_function("hybrid: learn from 1,000 seeds and ratings", |b| {
        b.iter(|| black_box(Ranker::new(Method::Hybrid, seeds.clone(), &background)))
    });
    let hybrid = Ranker::new(Method::Hybrid, seeds.clone(), &background);
    g.bench_function("hybrid: score a day of 1,500", |b| b.iter(|| black_box(hybrid.score_all(&candidates))));
    g.bench_function("knn: set up from 1,000 seeds", |b| b.iter(|| black_box(Ranker::new(Method::Knn, seeds.clone(), &background))));
    let knn = Ranker::new(Method::Knn, seeds.clone(), &background);
    g.bench_function("knn: score a day of 1,500", |b| b.iter(|| black_box(knn.score_all(&candidates))));
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
