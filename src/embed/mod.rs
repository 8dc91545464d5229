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
mod kernels;
mod pipeline;
mod pool;
mod resolve;
mod st;
mod tokenize;

pub use pipeline::{RunOptions, SentenceEmbedder};
pub use resolve::{resolve, ResolvedModel, DEFAULT_NAME, DEFAULT_REPO, ENV_VAR};

use crate::cli::{BackendChoice, DeviceChoice, ModelArgs};
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
    if args.threads == Some(0) {
        bail!("--threads must be at least 1");
    }
    let opts = RunOptions {
        device,
        candle_ops,
        batch_tokens: args.batch_tokens,
        threads: args.threads,
    };
    let embedder = SentenceEmbedder::open(&model, &opts)?;
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
