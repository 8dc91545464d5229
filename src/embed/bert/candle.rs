//! The BERT forward in candle tensor ops, for any candle device. Linear
//! layers run over the packed tokens; attention gathers them into a padded
//! `[batch, heads, longest, head_dim]` layout with a mask on the padding and
//! scatters the result back, so padding never reaches the pooled vectors.

use super::{Activation, BertWeights};
use crate::embed::backend::Backend;
use crate::embed::batch::Batch;
use anyhow::Result;
use candle_core::{DType, Device, Tensor};

pub struct CandleBert {
    w: BertWeights,
    device: Device,
}

impl CandleBert {
    pub fn new(w: BertWeights, device: Device) -> Self {
        CandleBert { w, device }
    }
}

fn linear(x: &Tensor, w: &Tensor, b: &Tensor) -> candle_core::Result<Tensor> {
    x.matmul(&w.t()?)?.broadcast_add(b)
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
        format!("candle tensor ops on {dev}")
    }

    fn forward(&self, batch: &Batch) -> Result<Vec<f32>> {
        let (w, cfg, dev) = (&self.w, &self.w.cfg, &self.device);
        let (t, h, b, lmax) = (batch.tokens(), cfg.hidden_size, batch.len(), batch.max_len);
        let (heads, hd) = (cfg.num_attention_heads, cfg.head_dim());
        let eps = cfg.layer_norm_eps as f32;
        cfg.check_batch(batch)?;
        if batch.is_empty() {
            return Ok(Vec::new());
        }

        // Index maps between the packed rows and the padded layout; padded
        // slots read row `t`, an appended row of zeros.
        let mut positions = Vec::with_capacity(t);
        let mut gather = Vec::with_capacity(b * lmax);
        let mut scatter = Vec::with_capacity(t);
        let mut mask = Vec::with_capacity(b * lmax);
        for s in 0..b {
            let rows = batch.seq(s);
            for j in 0..lmax {
                let real = j < rows.len();
                gather.push(if real {
                    (rows.start + j) as u32
                } else {
                    t as u32
                });
                mask.push(if real { 0f32 } else { -1e9 });
                if real {
                    positions.push(j as u32);
                    scatter.push((s * lmax + j) as u32);
                }
            }
        }
        let ids = Tensor::from_slice(&batch.input_ids, t, dev)?;
        let positions = Tensor::from_vec(positions, t, dev)?;
        let gather = Tensor::from_vec(gather, b * lmax, dev)?;
        let scatter = Tensor::from_vec(scatter, t, dev)?;
        let mask = Tensor::from_vec(mask, (b, 1, 1, lmax), dev)?;

        let x = w
            .word
            .index_select(&ids, 0)?
            .add(&w.position.index_select(&positions, 0)?)?
            .broadcast_add(&w.token_type.get(0)?)?;
        let mut x = candle_nn::ops::layer_norm(&x, &w.emb_ln_w, &w.emb_ln_b, eps)?;
        let zero_row = Tensor::zeros((1, 3 * h), DType::F32, dev)?;
        let scale = 1.0 / (hd as f64).sqrt();
        for l in &w.layers {
            let qkv = linear(&x, &l.qkv_w, &l.qkv_b)?;
            let padded = Tensor::cat(&[&qkv, &zero_row], 0)?
                .index_select(&gather, 0)?
                .reshape((b, lmax, 3, heads, hd))?;
            let part = |i: usize| -> candle_core::Result<Tensor> {
                padded
                    .narrow(2, i, 1)?
                    .squeeze(2)?
                    .transpose(1, 2)?
                    .contiguous()
            };
            let (q, k, v) = (part(0)?, part(1)?, part(2)?);
            let scores = (q.matmul(&k.t()?)? * scale)?.broadcast_add(&mask)?;
            let probs = candle_nn::ops::softmax_last_dim(&scores)?;
            let ctx = probs
                .matmul(&v)?
                .transpose(1, 2)?
                .reshape((b * lmax, h))?
                .index_select(&scatter, 0)?;
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
        debug_assert_eq!(x.dims(), &[t, h]);
        Ok(x.flatten_all()?.to_vec1::<f32>()?)
    }
}
