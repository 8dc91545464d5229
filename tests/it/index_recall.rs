//! Index and sketch recall against exact search, on real MiniLM vectors of
//! corpus titles.

use crate::common::{corpus, model_dir};
use paperscout::embed::{DeviceChoice, ModelArgs};
use paperscout::library::vectors::RowMeta;
use paperscout::library::{index, sketch, vectors};
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
    let args = ModelArgs { model: Some(model_dir()), device: DeviceChoice::Cpu, ..ModelArgs::default() };
    let embedder = paperscout::embed::load(&args).unwrap();
    let titles = corpus_titles(4000);
    let refs: Vec<&str> = titles.iter().map(String::as_str).collect();
    let vecs = embedder.embed(&refs, &|_| {}).unwrap();
    let dim = embedder.dim();
    let rows: Vec<(RowMeta, Vec<f32>)> = vecs
        .into_iter()
        .enumerate()
        .map(|(i, v)| (RowMeta { rowid: i as i64 + 1, subjects: 0, day: paperscout::library::vectors::FileDay::NONE }, v))
        .collect();
    let flat = vectors::FlatVectors::in_memory(embedder.model_id(), dim, &rows, rows.len() as i64, 0).unwrap();
    let dir = tempfile::tempdir().unwrap();
    index::update(dir.path(), &flat, false).unwrap();
    let ix = index::open(dir.path(), &flat).unwrap().unwrap();

    let sketch_path = dir.path().join("sketch.bin");
    sketch::rebuild(&sketch_path, &flat).unwrap();
    let sk = sketch::Sketch::open(&sketch_path, &flat).unwrap();

    // Queries are library papers (as in `like ID`): every 20th one. The
    // sketch rescores 200 candidates here, a tenth of what it takes in use,
    // so its bits have to do the finding among the 4,000 rows.
    let (mut hits, mut sketch_hits, mut total) = (0, 0, 0);
    let found = |exact: &[(usize, f32)], got: &[(usize, f32)]| exact.iter().filter(|(i, _)| got.iter().any(|(j, _)| j == i)).count();
    for q in (0..flat.count).step_by(20) {
        let query = flat.vector(q);
        let not_q = |m: RowMeta| m.rowid != flat.rowid(q);
        let exact = flat.top_k(query, 10, not_q);
        total += exact.len();
        hits += found(&exact, &ix.search(&flat, query, 10, not_q).unwrap());
        sketch_hits += found(&exact, &sk.search_among(&flat, query, 10, not_q, 200).unwrap());
    }
    let recall = hits as f64 / total as f64;
    let sketch_recall = sketch_hits as f64 / total as f64;
    eprintln!("recall@10 = {recall:.4} (index), {sketch_recall:.4} (sketch, 200 rescored) over {} queries", total / 10);
    assert!(recall >= 0.99, "index recall@10 = {recall:.4}");
    assert!(sketch_recall >= 0.97, "sketch recall@10 = {sketch_recall:.4}");

    // What `serve` does with them: measures the index on its own papers and
    // keeps it, at the narrowest width that reaches 0.99 against the sketch.
    let mut both = paperscout::library::Vectors { flat, index: Some(ix), sketch: Some(sk) };
    let served = both.calibrate().unwrap();
    eprintln!("served: {served:?}");
    assert_eq!(served.queries(), 50);
    assert!(served.search_width().is_some() && served.recall() >= 0.99, "{served:?}");
    assert!(both.index.is_some());
}
