//! Our own BERT forward for the CPU.
//!
//! Sequences stay packed (`[tokens, hidden]`, no padding), so every matrix
//! product runs over real tokens only and no attention mask is needed.
//! Per layer: one GEMM for the fused QKV projection, attention per (sequence,
//! head) in parallel with two small GEMMs reading Q, K and V in place through
//! strides, then GEMM + fused bias/residual/LayerNorm, GEMM + fused bias/GELU,
//! GEMM + fused bias/residual/LayerNorm. Activation buffers live in a
//! workspace that is reused across layers and batches.
//!
//! Threads split a batch by sequences, each running the whole forward on its
//! share with single-threaded products: no synchronisation inside a layer,
//! which is what kept the per-product parallel version at 1.7× on two cores.
//! A batch with one sequence uses the threads inside each product instead.
//!
//! With `--precision bf16` the four products per layer run in bf16
//! ([`Bf16Linear`]); attention, softmax, GELU and LayerNorm stay in f32.

use super::{Activation, BertConfig, BertWeights};
use crate::embed::backend::Backend;
use crate::embed::batch::Batch;
use crate::embed::bf16::{self, Bf16Linear, Kernel};
use crate::embed::kernels;
use crate::embed::pool::{self, Head};
use anyhow::Result;
use candle_core::Tensor;
use rayon::prelude::*;
use std::sync::Mutex;

struct Layer {
    qkv: Linear,
    qkv_b: Vec<f32>,
    out: Linear,
    out_b: Vec<f32>,
    ln1_w: Vec<f32>,
    ln1_b: Vec<f32>,
    inter: Linear,
    inter_b: Vec<f32>,
    ffn_out: Linear,
    ffn_out_b: Vec<f32>,
    ln2_w: Vec<f32>,
    ln2_b: Vec<f32>,
}

/// A PyTorch linear weight `[n, k]`, held only in the precision its
/// products run in.
struct Linear {
    n: usize,
    k: usize,
    weight: Weight,
}

enum Weight {
    Fp32(Vec<f32>),
    Bf16(Bf16Linear),
}

impl Linear {
    fn new(w: &Tensor, n: usize, k: usize, bf16: Option<Kernel>) -> Result<Linear> {
        let w = host(w)?;
        let weight = match bf16 {
            Some(kernel) => Weight::Bf16(Bf16Linear::new(&w, n, k, kernel)),
            None => Weight::Fp32(w),
        };
        Ok(Linear { n, k, weight })
    }

    /// `out[t, n] = x[t, k] · wᵀ`, bias left out; fp32 products run with `par`.
    fn apply(&self, x: &[f32], t: usize, out: &mut [f32], scratch: &mut bf16::Scratch, par: gemm::Parallelism) {
        let (n, k) = (self.n, self.k);
        match &self.weight {
            Weight::Fp32(w) => linear(x, w, out, t, k, n, par),
            Weight::Bf16(b) => b.forward(x, t, out, scratch, |a, w, o| linear(a, w, o, t, k, n, par)),
        }
    }
}

#[derive(Default)]
struct Workspace {
    x: Vec<f32>,
    qkv: Vec<f32>,
    ctx: Vec<f32>,
    tmp: Vec<f32>,
    inter: Vec<f32>,
    bf16: bf16::Scratch,
}

/// Grows `v` to at least `n` elements and returns its first `n`.
fn take(v: &mut Vec<f32>, n: usize) -> &mut [f32] {
    if v.len() < n {
        v.resize(n, 0.0);
    }
    &mut v[..n]
}

pub struct NativeBert {
    cfg: BertConfig,
    act: Activation,
    eps: f32,
    word: Vec<f32>,
    position: Vec<f32>,
    token_type0: Vec<f32>,
    emb_ln_w: Vec<f32>,
    emb_ln_b: Vec<f32>,
    layers: Vec<Layer>,
    /// One workspace per thread share of a batch.
    workspaces: Mutex<Vec<Workspace>>,
}

fn host(t: &Tensor) -> Result<Vec<f32>> {
    Ok(t.flatten_all()?.to_vec1::<f32>()?)
}

impl NativeBert {
    /// bf16 products on `bf16`'s kernel when given, else fp32.
    pub fn new(w: &BertWeights, bf16: Option<Kernel>) -> Result<Self> {
        let (h, inter) = (w.cfg.hidden_size, w.cfg.intermediate_size);
        let layers = w
            .layers
            .iter()
            .map(|l| {
                Ok(Layer {
                    qkv: Linear::new(&l.qkv_w, 3 * h, h, bf16)?,
                    qkv_b: host(&l.qkv_b)?,
                    out: Linear::new(&l.out_w, h, h, bf16)?,
                    out_b: host(&l.out_b)?,
                    ln1_w: host(&l.ln1_w)?,
                    ln1_b: host(&l.ln1_b)?,
                    inter: Linear::new(&l.inter_w, inter, h, bf16)?,
                    inter_b: host(&l.inter_b)?,
                    ffn_out: Linear::new(&l.ffn_out_w, h, inter, bf16)?,
                    ffn_out_b: host(&l.ffn_out_b)?,
                    ln2_w: host(&l.ln2_w)?,
                    ln2_b: host(&l.ln2_b)?,
                })
            })
            .collect::<Result<Vec<_>>>()?;
        Ok(NativeBert {
            cfg: w.cfg.clone(),
            act: w.act,
            eps: w.cfg.layer_norm_eps as f32,
            word: host(&w.word)?,
            position: host(&w.position)?,
            token_type0: host(&w.token_type.get(0)?)?,
            emb_ln_w: host(&w.emb_ln_w)?,
            emb_ln_b: host(&w.emb_ln_b)?,
            layers,
            workspaces: Mutex::new(Vec::new()),
        })
    }
}

fn parallelism() -> gemm::Parallelism {
    match rayon::current_num_threads() {
        0 | 1 => gemm::Parallelism::None,
        n => gemm::Parallelism::Rayon(n),
    }
}

/// `out[t, n] = x[t, k] · w[n, k]ᵀ` (a PyTorch linear weight, bias left out).
#[allow(clippy::too_many_arguments)]
fn linear(x: &[f32], w: &[f32], out: &mut [f32], t: usize, k: usize, n: usize, par: gemm::Parallelism) {
    assert!(x.len() >= t * k && w.len() == n * k && out.len() >= t * n);
    // SAFETY: the asserts bound every access gemm makes with these strides.
    unsafe {
        gemm::gemm(
            t,
            n,
            k,
            out.as_mut_ptr(),
            1,
            n as isize,
            false,
            x.as_ptr(),
            1,
            k as isize,
            w.as_ptr(),
            k as isize,
            1,
            0.0,
            1.0,
            false,
            false,
            false,
            par,
        )
    }
}

/// Rows per task of the element-wise passes.
fn rows_per_task(width: usize) -> usize {
    (8192 / width).max(1)
}

#[derive(Clone, Copy)]
struct SendPtr(*mut f32);
// SAFETY: used only to write disjoint regions from parallel tasks.
unsafe impl Send for SendPtr {}
unsafe impl Sync for SendPtr {}

impl SendPtr {
    /// A method, so closures capture the whole (Send) wrapper.
    fn get(self) -> *mut f32 {
        self.0
    }
}

/// Scaled dot-product attention of every sequence and head, reading Q, K, V
/// from the packed `[tokens, 3 * hidden]` projection and writing
/// `[tokens, hidden]`.
fn attention(qkv: &[f32], ctx: &mut [f32], batch: &Batch, heads: usize, head_dim: usize) {
    let hidden = heads * head_dim;
    let stride = 3 * hidden;
    let scale = 1.0 / (head_dim as f32).sqrt();
    assert!(qkv.len() >= batch.tokens() * stride && ctx.len() >= batch.tokens() * hidden);
    let out = SendPtr(ctx.as_mut_ptr());
    (0..batch.len() * heads).into_par_iter().for_each_init(Vec::<f32>::new, |scores, task| {
        let (s, h) = (task / heads, task % heads);
        let rows = batch.seq(s);
        let len = rows.len();
        if len == 0 {
            return;
        }
        if scores.len() < len * len {
            scores.resize(len * len, 0.0);
        }
        let q = qkv[rows.start * stride + h * head_dim..].as_ptr();
        // SAFETY: all reads stay inside this sequence's rows of `qkv` and all
        // writes inside its rows and this head's columns of `ctx`, which no
        // other task touches.
        unsafe {
            let k = q.add(hidden);
            let v = q.add(2 * hidden);
            // scores[len, len] = scale · Q Kᵀ
            gemm::gemm(
                len,
                len,
                head_dim,
                scores.as_mut_ptr(),
                1,
                len as isize,
                false,
                q,
                1,
                stride as isize,
                k,
                stride as isize,
                1,
                0.0,
                scale,
                false,
                false,
                false,
                gemm::Parallelism::None,
            );
            kernels::softmax_rows(&mut scores[..len * len], len);
            // ctx[rows, head] = softmax · V
            gemm::gemm(
                len,
                head_dim,
                len,
                out.get().add(rows.start * hidden + h * head_dim),
                1,
                hidden as isize,
                false,
                scores.as_ptr(),
                1,
                len as isize,
                v,
                1,
                stride as isize,
                0.0,
                1.0,
                false,
                false,
                false,
                gemm::Parallelism::None,
            );
        }
    });
}

impl Backend for NativeBert {
    fn hidden_size(&self) -> usize {
        self.cfg.hidden_size
    }

    fn max_positions(&self) -> usize {
        self.cfg.max_position_embeddings
    }

    fn describe(&self) -> String {
        let products = match self.layers.first().map(|l| &l.qkv.weight) {
            Some(Weight::Bf16(b)) => b.kernel().describe(),
            _ => "fp32 products",
        };
        format!("native CPU forward ({} kernels, {products}, {} threads)", kernels::simd_name(), rayon::current_num_threads())
    }

    fn forward(&self, batch: &Batch, head: &Head) -> Result<Vec<f32>> {
        let hidden = self.hidden_states(batch)?;
        Ok(pool::pool_batch(&hidden, self.cfg.hidden_size, batch, head))
    }
}

impl NativeBert {
    /// Last hidden state of every token of `batch`, row-major
    /// `[batch.tokens(), hidden]`, rows in the batch's packed order.
    fn hidden_states(&self, batch: &Batch) -> Result<Vec<f32>> {
        let cfg = &self.cfg;
        let h = cfg.hidden_size;
        cfg.check_batch(batch)?;
        if batch.is_empty() {
            return Ok(Vec::new());
        }
        // FLOPs of a sequence per layer: the projections grow with its
        // length (2·(4h² + 2h·inter) per token), attention with its square
        // (4h per token and key).
        let per_token = (8 * h * h + 4 * h * cfg.intermediate_size) as f64;
        let shares = batch.split(rayon::current_num_threads(), |len| len as f64 * (per_token + (4 * h * len) as f64));
        let mut guard = self.workspaces.lock().unwrap_or_else(|e| e.into_inner());
        let workspaces = &mut *guard;
        if workspaces.len() < shares.len() {
            workspaces.resize_with(shares.len(), Workspace::default);
        }
        let mut out = vec![0.0f32; batch.tokens() * h];
        if shares.len() == 1 {
            self.forward_share(batch, &mut workspaces[0], &mut out, parallelism());
            return Ok(out);
        }
        let mut pieces = Vec::with_capacity(shares.len());
        let mut rest = &mut out[..];
        for seqs in &shares {
            let (piece, tail) = rest.split_at_mut(batch.rows(seqs.clone()).len() * h);
            pieces.push((batch.slice(seqs.clone()), piece));
            rest = tail;
        }
        pieces
            .into_par_iter()
            .zip(workspaces.par_iter_mut())
            .for_each(|((share, piece), ws)| self.forward_share(&share, ws, piece, gemm::Parallelism::None));
        Ok(out)
    }

    /// The whole forward for `batch`, last hidden states into `out`
    /// (`[batch.tokens(), hidden]`), products run with `par`.
    fn forward_share(&self, batch: &Batch, ws: &mut Workspace, out: &mut [f32], par: gemm::Parallelism) {
        let cfg = &self.cfg;
        let (t, h, inter) = (batch.tokens(), cfg.hidden_size, cfg.intermediate_size);
        let x = take(&mut ws.x, t * h);
        let qkv = take(&mut ws.qkv, t * 3 * h);
        let ctx = take(&mut ws.ctx, t * h);
        let tmp = take(&mut ws.tmp, t * h);
        let mid = take(&mut ws.inter, t * inter);
        let scratch = &mut ws.bf16;
        let eps = self.eps;

        // Embeddings: word + position + token type 0, then LayerNorm.
        let mut positions = Vec::with_capacity(t);
        for s in 0..batch.len() {
            positions.extend(0..batch.seq(s).len());
        }
        let chunk = rows_per_task(h);
        x.par_chunks_mut(chunk * h).enumerate().for_each(|(c, rows)| {
            for (r, row) in rows.chunks_exact_mut(h).enumerate() {
                let i = c * chunk + r;
                let id = batch.input_ids[i] as usize;
                let word = &self.word[id * h..(id + 1) * h];
                let pos = &self.position[positions[i] * h..(positions[i] + 1) * h];
                for j in 0..h {
                    row[j] = word[j] + pos[j] + self.token_type0[j];
                }
            }
            kernels::layer_norm(rows, &self.emb_ln_w, &self.emb_ln_b, eps);
        });

        let heads = cfg.num_attention_heads;
        for l in &self.layers {
            l.qkv.apply(x, t, qkv, scratch, par);
            let c3 = rows_per_task(3 * h);
            qkv.par_chunks_mut(c3 * 3 * h).for_each(|rows| kernels::add_bias(rows, &l.qkv_b));
            attention(qkv, ctx, batch, heads, cfg.head_dim());

            l.out.apply(ctx, t, tmp, scratch, par);
            x.par_chunks_mut(chunk * h)
                .zip(tmp.par_chunks(chunk * h))
                .for_each(|(xr, yr)| kernels::add_residual_layer_norm(xr, yr, &l.out_b, &l.ln1_w, &l.ln1_b, eps));

            l.inter.apply(x, t, mid, scratch, par);
            let ci = rows_per_task(inter);
            mid.par_chunks_mut(ci * inter).for_each(|rows| kernels::add_bias_act(rows, &l.inter_b, self.act));

            l.ffn_out.apply(mid, t, tmp, scratch, par);
            x.par_chunks_mut(chunk * h)
                .zip(tmp.par_chunks(chunk * h))
                .for_each(|(xr, yr)| kernels::add_residual_layer_norm(xr, yr, &l.ffn_out_b, &l.ln2_w, &l.ln2_b, eps));
        }
        out.copy_from_slice(x);
    }
}
