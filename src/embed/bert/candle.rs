//! The BERT forward in candle tensor ops, for any candle device; on CUDA it
//! is the GPU path, laid out as text-embeddings-inference does: weights in
//! f16 (or f32), linear layers over the packed tokens of a length-sorted
//! batch, attention gathered into a padded `[batch, heads, longest,
//! head_dim]` layout with a mask on the padding (sorting keeps that padding
//! small) and scattered back, then pooling and normalisation on the device
//! and a single f32 copy of the sentence vectors back to the host.

use super::{Activation, BertWeights};
use crate::embed::backend::Backend;
use crate::embed::batch::Batch;
use crate::embed::pool::Head;
use crate::embed::st::PoolMode;
use anyhow::Result;
use candle_core::{DType, Device, Tensor};

/// Added to attention scores of padding keys: exp() of it is 0 in f32 and
/// it stays finite in f16, so even a row with no real key has no NaN.
const MASKED: f32 = -10_000.0;

pub struct CandleBert {
    w: BertWeights,
    device: Device,
}

impl CandleBert {
    /// Runs in the number format the weights were loaded in.
    pub fn new(w: BertWeights, device: Device) -> Self {
        CandleBert { w, device }
    }

    fn dtype(&self) -> DType {
        self.w.word.dtype()
    }
}

fn linear(x: &Tensor, w: &Tensor, b: &Tensor) -> candle_core::Result<Tensor> {
    x.matmul(&w.t()?)?.broadcast_add(b)
}

/// Index maps between a batch's packed rows (`t` of them) and the padded
/// `[b, lmax]` layout, built on the host and copied to the device once.
struct Layout {
    /// Position of each packed row in its sequence.
    positions: Tensor,
    /// Packed row of each padded slot; padding reads row `t`, a row of zeros.
    gather: Tensor,
    /// Padded slot of each packed row.
    scatter: Tensor,
    /// `[b, 1, 1, lmax]`: 0 on real keys, [`MASKED`] on padding.
    attn_mask: Tensor,
    /// `[b, lmax, 1]` (f32): 0 on real rows, -inf on padding (0 for an empty
    /// sequence, whose max is then 0 as on the CPU).
    max_bias: Tensor,
    /// First packed row of each sequence (`t` for an empty one).
    first: Tensor,
    /// `[b, 1]` (f32): each sequence's length, at least 1.
    lens: Tensor,
}

impl Layout {
    fn new(batch: &Batch, dtype: DType, dev: &Device) -> candle_core::Result<Layout> {
        let (t, b, lmax) = (batch.tokens(), batch.len(), batch.max_len);
        let mut positions = Vec::with_capacity(t);
        let mut gather = Vec::with_capacity(b * lmax);
        let mut scatter = Vec::with_capacity(t);
        let mut attn_mask = Vec::with_capacity(b * lmax);
        let mut max_bias = Vec::with_capacity(b * lmax);
        let mut first = Vec::with_capacity(b);
        let mut lens = Vec::with_capacity(b);
        for s in 0..b {
            let rows = batch.seq(s);
            first.push(if rows.is_empty() { t } else { rows.start } as u32);
            lens.push(rows.len().max(1) as f32);
            for j in 0..lmax {
                let real = j < rows.len();
                gather.push(if real { rows.start + j } else { t } as u32);
                attn_mask.push(if real { 0.0 } else { MASKED });
                max_bias.push(if real || rows.is_empty() { 0.0 } else { f32::NEG_INFINITY });
                if real {
                    positions.push(j as u32);
                    scatter.push((s * lmax + j) as u32);
                }
            }
        }
        Ok(Layout {
            positions: Tensor::from_vec(positions, t, dev)?,
            gather: Tensor::from_vec(gather, b * lmax, dev)?,
            scatter: Tensor::from_vec(scatter, t, dev)?,
            attn_mask: Tensor::from_vec(attn_mask, (b, 1, 1, lmax), dev)?.to_dtype(dtype)?,
            max_bias: Tensor::from_vec(max_bias, (b, lmax, 1), dev)?,
            first: Tensor::from_vec(first, b, dev)?,
            lens: Tensor::from_vec(lens, (b, 1), dev)?,
        })
    }
}

impl CandleBert {
    /// Last hidden state of every packed token, `[t, hidden]`, in the
    /// weights' number format.
    fn hidden_states(&self, batch: &Batch, lay: &Layout) -> candle_core::Result<Tensor> {
        let (w, cfg, dev) = (&self.w, &self.w.cfg, &self.device);
        let (t, h, b, lmax) = (batch.tokens(), cfg.hidden_size, batch.len(), batch.max_len);
        let (heads, hd) = (cfg.num_attention_heads, cfg.head_dim());
        let eps = cfg.layer_norm_eps as f32;
        let ids = Tensor::from_slice(&batch.input_ids, t, dev)?;
        let x = w.word.index_select(&ids, 0)?.add(&w.position.index_select(&lay.positions, 0)?)?.broadcast_add(&w.token_type.get(0)?)?;
        let mut x = candle_nn::ops::layer_norm(&x, &w.emb_ln_w, &w.emb_ln_b, eps)?;
        let zero_row = Tensor::zeros((1, 3 * h), self.dtype(), dev)?;
        let scale = 1.0 / (hd as f64).sqrt();
        for l in &w.layers {
            let qkv = linear(&x, &l.qkv_w, &l.qkv_b)?;
            let padded = Tensor::cat(&[&qkv, &zero_row], 0)?.index_select(&lay.gather, 0)?.reshape((b, lmax, 3, heads, hd))?;
            let part = |i: usize| -> candle_core::Result<Tensor> { padded.narrow(2, i, 1)?.squeeze(2)?.transpose(1, 2)?.contiguous() };
            // Scaling q first keeps f16 scores small.
            let (q, k, v) = ((part(0)? * scale)?, part(1)?, part(2)?);
            let scores = q.matmul(&k.t()?)?.broadcast_add(&lay.attn_mask)?;
            let probs = candle_nn::ops::softmax_last_dim(&scores)?;
            let ctx = probs.matmul(&v)?.transpose(1, 2)?.reshape((b * lmax, h))?.index_select(&lay.scatter, 0)?;
            let a = linear(&ctx, &l.out_w, &l.out_b)?;
            x = candle_nn::ops::layer_norm(&(a + &x)?, &l.ln1_w, &l.ln1_b, eps)?;
            let mid = linear(&x, &l.inter_w, &l.inter_b)?;
            let mid = match w.act {
                Activation::Gelu => mid.gelu_erf()?,
                Activation::GeluTanh => mid.gelu()?,
                Activation::Relu => mid.relu()?,
            };
            let o = linear(&mid, &l.ffn_out_w, &l.ffn_out_b)?;
            x = candle_nn::ops::layer_norm(&(o + &x)?, &l.ln2_w, &l.ln2_b, eps)?;
        }
        Ok(x)
    }

    /// Sentence vectors `[b, hidden * modes]` in f32, pooled from `x` as
    /// [`crate::embed::pool::pool`] does on the CPU.
    fn pooled(&self, x: &Tensor, batch: &Batch, lay: &Layout, head: &Head) -> candle_core::Result<Tensor> {
        let (b, lmax, h) = (batch.len(), batch.max_len, self.w.cfg.hidden_size);
        // Sums run in f32 whatever the weights' format.
        let x = Tensor::cat(&[&x.to_dtype(DType::F32)?, &Tensor::zeros((1, h), DType::F32, &self.device)?], 0)?;
        let padded = x.index_select(&lay.gather, 0)?.reshape((b, lmax, h))?;
        let mut parts = Vec::with_capacity(head.modes.len());
        for mode in &head.modes {
            parts.push(match mode {
                PoolMode::Cls => x.index_select(&lay.first, 0)?,
                PoolMode::Max => padded.broadcast_add(&lay.max_bias)?.max(1)?,
                PoolMode::Mean => padded.sum(1)?.broadcast_div(&lay.lens)?,
                PoolMode::MeanSqrtLen => padded.sum(1)?.broadcast_div(&lay.lens.sqrt()?)?,
            });
        }
        let v = Tensor::cat(&parts, 1)?;
        if !head.normalize {
            return Ok(v);
        }
        let norm = v.sqr()?.sum_keepdim(1)?.sqrt()?.clamp(1e-12, f64::INFINITY)?;
        v.broadcast_div(&norm)
    }
}

impl Backend for CandleBert {
    fn hidden_size(&self) -> usize {
        self.w.cfg.hidden_size
    }

    fn max_positions(&self) -> usize {
        self.w.cfg.max_position_embeddings
    }

    fn describe(&self) -> String {
        let dev = match &self.device {
            Device::Cpu => "CPU".to_string(),
            Device::Cuda(_) => "CUDA".to_string(),
            other => format!("{other:?}"),
        };
        format!("candle tensor ops on {dev} in {:?}", self.dtype())
    }

    fn forward(&self, batch: &Batch, head: &Head) -> Result<Vec<f32>> {
        self.w.cfg.check_batch(batch)?;
        if batch.is_empty() {
            return Ok(Vec::new());
        }
        let lay = Layout::new(batch, self.dtype(), &self.device)?;
        let x = self.hidden_states(batch, &lay)?;
        let v = self.pooled(&x, batch, &lay, head)?;
        // The one copy back to the host for this batch.
        Ok(v.flatten_all()?.to_vec1::<f32>()?)
    }
}
