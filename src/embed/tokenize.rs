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
    max_len: usize,
}

/// More characters per token than any real text has: the tokenizer only
/// ever sees a prefix this long (times the model's max length), so memory
/// stays bounded whatever the input (it holds ~125 bytes per character).
const CHARS_PER_TOKEN: usize = 32;

/// A prefix that still gives fewer tokens than the model reads (runs of
/// spaces or of characters the tokenizer drops) grows up to this many
/// times; past it, such a degenerate text is cut at that length.
const MAX_GROWTH: usize = 64;

/// The first `chars` characters of `text`, ending before a whitespace so
/// no word is cut in two: a cut word would tokenize differently, so the
/// prefix's tokens are exactly the first tokens of the whole text.
fn prefix(text: &str, chars: usize) -> &str {
    let Some((end, _)) = text.char_indices().nth(chars) else { return text };
    let head = &text[..end];
    if text[end..].starts_with(char::is_whitespace) {
        return head;
    }
    match head.rfind(char::is_whitespace) {
        Some(i) if i > 0 => &head[..i],
        // One word longer than the prefix is a single unknown token either way.
        _ => head,
    }
}

impl TextTokenizer {
    /// `max_len` counts the special tokens, as sentence-transformers does.
    pub fn load(path: &Path, max_len: usize, lowercase: bool) -> Result<Self> {
        let mut inner = Tokenizer::from_file(path).map_err(|e| anyhow!("{} is not a usable tokenizer: {e}", path.display()))?;
        inner
            .with_truncation(Some(TruncationParams { max_length: max_len, ..Default::default() }))
            .map_err(|e| anyhow!("{}: cannot set truncation to {max_len}: {e}", path.display()))?;
        inner.with_padding(None);
        Ok(TextTokenizer { inner, lowercase, max_len })
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
    /// encodings (strings and offsets per token) of a whole corpus; and each
    /// text is cut to a prefix the model's max length cannot outrun, so a
    /// huge text costs no more than a long abstract.
    pub fn encode(&self, texts: &[&str]) -> Result<Vec<Vec<u32>>> {
        const CHUNK: usize = 1024;
        let limit = self.max_len.max(1) * CHARS_PER_TOKEN;
        let mut ids = Vec::with_capacity(texts.len());
        for chunk in texts.chunks(CHUNK) {
            let cut: Vec<&str> = chunk.iter().map(|t| prefix(t, limit)).collect();
            let mut encoded = self.encode_exact(&cut)?;
            // A cut text that did not fill the model's length may have lost
            // tokens the model would read: try longer prefixes.
            for ((text, short), ids) in chunk.iter().zip(&cut).zip(&mut encoded) {
                let mut chars = limit;
                let mut p = *short;
                while ids.len() < self.max_len && p.len() < text.len() && chars < limit * MAX_GROWTH {
                    chars *= 4;
                    p = prefix(text, chars);
                    if let Some(longer) = self.encode_exact(&[p])?.pop() {
                        *ids = longer;
                    }
                }
            }
            ids.extend(encoded);
        }
        Ok(ids)
    }

    fn encode_exact(&self, texts: &[&str]) -> Result<Vec<Vec<u32>>> {
        let inputs: Vec<String> =
            if self.lowercase { texts.iter().map(|t| t.to_lowercase()).collect() } else { texts.iter().map(|t| t.to_string()).collect() };
        let encodings = self.inner.encode_batch(inputs, true).map_err(|e| anyhow!("tokenization failed: {e}"))?;
        Ok(encodings.into_iter().map(|e| e.get_ids().to_vec()).collect())
    }
}

#[cfg(test)]
mod tests {
    use super::prefix;

    #[test]
    fn prefixes_end_between_words() {
        assert_eq!(prefix("short text", 100), "short text");
        assert_eq!(prefix("alpha beta gamma", 13), "alpha beta");
        assert_eq!(prefix("alpha beta gamma", 10), "alpha beta");
        assert_eq!(prefix("alpha beta gamma", 8), "alpha");
        assert_eq!(prefix("abcdefghij", 4), "abcd");
        // Counted in characters, cut on a character boundary.
        assert_eq!(prefix("ééé ééé", 5), "ééé");
    }
}
