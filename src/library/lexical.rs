//! The library's full-text index (tantivy), beside the vectors: every
//! paper's title and abstract as stemmed words, its authors' names and its
//! id. Like the vector files it is derived from the database and only
//! grows: each update deletes the rows the database retired and adds the
//! papers past the last rowid it holds, in one tantivy commit whose payload
//! records how far it got. A kill before that commit leaves the previous
//! commit whole, and the next update redoes the rest.
//!
//! Ranking reads two things from it: the analyzer (so the words of a seed
//! and of a candidate are cut the way the index cuts them) and document
//! frequencies over the whole library, of words and of phrases (two words
//! in a row: "KV cache", "speculative decoding"). Search reads BM25.

use super::store::{Store, StoredPaper};
use anyhow::{bail, Context, Result};
use serde::{Deserialize, Serialize};
use std::path::Path;
use tantivy::collector::TopDocs;
use tantivy::query::{BooleanQuery, Occur, Query, QueryParser, TermQuery};
use tantivy::schema::{Field, IndexRecordOption, NumericOptions, Schema, TextFieldIndexing, TextOptions, STRING};
use tantivy::tokenizer::{
    AsciiFoldingFilter, Language, LowerCaser, PreTokenizedString, RemoveLongFilter, SimpleTokenizer, Stemmer, StopWordFilter, TextAnalyzer,
    Token,
};
use tantivy::{doc, Index, IndexReader, IndexWriter, ReloadPolicy, Searcher, TantivyDocument, Term};

pub const ENGINE: &str = "tantivy (BM25; English stemming and stop words)";
/// What a change of schema or analyzer bumps: an index of another format is rebuilt.
const FORMAT: u32 = 3;
/// Analyzer of titles and abstracts.
pub const WORDS: &str = "paperscout_words";
/// Analyzer of author names: folded and lower-cased, never stemmed.
const NAMES: &str = "paperscout_names";
/// Memory the writer may buffer before it flushes a segment.
const WRITER_HEAP: usize = 96 << 20;

/// The words of titles and abstracts: split at anything not a letter or
/// digit (Unicode-aware), accents folded, English stop words dropped,
/// Snowball-stemmed, so "caching" and "caches" are one word.
pub fn word_analyzer() -> TextAnalyzer {
    TextAnalyzer::builder(SimpleTokenizer::default())
        .filter(RemoveLongFilter::limit(40))
        .filter(LowerCaser)
        .filter(AsciiFoldingFilter)
        .filter(StopWordFilter::new(Language::English).unwrap_or_else(|| StopWordFilter::remove(Vec::new())))
        .filter(Stemmer::new(Language::English))
        .build()
}

/// One word of a text as the index has it: its stem and where it stands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stem {
    pub stem: String,
    pub at: std::ops::Range<usize>,
}

/// The stems of `text` in order.
pub fn stems(analyzer: &mut TextAnalyzer, text: &str) -> Vec<Stem> {
    let mut out = Vec::new();
    let mut stream = analyzer.token_stream(text);
    while let Some(t) = stream.next() {
        out.push(Stem { stem: t.text.clone(), at: t.offset_from..t.offset_to });
    }
    out
}

/// The phrases of a text: each two stems in a row once the stop words are
/// out (as scikit-learn's n-grams are: "cache of the model" holds "cache
/// model"), keyed "first second", spanning both words in `text`, but never
/// across a stop of punctuation or a line ("… the cache. Speculative …").
/// The index counts them in the `phrases` field, the ranker weighs them
/// beside single words: both read them here.
pub fn phrases<'a>(text: &'a str, stems: &'a [Stem]) -> impl Iterator<Item = Stem> + 'a {
    const STOPS: &[char] = &['.', ',', ';', ':', '!', '?', '(', ')', '[', ']', '{', '}', '\n', '$'];
    stems
        .windows(2)
        .filter(|w| text.get(w[0].at.end..w[1].at.start).is_some_and(|gap| !gap.contains(STOPS)))
        .map(|w| Stem { stem: format!("{} {}", w[0].stem, w[1].stem), at: w[0].at.start..w[1].at.end })
}

/// The phrases of `text` as tokens the index takes as they are.
fn phrase_tokens(analyzer: &mut TextAnalyzer, text: &str) -> PreTokenizedString {
    let stems = stems(analyzer, text);
    let tokens = phrases(text, &stems)
        .enumerate()
        .map(|(position, p)| Token { offset_from: p.at.start, offset_to: p.at.end, position, text: p.stem, position_length: 1 })
        .collect();
    PreTokenizedString { text: String::new(), tokens }
}

fn name_analyzer() -> TextAnalyzer {
    TextAnalyzer::builder(SimpleTokenizer::default()).filter(LowerCaser).filter(AsciiFoldingFilter).build()
}

#[derive(Debug, Clone, Copy)]
pub struct Fields {
    pub rowid: Field,
    pub id: Field,
    pub title: Field,
    /// Title and abstract together: the field document frequencies count.
    pub text: Field,
    pub authors: Field,
    /// Where the authors work, as words: "Max Planck", "ETH Zurich".
    pub affiliations: Field,
    /// The title's and abstract's phrases ([`phrases`]), counted only.
    pub phrases: Field,
}

fn schema() -> Schema {
    let mut b = Schema::builder();
    b.add_u64_field("rowid", NumericOptions::default().set_indexed().set_fast());
    b.add_text_field("id", STRING);
    let words = TextOptions::default()
        .set_indexing_options(TextFieldIndexing::default().set_tokenizer(WORDS).set_index_option(IndexRecordOption::WithFreqsAndPositions));
    b.add_text_field("title", words.clone());
    b.add_text_field("text", words.clone());
    b.add_text_field("affiliations", words);
    b.add_text_field(
        "phrases",
        TextOptions::default().set_indexing_options(TextFieldIndexing::default().set_index_option(IndexRecordOption::Basic)),
    );
    b.add_text_field(
        "authors",
        TextOptions::default().set_indexing_options(
            TextFieldIndexing::default().set_tokenizer(NAMES).set_index_option(IndexRecordOption::WithFreqsAndPositions),
        ),
    );
    b.build()
}

fn fields(schema: &Schema) -> Result<Fields> {
    let f = |name: &str| schema.get_field(name).with_context(|| format!("the lexical index has no field {name}"));
    Ok(Fields {
        rowid: f("rowid")?,
        id: f("id")?,
        title: f("title")?,
        text: f("text")?,
        authors: f("authors")?,
        affiliations: f("affiliations")?,
        phrases: f("phrases")?,
    })
}

/// How far the index has followed the database: stored as the payload of
/// the commit that got it there, so the two can never disagree.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Mark {
    pub format: u32,
    /// The last paper rowid added.
    pub through: i64,
    /// The last position of the database's retired-rowid log applied.
    pub retired: i64,
}

/// A library's lexical index, or one made in memory (`eval csfcube`).
pub struct LexicalIndex {
    index: Index,
    reader: IndexReader,
    pub fields: Fields,
    pub mark: Mark,
}

/// One search hit: the paper's rowid and its BM25 score.
#[derive(Debug, Clone, Copy)]
pub struct Hit {
    pub rowid: i64,
    pub score: f32,
}

fn register(index: &Index) {
    index.tokenizers().register(WORDS, word_analyzer());
    index.tokenizers().register(NAMES, name_analyzer());
}

fn read_mark(index: &Index) -> Result<Mark> {
    let metas = index.load_metas()?;
    Ok(match metas.payload {
        Some(p) => serde_json::from_str(&p).context("the lexical index's commit record is unreadable")?,
        None => Mark::default(),
    })
}

impl LexicalIndex {
    /// Opens the index in `dir`; `None` when there is none yet.
    pub fn open(dir: &Path) -> Result<Option<LexicalIndex>> {
        if !dir.join("meta.json").is_file() {
            return Ok(None);
        }
        let index = Index::open_in_dir(dir).with_context(|| format!("cannot open the lexical index in {}", dir.display()))?;
        register(&index);
        let mark = read_mark(&index)?;
        if mark.format != FORMAT {
            bail!("the lexical index in {} is of another format ({}, this paperscout writes {FORMAT})", dir.display(), mark.format);
        }
        let fields = fields(&index.schema())?;
        let reader = index.reader_builder().reload_policy(ReloadPolicy::Manual).try_into()?;
        Ok(Some(LexicalIndex { index, reader, fields, mark }))
    }

    /// An index of the given titles and abstracts held in memory.
    pub fn in_memory<'a>(papers: impl IntoIterator<Item = (&'a str, &'a str)>) -> Result<LexicalIndex> {
        let index = Index::create_in_ram(schema());
        register(&index);
        let f = fields(&index.schema())?;
        let mut writer: IndexWriter<TantivyDocument> = index.writer_with_num_threads(1, 32 << 20)?;
        let mut analyzer = word_analyzer();
        for (i, (title, abstract_text)) in papers.into_iter().enumerate() {
            let mut d = doc!(f.rowid => i as u64 + 1, f.title => title);
            add_words(&mut d, &f, &mut analyzer, title, abstract_text);
            writer.add_document(d)?;
        }
        writer.commit()?;
        let reader = index.reader_builder().reload_policy(ReloadPolicy::Manual).try_into()?;
        Ok(LexicalIndex { index, reader, fields: f, mark: Mark { format: FORMAT, ..Mark::default() } })
    }

    pub fn searcher(&self) -> Searcher {
        self.reader.searcher()
    }

    /// Papers it holds.
    pub fn len(&self) -> u64 {
        self.searcher().num_docs()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Bytes on disk (0 in memory).
    pub fn size(&self, dir: &Path) -> u64 {
        std::fs::read_dir(dir).map(|entries| entries.flatten().filter_map(|e| e.metadata().ok()).map(|m| m.len()).sum()).unwrap_or(0)
    }

    /// Every rowid it holds, sorted (`doctor` compares them with the database).
    pub fn rowids(&self) -> Result<Vec<i64>> {
        let searcher = self.searcher();
        let mut out = Vec::with_capacity(searcher.num_docs() as usize);
        for segment in searcher.segment_readers() {
            let column = segment.fast_fields().u64("rowid")?;
            for doc in segment.doc_ids_alive() {
                if let Some(r) = column.first(doc) {
                    out.push(r as i64);
                }
            }
        }
        out.sort_unstable();
        Ok(out)
    }

    /// Papers matching `query` best first by BM25: words (stemmed as the
    /// index stems them; "quoted phrases" must occur as written) in the
    /// title (counted double) or abstract, and more for each two
    /// of its words a paper has in a row ("KV cache" above a paper that
    /// says "cache" and "KV" apart). Never fails on syntax: what does not
    /// parse is read as plain words.
    pub fn search(&self, query: &str, k: usize) -> Result<Vec<Hit>> {
        let f = self.fields;
        // Not the authors: a name is matched whole by `search_author`, and
        // a first name alone here would bring in everyone who shares it.
        let mut parser = QueryParser::for_index(&self.index, vec![f.title, f.text]);
        parser.set_field_boost(f.title, 2.0);
        let (parsed, _errors) = parser.parse_query_lenient(query);
        let stems = stems(&mut word_analyzer(), query);
        let mut parts: Vec<(Occur, Box<dyn Query>)> = vec![(Occur::Must, parsed)];
        for p in phrases(query, &stems) {
            let term = Term::from_field_text(f.phrases, &p.stem);
            parts.push((Occur::Should, Box::new(TermQuery::new(term, IndexRecordOption::Basic))));
        }
        self.top(&BooleanQuery::new(parts), k)
    }

    /// Papers one of whose authors carries every word of `name` (any order,
    /// accents folded): "stoica", "Ion Stoica".
    pub fn search_author(&self, name: &str, k: usize) -> Result<Vec<Hit>> {
        self.every_word(self.fields.authors, name_analyzer(), name, k)
    }

    /// Papers with an author at a place that carries every word of `place`
    /// (any order, any form): "Max Planck", "planck institute".
    pub fn search_affiliation(&self, place: &str, k: usize) -> Result<Vec<Hit>> {
        self.every_word(self.fields.affiliations, word_analyzer(), place, k)
    }

    /// Papers whose `field` holds every word of `text` as `analyzer` cuts it.
    fn every_word(&self, field: Field, mut analyzer: TextAnalyzer, text: &str, k: usize) -> Result<Vec<Hit>> {
        let mut stream = analyzer.token_stream(text);
        let mut parts: Vec<(Occur, Box<dyn Query>)> = Vec::new();
        while let Some(t) = stream.next() {
            let term = Term::from_field_text(field, &t.text);
            parts.push((Occur::Must, Box::new(TermQuery::new(term, IndexRecordOption::WithFreqs))));
        }
        if parts.is_empty() {
            return Ok(Vec::new());
        }
        self.top(&BooleanQuery::new(parts), k)
    }

    fn top(&self, query: &dyn Query, k: usize) -> Result<Vec<Hit>> {
        let searcher = self.searcher();
        let found = searcher.search(query, &TopDocs::with_limit(k.max(1)).order_by_score())?;
        let mut out = Vec::with_capacity(found.len());
        for (score, addr) in found {
            let column = searcher.segment_reader(addr.segment_ord).fast_fields().u64("rowid")?;
            if let Some(rowid) = column.first(addr.doc_id) {
                out.push(Hit { rowid: rowid as i64, score });
            }
        }
        Ok(out)
    }
}

/// A paper's title and abstract as the index counts them: words, and phrases.
fn add_words(d: &mut TantivyDocument, f: &Fields, analyzer: &mut TextAnalyzer, title: &str, abstract_text: &str) {
    let text = format!("{title}\n{abstract_text}");
    d.add_pre_tokenized_text(f.phrases, phrase_tokens(analyzer, &text));
    d.add_text(f.text, text);
}

fn document(f: &Fields, analyzer: &mut TextAnalyzer, p: &StoredPaper) -> TantivyDocument {
    let mut d = doc!(
        f.rowid => p.rowid as u64,
        f.id => p.paper.id.as_str(),
        f.title => p.paper.title.as_str(),
    );
    add_words(&mut d, f, analyzer, &p.paper.title, &p.paper.abstract_text);
    for a in &p.paper.authors {
        d.add_text(f.authors, a);
    }
    let mut places: Vec<&str> = Vec::new();
    for a in p.paper.affiliations.iter().map(|a| a.trim()).filter(|a| !a.is_empty()) {
        if !places.contains(&a) {
            places.push(a);
            d.add_text(f.affiliations, a);
        }
    }
    d
}

/// What [`update`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Updated {
    pub added: usize,
    pub removed: usize,
    /// Built from nothing (there was none, or `rebuild` asked).
    pub built: bool,
}

/// Whether the index lags behind the database (two indexed lookups).
pub fn behind(mark: Mark, store: &Store) -> Result<bool> {
    Ok(mark.through < store.last_rowid()? || mark.retired < store.retired_mark()?)
}

/// Brings the index in `dir` up to the database: removes retired rows,
/// adds papers past its mark, commits once. Creates it when missing (or
/// unreadable, or `rebuild` asks). The caller holds the derived files' lock.
pub fn update(dir: &Path, store: &Store, rebuild: bool) -> Result<Updated> {
    let existing = if rebuild { None } else { LexicalIndex::open(dir).ok().flatten() };
    let built = existing.is_none();
    let (index, mark) = match existing {
        Some(ix) => (ix.index, ix.mark),
        None => {
            if dir.exists() {
                // Moved aside first: a reader opening the old index at this
                // moment may create its lock file in it, and removing in
                // place would then fail on a directory that is not empty.
                let aside = dir.with_file_name(format!("lexical.old-{}", std::process::id()));
                let _ = std::fs::remove_dir_all(&aside);
                std::fs::rename(dir, &aside).with_context(|| format!("cannot move {} aside", dir.display()))?;
                let _ = std::fs::remove_dir_all(&aside);
            }
            std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
            let index =
                Index::create_in_dir(dir, schema()).with_context(|| format!("cannot create the lexical index in {}", dir.display()))?;
            register(&index);
            (index, Mark { format: FORMAT, ..Mark::default() })
        }
    };
    let f = fields(&index.schema())?;
    let mut writer: IndexWriter<TantivyDocument> =
        index.writer(WRITER_HEAP).with_context(|| format!("cannot write the lexical index in {}", dir.display()))?;
    // One snapshot: the papers and the retired log agree with each other.
    let snapshot = store.snapshot()?;
    let mut next = mark;
    let mut removed = 0;
    for (seq, rowid) in store.retired_after(mark.retired)? {
        if rowid <= mark.through {
            writer.delete_term(Term::from_field_u64(f.rowid, rowid as u64));
            removed += 1;
        }
        next.retired = seq;
    }
    let mut added = 0;
    let mut analyzer = word_analyzer();
    store.papers_after(mark.through, |p| {
        writer.add_document(document(&f, &mut analyzer, &p))?;
        next.through = p.rowid;
        added += 1;
        Ok(true)
    })?;
    drop(snapshot);
    if next != mark || built {
        let mut commit = writer.prepare_commit()?;
        commit.set_payload(&serde_json::to_string(&next)?);
        commit.commit()?;
    }
    writer.wait_merging_threads()?;
    if built {
        // One segment: ranking looks up a document frequency for every
        // word and phrase of a day (tens of thousands), once per segment.
        let segments = index.searchable_segment_ids()?;
        if segments.len() > 1 {
            let mut writer: IndexWriter<TantivyDocument> = index.writer(WRITER_HEAP)?;
            writer.merge(&segments).wait()?;
            writer.wait_merging_threads()?;
        }
    }
    Ok(Updated { added, removed, built })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(text: &str) -> Vec<String> {
        let mut a = word_analyzer();
        let mut s = a.token_stream(text);
        let mut out = Vec::new();
        while let Some(t) = s.next() {
            out.push(t.text.clone());
        }
        out
    }

    #[test]
    fn words_are_stemmed_folded_and_stop_words_dropped() {
        assert_eq!(words("The Caching of KV-caches"), vec!["cach", "kv", "cach"]);
        assert_eq!(words("Schrödinger équations"), vec!["schroding", "equat"]);
        assert_eq!(words("blockchains"), words("blockchain"));
    }

    #[test]
    fn search_puts_a_phrase_said_together_first() {
        // The same words, as often, in papers of the same length.
        let papers =
            [("Decoding speculative runs", "decoding speculative runs"), ("Speculative decoding runs", "speculative decoding runs")];
        let index = LexicalIndex::in_memory(papers.iter().copied()).unwrap();
        let hits = index.search("speculative decoding", 2).unwrap();
        assert_eq!(hits.iter().map(|h| h.rowid).collect::<Vec<_>>(), [2, 1]);
    }

    #[test]
    fn phrases_are_two_words_in_a_row_within_a_clause() {
        let text = "Speculative decoding of the KV-cache. Caching, again";
        let stems = stems(&mut word_analyzer(), text);
        let found: Vec<(String, &str)> = phrases(text, &stems).map(|p| (p.stem, &text[p.at])).collect();
        assert_eq!(
            found,
            [
                ("specul decod".to_string(), "Speculative decoding"),
                ("decod kv".into(), "decoding of the KV"),
                ("kv cach".into(), "KV-cache")
            ]
        );
    }
}
