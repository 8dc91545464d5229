//! The model boundary: token ids in, one pooled vector per sequence out.
//! Tokenizing and batching live above it and know nothing of the tensor
//! library; pooling and normalising run inside it, so that a GPU backend
//! copies one small matrix back per batch instead of every token vector.

use super::batch::Batch;
use super::pool::Head;

pub trait Backend: Send + Sync {
    /// Width of each token vector.
    fn hidden_size(&self) -> usize;
    /// Longest sequence the position embeddings allow.
    fn max_positions(&self) -> usize;
    /// Short description for `--verbose` (device, kernels, threads).
    fn describe(&self) -> String;
    /// The sentence vectors of `batch` as `head` pools and normalises them,
    /// row-major `[batch.len(), hidden_size * head.modes.len()]`, rows in
    /// the batch's order.
    fn forward(&self, batch: &Batch, head: &Head) -> anyhow::Result<Vec<f32>>;
}
