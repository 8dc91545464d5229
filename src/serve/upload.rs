//! `POST /api/seeds/upload`: a BibTeX, CSL-JSON or id-list export added as
//! seeds from the browser, as `seed add FILE` adds it on the command line.
//! The file is read from the request, never from the server's disk.

use super::api::{Answer, NamesProfile, Write};
use super::failure::{ApiError, Failure, Refusal};
use super::session::Who;
use super::state::{in_time, State, WORK_BUDGET};
use super::view::clip;
use super::work::{blocking_as, Cost};
use crate::fetch::FetchOpts;
use crate::paper::ArxivId;
use crate::profile::{self, seed_files, seed_files::SeedFile};
use crate::workflow::seeds;
use axum::extract::multipart::{Multipart, MultipartError, MultipartRejection};
use axum::extract::State as Shared;
use axum::http::HeaderMap;
use axum::Extension;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// The largest export taken: a reference manager's whole library with
/// abstracts is a few megabytes.
pub const UPLOAD_LIMIT: usize = 8 * 1024 * 1024;

/// Papers looked up on arXiv for one upload, at most: more is a harvest.
const MAX_LOOKUPS: usize = 200;

/// What an upload added.
#[derive(Serialize)]
pub struct Uploaded {
    profile: String,
    file: String,
    entries: usize,
    new: usize,
    updated: usize,
    /// How its entries were recognised: by arXiv id or by title only.
    recognised: profile::Recognised,
    embedded: usize,
    /// Seeds still without a vector when the request's time for embedding
    /// ran out (`State::embed_seeds`).
    to_embed: usize,
    looked_up: Vec<String>,
}

pub async fn upload_seeds(
    Shared(st): Shared<Arc<State>>,
    Extension(who): Extension<Who>,
    headers: HeaderMap,
    form: Result<Multipart, MultipartRejection>,
) -> Result<Answer<Uploaded>, ApiError> {
    let deadline = std::time::Instant::now() + WORK_BUDGET;
    // A form, not JSON: the token is checked here as `Write` checks it.
    who.check_csrf(&headers)?;
    let mut form =
        form.map_err(|e| Failure { refusal: Refusal::of_rejection(e.status()), message: format!("bad upload: {}", e.body_text()) })?;
    // Too large keeps its 413; a broken form is the sender's 400.
    let broken =
        |e: MultipartError| Failure { refusal: Refusal::of_rejection(e.status()), message: format!("bad upload: {}", e.body_text()) };
    let (mut file, mut name, mut profile) = (None, String::from("upload"), None);
    while let Some(field) = form.next_field().await.map_err(broken)? {
        match field.name() {
            Some("file") => {
                // A browser may send a path ("C:\\fakepath\\x.bib"): the name is enough.
                if let Some(n) = field.file_name().and_then(|n| n.rsplit(['/', '\\']).next()).filter(|n| !n.trim().is_empty()) {
                    name = clip(n);
                }
                file = Some(field.bytes().await.map_err(broken)?);
            }
            Some("profile") => {
                profile = Some(field.text().await.map_err(broken)?);
            }
            other => {
                return Err(Failure::bad_request(format!(
                    "unexpected form field {:?}: send `file` (and `profile`)",
                    clip(other.unwrap_or(""))
                ))
                .into())
            }
        }
    }
    let file = file.ok_or_else(|| Failure::bad_request("no file in the upload: send it as the form field `file`"))?;
    let text = String::from_utf8(file.to_vec())
        .map_err(|_| Failure::bad_request(format!("{name} is not UTF-8 text: export BibTeX or CSL-JSON")))?;
    if text.trim().is_empty() {
        return Err(Failure::bad_request(format!("{name} is empty")).into());
    }
    let named = who.profile(profile.as_deref(), &st.default_profile)?;
    // The file's own faults are the sender's: 400 with the line, before any work.
    let parsed = seed_files::read(&text, &name).map_err(the_files_fault)?;
    let entries = match &parsed {
        SeedFile::Seeds(s) => s.len(),
        SeedFile::Ids(ids) => ids.len(),
    };
    // Ids the library lacks, and exports' arXiv entries without an abstract,
    // are looked up on arXiv as `seed add` does.
    let wanted: Vec<String> = match &parsed {
        SeedFile::Ids(ids) => ids.iter().map(|(_, id)| id.id.clone()).collect(),
        SeedFile::Seeds(s) => {
            s.iter().filter(|s| s.abstract_text.is_empty() && ArxivId::parse(&s.key).is_some()).map(|s| s.key.clone()).collect()
        }
    };
    let embedder = st.embedder()?;
    let v = blocking_as(Cost::Heavy, move || {
        let missing = seeds::missing_ids(&*st.reader()?, &wanted, false)?;
        if missing.len() > MAX_LOOKUPS {
            return Err(Failure::bad_request(format!(
                "{name}: {} papers are not in the library; at most {MAX_LOOKUPS} are looked up from the browser (`paperscout seed add {name}` takes any number)",
                missing.len()
            )));
        }
        let found = if missing.is_empty() { Vec::new() } else { seeds::look_up(&missing, &FetchOpts::from_env())? };
        in_time(deadline, "looking the papers up on arXiv")?;
        let added = {
            let mut lib = st.writer()?;
            lib.add_papers(&found)?;
            let items = profile::seeds_of(parsed, &name, &lib).map_err(the_files_fault)?;
            (profile::add(lib.store.db(), &named.key, &items, 1.0, false, &crate::library::store::now())?, profile::Recognised::of(&items))
        };
        let (added, recognised) = added;
        let done = st.embed_seeds(&named.key, embedder.as_ref(), deadline)?;
        Ok(Uploaded {
            profile: named.name,
            file: name,
            entries,
            new: added.new,
            updated: added.updated,
            recognised,
            embedded: done.embedded,
            to_embed: done.left,
            looked_up: found.into_iter().map(|p| p.id).collect(),
        })
    })
    .await?;
    Ok(Answer(v))
}

/// `GET /api/token`: the caller's current write token, for a page whose own
/// went stale (a server restart); same-origin reads only, as every page.
#[derive(Serialize)]
pub struct Token {
    csrf: String,
}

pub async fn token(Extension(who): Extension<Who>) -> Result<Answer<Token>, ApiError> {
    if who.csrf.is_empty() {
        return Err(Failure::unauthorized("sign in first").into());
    }
    Ok(Answer(Token { csrf: who.csrf }))
}

#[derive(Deserialize)]
pub struct ZoteroBody {
    /// zotero.sqlite on this machine; empty for ~/Zotero/zotero.sqlite.
    db: Option<String>,
    profile: Option<String>,
}

impl NamesProfile for ZoteroBody {
    fn profile(&self) -> Option<&str> {
        self.profile.as_deref()
    }
}

/// What a Zotero sync changed.
#[derive(Serialize)]
pub struct Synced {
    profile: String,
    file: String,
    entries: usize,
    new: usize,
    updated: usize,
    removed: usize,
    untitled: usize,
    embedded: usize,
    to_embed: usize,
}

/// `POST /api/seeds/zotero` `{"db": PATH}`: the profile's seeds made to match
/// a Zotero database on the server's own disk, as `seed sync zotero` does.
/// Only a server that serves one person on loopback (no accounts) reads a
/// path from the browser: there the browser's user is the disk's owner. A
/// shared server refuses, and says how to sync there.
pub async fn sync_zotero(Shared(st): Shared<Arc<State>>, w: Write<ZoteroBody>) -> Result<Answer<Synced>, ApiError> {
    let deadline = std::time::Instant::now() + WORK_BUDGET;
    let Write { body: b, profile: named, .. } = w;
    if st.login {
        return Err(Failure::forbidden(
            "this server has accounts, so it reads no paths from the browser: upload a BibTeX export, or run `paperscout seed sync zotero` on the server",
        )
        .into());
    }
    let db = match b.db.as_deref().map(str::trim).filter(|p| !p.is_empty()) {
        Some(p) if p.len() > 4096 || p.chars().any(char::is_control) => return Err(Failure::bad_request("that is not a file path").into()),
        Some(p) => std::path::PathBuf::from(p),
        None => dirs::home_dir()
            .ok_or_else(|| Failure::bad_request("no home directory to find ~/Zotero/zotero.sqlite in; give the path"))?
            .join("Zotero/zotero.sqlite"),
    };
    if !db.is_file() {
        return Err(Failure::not_found(format!(
            "no file {}: Zotero keeps zotero.sqlite in its data directory (Zotero → Settings → Advanced → Files and Folders)",
            db.display()
        ))
        .into());
    }
    let embedder = st.embedder()?;
    let v = blocking_as(Cost::Heavy, move || {
        let sel = profile::zotero::Selection::new(&[])?;
        let (items, untitled) = profile::zotero::read(&db, &sel, &*st.reader()?).map_err(the_files_fault)?;
        let found = items.len();
        in_time(deadline, "reading the Zotero database")?;
        let plan = {
            let mut lib = st.writer()?;
            let plan = profile::zotero::plan(lib.store.db(), &named.key, items)?;
            profile::zotero::apply(&mut lib, &named.key, &plan)?;
            plan
        };
        let done = st.embed_seeds(&named.key, embedder.as_ref(), deadline)?;
        let embedded = done.embedded;
        Ok(Synced {
            profile: named.name,
            file: db.display().to_string(),
            entries: found,
            new: plan.add.len(),
            updated: plan.update.len(),
            removed: plan.remove.len(),
            untitled,
            embedded,
            to_embed: done.left,
        })
    })
    .await?;
    Ok(Answer(v))
}

/// A seed file's (or Zotero database's) error: a kind the stages gave it
/// (a busy library is 503) is kept; one without a kind is the file's own
/// fault, 400.
fn the_files_fault(e: anyhow::Error) -> Failure {
    match crate::serve::failure::kind_of(&e) {
        crate::error::Kind::Internal => Failure::bad_request(format!("{e:#}")),
        kind => Failure::of(kind, format!("{e:#}")),
    }
}
