//! A query's vector: a sentence, title or abstract embedded by the model
//! of the library's vectors, or refused when the model chosen is another.

use crate::embed::{self, ModelArgs};
use anyhow::{bail, Context, Result};

/// The vector of `text` and the model id it belongs to. `known` is the
/// library's model; with none, the model chosen by `model` decides.
pub fn embed_text(text: &str, known: Option<&str>, model: &ModelArgs) -> Result<(String, Vec<f32>)> {
    let embedder = embed::load(&embed::args_for_library(model, known))?;
    let id = embedder.model_id().to_string();
    if let Some(known) = known.filter(|k| *k != id) {
        bail!(embed::model_mismatch(known, &id));
    }
    let v = embedder.embed(&[text.trim()], &|_| {})?;
    Ok((id, v.into_iter().next().context("the model returned no vector")?))
}
