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

mod amx;
mod backend;
mod batch;
mod bert;
mod bf16;
mod kernels;
mod options;
mod pipeline;
mod pool;
mod resolve;
mod st;
mod tokenize;
pub mod trial;

pub use bf16::{native as bf16_native, Kernel as Bf16Kernel};
pub use options::{BackendChoice, DeviceChoice, MaxTokens, ModelArgs, Precision};
pub use pipeline::{RunOptions, SentenceEmbedder};
pub use resolve::{resolve, ResolvedModel, DEFAULT_NAME, DEFAULT_REPO, ENV_VAR};

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

/// Ends the model id of vectors made with `--precision bf16` or `fp16`;
/// fp32 has none.
fn precision_suffix(p: Precision) -> &'static str {
    match p {
        Precision::Fp32 => "",
        Precision::Bf16 => ":bf16",
        Precision::Fp16 => ":fp16",
    }
}

/// The precision a model id was made with.
fn precision_of(model_id: &str) -> Precision {
    [Precision::Bf16, Precision::Fp16].into_iter().find(|&p| model_id.ends_with(precision_suffix(p))).unwrap_or(Precision::Fp32)
}

/// The part of a model id, before its precision, that names a length read
/// other than sentence-transformers' (`:512tok`); none for `st`.
fn length_suffix(max_len: usize, st_len: usize) -> String {
    if max_len == st_len {
        String::new()
    } else {
        format!(":{max_len}tok")
    }
}

/// A model id's weights (the model name and the hash of its weights) and
/// how much of each text its vectors read; its precision set aside.
fn weights_and_length(model_id: &str) -> (&str, MaxTokens) {
    let id = model_id.strip_suffix(precision_suffix(precision_of(model_id))).unwrap_or(model_id);
    // Only what `length_suffix` writes: digits, a length `--max-tokens` takes.
    let length = |last: &str| last.strip_suffix("tok").filter(|n| n.bytes().all(|b| b.is_ascii_digit()))?.parse::<MaxTokens>().ok();
    match id.rsplit_once(':').and_then(|(head, last)| Some((head, length(last)?))) {
        Some(found) => found,
        None => (id, MaxTokens::SentenceTransformers),
    }
}

fn max_tokens_of(model_id: &str) -> MaxTokens {
    weights_and_length(model_id).1
}

/// `args` with the precision and length of the library's vectors
/// (`library_model`) where none was asked for, so a library keeps one
/// kind of vector whichever CPU or GPU, and whichever version of
/// paperscout, it is used with.
pub fn args_for_library(args: &ModelArgs, library_model: Option<&str>) -> ModelArgs {
    let mut args = args.clone();
    if let Some(m) = library_model {
        args.precision = args.precision.or(Some(precision_of(m)));
        args.max_tokens = args.max_tokens.or(Some(max_tokens_of(m)));
    }
    args
}

/// The error for a model whose vectors a library does not hold, with the
/// flags that fix it.
pub fn model_mismatch(library: &str, found: &str) -> String {
    let fix = if weights_and_length(library).0 == weights_and_length(found).0 {
        let mut flags = Vec::new();
        if precision_of(library) != precision_of(found) {
            let name = match precision_of(library) {
                Precision::Fp32 => "fp32",
                Precision::Bf16 => "bf16",
                Precision::Fp16 => "fp16",
            };
            flags.push(format!("--precision {name}"));
        }
        if max_tokens_of(library) != max_tokens_of(found) {
            flags.push(format!("--max-tokens {}", max_tokens_of(library)));
        }
        if flags.is_empty() {
            "ingest into a new --library to embed it with this one".to_string()
        } else {
            format!("pass {}, as when it was embedded", flags.join(" "))
        }
    } else {
        "pass --model for the library's model".to_string()
    };
    format!("the library's vectors are from {library}, but the model found is {found}; {fix}")
}

/// Resolves and loads the model as described (at the verbose level it says the chosen path on stderr).
pub fn load(args: &ModelArgs) -> Result<Box<dyn Embedder>> {
    Ok(Box::new(open(args)?))
}

/// [`load`] with the concrete type, for callers that want token counts or
/// the summary line (benches, tests).
pub fn open(args: &ModelArgs) -> Result<SentenceEmbedder> {
    let model = resolve(args.model.as_deref())?;
    crate::messages::detail(format_args!("model: {} ({})", model.dir.display(), model.source));
    let device = select_device(args.device)?;
    let on_cpu = device.is_cpu();
    // The native forward is the measured fast path on the CPU; candle ops
    // run everything else (CUDA, fp16, and the cross-check).
    let native = match args.backend {
        BackendChoice::Auto => on_cpu && args.precision != Some(Precision::Fp16),
        BackendChoice::Candle => false,
        BackendChoice::Native if !on_cpu => {
            bail!("--backend native runs on the CPU only; use --device cpu or --backend candle")
        }
        BackendChoice::Native => true,
    };
    let precision = match args.precision {
        Some(Precision::Bf16) if !native => {
            bail!("--precision bf16 needs the native CPU forward (--device cpu, --backend native or auto)")
        }
        Some(Precision::Fp16) if native => {
            bail!("--precision fp16 runs on candle tensor ops (--backend candle or auto)")
        }
        Some(p) => p,
        // f16 on the GPU, as text-embeddings-inference runs it: half the
        // memory traffic and the tensor cores, cosine >= 0.999.
        None if !on_cpu => Precision::Fp16,
        // On the CPU, fp32 until the trial below says otherwise (bf16 is
        // 2x fp32 on one CPU and 0.6x on another; trial.rs).
        None => Precision::Fp32,
    };
    if args.threads == Some(0) {
        bail!("--threads must be at least 1");
    }
    let mut opts = RunOptions {
        device,
        candle_ops: !native,
        batch_tokens: args.batch_tokens,
        threads: args.threads,
        precision,
        bf16_kernel: None,
        max_tokens: args.max_tokens,
    };
    if native && args.precision.is_none() {
        let choice = trial::choose(&model, &opts, false)?;
        crate::messages::detail(format_args!("{}", choice.why()));
        opts.precision = choice.precision();
        opts.bf16_kernel = choice.bf16_kernel();
        if choice.run_threads > 0 {
            opts.threads = Some(choice.run_threads);
        }
    }
    let embedder = SentenceEmbedder::open(&model, &opts)?;
    embedder.self_check()?;
    crate::messages::detail(format_args!("model: {}", embedder.summary()));
    Ok(embedder)
}

/// Times the CPU paths again for the model `args` finds and keeps the
/// answer (`doctor --precision`).
pub fn remeasure_precision(args: &ModelArgs) -> Result<trial::Choice> {
    let model = resolve(args.model.as_deref())?;
    let opts = RunOptions {
        device: Device::Cpu,
        candle_ops: false,
        batch_tokens: args.batch_tokens,
        threads: args.threads,
        precision: Precision::Fp32,
        bf16_kernel: None,
        max_tokens: args.max_tokens,
    };
    trial::choose(&model, &opts, true)
}

/// `auto` is CUDA when this build has it and a GPU answers, else the CPU
/// (at the verbose level, one line on stderr says why).
pub fn select_device(choice: DeviceChoice) -> Result<Device> {
    match choice {
        DeviceChoice::Cpu => Ok(Device::Cpu),
        DeviceChoice::Cuda => cuda_device(),
        DeviceChoice::Auto => Ok(auto_device()),
    }
}

/// The first line of a candle error: with RUST_BACKTRACE set, candle
/// appends a backtrace.
#[cfg(feature = "cuda")]
fn first_line(e: candle_core::Error) -> String {
    e.to_string().lines().next().unwrap_or_default().to_string()
}

#[cfg(feature = "cuda")]
fn cuda_device() -> Result<Device> {
    Device::new_cuda(0).map_err(|e| anyhow::anyhow!("--device cuda: no usable CUDA device: {}", first_line(e)))
}

#[cfg(not(feature = "cuda"))]
fn cuda_device() -> Result<Device> {
    bail!("--device cuda: this paperscout was built without CUDA support (rebuild with `cargo build --release --features cuda`)")
}

#[cfg(feature = "cuda")]
fn auto_device() -> Device {
    match Device::new_cuda(0) {
        Ok(d) => d,
        Err(e) => {
            crate::messages::detail(format_args!("device: no CUDA device answered ({}); running on the CPU", first_line(e)));
            Device::Cpu
        }
    }
}

#[cfg(not(feature = "cuda"))]
fn auto_device() -> Device {
    crate::messages::detail("device: this build has no CUDA support (--features cuda); running on the CPU");
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
        assert_eq!(args_for_library(&plain, Some("m:abc:fp16")).precision, Some(Precision::Fp16));
        let fp32 = ModelArgs { precision: Some(Precision::Fp32), ..ModelArgs::default() };
        assert_eq!(args_for_library(&fp32, lib).precision, Some(Precision::Fp32));
    }

    #[test]
    fn a_library_keeps_the_length_its_vectors_read() {
        let plain = ModelArgs::default();
        // Made before the length was a choice: sentence-transformers'.
        assert_eq!(args_for_library(&plain, Some("m:abc:bf16")).max_tokens, Some(MaxTokens::SentenceTransformers));
        assert_eq!(args_for_library(&plain, Some("m:abc:512tok:bf16")).max_tokens, Some(MaxTokens::Tokens(512)));
        assert_eq!(args_for_library(&plain, Some("m:abc:384tok")).max_tokens, Some(MaxTokens::Tokens(384)));
        assert_eq!(args_for_library(&plain, None).max_tokens, None);
        let asked = ModelArgs { max_tokens: Some(MaxTokens::Tokens(128)), ..ModelArgs::default() };
        assert_eq!(args_for_library(&asked, Some("m:abc:512tok")).max_tokens, Some(MaxTokens::Tokens(128)));
        assert_eq!(length_suffix(512, 256), ":512tok");
        assert_eq!(length_suffix(256, 256), "");
        // Only the suffix paperscout writes is a length: not a name, a hash or a malformed count.
        assert_eq!(weights_and_length("mytok:abc"), ("mytok:abc", MaxTokens::SentenceTransformers));
        assert_eq!(weights_and_length("a:b:abc:bf16"), ("a:b:abc", MaxTokens::SentenceTransformers));
        assert_eq!(weights_and_length("a:b:abc:384tok:fp16"), ("a:b:abc", MaxTokens::Tokens(384)));
        for odd in ["m:abc:+512tok", "m:abc:0tok", "m:abc:tok", "m:abc:5x2tok"] {
            assert_eq!(max_tokens_of(odd), MaxTokens::SentenceTransformers, "{odd}");
        }
    }

    #[test]
    fn mismatch_names_the_flag_that_fixes_it() {
        assert!(model_mismatch("m:abc:bf16", "m:abc").contains("pass --precision bf16"));
        assert!(model_mismatch("m:abc", "m:abc:bf16").contains("pass --precision fp32"));
        assert!(model_mismatch("m:abc", "other:def").contains("pass --model"));
        assert!(model_mismatch("m:abc:fp16", "m:abc").contains("pass --precision fp16"));
        assert!(model_mismatch("m:abc:fp16", "m:abc:bf16").contains("pass --precision fp16"));
        assert!(model_mismatch("m:abc:bf16", "m:abc:512tok:bf16").contains("pass --max-tokens st,"));
        assert!(model_mismatch("m:abc:384tok", "m:abc:512tok:bf16").contains("pass --precision fp32 --max-tokens 384,"));
        assert!(model_mismatch("m:abc:512tok", "other:def:512tok").contains("pass --model"));
        assert!(model_mismatch("m:abc:0512tok", "m:abc:512tok").contains("ingest into a new --library"));
    }
}
