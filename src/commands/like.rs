use crate::cli::LikeArgs;
use crate::embed;
use crate::library::{self, Library};
use crate::paper::ArxivId;
use crate::report;
use anyhow::{bail, Context, Result};
use std::collections::HashSet;
use std::io::Write;

/// A paper found like the target, with what the report shows of it.
pub struct Neighbour {
    pub score: f32,
    pub paper: library::store::StoredPaper,
}

pub fn run(args: &LikeArgs, verbose: bool) -> Result<()> {
    let dir = library::resolve_dir(args.library.library.as_deref())?;
    let lib = Library::open_read(&dir)?;
    let (model, query, exclude) = match &args.id {
        // An id query needs no model: its vector is already stored.
        Some(id) => {
            let parsed = ArxivId::parse(id).with_context(|| format!("{id:?} is not an arXiv id"))?;
            let paper = lib
                .store
                .get_paper(&parsed.id)?
                .with_context(|| format!("{} is not in the library at {}", parsed.id, dir.display()))?;
            let model = lib.store.default_model()?.context("the library holds no vectors yet")?;
            let v = lib.store.vector(&model, &paper.text_hash)?.with_context(|| {
                format!("{} has no vector yet; run `paperscout ingest` to embed it", parsed.id)
            })?;
            (model, v, Some(paper.rowid))
        }
        None => {
            let text = query_text(args)?;
            let known = lib.store.default_model()?;
            let embedder = embed::load(&embed::args_for_library(&args.model, known.as_deref()), verbose)?;
            let v = embedder.embed(&[text.trim()], &|_| {})?;
            let v = v.into_iter().next().context("the model returned no vector")?;
            let id = embedder.model_id().to_string();
            if let Some(known) = known {
                if known != id {
                    bail!(embed::model_mismatch(&known, &id));
                }
            }
            (id, v, None)
        }
    };
    let flat = lib.flat_vectors(&model)?;
    let allowed = allowed_rowids(&lib, args)?;
    let keep = |pos: usize| {
        let rowid = flat.rowid(pos);
        Some(rowid) != exclude && allowed.as_ref().is_none_or(|a| a.contains(&rowid))
    };
    let hits = if args.approx || flat.count > library::EXACT_SCAN_LIMIT {
        lib.search_index(&flat, &query, args.k, keep)?
    } else {
        flat.top_k(&query, args.k, keep)
    };
    let mut found = Vec::with_capacity(hits.len());
    for (pos, score) in hits {
        if let Some(paper) = lib.store.get_paper_by_rowid(flat.rowid(pos))? {
            found.push(Neighbour { score, paper });
        }
    }
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    if args.json {
        report::json::write_neighbours(&mut out, &found)?;
    } else {
        report::table::write_neighbours(&mut out, &found)?;
    }
    out.flush()?;
    Ok(())
}

/// Rowids passing the date and category filters, or None when there are none.
fn allowed_rowids(lib: &Library, args: &LikeArgs) -> Result<Option<HashSet<i64>>> {
    if args.since.is_none() && args.until.is_none() && args.category.is_none() {
        return Ok(None);
    }
    for d in [&args.since, &args.until].into_iter().flatten() {
        if chrono::NaiveDate::parse_from_str(d, "%Y-%m-%d").is_err() {
            bail!("{d:?} is not a date like 2026-03-02");
        }
    }
    let mut stmt = lib.store.conn().prepare(
        "SELECT rowid FROM papers WHERE (?1 IS NULL OR first_date >= ?1)
         AND (?2 IS NULL OR first_date <= ?2)
         AND (?3 IS NULL OR EXISTS (SELECT 1 FROM json_each(papers.subjects) WHERE value = ?3))",
    )?;
    let rows = stmt.query_map(
        rusqlite::params![args.since, args.until, args.category],
        |r| r.get::<_, i64>(0),
    )?;
    Ok(Some(rows.collect::<std::result::Result<_, _>>()?))
}

/// The text of a `--text` or `--file` query; an empty one is an error, as
/// its vector would rank papers by nothing.
fn query_text(args: &LikeArgs) -> Result<String> {
    let (text, from) = match (&args.text, &args.file) {
        (Some(t), _) => (t.clone(), "--text".to_string()),
        (None, Some(f)) => (
            std::fs::read_to_string(f).with_context(|| format!("cannot read {}", f.display()))?,
            f.display().to_string(),
        ),
        (None, None) => bail!("give an arXiv id, --text or --file"),
    };
    if text.trim().is_empty() {
        bail!("{from} is empty; give a title, an abstract or a sentence to search for");
    }
    Ok(text)
}
