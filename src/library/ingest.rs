//! The library's side of an ingest: one batch of papers upserted in one
//! transaction with their gists and any vectors made elsewhere, then the
//! texts still without a vector embedded and committed a chunk at a time.

use super::store::{self, Upsert};
use super::Library;
use crate::embed::{self, Embedder};
use crate::paper::Paper;
use anyhow::{Context, Result};

/// How many texts are embedded and committed together: a kill loses at
/// most one chunk of work.
const EMBED_CHUNK: usize = 512;

/// Counts an ingest reports.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct IngestCounts {
    pub new: usize,
    pub updated: usize,
    pub unchanged: usize,
    pub embedded: usize,
}

/// What [`Library::embed_missing`] did.
#[derive(Debug, Default)]
pub struct Embedded {
    pub done: usize,
    /// Texts the model could not embed, with the papers that have them and
    /// why: recorded, and not tried again with this model.
    pub skipped: Vec<Skipped>,
}

#[derive(Debug)]
pub struct Skipped {
    pub papers: Vec<String>,
    pub error: String,
}

/// Each paper's gist, made on every core: the one part of storing a paper
/// that is all computing.
fn gists_of(papers: &[Paper]) -> Vec<Option<String>> {
    use rayon::prelude::*;
    papers.par_iter().map(|p| crate::gist::of(&p.title, &p.abstract_text)).collect()
}

impl Library {
    /// Upserts papers and their listings in one transaction.
    pub fn add_papers(&mut self, papers: &[Paper]) -> Result<IngestCounts> {
        let mut counts = IngestCounts::default();
        let tx = self.store.transaction()?;
        for (p, gist) in papers.iter().zip(gists_of(papers)) {
            match store::upsert_paper(tx.db(), p, Some(gist)).with_context(|| format!("cannot store paper {} from {}", p.id, p.source))? {
                Upsert::New => counts.new += 1,
                Upsert::Updated => counts.updated += 1,
                Upsert::Unchanged => counts.unchanged += 1,
            }
        }
        if counts.new + counts.updated > 0 {
            store::bump_generation(tx.db())?;
        }
        store::make_missing_gists(tx.db())?;
        tx.commit()?;
        Ok(counts)
    }

    /// Refuses to embed with a model other than the one whose vectors the
    /// library holds: that would silently re-embed every paper (and a
    /// damaged model would replace good vectors with bad ones).
    pub fn check_model(&self, model: &str) -> Result<()> {
        check_model(self.held_model()?.as_deref(), model)
    }

    /// The model whose vectors the library holds, if it holds any.
    pub fn held_model(&self) -> Result<Option<String>> {
        let Some(known) = self.store.default_model()? else { return Ok(None) };
        Ok(self.store.holds_vectors(&known)?.then_some(known))
    }

    /// Stores batches of papers, each with the vectors made for them
    /// elsewhere (already checked against the library's model), all in one
    /// transaction: an error from `batches` (bad input anywhere, however
    /// far in) leaves the library as it was. Returns the counts and how
    /// many vectors were stored.
    pub fn add_batches(&mut self, batches: &mut dyn Iterator<Item = Result<Batch>>) -> Result<(IngestCounts, usize)> {
        let mut counts = IngestCounts::default();
        let mut vectors = 0;
        let tx = self.store.transaction()?;
        for batch in batches {
            let batch = batch?;
            for (p, gist) in batch.papers.iter().zip(gists_of(&batch.papers)) {
                match store::upsert_paper(tx.db(), p, Some(gist))
                    .with_context(|| format!("cannot store paper {} from {}", p.id, p.source))?
                {
                    Upsert::New => counts.new += 1,
                    Upsert::Updated => counts.updated += 1,
                    Upsert::Unchanged => counts.unchanged += 1,
                }
            }
            if let (Some(model), false) = (&batch.model, batch.vectors.is_empty()) {
                store::set_default_model(tx.db(), model)?;
                for (i, v) in &batch.vectors {
                    store::insert_vector(tx.db(), model, &store::text_hash(&batch.papers[*i].embedding_text()), v)?;
                }
                vectors += batch.vectors.len();
            }
        }
        if counts.new + counts.updated + vectors > 0 {
            store::bump_generation(tx.db())?;
        }
        store::make_missing_gists(tx.db())?;
        tx.commit()?;
        Ok((counts, vectors))
    }

    /// Embeds every paper text that has no vector for this model yet,
    /// committing chunk by chunk. A text the model cannot embed is recorded
    /// and skipped, so it does not stop this ingest or any later one.
    pub fn embed_missing(&mut self, embedder: &dyn Embedder, progress: &dyn Fn(usize, usize)) -> Result<Embedded> {
        let model = embedder.model_id().to_string();
        self.check_model(&model)?;
        self.store.set_default_model(&model)?;
        let missing = self.store.missing_vectors(&model)?;
        let total = missing.len();
        let mut out = Embedded::default();
        let mut done = 0;
        for chunk in missing.chunks(EMBED_CHUNK) {
            let texts: Vec<&str> = chunk.iter().map(|(_, t)| t.as_str()).collect();
            let vecs = match embed_checked(embedder, &texts, &|n| progress(done + n, total)) {
                Ok(vecs) => vecs.into_iter().map(Ok).collect(),
                // One bad text fails its whole batch: find it by embedding one at a time.
                Err(first) => {
                    let single: Vec<Result<Vec<f32>>> =
                        texts.iter().map(|t| embed_checked(embedder, &[t], &|_| {}).map(|mut v| v.remove(0))).collect();
                    // When no text of several embeds, the model is at fault, not the texts.
                    if texts.len() > 1 && single.iter().all(Result::is_err) {
                        return Err(first);
                    }
                    single
                }
            };
            let tx = self.store.transaction()?;
            for ((hash, _), v) in chunk.iter().zip(vecs) {
                match v {
                    Ok(v) => store::insert_vector(tx.db(), &model, hash, &v)?,
                    Err(e) => {
                        let error = format!("{e:#}");
                        store::record_failure(tx.db(), &model, hash, &error)?;
                        out.skipped.push(Skipped { papers: store::papers_with_text(tx.db(), hash)?, error });
                    }
                }
            }
            store::bump_generation(tx.db())?;
            tx.commit()?;
            done += chunk.len();
            progress(done, total);
        }
        out.done = total - out.skipped.len();
        Ok(out)
    }
}

/// [`Library::check_model`] given the model whose vectors a library holds.
pub fn check_model(held: Option<&str>, model: &str) -> Result<()> {
    match held {
        Some(known) if known != model => anyhow::bail!(
            "{}; or, to re-embed the whole library with {model}, ingest into a new --library",
            embed::model_mismatch(known, model)
        ),
        _ => Ok(()),
    }
}

/// Papers to store with [`Library::add_batches`], and vectors made for
/// some of them elsewhere.
#[derive(Debug, Default)]
pub struct Batch {
    pub papers: Vec<Paper>,
    /// (index into `papers`, its vector), keyed by that paper's text.
    pub vectors: Vec<(usize, Vec<f32>)>,
    /// The model the vectors are from.
    pub model: Option<String>,
}

/// Embeds `texts` and refuses non-finite vectors, which would otherwise be
/// stored and rank every paper as NaN.
fn embed_checked(embedder: &dyn Embedder, texts: &[&str], progress: &dyn Fn(usize)) -> Result<Vec<Vec<f32>>> {
    let vecs = embedder.embed(texts, progress)?;
    if vecs.len() != texts.len() {
        anyhow::bail!("model {} returned {} vectors for {} texts", embedder.model_id(), vecs.len(), texts.len());
    }
    if vecs.iter().any(|v| v.iter().any(|x| !x.is_finite())) {
        anyhow::bail!("model {} gave a non-finite vector (NaN or infinity); its weights may be damaged", embedder.model_id());
    }
    Ok(vecs)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::library::test_support::{fake, paper};
    use crate::paper::Kind;

    /// Vectors are keyed by the embedded text: only a changed text needs one.
    #[test]
    fn replaced_entry_with_same_abstract_needs_no_new_vector() {
        let dir = tempfile::tempdir().unwrap();
        let mut lib = Library::open_write(dir.path()).unwrap();
        let c = lib.add_papers(&[paper("2603.00001v1", Kind::New, "2026-03-02", "Same text.")]).unwrap();
        assert_eq!((c.new, c.updated), (1, 0));
        let missing = lib.store.missing_vectors("m").unwrap();
        assert_eq!(missing.len(), 1);
        let tx = lib.store.transaction().unwrap();
        store::insert_vector(tx.db(), "m", &missing[0].0, &[1.0, 0.0]).unwrap();
        tx.commit().unwrap();

        let c = lib.add_papers(&[paper("2603.00001v2", Kind::Replaced, "2026-03-09", "Same text.")]).unwrap();
        assert_eq!((c.new, c.updated), (0, 1), "the new version is recorded");
        assert!(lib.store.missing_vectors("m").unwrap().is_empty(), "but not embedded again");
        assert_eq!(lib.store.get_paper("2603.00001").unwrap().unwrap().paper.version, Some(2));

        // An older listing read later changes nothing.
        let c = lib.add_papers(&[paper("2603.00001v1", Kind::New, "2026-03-02", "Other text.")]).unwrap();
        assert_eq!(c.unchanged, 1);
        let c = lib.add_papers(&[paper("2603.00001v3", Kind::Replaced, "2026-03-16", "New text.")]).unwrap();
        assert_eq!(c.updated, 1);
        assert_eq!(lib.store.missing_vectors("m").unwrap().len(), 1, "a changed abstract is embedded");
        let days = lib.store.totals().unwrap().listings;
        assert_eq!(days, 3);
    }

    /// One text the model cannot embed is reported and skipped; it neither
    /// stops the others nor any later ingest.
    #[test]
    fn a_text_that_cannot_be_embedded_is_skipped_once() {
        let dir = tempfile::tempdir().unwrap();
        let mut lib = Library::open_write(dir.path()).unwrap();
        lib.add_papers(&[
            paper("2603.00001v1", Kind::New, "2026-03-02", "Fine."),
            paper("2603.00002v1", Kind::New, "2026-03-02", "POISON here."),
            paper("2603.00003v1", Kind::New, "2026-03-02", "Also fine."),
        ])
        .unwrap();
        let e = fake("m");
        let done = lib.embed_missing(&e, &|_, _| {}).unwrap();
        assert_eq!(done.done, 2);
        assert_eq!(done.skipped.len(), 1);
        assert_eq!(done.skipped[0].papers, vec!["2603.00002".to_string()]);
        assert!(done.skipped[0].error.contains("cannot embed"));

        lib.add_papers(&[paper("2603.00004v1", Kind::New, "2026-03-03", "Later, unrelated.")]).unwrap();
        let e = fake("m");
        let done = lib.embed_missing(&e, &|_, _| {}).unwrap();
        assert_eq!((done.done, done.skipped.len()), (1, 0));
        assert_eq!(e.calls.get(), 1, "the bad text was tried again");
        assert_eq!(lib.store.failures("m").unwrap().len(), 1);
    }

    /// A model whose output is NaN stores nothing and says so.
    #[test]
    fn non_finite_vectors_are_never_stored() {
        let dir = tempfile::tempdir().unwrap();
        let mut lib = Library::open_write(dir.path()).unwrap();
        lib.add_papers(&[
            paper("2603.00001v1", Kind::New, "2026-03-02", "NAN one."),
            paper("2603.00002v1", Kind::New, "2026-03-02", "NAN two."),
        ])
        .unwrap();
        let err = lib.embed_missing(&fake("m"), &|_, _| {}).unwrap_err();
        assert!(format!("{err:#}").contains("non-finite"), "{err:#}");
        assert_eq!(lib.store.totals().unwrap().vectors, 0);
        let tx = lib.store.transaction().unwrap();
        assert!(store::insert_vector(tx.db(), "m", b"h", &[f32::INFINITY]).is_err());
    }

    /// A library with vectors of one model is never re-embedded with another.
    #[test]
    fn another_model_is_refused_unless_the_library_is_empty() {
        let dir = tempfile::tempdir().unwrap();
        let mut lib = Library::open_write(dir.path()).unwrap();
        lib.check_model("b:222").unwrap();
        lib.add_papers(&[paper("2603.00001v1", Kind::New, "2026-03-02", "Text.")]).unwrap();
        lib.embed_missing(&fake("a:111"), &|_, _| {}).unwrap();
        let err = lib.embed_missing(&fake("b:222"), &|_, _| {}).unwrap_err().to_string();
        assert!(err.contains("a:111") && err.contains("b:222") && err.contains("--model"), "{err}");
        assert_eq!(lib.store.default_model().unwrap().as_deref(), Some("a:111"));
        assert_eq!(lib.store.totals().unwrap().vectors, 1);
    }

    /// A listing cut off mid-abstract is not an update of the whole one.
    #[test]
    fn a_cut_abstract_does_not_replace_the_whole_one() {
        let dir = tempfile::tempdir().unwrap();
        let mut lib = Library::open_write(dir.path()).unwrap();
        let full = "We study the scheduling of inference jobs on shared clusters.";
        lib.add_papers(&[paper("2603.00001v1", Kind::New, "2026-03-02", full)]).unwrap();
        for cut in ["We study the sched", "We study the scheduling of inference "] {
            let c = lib.add_papers(&[paper("2603.00001v1", Kind::New, "2026-03-02", cut)]).unwrap();
            assert_eq!(c.unchanged, 1, "{cut:?}");
            assert_eq!(lib.store.get_paper("2603.00001").unwrap().unwrap().paper.abstract_text, full);
        }
        // A new version may well be shorter.
        let c = lib.add_papers(&[paper("2603.00001v2", Kind::Replaced, "2026-03-09", "We study")]).unwrap();
        assert_eq!(c.updated, 1);
    }
}
