//! BERT encoders (config.json + model.safetensors) behind the [`Backend`]
//! trait, in two implementations over the same weights:
//!
//! - [`native::NativeBert`]: our own CPU forward over packed sequences (no
//!   padding), fused QKV projection, fused bias+GELU and
//!   bias+residual+LayerNorm, attention per sequence and head, buffers reused
//!   across layers and batches.
//! - [`candle::CandleBert`]: the same model written with candle tensor ops,
//!   for any candle device (CUDA) and as a cross-check of the native one.
//!
//! [`Backend`]: super::backend::Backend

pub mod candle;
pub mod native;

use anyhow::{bail, Context, Result};
use candle_core::{DType, Device, Tensor};
use candle_nn::VarBuilder;
use serde::Deserialize;
use std::path::Path;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Activation {
    /// Exact GELU (erf), BERT's "gelu".
    Gelu,
    /// Tanh approximation ("gelu_new", "gelu_pytorch_tanh").
    GeluTanh,
    Relu,
}

#[derive(Debug, Clone, Deserialize)]
pub struct BertConfig {
    pub vocab_size: usize,
    pub hidden_size: usize,
    pub num_hidden_layers: usize,
    pub num_attention_heads: usize,
    pub intermediate_size: usize,
    #[serde(default = "default_act")]
    pub hidden_act: String,
    #[serde(default = "default_max_pos")]
    pub max_position_embeddings: usize,
    #[serde(default = "default_type_vocab")]
    pub type_vocab_size: usize,
    #[serde(default = "default_eps")]
    pub layer_norm_eps: f64,
    #[serde(default)]
    pub model_type: Option<String>,
    #[serde(default)]
    pub position_embedding_type: Option<String>,
}

fn default_act() -> String {
    "gelu".into()
}
fn default_max_pos() -> usize {
    512
}
fn default_type_vocab() -> usize {
    2
}
fn default_eps() -> f64 {
    1e-12
}

impl BertConfig {
    /// What both backends refuse before running a batch: sequences longer
    /// than the position table and token ids outside the vocabulary.
    pub fn check_batch(&self, batch: &crate::embed::batch::Batch) -> Result<()> {
        if batch.max_len > self.max_position_embeddings {
            bail!("sequence of {} tokens exceeds the model's {} positions", batch.max_len, self.max_position_embeddings);
        }
        if let Some(&id) = batch.input_ids.iter().find(|&&id| id as usize >= self.vocab_size) {
            bail!("token id {id} is outside the model's vocabulary of {}", self.vocab_size);
        }
        Ok(())
    }

    pub fn read(path: &Path) -> Result<Self> {
        let text = std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
        let cfg: BertConfig = serde_json::from_str(&text).with_context(|| format!("{} is not a BERT config", path.display()))?;
        if let Some(t) = &cfg.model_type {
            if t != "bert" {
                bail!("{}: model_type {t:?} is not supported (only BERT)", path.display());
            }
        }
        if let Some(p) = &cfg.position_embedding_type {
            if p != "absolute" {
                bail!("{}: position_embedding_type {p:?} is not supported", path.display());
            }
        }
        if cfg.num_attention_heads == 0 || !cfg.hidden_size.is_multiple_of(cfg.num_attention_heads) {
            bail!(
                "{}: hidden_size {} is not a multiple of num_attention_heads {}",
                path.display(),
                cfg.hidden_size,
                cfg.num_attention_heads
            );
        }
        cfg.activation().with_context(|| path.display().to_string())?;
        Ok(cfg)
    }

    pub fn activation(&self) -> Result<Activation> {
        Ok(match self.hidden_act.as_str() {
            "gelu" => Activation::Gelu,
            "gelu_new" | "gelu_pytorch_tanh" => Activation::GeluTanh,
            "relu" => Activation::Relu,
            other => bail!("hidden_act {other:?} is not supported"),
        })
    }

    pub fn head_dim(&self) -> usize {
        self.hidden_size / self.num_attention_heads
    }
}

pub struct LayerWeights {
    /// Query, key and value projections stacked: `[3 * hidden, hidden]`.
    pub qkv_w: Tensor,
    pub qkv_b: Tensor,
    pub out_w: Tensor,
    pub out_b: Tensor,
    pub ln1_w: Tensor,
    pub ln1_b: Tensor,
    pub inter_w: Tensor,
    pub inter_b: Tensor,
    pub ffn_out_w: Tensor,
    pub ffn_out_b: Tensor,
    pub ln2_w: Tensor,
    pub ln2_b: Tensor,
}

/// All weights of a BERT encoder as candle tensors (PyTorch layout: a linear
/// weight is `[out, in]`).
pub struct BertWeights {
    pub cfg: BertConfig,
    pub act: Activation,
    pub word: Tensor,
    pub position: Tensor,
    pub token_type: Tensor,
    pub emb_ln_w: Tensor,
    pub emb_ln_b: Tensor,
    pub layers: Vec<LayerWeights>,
}

impl BertWeights {
    /// Loads `model.safetensors` (f32, f16 or bf16), converted to `dtype`
    /// on `device`.
    pub fn load(cfg: BertConfig, weights: &Path, dtype: DType, device: &Device) -> Result<Self> {
        if !weights.is_file() {
            bail!("{} is missing", weights.display());
        }
        // SAFETY: the file is mapped read-only; candle copies what it keeps.
        let vb = unsafe { VarBuilder::from_mmaped_safetensors(&[weights], dtype, device) }
            .with_context(|| format!("{} is not a valid safetensors file", weights.display()))?;
        let vb = if vb.contains_tensor("embeddings.word_embeddings.weight") {
            vb
        } else if vb.contains_tensor("bert.embeddings.word_embeddings.weight") {
            vb.pp("bert")
        } else {
            bail!("{} holds no BERT weights (embeddings.word_embeddings.weight)", weights.display());
        };
        Self::from_var_builder(cfg, vb).with_context(|| format!("{} does not match config.json", weights.display()))
    }

    fn from_var_builder(cfg: BertConfig, vb: VarBuilder) -> Result<Self> {
        let (h, i) = (cfg.hidden_size, cfg.intermediate_size);
        let emb = vb.pp("embeddings");
        let word = emb.get((cfg.vocab_size, h), "word_embeddings.weight")?;
        let position = emb.get((cfg.max_position_embeddings, h), "position_embeddings.weight")?;
        let token_type = emb.get((cfg.type_vocab_size, h), "token_type_embeddings.weight")?;
        let emb_ln_w = emb.get(h, "LayerNorm.weight")?;
        let emb_ln_b = emb.get(h, "LayerNorm.bias")?;
        let mut layers = Vec::with_capacity(cfg.num_hidden_layers);
        for l in 0..cfg.num_hidden_layers {
            let lb = vb.pp(format!("encoder.layer.{l}"));
            let att = lb.pp("attention");
            let sa = att.pp("self");
            let qkv_w = Tensor::cat(&[sa.get((h, h), "query.weight")?, sa.get((h, h), "key.weight")?, sa.get((h, h), "value.weight")?], 0)?;
            let qkv_b = Tensor::cat(&[sa.get(h, "query.bias")?, sa.get(h, "key.bias")?, sa.get(h, "value.bias")?], 0)?;
            let ao = att.pp("output");
            let inter = lb.pp("intermediate.dense");
            let out = lb.pp("output");
            layers.push(LayerWeights {
                qkv_w,
                qkv_b,
                out_w: ao.get((h, h), "dense.weight")?,
                out_b: ao.get(h, "dense.bias")?,
                ln1_w: ao.get(h, "LayerNorm.weight")?,
                ln1_b: ao.get(h, "LayerNorm.bias")?,
                inter_w: inter.get((i, h), "weight")?,
                inter_b: inter.get(i, "bias")?,
                ffn_out_w: out.get((h, i), "dense.weight")?,
                ffn_out_b: out.get(h, "dense.bias")?,
                ln2_w: out.get(h, "LayerNorm.weight")?,
                ln2_b: out.get(h, "LayerNorm.bias")?,
            });
        }
        let act = cfg.activation()?;
        Ok(BertWeights { cfg, act, word, position, token_type, emb_ln_w, emb_ln_b, layers })
    }
}
