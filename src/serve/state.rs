//! What the server keeps between requests: the library's location, a few
//! open read connections, the vectors of the library's model (reloaded when
//! another process changes the library) and the model, loaded in the
//! background so the server answers at once.

use super::failure::Failure;
use crate::cli::ModelArgs;
use crate::embed::{self, Embedder, SentenceEmbedder};
use crate::library::lexical::LexicalIndex;
use crate::rank::WordCache;
use crate::library::{Library, UseIndex, Vectors};
use anyhow::{Context, Result};
use std::path::PathBuf;
use std::sync::{Arc, Mutex, RwLock};
use std::time::Duration;

/// How long a write waits for another process (an ingest) to finish writing.
const WRITE_PATIENCE: Duration = Duration::from_secs(10);
/// Read connections kept open between requests.
const POOL: usize = 8;

pub enum ModelStatus {
    Loading,
    Ready(Arc<SentenceEmbedder>),
    Failed(String),
}

/// The vectors of one generation of the library.
pub struct Snapshot {
    pub generation: i64,
    pub vectors: Vectors,
    /// Opened once per generation, like the vectors.
    pub lexical: Option<LexicalIndex>,
    /// The words of the papers ranked so far in this generation.
    pub words: Mutex<WordCache>,
}

pub struct State {
    pub dir: PathBuf,
    /// Must come back in `X-CSRF-Token` with every write: another site open
    /// in the same browser cannot read it, so it cannot forge a write.
    pub csrf: String,
    pub default_profile: String,
    model: RwLock<ModelStatus>,
    readers: Mutex<Vec<Library>>,
    snapshot: Mutex<Option<Arc<Snapshot>>>,
}

/// A read connection borrowed from the pool; it goes back when dropped.
pub struct Reader<'a> {
    lib: Option<Library>,
    state: &'a State,
}

impl std::ops::Deref for Reader<'_> {
    type Target = Library;
    fn deref(&self) -> &Library {
        self.lib.as_ref().expect("a reader holds its library until dropped")
    }
}

impl Drop for Reader<'_> {
    fn drop(&mut self) {
        if let (Some(lib), Ok(mut pool)) = (self.lib.take(), self.state.readers.lock()) {
            if pool.len() < POOL {
                pool.push(lib);
            }
        }
    }
}

pub fn random_hex(bytes: usize) -> Result<String> {
    let mut buf = vec![0u8; bytes];
    getrandom::fill(&mut buf).map_err(|e| anyhow::anyhow!("no randomness for the CSRF token: {e}"))?;
    Ok(buf.iter().map(|b| format!("{b:02x}")).collect())
}

impl State {
    pub fn new(dir: PathBuf, default_profile: String) -> Result<State> {
        Ok(State {
            dir,
            csrf: random_hex(32)?,
            default_profile,
            model: RwLock::new(ModelStatus::Loading),
            readers: Mutex::new(Vec::new()),
            snapshot: Mutex::new(None),
        })
    }

    pub fn reader(&self) -> Result<Reader<'_>, Failure> {
        let pooled = self.readers.lock().ok().and_then(|mut p| p.pop());
        let lib = match pooled {
            Some(lib) => lib,
            None => Library::open_read(&self.dir)?,
        };
        Ok(Reader { lib: Some(lib), state: self })
    }

    pub fn writer(&self) -> Result<Library, Failure> {
        Ok(Library::open_write_within(&self.dir, WRITE_PATIENCE)?)
    }

    /// The library's vectors, reloaded when its generation has moved on
    /// (an ingest by another process, or a seed embedded here).
    pub fn vectors(&self, lib: &Library) -> Result<Arc<Snapshot>, Failure> {
        let generation = lib.store.generation()?;
        if let Some(s) = self.snapshot.lock().ok().and_then(|s| s.clone()) {
            if s.generation == generation {
                return Ok(s);
            }
        }
        let model = lib
            .store
            .default_model()?
            .ok_or_else(|| Failure::unavailable("the library holds no vectors yet; run `paperscout ingest` first"))?;
        // The index is mapped once per generation; searches then cost
        // well under a millisecond at any library size.
        let vectors = lib.vectors(&model, UseIndex::IfBuilt)?;
        let lexical = lib.lexical()?;
        let words = crate::digest::words_for(lexical.as_ref());
        let snap = Arc::new(Snapshot { generation, vectors, lexical, words });
        if let Ok(mut s) = self.snapshot.lock() {
            *s = Some(snap.clone());
        }
        Ok(snap)
    }

    pub fn model_status(&self) -> &'static str {
        match self.model.read().as_deref() {
            Ok(ModelStatus::Ready(_)) => "ready",
            Ok(ModelStatus::Loading) => "loading",
            _ => "failed",
        }
    }

    /// The model, or a 503 that says why there is none yet.
    pub fn embedder(&self) -> Result<Arc<SentenceEmbedder>, Failure> {
        match self.model.read().as_deref() {
            Ok(ModelStatus::Ready(e)) => Ok(e.clone()),
            Ok(ModelStatus::Loading) => {
                Err(Failure::unavailable("the embedding model is still loading; this works in a few seconds"))
            }
            Ok(ModelStatus::Failed(why)) => Err(Failure::unavailable(format!("the embedding model could not be loaded: {why}"))),
            Err(_) => Err(Failure::unavailable("the embedding model is unavailable")),
        }
    }

    pub fn embed(&self, text: &str) -> Result<Vec<f32>, Failure> {
        let embedder = self.embedder()?;
        let v = embedder.embed(&[text], &|_| {})?;
        Ok(v.into_iter().next().context("the model returned no vector")?)
    }
}

/// Loads the library's model on its own thread; pages that need it say so
/// until it is ready.
pub fn load_model_in_background(state: Arc<State>, args: ModelArgs, verbose: bool) {
    std::thread::spawn(move || {
        // The vectors first: the first page then finds them mapped and in
        // the page cache. A failure here is reported by that page.
        if let Ok(lib) = state.reader() {
            let _ = state.vectors(&lib);
        }
        let status = match load_model(&state, &args, verbose) {
            Ok(e) => {
                if verbose {
                    eprintln!("model ready: {}", e.model_id());
                }
                ModelStatus::Ready(Arc::new(e))
            }
            Err(e) => {
                eprintln!("warning: no search by text: {e:#}");
                ModelStatus::Failed(format!("{e:#}"))
            }
        };
        if let Ok(mut m) = state.model.write() {
            *m = status;
        }
    });
}

fn load_model(state: &State, args: &ModelArgs, verbose: bool) -> Result<SentenceEmbedder> {
    let known = Library::open_read(&state.dir)?.store.default_model()?;
    let embedder = embed::open(&embed::args_for_library(args, known.as_deref()), verbose)?;
    if let Some(k) = known.filter(|k| k != embedder.model_id()) {
        anyhow::bail!(embed::model_mismatch(&k, embedder.model_id()));
    }
    Ok(embedder)
}
