//! The [`Embedder`] over any [`Backend`]: tokenize, sort by length and cut
//! batches by a token budget, run the backend, pool, normalise, and put the
//! vectors back in input order.

use super::backend::Backend;
use super::batch::{self, Batch};
use super::bert::{candle::CandleBert, native::NativeBert, BertConfig, BertWeights};
use super::pool::Head;
use super::resolve::ResolvedModel;
use super::st::SentenceConfig;
use super::tokenize::TextTokenizer;
use super::{pool, Embedder};
use super::{Bf16Kernel, MaxTokens, Precision};
use anyhow::{bail, Context, Result};
use candle_core::{DType, Device};
use sha2::{Digest, Sha256};
use std::io::Read;
use std::path::Path;

/// Tokens per batch unless asked otherwise: the fastest on the two Zen 4
/// cores of docs/benchmarks.md, equal to 8192 in fp32, 5 % ahead in bf16.
const DEFAULT_BATCH_TOKENS: usize = 4096;
/// The same on a GPU: text-embeddings-inference's default budget, 64
/// abstracts of 256 tokens; large enough that the kernels, not their
/// launches, set the pace. (Unmeasured: scripts/gpu-proof sweeps it.)
const DEFAULT_GPU_BATCH_TOKENS: usize = 16384;

/// How to run a model; the parts of `ModelArgs` that are not about finding it.
#[derive(Debug, Clone)]
pub struct RunOptions {
    pub device: Device,
    /// Use the candle-ops forward (always off the CPU).
    pub candle_ops: bool,
    /// `None`: the default (see [`super::ModelArgs::batch_tokens`]).
    pub batch_tokens: Option<usize>,
    pub threads: Option<usize>,
    /// bf16: the native forward's linear layers; fp16: the candle forward's
    /// weights and activations.
    pub precision: Precision,
    /// Which instructions run bf16 products (`None`: the widest this CPU
    /// has); the precision trial's choice.
    pub bf16_kernel: Option<Bf16Kernel>,
    /// How much of each text the model reads (`None`: as sentence-transformers).
    pub max_tokens: Option<MaxTokens>,
}

pub struct SentenceEmbedder {
    id: String,
    /// Where the model was loaded from, for errors about its output.
    dir: std::path::PathBuf,
    dim: usize,
    tokenizer: TextTokenizer,
    backend: Box<dyn Backend>,
    head: Head,
    batch_tokens: usize,
    pool: Option<rayon::ThreadPool>,
    summary: String,
}

fn sha256_prefix(path: &Path) -> Result<String> {
    let mut f = std::fs::File::open(path).with_context(|| format!("cannot open {}", path.display()))?;
    let mut h = Sha256::new();
    let mut buf = vec![0u8; 1 << 20];
    loop {
        let n = f.read(&mut buf).with_context(|| format!("cannot read {}", path.display()))?;
        if n == 0 {
            break;
        }
        h.update(&buf[..n]);
    }
    let digest = h.finalize();
    Ok(digest.iter().take(6).map(|b| format!("{b:02x}")).collect())
}

impl SentenceEmbedder {
    /// Loads a model directory in sentence-transformers layout.
    pub fn open(model: &ResolvedModel, opts: &RunOptions) -> Result<Self> {
        let dir = &model.dir;
        Self::open_dir(model, opts).with_context(|| format!("model {} ({})", dir.display(), model.source))
    }

    fn open_dir(model: &ResolvedModel, opts: &RunOptions) -> Result<Self> {
        let dir = &model.dir;
        let st = SentenceConfig::read(dir)?;
        let tdir = &st.transformer_dir;
        let config_path = tdir.join("config.json");
        if !config_path.is_file() {
            bail!("not a model directory: {} is missing", config_path.display());
        }
        let cfg = BertConfig::read(&config_path)?;
        let positions = cfg.max_position_embeddings;
        let st_len = st.max_seq_length.unwrap_or(positions).min(positions);
        // sentence-transformers' length by default: reading all 512
        // positions takes in the whole of two arXiv abstracts in three but
        // costs 27 % more time for a gain the replay cannot tell from noise
        // (docs/quality.md, "The whole abstract").
        let max_len = match opts.max_tokens {
            None | Some(MaxTokens::SentenceTransformers) => st_len,
            Some(MaxTokens::Tokens(n)) if n <= positions => n,
            Some(MaxTokens::Tokens(n)) => bail!("cannot read {n} tokens of a text (--max-tokens): the model has {positions} positions"),
        };
        let tokenizer_path = tdir.join("tokenizer.json");
        if !tokenizer_path.is_file() {
            bail!("{} is missing", tokenizer_path.display());
        }
        let tokenizer = TextTokenizer::load(&tokenizer_path, max_len, st.lowercase)?;
        match tokenizer.max_id() {
            Some(id) if (id as usize) < cfg.vocab_size => {}
            _ => bail!(
                "{} does not fit the model: it has {} tokens, config.json's vocab_size is {}",
                tokenizer_path.display(),
                tokenizer.vocab_size(),
                cfg.vocab_size
            ),
        }
        let weights_path = tdir.join("model.safetensors");
        let dtype = match opts.precision {
            Precision::Fp16 => DType::F16,
            Precision::Fp32 | Precision::Bf16 => DType::F32,
        };
        let weights = BertWeights::load(cfg, &weights_path, dtype, &opts.device)?;
        let pool = match opts.threads {
            Some(n) => Some(rayon::ThreadPoolBuilder::new().num_threads(n).build().context("cannot start the worker threads")?),
            None => None,
        };
        let backend: Box<dyn Backend> = if opts.device.is_cpu() && !opts.candle_ops {
            Box::new(NativeBert::new(
                &weights,
                (opts.precision == Precision::Bf16).then(|| opts.bf16_kernel.unwrap_or_else(Bf16Kernel::best)),
            )?)
        } else {
            Box::new(CandleBert::new(weights, opts.device.clone()))
        };
        debug_assert!(max_len <= backend.max_positions());
        // bf16 and fp16 vectors differ (slightly) from fp32 ones, and those
        // of a longer read from a shorter; a library keeps them apart. The
        // length is named relative to sentence_bert_config.json, which the
        // hash does not cover: edit that file and a library's vectors are
        // no longer told apart (make a new library instead).
        let id = format!(
            "{}:{}{}{}",
            model.name,
            sha256_prefix(&weights_path)?,
            super::length_suffix(max_len, st_len),
            super::precision_suffix(opts.precision)
        );
        let dim = backend.hidden_size() * st.pooling.len();
        let describe = match &pool {
            Some(p) => p.install(|| backend.describe()),
            None => backend.describe(),
        };
        // The native forward gives each thread whole sequences of a batch, so
        // a batch holds at least two full-length ones per thread: on many
        // cores a 4096-token batch of abstracts would leave most idle.
        let threads = pool.as_ref().map_or_else(rayon::current_num_threads, |p| p.current_num_threads());
        let default_tokens = if opts.device.is_cpu() { DEFAULT_BATCH_TOKENS.max(2 * threads * max_len) } else { DEFAULT_GPU_BATCH_TOKENS };
        let batch_tokens = opts.batch_tokens.unwrap_or(default_tokens).max(1);
        let summary = format!(
            "{id}, dim {dim}, reads {max_len} tokens (sentence-transformers {st_len}), pooling {}, {}normalized; {describe}; \
             batches of at most {batch_tokens} tokens",
            st.pooling.iter().map(|p| p.name()).collect::<Vec<_>>().join("+"),
            if st.normalize { "" } else { "not " },
        );
        Ok(SentenceEmbedder {
            id,
            dir: dir.clone(),
            dim,
            tokenizer,
            backend,
            head: Head { modes: st.pooling, normalize: st.normalize },
            batch_tokens,
            pool,
            summary,
        })
    }

    /// Embeds a fixed sentence and refuses a model whose vector is not
    /// finite: weights that load but are damaged would otherwise fill a
    /// library with NaN before anyone noticed.
    pub fn self_check(&self) -> Result<()> {
        self.embed(&["paperscout checks that the model works."], &|_| {}).map(|_| ())
    }

    /// One line on what was loaded and how it runs (for `--verbose`).
    pub fn summary(&self) -> &str {
        &self.summary
    }

    /// Tokens per text after truncation, special tokens included.
    pub fn token_counts(&self, texts: &[&str]) -> Result<Vec<usize>> {
        Ok(self.run(|| self.tokenizer.encode(texts))?.iter().map(Vec::len).collect())
    }

    fn run<R: Send>(&self, f: impl FnOnce() -> R + Send) -> R {
        match &self.pool {
            Some(p) => p.install(f),
            None => f(),
        }
    }
}

impl Embedder for SentenceEmbedder {
    fn model_id(&self) -> &str {
        &self.id
    }

    fn dim(&self) -> usize {
        self.dim
    }

    fn embed(&self, texts: &[&str], progress: &dyn Fn(usize)) -> Result<Vec<Vec<f32>>> {
        if texts.is_empty() {
            return Ok(Vec::new());
        }
        let ids = self.run(|| self.tokenizer.encode(texts))?;
        let lengths: Vec<usize> = ids.iter().map(Vec::len).collect();
        let width = self.backend.hidden_size();
        let mut out = vec![Vec::new(); texts.len()];
        let mut done = 0;
        for group in batch::plan(&lengths, self.batch_tokens) {
            let batch = Batch::from_sequences(group.iter().map(|&i| ids[i].as_slice()));
            let vectors = if batch.tokens() == 0 {
                // Only empty texts (a tokenizer without special tokens):
                // zeros, as sentence-transformers gives.
                pool::pool_batch(&[], width, &batch, &self.head)
            } else {
                self.run(|| self.backend.forward(&batch, &self.head))?
            };
            if vectors.len() != group.len() * self.dim {
                bail!("the model backend gave {} numbers for {} texts of dimension {}", vectors.len(), group.len(), self.dim);
            }
            for (v, &i) in vectors.chunks_exact(self.dim).zip(&group) {
                if v.iter().any(|x| !x.is_finite()) {
                    bail!(
                        "the model in {} gives non-finite vectors (NaN or infinity): its weights are damaged; \
                         fetch it again (models/fetch) or pass another --model",
                        self.dir.display()
                    );
                }
                out[i] = v.to_vec();
            }
            done += group.len();
            progress(done);
        }
        Ok(out)
    }
}
