//! Seeds into a profile: ids, files and sentences read, papers the library
//! lacks looked up on arXiv, stored, and their texts embedded — what `seed
//! add` does, and what adding a seed from the browser needs.

use crate::embed::{self, ModelArgs};
use crate::fetch::FetchOpts;
use crate::library::store::ProfileKey;
use crate::library::Library;
use crate::profile::{self, Added, SeedInput};
use crate::workflow::fetch::resolve_missing_ids;
pub use crate::workflow::fetch::{look_up, missing_ids};
use anyhow::{bail, Result};

/// What to add: arXiv ids or seed files (`items`), and a sentence.
pub struct SeedRequest<'a> {
    pub items: &'a [String],
    /// Whether `items` may name files on this machine: on the command
    /// line, yes; from the network, never.
    pub files: bool,
    pub text: Option<&'a str>,
    /// For a single id the library lacks, when arXiv is not asked.
    pub title: Option<&'a str>,
    pub abstract_text: Option<&'a str>,
    pub weight: f32,
    pub negative: bool,
    /// Look up on arXiv the ids the library lacks.
    pub fetch: Option<&'a FetchOpts>,
}

impl SeedRequest<'_> {
    /// The request's own faults, found before the library is opened.
    pub fn check(&self) -> Result<()> {
        if !(self.weight.is_finite() && self.weight > 0.0) {
            bail!("--weight must be a positive number");
        }
        if self.text.is_some_and(|t| t.trim().is_empty()) {
            bail!("--text is empty; give the sentence to use as a seed");
        }
        Ok(())
    }
}

/// What an add did: seeds new and updated, how they were recognised,
/// texts embedded.
pub struct SeedsAdded {
    pub added: Added,
    pub recognised: profile::Recognised,
    pub embedded: usize,
}

/// Adds the request's seeds to `profile` and embeds what has no vector.
/// When embedding fails the seeds stay stored, and the error says that
/// the same add with a working model embeds them.
pub fn add(lib: &mut Library, profile_name: &ProfileKey, req: &SeedRequest, model: &ModelArgs) -> Result<SeedsAdded> {
    add_with(lib, profile_name, req, |lib| embed_seeds(lib, profile_name, model))
}

/// [`add`] with the embedding left to `embed`: the server embeds with the
/// model it holds.
pub fn add_with(
    lib: &mut Library,
    profile_name: &ProfileKey,
    req: &SeedRequest,
    embed: impl FnOnce(&mut Library) -> Result<usize>,
) -> Result<SeedsAdded> {
    req.check()?;
    if let Some(opts) = req.fetch {
        let n = resolve_missing_ids(lib, req.items, req.files, opts)?;
        if n > 0 {
            crate::messages::detail(format_args!("{n} paper(s) looked up on arXiv and stored"));
        }
    }
    let mut seeds = profile::read_items(req.items, req.files, lib, req.title, req.abstract_text)?;
    if let Some(t) = req.text {
        seeds.push(SeedInput::from_free_text(t));
    }
    let now = crate::library::store::now();
    let recognised = profile::Recognised::of(&seeds);
    let added = profile::add(lib.store.db(), profile_name, &seeds, req.weight, req.negative, &now)?;
    let n = added.new + added.updated;
    let embedded = embed(lib).map_err(|e| {
        e.context(format!(
            "{n} seed(s) are stored in profile {profile_name:?} but not embedded; the same `seed add` with a working model embeds them"
        ))
    })?;
    Ok(SeedsAdded { added, recognised, embedded })
}

/// Embeds the profile's seeds that have no vector for the library's model
/// (loading the model only when there is something to embed).
pub fn embed_seeds(lib: &mut Library, profile_name: &ProfileKey, model: &ModelArgs) -> Result<usize> {
    let known = lib.store.default_model()?;
    if let Some(m) = &known {
        if profile::missing_vectors(lib.store.db(), profile_name, m)?.is_empty() {
            return Ok(0);
        }
    }
    let embedder = embed::load(&embed::args_for_library(model, known.as_deref()))?;
    Ok(embed_seed_vectors(lib, profile_name, embedder.as_ref(), None)?.embedded)
}

/// Seed texts embedded between two short writes.
const EMBED_PIECE: usize = 32;

/// What [`embed_seed_vectors`] did.
#[derive(Debug, Default, Clone, Copy)]
pub struct SeedsEmbedded {
    pub embedded: usize,
    /// Still without a vector when the time ran out.
    pub left: usize,
}

/// Where a profile's seed vectors are read from and kept: a command's own
/// library, or a server's pool of readers and its write turn.
pub trait SeedLibrary {
    type Error: From<anyhow::Error>;
    /// The seeds of `profile` without a vector of `model` (which must be
    /// the library's), as (hash, text).
    fn missing(&mut self, profile: &ProfileKey, model: &str) -> Result<Vec<(Vec<u8>, String)>, Self::Error>;
    /// Keeps one piece's vectors, in a transaction of its own.
    fn keep(&mut self, model: &str, piece: &[(Vec<u8>, String)], vectors: &[Vec<f32>]) -> Result<(), Self::Error>;
}

impl SeedLibrary for Library {
    type Error = anyhow::Error;

    fn missing(&mut self, profile: &ProfileKey, model: &str) -> Result<Vec<(Vec<u8>, String)>> {
        profile::check_model(&self.store, model)?;
        profile::missing_vectors(self.store.db(), profile, model)
    }

    fn keep(&mut self, model: &str, piece: &[(Vec<u8>, String)], vectors: &[Vec<f32>]) -> Result<()> {
        profile::store_vectors(self, model, piece, vectors)
    }
}

/// The one way seeds are embedded: `profile`'s seeds that lack a vector of
/// `embedder`'s model, [`EMBED_PIECE`] at a time. The model runs outside
/// any write and each piece is kept in a transaction of its own, so on a
/// server another reader's rating waits for one short write at most.
/// Stops at `deadline`, if one is given (a request's budget); what is
/// left is embedded by the next write to the profile or `seed add`.
pub fn embed_seed_vectors<L: SeedLibrary + ?Sized>(
    lib: &mut L,
    profile: &ProfileKey,
    embedder: &dyn embed::Embedder,
    deadline: Option<std::time::Instant>,
) -> Result<SeedsEmbedded, L::Error> {
    let model = embedder.model_id().to_string();
    let mut done = SeedsEmbedded::default();
    loop {
        let todo = lib.missing(profile, &model)?;
        if todo.is_empty() || deadline.is_some_and(|d| std::time::Instant::now() >= d) {
            done.left = todo.len();
            return Ok(done);
        }
        let piece = &todo[..todo.len().min(EMBED_PIECE)];
        let texts: Vec<&str> = piece.iter().map(|(_, t)| t.as_str()).collect();
        let vectors = embedder.embed(&texts, &|_| {})?;
        // A piece kept short would be missing again next round, for ever.
        if vectors.len() != piece.len() {
            return Err(anyhow::anyhow!("the model gave {} vectors for {} seed texts", vectors.len(), piece.len()).into());
        }
        lib.keep(&model, piece, &vectors)?;
        done.embedded += piece.len();
    }
}
