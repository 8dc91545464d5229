//! A day's listing ranked against a profile: the picks with their reasons,
//! the papers the profile is least sure about, and what the filters hid.
//! `daily`, the morning and `serve` all rank through a [`Ranking`], so a
//! page, a mail and the command line can never rank differently.

mod sample;
mod view;

pub use view::{DayOptions, Digest, Explained, Hidden, Pick, Reason, Top};

use crate::library::lexical::LexicalIndex;
use crate::library::store::DayEntry;
use crate::library::store::ProfileKey;
use crate::library::vectors::FlatVectors;
use crate::library::Library;
use crate::library::Vectors;
use crate::paper::Day;
use crate::paper::Kind;
use crate::profile::filters::{self, Verdict};
use crate::profile::{self, ratings};
use crate::rank::{self, Candidate, Ranker, SeedMatch, SeedVector, Terms, Vocabulary, WordCache};
use anyhow::{bail, Context, Result};
use sample::{vectors_of, Background};
use std::collections::HashMap;
use std::sync::Mutex;

/// The profile's seeds as the ranker sees them, in `profile::list` order,
/// their words cut and weighted by `words`.
pub fn seed_vectors(
    lib: &Library,
    model: &str,
    profile_name: &ProfileKey,
    words: &Mutex<WordCache>,
) -> Result<(Vec<profile::Seed>, Vec<SeedVector>)> {
    let seeds = profile::list(lib.store.db(), profile_name)?;
    let terms = terms_of(words, seeds.iter().map(|s| (s.text_hash.as_slice(), s.title.as_str(), s.abstract_text.as_str())))?;
    let mut vectors = Vec::with_capacity(seeds.len());
    for (s, terms) in seeds.iter().zip(terms) {
        let v = lib
            .store
            .vector(model, &s.text_hash)?
            .with_context(|| format!("seed {} has no vector yet; run `paperscout seed add` again to embed it", s.key))?;
        vectors.push(SeedVector {
            label: s.key.clone(),
            vector: v,
            terms,
            subjects: s.subjects.clone(),
            weight: s.weight,
            negative: s.negative,
            rated: s.origin == ratings::ORIGIN,
            added: s.added.clone(),
        });
    }
    Ok((seeds, vectors))
}

/// Which days a digest covers: every listed day from `since`, or `date`,
/// or the day just ingested (`ingested`), or else the library's newest.
pub fn choose_days(lib: &Library, since: Option<Day>, date: Option<Day>, ingested: Option<Day>) -> Result<Vec<Day>> {
    Ok(match (since, date, ingested) {
        (Some(since), _, _) => {
            let days = lib.store.days_from(since)?;
            if days.is_empty() {
                bail!("the library has no listings on or after {since}");
            }
            days
        }
        (None, Some(d), _) => vec![listed_day(lib, d)?],
        (None, None, Some(d)) => vec![d],
        (None, None, None) => {
            vec![lib.store.newest_day()?.context("the library has no listings yet; give listing files to `daily` or `ingest` them")?]
        }
    })
}

/// What ranking reads beside the database, opened once per library state:
/// the library's model, its vectors and the papers' words (one cache for
/// every ranking of that state). `daily`, the morning and `serve` each
/// open one and rank every profile and day through it.
pub struct Ranking {
    pub model: String,
    pub vectors: Vectors,
    /// The words of the papers ranked so far.
    words: Mutex<WordCache>,
}

impl Ranking {
    /// The library's model, its mapped vectors and its lexical index's
    /// word weights: what ranking reads (no index, no sketch: those
    /// answer "papers like this").
    pub fn open(lib: &Library) -> Result<Ranking> {
        let model = super::library_model(lib)?;
        let vectors = Vectors { flat: lib.flat_vectors(&model)?, index: None, sketch: None };
        Ok(Ranking::of(model, vectors, lib.lexical()?.as_ref()))
    }

    /// With vectors a server has opened and tuned already.
    pub fn of(model: String, vectors: Vectors, lexical: Option<&LexicalIndex>) -> Ranking {
        Ranking { model, vectors, words: Mutex::new(WordCache::new(Vocabulary::new(lexical))) }
    }

    /// The listing days `days` (oldest first) ranked together: [`rank_days`].
    pub fn days(&self, lib: &Library, days: &[Day], opts: &DayOptions) -> Result<Digest> {
        rank_days(lib, &self.vectors.flat, &self.words, days, opts)
    }

    /// The listing day `day`, else the newest, ranked for `opts.profile`. A
    /// day the library has no listing of is a typo or an old link, not an
    /// empty digest: the error names the newest days there are.
    pub fn listed_day(&self, lib: &Library, day: Option<Day>, opts: &DayOptions) -> Result<Digest> {
        rank_listed_day(lib, &self.vectors.flat, &self.words, day, opts)
    }
}

fn rank_listed_day(lib: &Library, flat: &FlatVectors, words: &Mutex<WordCache>, day: Option<Day>, opts: &DayOptions) -> Result<Digest> {
    let day = match day {
        Some(d) => listed_day(lib, d)?,
        None => lib.store.newest_day()?.ok_or(super::Error::NoListings)?,
    };
    rank_days(lib, flat, words, &[day], opts)
}

/// `day`, if the library has its listing; else the error that names the
/// newest days it has.
fn listed_day(lib: &Library, day: Day) -> Result<Day> {
    if lib.store.has_day(day)? {
        return Ok(day);
    }
    let newest: Vec<String> = lib.store.days(7, &[])?.into_iter().map(|(d, _)| d).collect();
    Err(match newest.is_empty() {
        true => super::Error::NoListings,
        false => super::Error::NoListing { day: day.to_string(), newest },
    }
    .into())
}

/// `name` must be one of `known` (the profiles a reader has): a name that
/// is not is an error that lists them.
pub fn check_known_profile(name: &str, known: &[String]) -> Result<()> {
    if known.iter().any(|k| k == name) {
        return Ok(());
    }
    Err(super::Error::UnknownProfile { name: name.to_string(), known: known.to_vec() }.into())
}

/// Ranks the listing days `days` (oldest first) together, for a reader who
/// reads once a week: each paper once, as its first listing among them
/// showed it. In stages: load the listings and the reader, filter,
/// score the day, arrange the picks, and explain only those shown.
fn rank_days(lib: &Library, flat: &FlatVectors, words: &Mutex<WordCache>, days: &[Day], opts: &DayOptions) -> Result<Digest> {
    let (Some(first), Some(last)) = (days.first(), days.last()) else {
        anyhow::bail!("no listing days to rank");
    };
    let mut reader = LoadedProfile::load(lib, flat.model.as_str(), &opts.profile, words)?;
    let entries = listed(lib, days, &opts.include)?;
    let mut digest = Digest {
        date: *last,
        first_date: *first,
        profile: opts.profile.to_string(),
        method: opts.method,
        candidates: entries.len(),
        picks: Vec::new(),
        not_interested: Vec::new(),
        unsure: Vec::new(),
        hidden: Vec::new(),
        cold: !reader.vectors.iter().any(|s| !s.negative),
        bar: opts.bar.unwrap_or(reader.bar),
        below_bar: 0,
        past_top: 0,
        legend: Vec::new(),
    };
    if entries.is_empty() {
        return Ok(digest);
    }
    let rowids: Vec<i64> = entries.iter().map(|(_, e)| e.paper.rowid).collect();
    let kept = filter(entries, &reader, opts, &mut digest.hidden);
    let vectors = vectors_of(lib, flat, kept.iter().map(|k| (k.rowid, k.text_hash.as_slice())))?;
    let kept: Vec<_> = kept.into_iter().zip(&vectors).filter_map(|(k, v)| Some((k, v.as_ref()?))).collect();
    let terms = terms_of(
        words,
        kept.iter().map(|(k, _)| (k.text_hash.as_slice(), k.pick.paper.title.as_str(), k.pick.paper.abstract_text.as_str())),
    )?;
    let shown: Vec<Shown<'_>> =
        kept.into_iter().zip(terms).map(|((k, vector), terms)| Shown { pick: k.pick, vector, terms, own_seed: k.own_seed }).collect();
    let seed_texts: std::collections::HashSet<&[u8]> = reader.seeds.iter().map(|s| s.text_hash.as_slice()).collect();
    let background = Background::sample(lib, flat, words, &rowids, &seed_texts)?;
    // The ranker owns the seeds' vectors from here; the reader keeps their keys and titles.
    let mut ranker = Ranker::new(opts.method, std::mem::take(&mut reader.vectors), &background.vectors);
    let candidates: Vec<Candidate<'_>> = shown.iter().map(Shown::candidate).collect();
    let mut calibrate_on = background.candidates();
    // A library that is little more than this day: the day joins what
    // there is, as the library's sample of itself.
    if calibrate_on.len() < rank::calibration::MIN_BACKGROUND {
        calibrate_on.extend(candidates.iter().copied());
    }
    ranker.calibrate(&calibrate_on);
    digest.legend = ranker.legend();
    let scores = if digest.cold { Vec::new() } else { ranker.score_all(&candidates) };
    let arranged = arrange(&shown, &scores, &ranker, &background.vectors, &candidates, opts, digest.bar);
    (digest.below_bar, digest.past_top) = (arranged.below_bar, arranged.past_top);
    let Arranged { picks, not_interested, unsure, .. } = arranged;
    let explained = |i: usize| {
        let mut pick = shown[i].pick.clone();
        if let Some(s) = scores.get(i) {
            let seed = |m: SeedMatch| {
                let s = &reader.seeds[m.seed];
                Reason { seed: s.key.clone(), title: s.title.clone(), similarity: m.similarity }
            };
            pick.score = s.score;
            pick.why = Explained(ranker.explain(&candidates[i], Some(s)).into_iter().map(|e| e.map_seeds(seed)).collect());
            pick.strength = s.strength;
            pick.weak = s.strength == rank::Strength::Weak;
        }
        pick
    };
    digest.picks = picks.into_iter().map(explained).collect();
    for (i, p) in digest.picks.iter_mut().enumerate() {
        p.rank = i + 1;
    }
    digest.not_interested = not_interested.into_iter().map(explained).collect();
    digest.unsure = unsure.into_iter().map(explained).collect();
    Ok(digest)
}

/// A profile as a ranking needs it: seeds (as listed and as the ranker
/// sees them), ratings, what they have seen, and their filters.
struct LoadedProfile {
    seeds: Vec<profile::Seed>,
    vectors: Vec<SeedVector>,
    rated: HashMap<String, i8>,
    seen_days: HashMap<String, String>,
    filters: filters::Filters,
    bar: rank::Bar,
}

impl LoadedProfile {
    fn load(lib: &Library, model: &str, profile: &ProfileKey, words: &Mutex<WordCache>) -> Result<LoadedProfile> {
        let conn = lib.store.db();
        let (seeds, vectors) = seed_vectors(lib, model, profile, words)?;
        Ok(LoadedProfile {
            seeds,
            vectors,
            rated: ratings::by_id(conn, profile)?,
            seen_days: ratings::seen_days(conn, profile)?,
            filters: filters::load(conn, profile)?,
            bar: profile::bar(conn, profile)?,
        })
    }
}

/// The entries of `days` of the kinds asked for, each paper once, as the
/// first of those days listed it.
fn listed(lib: &Library, days: &[Day], include: &[Kind]) -> Result<Vec<(Day, DayEntry)>> {
    let mut entries = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for day in days {
        for e in lib.store.listing_day(*day)? {
            if include.contains(&e.kind) && seen.insert(e.paper.paper.id.clone()) {
                entries.push((*day, e));
            }
        }
    }
    Ok(entries)
}

/// A listed paper the filters kept, before it is scored.
struct Kept {
    pick: Pick,
    rowid: i64,
    text_hash: Vec<u8>,
    own_seed: Option<usize>,
}

/// A kept paper with what the ranker reads of it.
struct Shown<'v> {
    pick: Pick,
    vector: &'v [f32],
    terms: Terms,
    own_seed: Option<usize>,
}

impl Shown<'_> {
    fn candidate(&self) -> Candidate<'_> {
        Candidate { paper: &self.pick.paper, vector: self.vector, terms: &self.terms, own_seed: self.own_seed }
    }
}

/// What the reader's filters keep of the listing (what they hide goes to
/// `hidden` when asked for), each as an unscored pick.
fn filter(entries: Vec<(Day, DayEntry)>, reader: &LoadedProfile, opts: &DayOptions, hidden: &mut Vec<Hidden>) -> Vec<Kept> {
    let seed_index: HashMap<&[u8], usize> = reader.seeds.iter().enumerate().map(|(i, s)| (s.text_hash.as_slice(), i)).collect();
    let mut kept = Vec::with_capacity(entries.len());
    for (day, e) in entries {
        let id = e.paper.paper.id.clone();
        let rating = reader.rated.get(&id).copied();
        let own_seed = seed_index.get(e.paper.text_hash.as_slice()).copied();
        // A seed the user gave by hand is not news when it is listed; a
        // paper they rated stays, showing its rating, so it can be undone.
        if own_seed.is_some() && rating.is_none() {
            continue;
        }
        let gist = e.paper.gist();
        let mut paper = e.paper.paper;
        paper.kind = e.kind;
        let day = day.to_string();
        paper.listing_date = Some(day.clone());
        let pinned = match reader.filters.judge(&paper) {
            Verdict::Pinned(name) => Some(name),
            Verdict::Keep => None,
            Verdict::Hidden(rule) => {
                if opts.show_hidden {
                    hidden.push(Hidden { id, title: paper.title, rule });
                }
                continue;
            }
        };
        let listed_before = e.paper.first_date.as_deref().is_some_and(|d| d < day.as_str());
        let seen = reader.seen_days.get(&id).filter(|s| e.kind != Kind::New && (listed_before || s.as_str() < day.as_str())).cloned();
        if opts.unseen && seen.is_some() && pinned.is_none() {
            if opts.show_hidden {
                hidden.push(Hidden { id, title: paper.title, rule: format!("unseen: seen {}", seen.unwrap_or_default()) });
            }
            continue;
        }
        let pick = Pick {
            rank: 0,
            score: 0.0,
            paper,
            gist,
            why: Explained::default(),
            strength: rank::Strength::Weak,
            weak: false,
            seen_before: e.seen_before,
            rating,
            pinned,
            seen,
        };
        kept.push(Kept { pick, rowid: e.paper.rowid, text_hash: e.paper.text_hash, own_seed });
    }
    kept
}

/// What the reader sees of a day, as indices into the shown papers.
struct Arranged {
    picks: Vec<usize>,
    not_interested: Vec<usize>,
    unsure: Vec<usize>,
    below_bar: usize,
    past_top: usize,
}

/// The order the reader sees: pinned authors first, then the picks above
/// the reader's bar and those they rated, in the day's order (a cold
/// profile keeps listing order); at least [`rank::Bar::AT_LEAST`], at most
/// `opts.top`, what is left counted; with `opts.all`, the top whatever the
/// bar. What the reader marked not interested is apart, in the day's order,
/// whatever its score (listed, so it can be undone, not read). Then the
/// unsure: the unrated papers past the cut nearest the profile's boundary.
fn arrange(
    shown: &[Shown<'_>],
    scores: &[rank::Scored],
    ranker: &Ranker,
    background: &[Vec<f32>],
    candidates: &[Candidate<'_>],
    opts: &DayOptions,
    bar: rank::Bar,
) -> Arranged {
    let cold = scores.is_empty();
    let score = |i: usize| scores.get(i).map_or(0.0, |s| s.score);
    let in_day = |i: usize| scores.get(i).map_or(0.0, |s| s.order);
    let pick = |i: usize| &shown[i].pick;
    let mut order: Vec<usize> =
        (0..shown.len()).filter(|&i| cold || pick(i).pinned.is_some() || opts.min_score.is_none_or(|m| score(i) >= m)).collect();
    if !cold {
        order.sort_by(|&a, &b| {
            let (pa, pb) = (pick(a), pick(b));
            pb.pinned.is_some().cmp(&pa.pinned.is_some()).then(in_day(b).total_cmp(&in_day(a))).then_with(|| pa.paper.id.cmp(&pb.paper.id))
        });
    }
    let disliked = |i: &usize| pick(*i).rating.is_some_and(|r| r < 0) && pick(*i).pinned.is_none();
    let (not_interested, mut order): (Vec<usize>, Vec<usize>) = order.into_iter().partition(disliked);
    let pinned = order.iter().take_while(|&&i| pick(i).pinned.is_some()).count();
    let top = opts.top.of(order.len());
    let (mut below_bar, mut past_top) = (0, 0);
    let keep = if cold || opts.all {
        pinned.max(top)
    } else {
        // Stable: the lead and the rest each keep the day's order.
        let rest = order.split_off(pinned);
        let leads = |i: &usize| score(*i) >= bar.threshold() || pick(*i).rating.is_some();
        let (lead, below): (Vec<usize>, Vec<usize>) = rest.into_iter().partition(leads);
        let wanted = lead.len().max(rank::Bar::AT_LEAST).min(top);
        past_top = lead.len().saturating_sub(wanted);
        below_bar = below.len().saturating_sub(wanted.saturating_sub(lead.len()));
        order.extend(lead);
        order.extend(below);
        pinned + wanted
    };
    let rest = order.split_off(keep.min(order.len()));
    let picks = order;
    // Nothing liked yet: no boundary to be unsure about, and the whole day
    // is in listing order anyway.
    if opts.unsure == 0 || cold {
        return Arranged { picks, not_interested, unsure: Vec::new(), below_bar, past_top };
    }
    let open: Vec<usize> = rest.into_iter().filter(|&i| pick(i).rating.is_none()).collect();
    let c: Vec<Candidate<'_>> = open.iter().map(|&i| candidates[i]).collect();
    let unsure = rank::most_uncertain(ranker, background, &c, opts.unsure).into_iter().map(|k| open[k]).collect();
    Arranged { picks, not_interested, unsure, below_bar, past_top }
}

/// The words of texts (hash, title, abstract), the cache locked only while
/// it is read or filled (concurrent requests rank in parallel and share
/// what each has cut).
fn terms_of<'a>(words: &Mutex<WordCache>, texts: impl Iterator<Item = (&'a [u8], &'a str, &'a str)>) -> Result<Vec<Terms>> {
    let texts: Vec<_> = texts.collect();
    let mut cache = words.lock().map_err(|_| anyhow::anyhow!("the word cache was left broken by a failed request"))?;
    Ok(cache.terms(&texts))
}
