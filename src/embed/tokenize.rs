//! Tokenization with the model's own tokenizer.json, but with the truncation
//! sentence-transformers applies (`max_seq_length`) and no padding: the bundled
//! tokenizer of all-MiniLM-L6-v2 pads and truncates at 128, which would both
//! cut long texts short and waste work.

use anyhow::{anyhow, Result};
use std::path::Path;
use tokenizers::{Tokenizer, TruncationParams};

pub struct TextTokenizer {
    inner: Tokenizer,
    lowercase: bool,
}

impl TextTokenizer {
    /// `max_len` counts the special tokens, as sentence-transformers does.
    pub fn load(path: &Path, max_len: usize, lowercase: bool) -> Result<Self> {
        let mut inner = Tokenizer::from_file(path)
            .map_err(|e| anyhow!("{} is not a usable tokenizer: {e}", path.display()))?;
        inner
            .with_truncation(Some(TruncationParams {
                max_length: max_len,
                ..Default::default()
            }))
            .map_err(|e| {
                anyhow!(
                    "{}: cannot set truncation to {max_len}: {e}",
                    path.display()
                )
            })?;
        inner.with_padding(None);
        Ok(TextTokenizer { inner, lowercase })
    }

    /// Size of the vocabulary, added tokens included.
    pub fn vocab_size(&self) -> usize {
        self.inner.get_vocab_size(true)
    }

    /// Largest id the tokenizer can produce.
    pub fn max_id(&self) -> Option<u32> {
        let vocab = self.inner.get_vocab(true);
        vocab.values().copied().max()
    }

    /// Token ids of each text, special tokens included. Texts are encoded a
    /// chunk at a time so only ids are kept, not the tokenizer's full
    /// encodings (strings and offsets per token) of a whole corpus.
    pub fn encode(&self, texts: &[&str]) -> Result<Vec<Vec<u32>>> {
        const CHUNK: usize = 1024;
        let mut ids = Vec::with_capacity(texts.len());
        for chunk in texts.chunks(CHUNK) {
            let inputs: Vec<String> = if self.lowercase {
                chunk.iter().map(|t| t.to_lowercase()).collect()
            } else {
                chunk.iter().map(|t| t.to_string()).collect()
            };
            let encodings = self
                .inner
                .encode_batch(inputs, true)
                .map_err(|e| anyhow!("tokenization failed: {e}"))?;
            ids.extend(encodings.into_iter().map(|e| e.get_ids().to_vec()));
        }
        Ok(ids)
    }
}
