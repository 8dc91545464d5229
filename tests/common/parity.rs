//! Parity with sentence-transformers' reference vectors, shared by the CPU
//! embedding tests (`it::embed_parity`) and the GPU ones (`gpu`, also built
//! alone as the `cuda` test binary). On a GPU machine without the source
//! tree (scripts/gpu-proof) `PAPERSCOUT_MODEL`, `PAPERSCOUT_REFERENCE` and
//! `PAPERSCOUT_BIN` say where the model, the reference vectors and the
//! binary are.

use paperscout::embed::{self, BackendChoice, Embedder, ModelArgs, Precision};
use std::path::PathBuf;
use std::process::Command;

/// `$PAPERSCOUT_MODEL` (a GPU machine without the source tree), else the
/// default model, fetched by `models/fetch` when missing.
pub fn model_dir() -> PathBuf {
    match std::env::var_os(embed::ENV_VAR) {
        Some(dir) => PathBuf::from(dir),
        None => super::model_dir(),
    }
}

/// fp32 unless a test says otherwise: the exact path, 1e-12 from the reference.
pub fn args(backend: BackendChoice) -> ModelArgs {
    ModelArgs { model: Some(model_dir()), backend, precision: Some(Precision::Fp32), ..ModelArgs::default() }
}

pub struct Reference {
    pub text: String,
    pub embedding: Vec<f32>,
}

pub fn reference() -> Vec<Reference> {
    let path = std::env::var_os("PAPERSCOUT_REFERENCE")
        .map_or_else(|| super::root().join("../shared/reference/all-MiniLM-L6-v2/embeddings.jsonl"), PathBuf::from);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            Reference {
                text: v["text"].as_str().unwrap().to_string(),
                embedding: v["embedding"].as_array().unwrap().iter().map(|x| x.as_f64().unwrap() as f32).collect(),
            }
        })
        .collect()
}

pub fn cosine(a: &[f32], b: &[f32]) -> f64 {
    assert_eq!(a.len(), b.len());
    let dot: f64 = a.iter().zip(b).map(|(&x, &y)| x as f64 * y as f64).sum();
    let na: f64 = a.iter().map(|&x| (x as f64).powi(2)).sum::<f64>().sqrt();
    let nb: f64 = b.iter().map(|&x| (x as f64).powi(2)).sum::<f64>().sqrt();
    dot / (na * nb).max(1e-30)
}

/// Asserts cosine >= 0.9999 with the reference for every text, or with
/// `sample` for every 4th text plus all short ones and the longest (the edge
/// cases), to keep the slower configurations quick.
pub fn check_parity(e: &dyn Embedder, label: &str, sample: bool) {
    check_parity_at(e, label, sample, 0.9999);
}

/// [`check_parity`] with cosine >= `min` (half precision earns 0.999).
pub fn check_parity_at(e: &dyn Embedder, label: &str, sample: bool, min: f64) {
    let mut refs = reference();
    assert_eq!(refs.len(), 126, "reference set changed");
    if sample {
        let longest = refs.iter().map(|r| r.text.len()).max().unwrap();
        let mut i = 0;
        refs.retain(|r| {
            i += 1;
            i % 4 == 1 || r.text.len() < 80 || r.text.len() == longest
        });
    }
    let texts: Vec<&str> = refs.iter().map(|r| r.text.as_str()).collect();
    let got = e.embed(&texts, &|_| {}).unwrap();
    assert_eq!(got.len(), refs.len());
    let mut worst = (f64::MAX, String::new());
    let mut max_diff = 0f32;
    for (r, v) in refs.iter().zip(&got) {
        let c = cosine(v, &r.embedding);
        max_diff = v.iter().zip(&r.embedding).map(|(a, b)| (a - b).abs()).fold(max_diff, f32::max);
        let norm: f64 = v.iter().map(|&x| (x as f64).powi(2)).sum::<f64>().sqrt();
        assert!((norm - 1.0).abs() < 1e-4, "{label}: not unit length ({norm}) for {:?}", r.text);
        if c < worst.0 {
            worst = (c, r.text.chars().take(60).collect());
        }
    }
    eprintln!(
        "{label}: min cosine {:.9} (1 - cos = {:.1e}) over {} texts, worst {:?}; max |difference| {max_diff:.1e}",
        worst.0,
        1.0 - worst.0,
        refs.len(),
        worst.1
    );
    assert!(worst.0 >= min, "{label}: cosine {} < {min} for {:?}", worst.0, worst.1);
}

/// A text's vector is the same alone and in a batch with longer, shorter
/// and empty texts (to `min_cosine` and `max_diff`), and the output follows
/// the input order.
pub fn check_padding(e: &dyn Embedder, min_cosine: f64, max_diff: f32) {
    let target = "Scalable consensus for geo-distributed databases";
    let long = "Large language models are trained on many accelerators. ".repeat(40);
    let alone = e.embed(&[target], &|_| {}).unwrap().remove(0);
    let mixed = ["a", long.as_str(), target, "", "Byzantine fault tolerance in practice", target];
    let got = e.embed(&mixed, &|_| {}).unwrap();
    for i in [2, 5] {
        let c = cosine(&alone, &got[i]);
        assert!(c > min_cosine, "cosine {c} between alone and batched");
        let diff = alone.iter().zip(&got[i]).map(|(a, b)| (a - b).abs()).fold(0f32, f32::max);
        assert!(diff < max_diff, "max difference {diff}");
    }
    // And the order of the output follows the input.
    let single: Vec<Vec<f32>> = mixed.iter().map(|t| e.embed(&[t], &|_| {}).unwrap().remove(0)).collect();
    for (a, b) in single.iter().zip(&got) {
        assert!(cosine(a, b) > min_cosine);
    }
}

pub fn paperscout() -> Command {
    Command::new(std::env::var_os("PAPERSCOUT_BIN").unwrap_or_else(|| env!("CARGO_BIN_EXE_paperscout").into()))
}

/// Why no CUDA device can run the GPU tests, if none can.
pub fn no_cuda_device() -> Option<String> {
    match candle_core::Device::new_cuda(0) {
        Ok(_) => None,
        // The first line: with RUST_BACKTRACE set, candle appends a backtrace.
        Err(e) if cfg!(feature = "cuda") => {
            Some(format!("this build has CUDA but no device answered: {}", e.to_string().lines().next().unwrap_or_default()))
        }
        Err(_) => Some("this build has no CUDA support (--features cuda)".to_string()),
    }
}
