//! What a page and its JSON twin both read: the request's parameters
//! checked, the library and its vectors taken from the server's state, and
//! one workflow verb, which does the work. Nothing here ranks or searches.

use super::failure::Failure;
use super::session::Who;
use super::state::State;
use super::view::{checked_id, Params};
use crate::library::store::StoredPaper;
use crate::paper::Day;
use crate::workflow::digest::{self, DayOptions, Digest};
use crate::workflow::neighbours::{self, Neighbour};
use crate::workflow::paper::{self, Record};
use crate::workflow::search::{self, Results};
use crate::workflow::stats::{self, Stats};

/// A day ranked for the profile in `q`: `date`, else `q.date`, else the
/// newest day. A profile the reader does not have is a 404 naming theirs.
///
/// A page may show a profile that does not exist yet (`new_ok`): it is how
/// a reader starts one, and it begins to exist at its first rating or seed.
pub fn day(st: &State, who: &Who, q: &Params, date: Option<Day>, opts: DayOptions, new_ok: bool) -> Result<Digest, Failure> {
    let named = q.profile(who, &st.default_profile)?;
    let date = match date {
        Some(d) => Some(d),
        None => q.date()?,
    };
    let lib = st.reader()?;
    if named.name != st.default_profile && !new_ok {
        digest::check_known_profile(&named.name, &profiles(st, who)?)?;
    }
    let snap = st.vectors(&lib)?;
    // A day ranked once for every reader who asks, until the library or a
    // profile changes (each of those moves a generation on).
    let key = lib.store.profile_generation(&opts.profile)?.map(|p| format!("{}|{p}|{date:?}|{opts:?}", snap.generation));
    if let Some(d) = key.as_deref().and_then(|k| st.ranked_day(k)) {
        return Ok(Digest { profile: named.name, ..d });
    }
    let mut d = snap.ranking.listed_day(&lib, date, &opts)?;
    if let Some(k) = key {
        st.keep_ranked_day(k, d.clone());
    }
    d.profile = named.name;
    Ok(d)
}

/// The profiles of the user `who` acts for, by their names (the server's
/// default first when it has no row yet).
pub fn profiles(st: &State, who: &Who) -> Result<Vec<String>, Failure> {
    Ok(crate::profile::names_for(st.reader()?.store.db(), who.user.as_deref(), &st.default_profile)?)
}

pub fn like(st: &State, id: &str, q: &Params) -> Result<(StoredPaper, Vec<Neighbour>), Failure> {
    let id = checked_id(id)?;
    let (k, scope) = (q.k()?, q.scope()?);
    let lib = st.reader()?;
    let snap = st.vectors(&lib)?;
    Ok(neighbours::like_paper(&lib, &snap.ranking.vectors, &id.id, k, &scope)?)
}

/// Papers found for `q` by id, name, words and meaning; while the model
/// loads, by id, name and words alone, with a note that says so.
pub fn search(st: &State, q: &Params) -> Result<(Results, Option<String>), Failure> {
    let text = q.query()?.ok_or_else(|| Failure::bad_request("give the text to search for in q"))?;
    let (page, scope) = (q.page()?, q.scope()?);
    let lib = st.reader()?;
    let snap = st.vectors(&lib)?;
    let lexical = snap.lexical.as_ref();
    let (v, note) = match st.embed(&text) {
        Ok(v) => (Some(v), None),
        Err(f) if f.is_busy() && lexical.is_some() => (None, Some(f.message)),
        Err(f) => return Err(f),
    };
    let meaning = v.as_deref().map(|v| (&snap.ranking.vectors, v));
    Ok((search::find(&lib, lexical, meaning, &text, page, &scope)?, note))
}

/// A paper's record for the profile in `q`. Its neighbours need the
/// library's vectors: where it has none yet (503), the record has none.
pub fn paper(st: &State, who: &Who, id: &str, q: &Params) -> Result<Record, Failure> {
    let id = checked_id(id)?;
    let named = q.profile(who, &st.default_profile)?;
    let lib = st.reader()?;
    let snap = match st.vectors(&lib) {
        Ok(snap) => Some(snap),
        Err(f) if f.is_busy() => None,
        Err(f) => return Err(f),
    };
    Ok(paper::record(&lib, snap.as_ref().map(|s| &s.ranking.vectors), &named.key, &id.id)?)
}

/// The library's figures, with only the profiles of the user `who` acts for.
pub fn stats(st: &State, who: &Who) -> Result<Stats, Failure> {
    Ok(stats::collect_for(&*st.reader()?, who.user.as_deref())?)
}
