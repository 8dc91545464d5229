//! The model boundary: token ids in, one vector per token out. Tokenizing,
//! batching, pooling and normalising live above it and know nothing of the
//! tensor library; a faster forward only has to implement this trait.

use super::batch::Batch;

pub trait Backend: Send + Sync {
    /// Width of each token vector.
    fn hidden_size(&self) -> usize;
    /// Longest sequence the position embeddings allow.
    fn max_positions(&self) -> usize;
    /// Short description for `--verbose` (device, kernels, threads).
    fn describe(&self) -> String;
    /// Last hidden state of every token of `batch`, row-major
    /// `[batch.tokens(), hidden_size]`, rows in the batch's packed order.
    fn forward(&self, batch: &Batch) -> anyhow::Result<Vec<f32>>;
}
