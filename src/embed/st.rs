//! Sentence-transformers semantics, read from the model directory: which
//! directory holds the transformer, the longest input, the pooling and whether
//! vectors are normalised. Nothing here is specific to one model.

use anyhow::{bail, Context, Result};
use serde::Deserialize;
use std::path::{Path, PathBuf};

/// How token vectors become one sentence vector (`1_Pooling/config.json`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PoolMode {
    /// The first token's vector (`[CLS]`).
    Cls,
    /// Element-wise maximum over the tokens.
    Max,
    /// Average over the tokens.
    Mean,
    /// Sum over the tokens divided by the square root of their number.
    MeanSqrtLen,
}

impl PoolMode {
    pub fn name(self) -> &'static str {
        match self {
            PoolMode::Cls => "cls",
            PoolMode::Max => "max",
            PoolMode::Mean => "mean",
            PoolMode::MeanSqrtLen => "mean_sqrt_len",
        }
    }
}

/// What sentence-transformers would do around the transformer itself.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SentenceConfig {
    /// Directory of the transformer module (config.json, tokenizer.json, weights).
    pub transformer_dir: PathBuf,
    /// `max_seq_length` of sentence_bert_config.json, when given.
    pub max_seq_length: Option<usize>,
    /// `do_lower_case` of sentence_bert_config.json: lowercase texts before tokenizing.
    pub lowercase: bool,
    /// Pooled parts, concatenated in this order (sentence-transformers' order).
    pub pooling: Vec<PoolMode>,
    /// A Normalize module follows the pooling.
    pub normalize: bool,
}

#[derive(Deserialize)]
struct Module {
    #[serde(default)]
    path: String,
    #[serde(rename = "type")]
    kind: String,
}

#[derive(Deserialize, Default)]
struct SbertConfig {
    max_seq_length: Option<usize>,
    #[serde(default)]
    do_lower_case: bool,
}

#[derive(Deserialize, Default)]
struct PoolingConfig {
    #[serde(default)]
    pooling_mode_cls_token: bool,
    #[serde(default)]
    pooling_mode_mean_tokens: bool,
    #[serde(default)]
    pooling_mode_max_tokens: bool,
    #[serde(default)]
    pooling_mode_mean_sqrt_len_tokens: bool,
    #[serde(default)]
    pooling_mode_weightedmean_tokens: bool,
    #[serde(default)]
    pooling_mode_lasttoken: bool,
    /// Newer files may name the mode as a string instead of flags.
    pooling_mode: Option<String>,
}

fn read_json<T: for<'de> Deserialize<'de>>(path: &Path) -> Result<T> {
    let text = std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    serde_json::from_str(&text).with_context(|| format!("{} is not valid", path.display()))
}

impl SentenceConfig {
    /// Reads `modules.json`, `sentence_bert_config.json` and the pooling
    /// config of a sentence-transformers directory. A plain Hugging Face
    /// model directory (no modules.json) gets sentence-transformers' defaults
    /// for it: mean pooling, no normalisation.
    pub fn read(dir: &Path) -> Result<Self> {
        let modules_path = dir.join("modules.json");
        let mut transformer_dir = dir.to_path_buf();
        let mut pooling_dir = None;
        let mut normalize = false;
        if modules_path.is_file() {
            let modules: Vec<Module> = read_json(&modules_path)?;
            for (i, m) in modules.iter().enumerate() {
                let kind = m.kind.rsplit('.').next().unwrap_or(&m.kind);
                match kind {
                    "Transformer" if i == 0 => transformer_dir = dir.join(&m.path),
                    "Pooling" => pooling_dir = Some(dir.join(&m.path)),
                    "Normalize" => normalize = true,
                    _ => bail!(
                        "{}: module {:?} ({}) is not supported (only Transformer, Pooling, Normalize)",
                        modules_path.display(),
                        m.path,
                        m.kind
                    ),
                }
            }
        }
        let sbert_path = transformer_dir.join("sentence_bert_config.json");
        let sbert: SbertConfig = if sbert_path.is_file() { read_json(&sbert_path)? } else { SbertConfig::default() };
        let pooling = match pooling_dir {
            Some(p) => pool_modes(&p.join("config.json"))?,
            None => vec![PoolMode::Mean],
        };
        Ok(SentenceConfig { transformer_dir, max_seq_length: sbert.max_seq_length, lowercase: sbert.do_lower_case, pooling, normalize })
    }
}

fn pool_modes(path: &Path) -> Result<Vec<PoolMode>> {
    let c: PoolingConfig = read_json(path)?;
    if c.pooling_mode_weightedmean_tokens || c.pooling_mode_lasttoken {
        bail!("{}: weighted-mean and last-token pooling are not supported", path.display());
    }
    let mut modes = Vec::new();
    if let Some(m) = &c.pooling_mode {
        modes.push(match m.as_str() {
            "cls" => PoolMode::Cls,
            "max" => PoolMode::Max,
            "mean" => PoolMode::Mean,
            "mean_sqrt_len_tokens" => PoolMode::MeanSqrtLen,
            other => bail!("{}: pooling mode {other:?} is not supported", path.display()),
        });
    } else {
        // sentence-transformers concatenates the enabled parts in this order.
        for (on, mode) in [
            (c.pooling_mode_cls_token, PoolMode::Cls),
            (c.pooling_mode_max_tokens, PoolMode::Max),
            (c.pooling_mode_mean_tokens, PoolMode::Mean),
            (c.pooling_mode_mean_sqrt_len_tokens, PoolMode::MeanSqrtLen),
        ] {
            if on {
                modes.push(mode);
            }
        }
    }
    if modes.is_empty() {
        bail!("{}: no pooling mode is enabled", path.display());
    }
    Ok(modes)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(dir: &Path, rel: &str, text: &str) {
        let p = dir.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }

    const MODULES: &str = r#"[{"idx":0,"name":"0","path":"","type":"sentence_transformers.models.Transformer"},
        {"idx":1,"name":"1","path":"1_Pooling","type":"sentence_transformers.models.Pooling"},
        {"idx":2,"name":"2","path":"2_Normalize","type":"sentence_transformers.models.Normalize"}]"#;

    #[test]
    fn minilm_layout() {
        let d = tempfile::tempdir().unwrap();
        write(d.path(), "modules.json", MODULES);
        write(d.path(), "sentence_bert_config.json", r#"{"max_seq_length": 256, "do_lower_case": false}"#);
        write(
            d.path(),
            "1_Pooling/config.json",
            r#"{"word_embedding_dimension":384,"pooling_mode_cls_token":false,"pooling_mode_mean_tokens":true,"pooling_mode_max_tokens":false,"pooling_mode_mean_sqrt_len_tokens":false}"#,
        );
        let c = SentenceConfig::read(d.path()).unwrap();
        assert_eq!(c.max_seq_length, Some(256));
        assert_eq!(c.pooling, vec![PoolMode::Mean]);
        assert!(c.normalize);
        assert!(!c.lowercase);
        assert_eq!(c.transformer_dir, d.path().join(""));
    }

    #[test]
    fn cls_pooling_without_normalize_and_several_modes() {
        let d = tempfile::tempdir().unwrap();
        write(
            d.path(),
            "modules.json",
            r#"[{"path":"","type":"sentence_transformers.models.Transformer"},{"path":"1_Pooling","type":"sentence_transformers.models.Pooling"}]"#,
        );
        write(d.path(), "1_Pooling/config.json", r#"{"pooling_mode_cls_token":true}"#);
        let c = SentenceConfig::read(d.path()).unwrap();
        assert_eq!(c.pooling, vec![PoolMode::Cls]);
        assert!(!c.normalize);
        assert_eq!(c.max_seq_length, None);

        write(
            d.path(),
            "1_Pooling/config.json",
            r#"{"pooling_mode_mean_tokens":true,"pooling_mode_max_tokens":true,"pooling_mode_cls_token":true}"#,
        );
        let c = SentenceConfig::read(d.path()).unwrap();
        assert_eq!(c.pooling, vec![PoolMode::Cls, PoolMode::Max, PoolMode::Mean]);
    }

    #[test]
    fn plain_hf_dir_and_unsupported_modules() {
        let d = tempfile::tempdir().unwrap();
        let c = SentenceConfig::read(d.path()).unwrap();
        assert_eq!(c.pooling, vec![PoolMode::Mean]);
        assert!(!c.normalize);

        write(
            d.path(),
            "modules.json",
            r#"[{"path":"","type":"sentence_transformers.models.Transformer"},{"path":"2_Dense","type":"sentence_transformers.models.Dense"}]"#,
        );
        let e = SentenceConfig::read(d.path()).unwrap_err().to_string();
        assert!(e.contains("Dense"), "{e}");
    }
}
