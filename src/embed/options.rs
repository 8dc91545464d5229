//! Which model to run, where and how: the choices every command that
//! embeds offers (the command line flattens [`ModelArgs`] into its own).

use clap::ValueEnum;
use std::path::PathBuf;

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum DeviceChoice {
    Auto,
    Cpu,
    Cuda,
}

/// How the embedding model is found and run; shared by every command that embeds.
#[derive(Debug, Clone, clap::Args)]
pub struct ModelArgs {
    /// Model directory in sentence-transformers layout (else $PAPERSCOUT_MODEL,
    /// models/all-MiniLM-L6-v2, then the Hugging Face hub).
    #[arg(long, value_name = "DIR")]
    pub model: Option<PathBuf>,
    /// Where to run the model.
    #[arg(long, value_enum, default_value_t = DeviceChoice::Auto)]
    pub device: DeviceChoice,
    /// Largest number of tokens (padding included) in one batch. Default:
    /// 4096, or two full-length sequences per thread if that is more, so
    /// every core has work; 16384 on CUDA.
    #[arg(long)]
    pub batch_tokens: Option<usize>,
    /// Worker threads for CPU inference (default: all cores).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Model code: `native` is our CPU BERT forward, `candle` runs candle
    /// tensor ops on any device; `auto` is native on CPU, candle elsewhere.
    #[arg(long, value_enum, default_value_t = BackendChoice::Auto)]
    pub backend: BackendChoice,
    /// Number format of the model. `bf16` (native CPU forward) rounds
    /// weights and activations of the linear layers to bfloat16 (sums stay
    /// f32), on AMX tiles where the CPU has them, else AVX-512 BF16 (about
    /// 1.5× fp32 on an AMD Zen 4); vectors at cosine ≥ 0.9999 to fp32.
    /// `fp16` (candle ops; the GPU's format) keeps weights and activations
    /// in half precision, cosine ≥ 0.999. Both are stored under a model id
    /// of their own. Default: what the library's vectors were made with;
    /// else fp16 on CUDA; on the CPU the fastest of fp32, bf16 on AVX-512
    /// and bf16 on AMX (those the CPU has) that keeps parity, as a short
    /// trial on first use measured it (kept per CPU, binary and model;
    /// `doctor` measures again; `-v` says which and why).
    #[arg(long, value_enum)]
    pub precision: Option<Precision>,
    /// How much of each text the model reads, in tokens (its two special
    /// ones included; at most its positions, 512 for BERT models), or `st`
    /// for its sentence-transformers setting (`max_seq_length`, 256 for
    /// all-MiniLM-L6-v2). Default: what the library's vectors were made
    /// with, else `st`. 512 reads the whole of two arXiv abstracts in three,
    /// which cut at 256; it embeds at 0.79× the speed and ranks by meaning
    /// alone a little better, the default ranking no better measurably
    /// (docs/quality.md). Vectors read at another length than `st` are
    /// stored under a model id of their own (`…:512tok`).
    #[arg(long, value_name = "N|st")]
    pub max_tokens: Option<MaxTokens>,
}

/// How much of each text the model reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MaxTokens {
    /// The model's sentence-transformers `max_seq_length` (its positions
    /// when it names none): what sentence-transformers reads, and the
    /// default.
    SentenceTransformers,
    /// This many tokens, special ones included.
    Tokens(usize),
}

/// As `--max-tokens` takes it.
impl std::fmt::Display for MaxTokens {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MaxTokens::SentenceTransformers => f.write_str("st"),
            MaxTokens::Tokens(n) => write!(f, "{n}"),
        }
    }
}

impl std::str::FromStr for MaxTokens {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "st" => Ok(MaxTokens::SentenceTransformers),
            n => match n.parse::<usize>() {
                Ok(n) if n >= 3 => Ok(MaxTokens::Tokens(n)),
                _ => Err(format!("expected a number of tokens (3 or more) or `st`, not {n:?}")),
            },
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Precision {
    Fp32,
    Bf16,
    Fp16,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum BackendChoice {
    Auto,
    Native,
    Candle,
}

impl Default for ModelArgs {
    /// The same values the command line gives when no flag is passed.
    fn default() -> Self {
        ModelArgs {
            model: None,
            device: DeviceChoice::Auto,
            batch_tokens: None,
            threads: None,
            backend: BackendChoice::Auto,
            precision: None,
            max_tokens: None,
        }
    }
}
