//! Pooling of token vectors into one sentence vector, and L2 normalisation,
//! as sentence-transformers' Pooling and Normalize modules do them.

use super::batch::Batch;
use super::st::PoolMode;
use crate::vector::normalize;

/// What follows the encoder: sentence-transformers' Pooling and Normalize.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Head {
    pub modes: Vec<PoolMode>,
    pub normalize: bool,
}

/// One pooled (and, when the head says so, unit-length) vector per sequence
/// of `batch`, row-major `[batch.len(), width * modes]`, from the token
/// vectors `hidden` (`[batch.tokens(), width]`, packed order).
pub fn pool_batch(hidden: &[f32], width: usize, batch: &Batch, head: &Head) -> Vec<f32> {
    let mut out = Vec::with_capacity(batch.len() * width * head.modes.len());
    for s in 0..batch.len() {
        let mut v = pool(hidden, width, batch.seq(s), &head.modes);
        if head.normalize {
            normalize(&mut v);
        }
        out.extend(v);
    }
    out
}

/// Pools the rows `[start, end)` of `hidden` (row width `width`) with each of
/// `modes`, concatenated. Every token counts: sentence-transformers' attention
/// mask only hides padding, which packed batches do not have.
pub fn pool(hidden: &[f32], width: usize, rows: std::ops::Range<usize>, modes: &[PoolMode]) -> Vec<f32> {
    let n = rows.len();
    let tokens = &hidden[rows.start * width..rows.end * width];
    let mut out = Vec::with_capacity(width * modes.len());
    if n == 0 {
        // Only a tokenizer without special tokens can produce this (an empty
        // text); sentence-transformers would give zeros too.
        out.resize(width * modes.len(), 0.0);
        return out;
    }
    for &mode in modes {
        match mode {
            PoolMode::Cls => out.extend_from_slice(&tokens[..width]),
            PoolMode::Max => {
                let mut m = vec![f32::NEG_INFINITY; width];
                for row in tokens.chunks_exact(width) {
                    for (a, &b) in m.iter_mut().zip(row) {
                        *a = a.max(b);
                    }
                }
                out.extend(m);
            }
            PoolMode::Mean | PoolMode::MeanSqrtLen => {
                let mut sum = vec![0f64; width];
                for row in tokens.chunks_exact(width) {
                    for (a, &b) in sum.iter_mut().zip(row) {
                        *a += b as f64;
                    }
                }
                let div = if mode == PoolMode::Mean { n as f64 } else { (n as f64).sqrt() };
                out.extend(sum.into_iter().map(|s| (s / div.max(1e-9)) as f32));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn modes() {
        // Two sequences of width 2: rows 0..2 and 2..3.
        let h = [1.0, -2.0, 3.0, 4.0, 9.0, 9.0];
        assert_eq!(pool(&h, 2, 0..2, &[PoolMode::Cls]), vec![1.0, -2.0]);
        assert_eq!(pool(&h, 2, 0..2, &[PoolMode::Mean]), vec![2.0, 1.0]);
        assert_eq!(pool(&h, 2, 0..2, &[PoolMode::Max]), vec![3.0, 4.0]);
        let s = pool(&h, 2, 0..2, &[PoolMode::MeanSqrtLen]);
        assert!((s[0] - 4.0 / 2f32.sqrt()).abs() < 1e-6);
        assert_eq!(pool(&h, 2, 1..1, &[PoolMode::Cls, PoolMode::Max]), vec![0.0; 4]);
        assert_eq!(pool(&h, 2, 2..3, &[PoolMode::Cls, PoolMode::Mean]), vec![9.0, 9.0, 9.0, 9.0]);
    }

    #[test]
    fn unit_length() {
        let mut v = vec![3.0, 4.0];
        normalize(&mut v);
        assert_eq!(v, vec![0.6, 0.8]);
        let mut z = vec![0.0, 0.0];
        normalize(&mut z);
        assert_eq!(z, vec![0.0, 0.0]);
    }
}
