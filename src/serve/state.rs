//! What the server keeps between requests: the library's location, a few
//! open read connections, the vectors of the library's model (reloaded when
//! another process changes the library) and the model, loaded in the
//! background so the server answers at once.

use super::failure::Failure;
use crate::embed::ModelArgs;
use crate::embed::{self, Embedder, SentenceEmbedder};
use crate::library::lexical::LexicalIndex;
use crate::library::store::ProfileKey;
use crate::library::{Library, Served, UseIndex};
use crate::workflow::digest::Digest;
use crate::workflow::digest::Ranking;
pub use crate::workflow::seeds::SeedsEmbedded;
use crate::workflow::seeds::{self, SeedLibrary};
use anyhow::{Context, Result};
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Condvar, Mutex, RwLock};
use std::time::{Duration, Instant};

/// How long a write waits for another process (an ingest) to finish writing.
const WRITE_PATIENCE: Duration = Duration::from_secs(10);
/// Read connections, opened on first use and then kept: every handler
/// shares these, so a burst of requests never opens more files.
pub const READERS: usize = 12;
/// The time a request's library work may take, of the 60 s a request has
/// (`serve::REQUEST_TIMEOUT`): after it, work stops rather than go on for a
/// client that has been told 503.
pub const WORK_BUDGET: Duration = Duration::from_secs(40);

/// `Err` (503) once `deadline` has passed, before a request writes anything.
pub fn in_time(deadline: Instant, what: &str) -> Result<(), Failure> {
    if Instant::now() >= deadline {
        return Err(Failure::unavailable(format!("{what} took too long, so nothing was changed: try again")));
    }
    Ok(())
}

/// How long a request waits for a free reader before it gets a 503.
const READER_PATIENCE: Duration = Duration::from_secs(20);

pub enum ModelStatus {
    Loading,
    Ready(Arc<SentenceEmbedder>),
    Failed(String),
}

/// The vectors of one generation of the library.
pub struct Snapshot {
    pub generation: i64,
    /// The vectors, and the words of the papers ranked so far in this
    /// generation.
    pub ranking: Ranking,
    /// Opened once per generation, like the vectors.
    pub lexical: Option<LexicalIndex>,
    /// How `like` answers: the index at a measured width, or the sketch.
    pub served: Served,
}

/// Recent sends remembered before the old ones (over an hour) are forgotten.
const SENDS_KEPT: usize = 10_000;

/// Ranked days kept at once (a day of 300 papers is about half a MB): a
/// day for each profile, method and Top a lab asks for.
const RANKED_DAYS: usize = 32;

pub struct State {
    pub dir: PathBuf,
    /// The names requests must give in `Host`.
    pub hosts: super::guard::HostPolicy,
    /// Every request needs a signed-in session.
    pub login: bool,
    pub throttle: Arc<super::throttle::Throttle>,
    /// The threads that check passwords.
    pub hashing: super::hashing::Hashing,
    /// Without sign-in, must come back in `X-CSRF-Token` with every write:
    /// another site open in the same browser cannot read it, so it cannot
    /// forge a write. Signed-in sessions have their own.
    pub csrf: String,
    /// Without accounts: the key this launch printed, which a browser must
    /// show (once in the URL, then as a cookie) to be answered.
    pub owner: Option<String>,
    pub default_profile: String,
    model: RwLock<ModelStatus>,
    readers: Mutex<Pool>,
    returned: Condvar,
    snapshot: Mutex<Option<Arc<Snapshot>>>,
    /// The last calibration, by the index it measured.
    served: Mutex<Option<(ServedKey, Served)>>,
    /// Days already ranked, by what their ranking depends on (see
    /// `read::day`): a page of 50 readers ranks the day once.
    ranked: Mutex<HashMap<String, Digest>>,
    /// Where readers' webhooks may go (Settings checks a saved one, and a test).
    pub destinations: crate::delivery::Destinations,
    /// The morning this server delivers, if it was started with `--morning`.
    pub morning: Option<super::MorningPlan>,
    /// When each reader last had the server send something on request (a
    /// test, a confirmation code): one account, one entry.
    sends: Mutex<HashMap<String, Instant>>,
    /// Serialises this server's writes; SQLite takes one writer at a time anyway.
    write: Mutex<()>,
}

type ServedKey = Option<(String, usize, i64)>;

/// The fixed pool: connections not lent out, and how many exist.
#[derive(Default)]
struct Pool {
    idle: Vec<Library>,
    open: usize,
}

/// A read connection borrowed from the pool; it goes back when dropped.
pub struct Pooled<'a> {
    lib: Option<Library>,
    state: &'a State,
}

impl std::ops::Deref for Pooled<'_> {
    type Target = Library;
    fn deref(&self) -> &Library {
        self.lib.as_ref().expect("a reader holds its library until dropped")
    }
}

impl Drop for Pooled<'_> {
    fn drop(&mut self) {
        if let (Some(lib), Ok(mut pool)) = (self.lib.take(), self.state.readers.lock()) {
            pool.idle.push(lib);
            self.state.returned.notify_one();
        }
    }
}

/// The library opened for writing, held with this server's write turn.
pub struct Writer<'a> {
    lib: Library,
    _turn: std::sync::MutexGuard<'a, ()>,
}

impl std::ops::Deref for Writer<'_> {
    type Target = Library;
    fn deref(&self) -> &Library {
        &self.lib
    }
}

impl std::ops::DerefMut for Writer<'_> {
    fn deref_mut(&mut self) -> &mut Library {
        &mut self.lib
    }
}

impl State {
    pub fn new(dir: PathBuf, default_profile: String, hosts: super::guard::HostPolicy, login: bool) -> Result<State> {
        Ok(State {
            dir,
            hosts,
            login,
            throttle: Default::default(),
            hashing: super::hashing::Hashing::start(),
            csrf: crate::accounts::random_hex(32)?,
            owner: None,
            default_profile,
            model: RwLock::new(ModelStatus::Loading),
            readers: Mutex::new(Pool::default()),
            returned: Condvar::new(),
            snapshot: Mutex::new(None),
            served: Mutex::new(None),
            ranked: Mutex::new(HashMap::new()),
            destinations: crate::delivery::Destinations::default(),
            morning: None,
            sends: Mutex::new(HashMap::new()),
            write: Mutex::new(()),
        })
    }

    /// Whether `reader` may have the server send something now (a test, a
    /// code): not within `spacing` of the last; `Err` says how long to wait.
    pub fn may_send(&self, reader: &str, spacing: Duration) -> Result<(), Duration> {
        let mut sends = self.sends.lock().unwrap_or_else(|p| p.into_inner());
        let now = Instant::now();
        // Keys are readers and the addresses they typed: forget old ones.
        if sends.len() >= SENDS_KEPT {
            sends.retain(|_, at| now.duration_since(*at) < Duration::from_secs(3600));
        }
        if let Some(last) = sends.get(reader) {
            let since = now.duration_since(*last);
            if since < spacing {
                return Err(spacing - since);
            }
        }
        sends.insert(reader.to_string(), now);
        Ok(())
    }

    /// A day ranked before under `key`.
    pub fn ranked_day(&self, key: &str) -> Option<Digest> {
        self.ranked.lock().ok()?.get(key).cloned()
    }

    /// Keeps a ranked day; the oldest generations' go when the table is full
    /// (all at once: keys of a past generation are never asked again).
    pub fn keep_ranked_day(&self, key: String, d: Digest) {
        if let Ok(mut ranked) = self.ranked.lock() {
            if ranked.len() >= RANKED_DAYS {
                ranked.clear();
            }
            ranked.insert(key, d);
        }
    }

    /// A read connection from the fixed pool, waiting (bounded) for one to
    /// come back when all are lent out.
    pub fn reader(&self) -> Result<Pooled<'_>, Failure> {
        let busy = || Failure::unavailable("the server is busy; try again in a moment");
        let mut pool = self.readers.lock().map_err(|_| busy())?;
        let deadline = std::time::Instant::now() + READER_PATIENCE;
        loop {
            if let Some(lib) = pool.idle.pop() {
                return Ok(Pooled { lib: Some(lib), state: self });
            }
            if pool.open < READERS {
                pool.open += 1;
                drop(pool);
                return match Library::open_read(&self.dir) {
                    Ok(lib) => Ok(Pooled { lib: Some(lib), state: self }),
                    Err(e) => {
                        if let Ok(mut p) = self.readers.lock() {
                            p.open -= 1;
                        }
                        Err(e.into())
                    }
                };
            }
            let left = deadline.saturating_duration_since(std::time::Instant::now());
            if left.is_zero() {
                return Err(busy());
            }
            pool = self.returned.wait_timeout(pool, left).map_err(|_| busy())?.0;
        }
    }

    /// The library opened for one write; this server's writes take turns.
    pub fn writer(&self) -> Result<Writer<'_>, Failure> {
        let turn = self.write.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        Ok(Writer { lib: Library::open_write_within(&self.dir, WRITE_PATIENCE)?, _turn: turn })
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
        let model = crate::workflow::library_model(lib)?;
        // The index is mapped once per generation; searches then cost
        // well under a millisecond at any library size.
        let mut vectors = lib.vectors(&model, UseIndex::IfBuilt)?;
        if vectors.index.is_some() && vectors.sketch.is_none() {
            // The other way to answer, should the index fall short.
            vectors.sketch = lib.current_sketch(&vectors.flat);
        }
        // How this library's neighbours are best found, measured on its own
        // papers; kept while the index is the same one.
        let key = vectors.index.as_ref().map(|ix| (ix.meta.file.clone(), ix.meta.count, ix.meta.retired));
        let known = self.served.lock().ok().and_then(|s| s.clone()).filter(|(k, _)| key.is_some() && *k == key);
        let served = match known {
            Some((_, served)) => {
                vectors.serve_as(&served)?;
                served
            }
            None => {
                let served = vectors.calibrate()?;
                if served != Served::Unmeasured {
                    crate::messages::detail(format_args!("like: {served}"));
                }
                if let Ok(mut s) = self.served.lock() {
                    *s = Some((key, served.clone()));
                }
                served
            }
        };
        let lexical = lib.lexical()?;
        let ranking = Ranking::of(model, vectors, lexical.as_ref());
        let snap = Arc::new(Snapshot { generation, ranking, lexical, served });
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
    /// Embeds `profile`'s seeds that lack a vector, by `deadline`
    /// ([`seeds::embed_seed_vectors`], the one way seeds are embedded).
    pub fn embed_seeds(&self, profile: &ProfileKey, embedder: &dyn Embedder, deadline: Instant) -> Result<SeedsEmbedded, Failure> {
        seeds::embed_seed_vectors(&mut Lent(self), profile, embedder, Some(deadline))
    }

    pub fn embedder(&self) -> Result<Arc<SentenceEmbedder>, Failure> {
        match self.model.read().as_deref() {
            Ok(ModelStatus::Ready(e)) => Ok(e.clone()),
            Ok(ModelStatus::Loading) => Err(Failure::unavailable("the embedding model is still loading; this works in a few seconds")),
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
pub fn load_model_in_background(state: Arc<State>, args: ModelArgs) {
    std::thread::spawn(move || {
        // The vectors first: the first page then finds them mapped and in
        // the page cache. A failure here is reported by that page.
        if let Ok(lib) = state.reader() {
            let _ = state.vectors(&lib);
        }
        let status = match load_model(&state, &args) {
            Ok(e) => {
                crate::messages::detail(format_args!("model ready: {}", e.model_id()));
                ModelStatus::Ready(Arc::new(e))
            }
            Err(e) => {
                crate::messages::warning(format_args!("no search by text: {e:#}"));
                ModelStatus::Failed(format!("{e:#}"))
            }
        };
        if let Ok(mut m) = state.model.write() {
            *m = status;
        }
    });
}

fn load_model(state: &State, args: &ModelArgs) -> Result<SentenceEmbedder> {
    let known = Library::open_read(&state.dir)?.store.default_model()?;
    let embedder = embed::open(&embed::args_for_library(args, known.as_deref()))?;
    if let Some(k) = known.filter(|k| k != embedder.model_id()) {
        anyhow::bail!(embed::model_mismatch(&k, embedder.model_id()));
    }
    Ok(embedder)
}

/// The library as seeds are embedded on the server: read through the
/// pool, written in the write turn.
struct Lent<'a>(&'a State);

impl SeedLibrary for Lent<'_> {
    type Error = Failure;

    fn missing(&mut self, profile: &ProfileKey, model: &str) -> Result<Vec<(Vec<u8>, String)>, Failure> {
        let lib = self.0.reader()?;
        crate::profile::check_model(&lib.store, model)?;
        Ok(crate::profile::missing_vectors(lib.store.db(), profile, model)?)
    }

    fn keep(&mut self, model: &str, piece: &[(Vec<u8>, String)], vectors: &[Vec<f32>]) -> Result<(), Failure> {
        Ok(crate::profile::store_vectors(&mut *self.0.writer()?, model, piece, vectors)?)
    }
}
