//! Index recall against exact search, on real MiniLM vectors of corpus titles.

mod common;

use common::{corpus, model_dir};
use paperscout::cli::{DeviceChoice, ModelArgs};
use paperscout::library::vectors::RowMeta;
use paperscout::library::{index, vectors};
use std::io::BufRead;

fn corpus_titles(n: usize) -> Vec<String> {
    let gz = std::fs::File::open(corpus()).unwrap();
    let reader = std::io::BufReader::new(flate2::read::MultiGzDecoder::new(gz));
    reader
        .lines()
        .take(n)
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(&l.unwrap()).unwrap();
            v["title"].as_str().unwrap().to_string()
        })
        .collect()
}

#[test]
fn index_recall_at_10_is_at_least_0_99() {
    let args = ModelArgs {
        model: Some(model_dir()),
        device: DeviceChoice::Cpu,
        ..ModelArgs::default()
    };
    let embedder = paperscout::embed::load(&args, false).unwrap();
    let titles = corpus_titles(4000);
    let refs: Vec<&str> = titles.iter().map(String::as_str).collect();
    let vecs = embedder.embed(&refs, &|_| {}).unwrap();
    let dim = embedder.dim();
    let rows: Vec<(RowMeta, Vec<f32>)> = vecs
        .into_iter()
        .enumerate()
        .map(|(i, v)| (RowMeta { rowid: i as i64 + 1, subjects: 0, day: 0 }, v))
        .collect();
    let flat = vectors::FlatVectors::in_memory(embedder.model_id(), dim, &rows, rows.len() as i64, 0).unwrap();
    let dir = tempfile::tempdir().unwrap();
    index::update(dir.path(), &flat, false).unwrap();
    let ix = index::open(dir.path(), &flat).unwrap().unwrap();

    // Queries are library papers (as in `like ID`): every 20th one.
    let mut hits = 0;
    let mut total = 0;
    for q in (0..flat.count).step_by(20) {
        let query = flat.vector(q);
        let exact = flat.top_k(query, 10, |i| i != q);
        let approx = ix.search(&flat, query, 10, |i| i != q).unwrap();
        total += exact.len();
        hits += exact.iter().filter(|(i, _)| approx.iter().any(|(j, _)| j == i)).count();
    }
    let recall = hits as f64 / total as f64;
    eprintln!("recall@10 = {recall:.4} over {} queries", total / 10);
    assert!(recall >= 0.99, "recall@10 = {recall:.4}");
}
