use crate::cli::{DailyArgs, DigestFormat};
use crate::commands::{fetch, ingest, seed};
use crate::library::{self, Library};
use crate::profile;
use crate::rank::{Ranker, SeedVector};
use crate::report::{self, digest::{Digest, Pick, Reason}};
use anyhow::{bail, Context, Result};
use std::io::Write;
use std::time::Instant;

/// Background papers the logistic method learns "not this" from.
const BACKGROUND: usize = 200;

pub fn run(args: &DailyArgs, verbose: bool) -> Result<()> {
    let start = Instant::now();
    let dir = library::resolve_dir(args.library.library.as_deref())?;
    let mut file_day = None;
    if !args.fetch.is_empty() {
        match fetch::fetch_and_ingest(&args.fetch, &args.fetch_opts, &dir, &args.model, &args.profile, verbose)? {
            Some(day) => file_day = Some(day),
            // No announcements today: the message is out, and there is no new digest.
            None => return Ok(()),
        }
    }
    if !args.files.is_empty() {
        let papers = ingest::read_inputs(&args.files, verbose)?;
        let mut lib = Library::open_write(&dir)?;
        let done = ingest::ingest_papers(&mut lib, &papers, &args.model, verbose)?;
        file_day = done.dates.last().cloned();
        seed::embed_seeds(&mut lib, &args.profile, &args.model, verbose)?;
        if verbose {
            eprintln!("ingested: {} new, {} embedded", done.counts.new, done.embedded);
        }
    }
    let lib = Library::open_read(&dir)?;
    let day = match (&args.date, file_day) {
        (Some(d), _) => {
            chrono::NaiveDate::parse_from_str(d, "%Y-%m-%d").with_context(|| format!("{d:?} is not a date like 2026-03-02"))?;
            d.clone()
        }
        (None, Some(d)) => d,
        (None, None) => lib
            .store
            .conn()
            .query_row("SELECT max(date) FROM listings", [], |r| r.get::<_, Option<String>>(0))?
            .context("the library has no listings yet; give listing files to `daily` or `ingest` them")?,
    };
    let digest = rank_day(&lib, args, &day)?;
    if verbose {
        eprintln!("ranked {} entries in {:.0} ms", digest.candidates, start.elapsed().as_secs_f64() * 1e3);
    }
    let mut buf = Vec::new();
    match args.format {
        DigestFormat::Table => report::digest::table(&mut buf, &digest)?,
        DigestFormat::Json => report::digest::json(&mut buf, &digest)?,
        DigestFormat::Markdown => report::digest::markdown(&mut buf, &digest)?,
        DigestFormat::Html => report::digest::html(&mut buf, &digest)?,
    }
    match &args.out {
        Some(path) => {
            // Written whole and renamed, so a reader never sees half a digest.
            let tmp = path.with_extension("tmp");
            std::fs::write(&tmp, &buf).with_context(|| format!("cannot write {}", tmp.display()))?;
            std::fs::rename(&tmp, path).with_context(|| format!("cannot write {}", path.display()))?;
        }
        None => {
            let mut out = std::io::stdout().lock();
            out.write_all(&buf)?;
            out.flush()?;
        }
    }
    Ok(())
}

/// Scores every included entry of `day` against the profile.
fn rank_day(lib: &Library, args: &DailyArgs, day: &str) -> Result<Digest> {
    let seeds = profile::list(lib.store.conn(), &args.profile)?;
    if seeds.is_empty() {
        bail!("profile {:?} has no seeds; add some with `paperscout seed add ID|FILE|--text …`", args.profile);
    }
    let model = lib.store.default_model()?.context("the library holds no vectors yet")?;
    let mut seed_vectors = Vec::with_capacity(seeds.len());
    for s in &seeds {
        let v = lib.store.vector(&model, &s.text_hash)?.with_context(|| {
            format!("seed {} has no vector yet; run `paperscout seed add` again to embed it", s.key)
        })?;
        seed_vectors.push(SeedVector {
            label: s.key.clone(),
            vector: v,
            weight: s.weight,
            negative: s.negative,
            added: s.added.clone(),
        });
    }

    let entries = lib.store.listing_day(day)?;
    let mut digest = Digest {
        date: day.to_string(),
        profile: args.profile.clone(),
        method: args.method,
        candidates: 0,
        picks: Vec::new(),
    };
    let wanted: Vec<_> = entries.into_iter().filter(|e| args.include.contains(&e.kind)).collect();
    digest.candidates = wanted.len();
    if wanted.is_empty() {
        return Ok(digest);
    }
    let seed_hashes: Vec<&[u8]> = seeds.iter().map(|s| s.text_hash.as_slice()).collect();
    let flat = lib.flat_vectors(&model)?;
    let background = background_sample(&flat, &wanted.iter().map(|e| e.paper.rowid).collect::<Vec<_>>());
    let ranker = Ranker::new(args.method, seed_vectors, &background);

    for e in wanted {
        // A seed listed today is not news to the user.
        if seed_hashes.contains(&e.paper.text_hash.as_slice()) {
            continue;
        }
        let Some(v) = lib.store.vector(&model, &e.paper.text_hash)? else { continue };
        let scored = ranker.score(&v);
        if args.min_score.is_some_and(|m| scored.score < m) {
            continue;
        }
        let reasons = scored
            .reasons
            .iter()
            .map(|&(i, sim)| Reason { seed: seeds[i].key.clone(), title: seeds[i].title.clone(), similarity: sim })
            .collect();
        let mut paper = e.paper.paper;
        paper.kind = e.kind;
        paper.listing_date = Some(day.to_string());
        digest.picks.push(Pick { rank: 0, score: scored.score, paper, reasons, seen_before: e.seen_before });
    }
    digest.picks.sort_by(|a, b| b.score.total_cmp(&a.score).then_with(|| a.paper.id.cmp(&b.paper.id)));
    digest.picks.truncate(args.top);
    for (i, p) in digest.picks.iter_mut().enumerate() {
        p.rank = i + 1;
    }
    Ok(digest)
}

/// Evenly spaced library vectors outside today's candidates: deterministic,
/// so the same day ranks the same way twice.
fn background_sample(flat: &library::vectors::FlatVectors, exclude: &[i64]) -> Vec<Vec<f32>> {
    if flat.count == 0 {
        return Vec::new();
    }
    let step = (flat.count / BACKGROUND).max(1);
    (0..flat.count)
        .step_by(step)
        .filter(|&i| !exclude.contains(&flat.rowid(i)))
        .take(BACKGROUND)
        .map(|i| flat.vector(i).to_vec())
        .collect()
}
