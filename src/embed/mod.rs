//! Sentence embeddings with sentence-transformers semantics.
//!
//! The rest of the pipeline sees only [`Embedder`] (texts in, vectors out)
//! and [`load`]. Inside, the stages are kept apart so each can change alone:
//!
//! - `resolve`: which model directory (flag, env, models/, Hugging Face hub)
//! - `st`: what sentence-transformers would do (max length, pooling, normalise)
//! - `tokenize`: the model's tokenizer with sentence-transformers' truncation
//! - `batch`: sort by length, cut batches by a token budget, packed layout
//! - `backend`: the model boundary, token ids in, token vectors out
//! - `bert`: BERT backends (native CPU forward; candle ops for any device)
//! - `pool`: pooling and normalisation
//! - `pipeline`: the [`Embedder`] that strings them together

mod backend;
mod batch;
mod bert;
mod bf16;
mod kernels;
mod pipeline;
mod pool;
mod resolve;
mod st;
mod tokenize;

pub use bf16::native as bf16_native;
pub use pipeline::{RunOptions, SentenceEmbedder};
pub use resolve::{resolve, ResolvedModel, DEFAULT_NAME, DEFAULT_REPO, ENV_VAR};

use crate::cli::{BackendChoice, DeviceChoice, ModelArgs, Precision};
use anyhow::{bail, Result};
use candle_core::Device;

pub trait Embedder {
    /// Stable identifier of the model + its semantics, used as the key of stored vectors
    /// (e.g. "all-MiniLM-L6-v2:<first 12 hex of sha256 of model.safetensors>").
    fn model_id(&self) -> &str;
    fn dim(&self) -> usize;
    /// One unit-length (when the model normalises) vector per text, in input order.
    /// `progress` is called with the number of texts finished so far.
    fn embed(&self, texts: &[&str], progress: &dyn Fn(usize)) -> anyhow::Result<Vec<Vec<f32>>>;
}

/// Ends the model id of vectors made with `--precision bf16`.
const BF16_SUFFIX: &str = ":bf16";

/// `args` with the precision of the library's vectors (`library_model`)
/// when none was asked for, so a library keeps one precision whichever CPU
/// it is used on.
pub fn args_for_library(args: &ModelArgs, library_model: Option<&str>) -> ModelArgs {
    let mut args = args.clone();
    if let (None, Some(m)) = (args.precision, library_model) {
        args.precision = Some(if m.ends_with(BF16_SUFFIX) {
            Precision::Bf16
        } else {
            Precision::Fp32
        });
    }
    args
}

/// The error for a model whose vectors a library does not hold, with the
/// flag that fixes it.
pub fn model_mismatch(library: &str, found: &str) -> String {
    let base = |id: &str| id.strip_suffix(BF16_SUFFIX).unwrap_or(id).to_string();
    let fix = if base(library) == base(found) {
        if library.ends_with(BF16_SUFFIX) {
            "pass --precision bf16, as when it was embedded"
        } else {
            "pass --precision fp32, as when it was embedded"
        }
    } else {
        "pass --model for the library's model"
    };
    format!("the library's vectors are from {library}, but the model found is {found}; {fix}")
}

/// Resolves and loads the model as described (verbose prints the chosen path to stderr).
pub fn load(args: &ModelArgs, verbose: bool) -> Result<Box<dyn Embedder>> {
    Ok(Box::new(open(args, verbose)?))
}

/// [`load`] with the concrete type, for callers that want token counts or
/// the summary line (benches, tests).
pub fn open(args: &ModelArgs, verbose: bool) -> Result<SentenceEmbedder> {
    let model = resolve(args.model.as_deref())?;
    if verbose {
        eprintln!("model: {} ({})", model.dir.display(), model.source);
    }
    let device = select_device(args.device)?;
    let candle_ops = match args.backend {
        BackendChoice::Auto => false,
        BackendChoice::Candle => true,
        BackendChoice::Native if !device.is_cpu() => {
            bail!("--backend native runs on the CPU only; use --device cpu or --backend candle")
        }
        BackendChoice::Native => false,
    };
    let native_cpu = device.is_cpu() && !candle_ops;
    let bf16 = match args.precision {
        Some(Precision::Bf16) if !native_cpu => {
            bail!("--precision bf16 needs the native CPU forward (--device cpu, --backend native or auto)")
        }
        Some(p) => p == Precision::Bf16,
        // bf16 keeps parity (cosine >= 0.9999) and is 1.5x faster where the
        // CPU multiplies bf16 natively; elsewhere it would only cost time.
        None => native_cpu && bf16::native(),
    };
    if args.threads == Some(0) {
        bail!("--threads must be at least 1");
    }
    let opts = RunOptions {
        device,
        candle_ops,
        batch_tokens: args.batch_tokens,
        threads: args.threads,
        bf16,
    };
    let embedder = SentenceEmbedder::open(&model, &opts)?;
    embedder.self_check()?;
    if verbose {
        eprintln!("model: {}", embedder.summary());
    }
    Ok(embedder)
}

/// `auto` is CUDA when this build has it and a GPU answers, else the CPU.
pub fn select_device(choice: DeviceChoice) -> Result<Device> {
    match choice {
        DeviceChoice::Cpu => Ok(Device::Cpu),
        DeviceChoice::Cuda => cuda_device(),
        DeviceChoice::Auto => Ok(auto_device()),
    }
}

#[cfg(feature = "cuda")]
fn cuda_device() -> Result<Device> {
    use anyhow::Context;
    Device::new_cuda(0).context("--device cuda: no usable CUDA device")
}

#[cfg(not(feature = "cuda"))]
fn cuda_device() -> Result<Device> {
    bail!("--device cuda: this paperscout was built without CUDA support (rebuild with `cargo build --release --features cuda`)")
}

#[cfg(feature = "cuda")]
fn auto_device() -> Device {
    if candle_core::utils::cuda_is_available() {
        if let Ok(d) = Device::new_cuda(0) {
            return d;
        }
    }
    Device::Cpu
}

#[cfg(not(feature = "cuda"))]
fn auto_device() -> Device {
    Device::Cpu
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_library_keeps_its_precision_unless_asked_otherwise() {
        let plain = ModelArgs::default();
        let lib = Some("m:abc:bf16");
        assert_eq!(args_for_library(&plain, lib).precision, Some(Precision::Bf16));
        assert_eq!(args_for_library(&plain, Some("m:abc")).precision, Some(Precision::Fp32));
        assert_eq!(args_for_library(&plain, None).precision, None);
        let fp32 = ModelArgs {
            precision: Some(Precision::Fp32),
            ..ModelArgs::default()
        };
        assert_eq!(args_for_library(&fp32, lib).precision, Some(Precision::Fp32));
    }

    #[test]
    fn mismatch_names_the_flag_that_fixes_it() {
        assert!(model_mismatch("m:abc:bf16", "m:abc").contains("pass --precision bf16"));
        assert!(model_mismatch("m:abc", "m:abc:bf16").contains("pass --precision fp32"));
        assert!(model_mismatch("m:abc", "other:def").contains("pass --model"));
    }
}
