//! Where the model comes from, first match wins:
//! `--model DIR`, `$PAPERSCOUT_MODEL`, `models/all-MiniLM-L6-v2` next to the
//! executable (or a few directories up, for `target/release/paperscout`) or
//! in the working directory, then the Hugging Face hub cache or a download of
//! `sentence-transformers/all-MiniLM-L6-v2`.

use anyhow::{bail, Context, Result};
use std::path::{Path, PathBuf};

pub const DEFAULT_NAME: &str = "all-MiniLM-L6-v2";
pub const DEFAULT_REPO: &str = "sentence-transformers/all-MiniLM-L6-v2";
pub const ENV_VAR: &str = "PAPERSCOUT_MODEL";
/// How parent directories of the executable are searched for models/.
const EXE_ANCESTORS: usize = 3;

#[derive(Debug, Clone)]
pub struct ResolvedModel {
    pub dir: PathBuf,
    /// Short model name, the first part of `Embedder::model_id`.
    pub name: String,
    /// Which rule found it, for `--verbose`.
    pub source: String,
}

fn named(dir: PathBuf, source: String) -> ResolvedModel {
    let name = dir
        .canonicalize()
        .unwrap_or_else(|_| dir.clone())
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| DEFAULT_NAME.to_string());
    ResolvedModel { dir, name, source }
}

fn explicit(dir: &Path, what: &str) -> Result<ResolvedModel> {
    if !dir.is_dir() {
        bail!("{what} {}: no such directory", dir.display());
    }
    Ok(named(dir.to_path_buf(), what.to_string()))
}

/// Finds the model directory. `flag` is `--model`.
pub fn resolve(flag: Option<&Path>) -> Result<ResolvedModel> {
    if let Some(dir) = flag {
        return explicit(dir, "--model");
    }
    if let Some(dir) = std::env::var_os(ENV_VAR).filter(|v| !v.is_empty()) {
        return explicit(Path::new(&dir), &format!("${ENV_VAR}"));
    }
    let rel = Path::new("models").join(DEFAULT_NAME);
    if let Ok(exe) = std::env::current_exe() {
        for dir in exe.ancestors().skip(1).take(EXE_ANCESTORS + 1) {
            let candidate = dir.join(&rel);
            if candidate.is_dir() {
                return Ok(named(candidate, "next to the executable".into()));
            }
        }
    }
    if rel.is_dir() {
        let cwd = std::env::current_dir().map(|d| d.join(&rel)).unwrap_or(rel);
        return Ok(named(cwd, "working directory".into()));
    }
    from_hub().map_err(|e| {
        anyhow::anyhow!(
            "no model: no --model, no ${ENV_VAR}, no {} next to the executable or in the working \
             directory, none in the Hugging Face cache, and fetching {DEFAULT_REPO} from the hub \
             failed ({}); run models/fetch to provision it offline, or pass --model DIR",
            rel.display(),
            e.root_cause()
        )
    })
}

/// The files of the default model that loading reads (config.json first).
const HUB_FILES: &[&str] =
    &["config.json", "tokenizer.json", "model.safetensors", "modules.json", "sentence_bert_config.json", "1_Pooling/config.json"];

fn from_hub() -> Result<ResolvedModel> {
    let name = DEFAULT_REPO.rsplit('/').next().unwrap_or(DEFAULT_NAME).to_string();
    let cache = hf_hub::Cache::from_env();
    let cached = cache.model(DEFAULT_REPO.to_string());
    if let Some(paths) = HUB_FILES.iter().map(|f| cached.get(f)).collect::<Option<Vec<_>>>() {
        let dir = paths[0].parent().context("odd hub cache path")?.to_path_buf();
        return Ok(ResolvedModel { dir, name, source: "Hugging Face cache".into() });
    }
    let api = hf_hub::api::sync::ApiBuilder::from_env()
        .with_progress(false)
        .with_retries(0)
        .build()
        .context("cannot set up the Hugging Face hub client")?;
    let repo = api.model(DEFAULT_REPO.to_string());
    let mut dir = None;
    for f in HUB_FILES {
        let p = repo.get(f).with_context(|| format!("downloading {f} of {DEFAULT_REPO}"))?;
        dir.get_or_insert_with(|| p.parent().map(Path::to_path_buf));
    }
    let dir = dir.flatten().context("odd hub cache path")?;
    Ok(ResolvedModel { dir, name, source: "downloaded from the Hugging Face hub".into() })
}
