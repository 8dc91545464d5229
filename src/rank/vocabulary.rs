//! Words as the ranker sees them: a paper's title and abstract as sparse
//! weights over single words and phrases (two words in a row), cut by the
//! lexical index's analyzer and weighed by Okapi BM25 with the library's
//! document frequencies and average length. A text has two sides: as a
//! document (saturated term frequency over length, times idf) and as a
//! query (sublinear term frequency times idf), so a paper's match to the
//! liked seeds is the sum over shared terms of the seeds' query weight
//! times its document weight, and a rare term counts twice over. On the
//! history replay this beat the TF-IDF cosine beside its topical band
//! (docs/quality.md, "BM25 for the words"): an author's rare words (a
//! system's name) say most about what they write next, and a common word
//! still says a little.
//!
//! A library of a few days cannot tell a common word from a telling one
//! ("end", "stage" and "KV cache" are each in one of the demo's 77
//! papers). What a reason quotes from such a library is judged with the
//! counts of 74,728 arXiv cs papers of 2025–26 (`df-prior.txt`, written by
//! `examples/df_prior.rs`) beside its own ([`Terms::telling`]); what it
//! ranks by keeps the library's own counts, which CSFCube preferred even
//! from 80 of its papers (docs/quality.md, "Reasons from a small library").

use crate::library::lexical::{phrases, stems, word_analyzer, LexicalIndex, Stem};
use rustc_hash::FxHashMap;
use std::collections::HashMap;
use std::sync::OnceLock;
use tantivy::query::Bm25StatisticsProvider;
use tantivy::schema::Field;
use tantivy::tokenizer::TextAnalyzer;
use tantivy::{Searcher, Term};

/// A text's terms, sorted by id, each with its weight as a document and as
/// a query, the first form it had in the text (what a reason shows:
/// "prefetching", not the stem "prefetch"; "KV caches", not "kv cach"),
/// whether it is a phrase, and whether a reason may quote it.
#[derive(Debug, Clone, Default)]
pub struct Terms {
    /// BM25's document side: idf × tf (k1 + 1) / (tf + k1 (1 − b + b ×
    /// length / the library's average length)).
    pub entries: Vec<(u32, f32)>,
    /// The query side, in the same order: (1 + ln tf) × idf.
    pub query: Vec<f32>,
    /// Each term's idf over the library, in the same order: what a
    /// profile's weight for the term starts from (`words::WordSum`).
    pub idf: Vec<f32>,
    pub surface: Vec<String>,
    pub phrase: Vec<bool>,
    /// Every word; a phrase where the text writes it as one word
    /// ("token-level", "long-context") or where its words go together over
    /// the library: more papers say it than would if the two words were
    /// strewn over them independently (pointwise mutual information above
    /// 0: "KV cache", "large language", "real time"). Two words that merely
    /// meet ("introduce spatially", "while reducing", "improves over") rank
    /// like any rare term, but a reason quoting them reads as noise.
    pub quotable: Vec<bool>,
    /// What a reason makes of the term beside its weight (only the ratio
    /// between terms counts): the square of its idf over counts topped up
    /// to [`BORROWED_PAPERS`] from the corpus's, over that of its idf over
    /// the library's alone; 1 in a library of that size or more, or none.
    pub telling: Vec<f32>,
}

/// The dot product of two sparse vectors sorted by id.
#[cfg(test)]
pub fn dot(a: &[(u32, f32)], b: &[(u32, f32)]) -> f32 {
    let (mut i, mut j, mut sum) = (0, 0, 0.0);
    while i < a.len() && j < b.len() {
        match a[i].0.cmp(&b[j].0) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                sum += a[i].1 * b[j].1;
                i += 1;
                j += 1;
            }
        }
    }
    sum
}

impl Terms {
    /// This text as a query, `doc` as a document: their BM25 match, not
    /// divided by the query's length as the ranker's is (`words::WordSum`).
    #[cfg(test)]
    pub fn bm25(&self, doc: &Terms) -> f32 {
        dot(&self.query_vector(), &doc.entries)
    }

    /// The query side as a sparse vector sorted by id.
    #[cfg(test)]
    pub fn query_vector(&self) -> Vec<(u32, f32)> {
        self.entries.iter().zip(&self.query).map(|(e, &q)| (e.0, q)).collect()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

/// One word or phrase of a text: its key (a stem, or two stems with a
/// space), how often the text says it, and where it first says it.
struct Counted {
    key: String,
    tf: usize,
    at: std::ops::Range<usize>,
    phrase: bool,
}

/// Term ids and their idf, handed out as texts are read: one vocabulary
/// serves one ranking (a day, a query), so ids only need to agree there.
pub struct Vocabulary {
    analyzer: TextAnalyzer,
    searcher: Option<Searcher>,
    fields: Option<(Field, Field)>,
    docs: f32,
    ids: FxHashMap<String, u32>,
    /// Each term's idf (BM25's, never below 0).
    idf: Vec<f32>,
    /// The library's words per title and abstract (0 without a library).
    average_length: f32,
    /// Each term's document frequency.
    df: Vec<f32>,
    /// Whether a reason may quote each term ([`Terms::quotable`]).
    quotable: Vec<bool>,
    /// Each term's [`Terms::telling`].
    telling: Vec<f32>,
    /// Papers borrowed from the corpus's counts for reasons (0 without a
    /// library, or with one large enough).
    borrowed: f32,
}

/// BM25's term-frequency saturation and length normalisation: the usual
/// values (Robertson's, and Lucene's and tantivy's defaults). On the
/// replay's fit half k1 = 2 or b = 1 did as well, smaller values worse
/// (docs/quality.md, "BM25 for the words").
const K1: f32 = 1.2;
const B: f32 = 0.75;
/// A library of fewer papers quotes every phrase: in four papers that all
/// say "speculative" and "decoding", two saying "speculative decoding" is
/// below chance, and means nothing either way.
const QUOTABLE_MIN_DOCS: f32 = 20.0;
/// Papers a library's counts are topped up to from the corpus's when a
/// reason picks its words: about a month of one busy category, past which
/// the library's own counts know its common words.
const BORROWED_PAPERS: f32 = 2000.0;

/// Document frequencies of a corpus: its size, and the count of every
/// word and phrase that at least 0.2 % of its papers say.
struct Borrowed {
    docs: f32,
    df: FxHashMap<&'static str, f32>,
}

fn borrowed() -> &'static Borrowed {
    static TABLE: OnceLock<Borrowed> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut lines = include_str!("df-prior.txt").lines();
        let docs = lines.next().and_then(|l| l.trim().parse().ok()).unwrap_or(0.0);
        let df = lines.filter_map(|l| l.split_once('\t')).filter_map(|(n, t)| Some((t, n.parse().ok()?))).collect();
        Borrowed { docs, df }
    })
}

/// Lucene's idf, never negative: a term every paper says weighs almost
/// nothing, one no paper says the most.
fn idf(docs: f32, df: f32) -> f32 {
    (1.0 + (docs - df + 0.5) / (df + 0.5)).ln().max(0.0)
}

impl Vocabulary {
    /// Document frequencies from the library's lexical index.
    pub fn new(index: Option<&LexicalIndex>) -> Vocabulary {
        let searcher = index.map(LexicalIndex::searcher);
        // Documents as the index counts them for df and length: deleted
        // ones too until their segment is merged (tantivy's own BM25 does
        // the same), so that df never exceeds N.
        let docs = searcher.as_ref().map_or(0, |s| s.total_num_docs().unwrap_or(0)) as f32;
        let borrowed = if searcher.is_some() { (BORROWED_PAPERS - docs).max(0.0) } else { 0.0 };
        let tokens = match (&searcher, index) {
            (Some(s), Some(ix)) => s.total_num_tokens(ix.fields.text).unwrap_or(0) as f32,
            _ => 0.0,
        };
        Vocabulary {
            analyzer: word_analyzer(),
            searcher,
            fields: index.map(|ix| (ix.fields.text, ix.fields.phrases)),
            docs,
            ids: FxHashMap::default(),
            idf: Vec::new(),
            average_length: if docs > 0.0 { tokens / docs } else { 0.0 },
            df: Vec::new(),
            quotable: Vec::new(),
            telling: Vec::new(),
            borrowed,
        }
    }

    /// A term's id; phrases are keyed "first second", words by their stem.
    fn id(&mut self, key: &str, phrase: bool) -> u32 {
        if let Some(&id) = self.ids.get(key) {
            return id;
        }
        let df = self.df(key, phrase);
        let own = idf(self.docs, df);
        let telling = if self.borrowed > 0.0 && own > 0.0 {
            let corpus = borrowed();
            let share = corpus.df.get(key).map_or(0.0, |n| n / corpus.docs.max(1.0));
            (idf(self.docs + self.borrowed, df + self.borrowed * share) / own).powi(2)
        } else {
            1.0
        };
        let quotable = match key.split_once(' ') {
            // Too few papers to tell a phrase from two words that met, or
            // a word the library never saw: no evidence either way.
            Some((a, b)) if phrase && self.docs >= QUOTABLE_MIN_DOCS => {
                let apart = self.word_df(a) * self.word_df(b);
                apart == 0.0 || df * self.docs > apart
            }
            _ => true,
        };
        let id = self.idf.len() as u32;
        self.idf.push(own);
        self.telling.push(telling);
        self.df.push(df);
        self.quotable.push(quotable);
        self.ids.insert(key.to_string(), id);
        id
    }

    /// How many papers of the library say a term (0 without one).
    fn df(&self, key: &str, phrase: bool) -> f32 {
        match (&self.searcher, self.fields) {
            (Some(s), Some((words, phrases))) => {
                let field = if phrase { phrases } else { words };
                s.doc_freq(&Term::from_field_text(field, key)).unwrap_or(0) as f32
            }
            _ => 0.0,
        }
    }

    /// A word's document frequency: known already where the word was
    /// met in the same text as the phrase it is part of (words are looked
    /// up before phrases).
    fn word_df(&self, stem: &str) -> f32 {
        self.ids.get(stem).map_or_else(|| self.df(stem, false), |&id| self.df[id as usize])
    }

    /// The weighed terms of a title and abstract.
    pub fn terms(&mut self, title: &str, abstract_text: &str) -> Terms {
        self.terms_of_many(&[(title, abstract_text)]).pop().unwrap_or_default()
    }

    /// The weighed terms of many titles and abstracts (a day's listing).
    /// Every text is cut first and the terms not yet known are looked up
    /// in key order: a day holds some thirty thousand of them, and walking
    /// the index's term dictionary in order finds each in the pages the
    /// last one warmed, where a lookup per term as it comes jumps about a
    /// 70 MB file (half of a `daily` run's time before).
    pub fn terms_of_many(&mut self, texts: &[(&str, &str)]) -> Vec<Terms> {
        let counted: Vec<(String, Vec<Counted>)> = texts
            .iter()
            .map(|(title, abstract_text)| {
                let text = format!("{title}\n{abstract_text}");
                let counts = self.count(&text);
                (text, counts)
            })
            .collect();
        let mut unknown: Vec<(bool, &str)> = counted
            .iter()
            .flat_map(|(_, counts)| counts.iter())
            .filter(|c| !self.ids.contains_key(c.key.as_str()))
            .map(|c| (c.phrase, c.key.as_str()))
            .collect();
        unknown.sort_unstable();
        unknown.dedup();
        for (phrase, key) in unknown {
            self.id(key, phrase);
        }
        counted.iter().map(|(text, counts)| self.weigh(text, counts)).collect()
    }

    /// A text's words and phrases, each with its count and where it first
    /// occurs, in the order they first occur (so ids, and sums over them,
    /// come out the same on every run).
    fn count(&mut self, text: &str) -> Vec<Counted> {
        let words = stems(&mut self.analyzer, text);
        let pairs: Vec<Stem> = phrases(text, &words).collect();
        let mut order: FxHashMap<&str, usize> = FxHashMap::default();
        let mut counts: Vec<(&Stem, usize, bool)> = Vec::new();
        for (t, phrase) in words.iter().map(|w| (w, false)).chain(pairs.iter().map(|p| (p, true))) {
            match order.get(t.stem.as_str()) {
                Some(&i) => counts[i].1 += 1,
                None => {
                    order.insert(&t.stem, counts.len());
                    counts.push((t, 1, phrase));
                }
            }
        }
        counts.into_iter().map(|(t, tf, phrase)| Counted { key: t.stem.clone(), tf, at: t.at.clone(), phrase }).collect()
    }

    /// A text's counted terms weighed as a document and as a query.
    fn weigh(&mut self, text: &str, counts: &[Counted]) -> Terms {
        // Its length in words as the index counts them; phrases are
        // weighed against the same length. Without a library there is no
        // average to compare with, and no length counts against a text.
        let length: usize = counts.iter().filter(|c| !c.phrase).map(|c| c.tf).sum();
        let norm = if self.average_length > 0.0 { 1.0 - B + B * length as f32 / self.average_length } else { 1.0 };
        let mut rows: Vec<(u32, usize, String, bool)> = counts
            .iter()
            .map(|c| {
                let id = self.id(&c.key, c.phrase);
                let surface = match text.get(c.at.clone()) {
                    Some(s) if s.contains(char::is_whitespace) => s.split_whitespace().collect::<Vec<_>>().join(" "),
                    Some(s) => s.to_string(),
                    None => c.key.clone(),
                };
                (id, c.tf, surface, c.phrase)
            })
            .collect();
        rows.sort_unstable_by_key(|r| r.0);
        let mut t = Terms::default();
        for (id, tf, surface, phrase) in rows {
            let (idf, tf) = (self.idf[id as usize], tf as f32);
            t.entries.push((id, idf * tf * (K1 + 1.0) / (tf + K1 * norm)));
            t.query.push((1.0 + tf.ln()) * idf);
            t.idf.push(idf);
            t.quotable.push(self.quotable[id as usize] || (phrase && !surface.contains(char::is_whitespace)));
            t.telling.push(self.telling[id as usize]);
            t.surface.push(surface);
            t.phrase.push(phrase);
        }
        debug_assert!([t.query.len(), t.idf.len(), t.quotable.len(), t.telling.len(), t.surface.len(), t.phrase.len()]
            .iter()
            .all(|&n| n == t.entries.len()));
        t
    }

    /// Number of distinct terms seen so far (the length of a dense profile).
    pub fn len(&self) -> usize {
        self.idf.len()
    }

    pub fn is_empty(&self) -> bool {
        self.idf.is_empty()
    }
}

/// Papers' words kept between rankings of the same library state: the
/// server ranks the same day for every request, and cutting and stemming
/// three hundred abstracts costs more than ranking them.
pub struct WordCache {
    vocab: Vocabulary,
    by_text: HashMap<Vec<u8>, Terms>,
}

/// Papers whose words a cache holds before it starts over (a few days'
/// listings; memory stays bounded whatever the requests ask for).
const CACHED_PAPERS: usize = 20_000;

impl WordCache {
    pub fn new(vocab: Vocabulary) -> WordCache {
        WordCache { vocab, by_text: HashMap::new() }
    }

    /// The words of texts known by their hashes: (hash, title, abstract).
    /// Those not cached are cut together, as [`Vocabulary::terms_of_many`]
    /// explains.
    pub fn terms(&mut self, texts: &[(&[u8], &str, &str)]) -> Vec<Terms> {
        let uncached = texts.iter().filter(|t| !self.by_text.contains_key(t.0)).count();
        if self.by_text.len() + uncached > CACHED_PAPERS {
            self.by_text.clear();
        }
        let missing: Vec<usize> = (0..texts.len()).filter(|&i| !self.by_text.contains_key(texts[i].0)).collect();
        let cut = self.vocab.terms_of_many(&missing.iter().map(|&i| (texts[i].1, texts[i].2)).collect::<Vec<_>>());
        let mut fresh: Vec<Option<Terms>> = (0..texts.len()).map(|_| None).collect();
        for (&i, t) in missing.iter().zip(cut) {
            fresh[i] = Some(t);
        }
        let mut out = Vec::with_capacity(texts.len());
        for ((hash, ..), fresh) in texts.iter().zip(fresh) {
            let t = match fresh {
                Some(t) => {
                    // A call with more new texts than the cache holds (a
                    // roll-up of many days) keeps only the first of them.
                    if self.by_text.len() < CACHED_PAPERS {
                        self.by_text.insert(hash.to_vec(), t.clone());
                    }
                    t
                }
                None => self.by_text.get(*hash).cloned().unwrap_or_default(),
            };
            out.push(t);
        }
        out
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A text's weights by the words and phrases as written (ids depend
    /// on the order terms were met).
    fn by_surface(t: &Terms) -> Vec<(String, bool, f32)> {
        let mut v: Vec<(String, bool, f32)> =
            t.entries.iter().zip(&t.surface).zip(&t.phrase).map(|((e, s), &p)| (s.clone(), p, e.1)).collect();
        v.sort_by(|a, b| a.0.cmp(&b.0).then(a.1.cmp(&b.1)));
        v
    }

    #[test]
    fn texts_cut_together_weigh_as_texts_cut_one_by_one_and_the_cache_keeps_them() {
        let papers = [
            ("KV cache prefetching", "We prefetch the KV cache of long-context serving; prefetching hides latency."),
            ("Speculative decoding with draft trees", "Drafts are verified in one pass.\nSpeculative decoding speeds up serving."),
            ("Protein folding", "Structures of proteins, folded."),
        ];
        let index = LexicalIndex::in_memory(papers.iter().copied()).unwrap();
        let mut one = Vocabulary::new(Some(&index));
        let singly: Vec<Terms> = papers.iter().map(|(t, a)| one.terms(t, a)).collect();
        let mut many = Vocabulary::new(Some(&index));
        let together = many.terms_of_many(&papers);
        assert_eq!(together.len(), 3);
        for (a, b) in singly.iter().zip(&together) {
            assert!(!a.is_empty());
            assert_eq!(by_surface(a), by_surface(b));
        }
        // Products agree too: the ids within one vocabulary line up.
        assert!((singly[0].bm25(&singly[1]) - together[0].bm25(&together[1])).abs() < 1e-6);

        let mut cache = WordCache::new(Vocabulary::new(Some(&index)));
        let first = cache.terms(&[(b"a".as_slice(), papers[0].0, papers[0].1), (b"b", papers[1].0, papers[1].1)]);
        // A known hash is served from the cache (even with another text),
        // a new one is cut, and the order is the caller's.
        let second = cache.terms(&[(b"c".as_slice(), papers[2].0, papers[2].1), (b"a", "ignored", "")]);
        assert_eq!(by_surface(&second[1]), by_surface(&first[0]));
        assert_eq!(by_surface(&second[0]), by_surface(&singly[2]));
        assert!((first[0].bm25(&second[1]) - first[0].bm25(&first[0])).abs() < 1e-5);
    }

    #[test]
    fn a_phrase_said_together_is_nearer_than_its_words_apart() {
        let papers = [
            ("Speculative decoding with draft trees", "We speed up speculative decoding."),
            ("Decoding speculative execution", "Speculative attacks on CPUs; decoding them."),
            ("Protein folding", "Structures of proteins."),
            ("Speculative decoding at scale", "Drafts verified in one pass."),
        ];
        let index = LexicalIndex::in_memory(papers.iter().copied()).unwrap();
        let mut vocab = Vocabulary::new(Some(&index));
        let seed = vocab.terms("Faster speculative decoding", "");
        let together = vocab.terms(papers[0].0, papers[0].1);
        let apart = vocab.terms(papers[1].0, papers[1].1);
        let phrase = |t: &Terms| t.surface.iter().zip(&t.phrase).filter(|(_, &p)| p).map(|(s, _)| s.clone()).collect::<Vec<_>>();
        assert!(phrase(&seed).contains(&"speculative decoding".to_string()), "{:?}", phrase(&seed));
        assert!(phrase(&apart).iter().all(|p| p != "speculative decoding"));
        assert!(seed.bm25(&together) > seed.bm25(&apart), "{} <= {}", seed.bm25(&together), seed.bm25(&apart));
        // Its document frequency is the phrase's, not its words': three
        // papers say both words, two say them together.
        let id = |t: &Terms, s: &str| t.entries[t.surface.iter().position(|x| x == s).unwrap()].0;
        let (p, w) = (id(&seed, "speculative decoding"), id(&seed, "speculative"));
        assert!(vocab.idf[p as usize] > vocab.idf[w as usize]);
    }

    /// Twenty papers that all say "method" and "widget"; two say "pulsar",
    /// one "quasar".
    fn twenty() -> Vec<(String, String)> {
        (0..20)
            .map(|i| {
                let extra = ["pulsar timing", "pulsar", "quasar"].get(i).copied().unwrap_or("");
                (format!("Method {i}"), format!("This method studies widgets. {extra}"))
            })
            .collect()
    }

    #[test]
    fn a_reason_quotes_phrases_whose_words_go_together_or_are_written_as_one() {
        // 24 papers: half "introduce" something, four say "pulsar", three
        // "KV cache" (and one more "cache"), twelve "tokens" and "levels"
        // but never together.
        let papers: Vec<(String, String)> = (0..24)
            .map(|i| {
                let mut a = String::from(if i < 12 { "We introduce widgets." } else { "Widgets are studied." });
                a += match i {
                    0..=3 => " Pulsar glitches.",
                    4..=6 => " The KV cache.",
                    7 => " A cache of widgets.",
                    _ => "",
                };
                if (8..20).contains(&i) {
                    a += " Tokens. Levels.";
                }
                (format!("Study {i}"), a)
            })
            .collect();
        let index = LexicalIndex::in_memory(papers.iter().map(|(t, a)| (t.as_str(), a.as_str()))).unwrap();
        let mut vocab = Vocabulary::new(Some(&index));
        let quotable = |t: &Terms| -> Vec<(String, bool)> {
            t.surface.iter().zip(&t.phrase).zip(&t.quotable).filter(|((_, &p), _)| p).map(|((s, _), &q)| (s.clone(), q)).collect()
        };
        let t = vocab.terms("We introduce pulsar timing", "with a KV cache, token-level. Then token level.");
        let q = quotable(&t);
        let of = |s: &str| q.iter().find(|x| x.0 == s).unwrap_or_else(|| panic!("{s}: {q:?}")).1;
        // Said by 0 papers where half say "introduce" and a sixth "pulsar".
        assert!(!of("introduce pulsar"));
        // 3 papers where chance would give 3 × 4 / 24.
        assert!(of("KV cache"));
        // Never together in the library, but this text writes it as one
        // word (its first form, the one a reason shows).
        assert!(of("token-level"));
        assert!(t.surface.iter().zip(&t.quotable).all(|(s, &q)| q || s.contains(' ')), "every word is quotable");
        let apart = vocab.terms("Token level", "");
        assert!(!quotable(&apart)[0].1, "{:?}", quotable(&apart));
        // Too small a library to judge by: every phrase may be quoted.
        let small = LexicalIndex::in_memory(papers[..4].iter().map(|(t, a)| (t.as_str(), a.as_str()))).unwrap();
        let t = Vocabulary::new(Some(&small)).terms("We introduce pulsar timing", "");
        assert!(quotable(&t).iter().all(|x| x.1), "{:?}", quotable(&t));
    }

    /// Four papers, one of which says "end" and "stage", one "KV cache".
    pub(crate) fn four() -> LexicalIndex {
        LexicalIndex::in_memory([
            ("End-to-end training in stages", "An end-to-end pipeline of two stages."),
            ("KV cache eviction", "Which entries of the KV cache to drop."),
            ("Protein folding", "Structures of proteins."),
            ("Pulsar timing", "Radio pulsars."),
        ])
        .unwrap()
    }

    #[test]
    fn a_small_librarys_reasons_borrow_the_corpus_counts_and_its_ranking_does_not() {
        let index = four();
        let mut vocab = Vocabulary::new(Some(&index));
        let t = vocab.terms("End stage and KV cache", "");
        let at = |s: &str| t.surface.iter().position(|x| x == s).unwrap_or_else(|| panic!("{s}: {:?}", t.surface));
        // One paper of four says each, so they weigh alike in the ranking.
        let (end, kv) = (at("End"), at("KV cache"));
        assert!((t.query[end] - t.query[kv]).abs() < 1e-5, "{:?}", t.query);
        // One arXiv cs paper in eleven says "end", one in 165 "KV cache".
        assert!(t.telling[kv] > 1.5 * t.telling[end], "{:?}", t.telling);
        // A large enough library, or none, judges by what it has.
        assert!(Vocabulary::new(None).terms("End stage and KV cache", "").telling.iter().all(|&x| x == 1.0));
        // The table is the analyzer's: stems, and phrases of two stems.
        let table = borrowed();
        assert!(table.docs > 70_000.0 && table.df.len() > 5_000, "{} {}", table.docs, table.df.len());
        assert!(table.df["kv cach"] < table.df["cach"] && table.df["model"] > table.df["cach"]);
    }

    #[test]
    fn rare_words_weigh_most_and_a_long_text_weighs_each_word_less() {
        let papers = twenty();
        let index = LexicalIndex::in_memory(papers.iter().map(|(t, a)| (t.as_str(), a.as_str()))).unwrap();
        let mut vocab = Vocabulary::new(Some(&index));
        // The library's texts are "Method i" and "This method studies
        // widgets." and some more: 6 to 8 words as the index counts them.
        assert!((5.0..9.0).contains(&vocab.average_length), "{}", vocab.average_length);
        let seed = vocab.terms("Pulsar quasar method", "");
        let weight = |t: &Terms, s: &str| t.query[t.surface.iter().position(|x| x == s).unwrap_or_else(|| panic!("{s}: {:?}", t.surface))];
        // "quasar": 1 of 20 papers, "pulsar" 2, "method" all 20.
        assert!(weight(&seed, "quasar") > weight(&seed, "Pulsar") && weight(&seed, "Pulsar") > 10.0 * weight(&seed, "method"));
        let (short, common) = (vocab.terms("Pulsar timing", ""), vocab.terms("Method", ""));
        let long = vocab.terms("Pulsar timing", "Widgets, methods, glitches and surveys of the sky at night, observed for years");
        assert!(seed.bm25(&short) > 10.0 * seed.bm25(&common), "{} {}", seed.bm25(&short), seed.bm25(&common));
        assert!(seed.bm25(&short) > seed.bm25(&long) && seed.bm25(&long) > 0.0);
        // Saying a word again counts, but less each time.
        let (once, twice, thrice) = (vocab.terms("Pulsar", ""), vocab.terms("Pulsar pulsar", ""), vocab.terms("Pulsar pulsar pulsar", ""));
        let (a, b, c) = (seed.bm25(&once), seed.bm25(&twice), seed.bm25(&thrice));
        assert!(a < b && b < c && c - b < b - a, "{a} {b} {c}");
        // Without a library every term weighs the same, whatever its length.
        let mut none = Vocabulary::new(None);
        let t = none.terms("Pulsar quasar method", "");
        assert!(t.entries.iter().all(|e| (e.1 - t.entries[0].1).abs() < 1e-6) && !t.entries.is_empty());
        assert!(
            (none.terms("Pulsar", "").bm25(&t)
                - none.terms("Pulsar", "").bm25(&none.terms("Pulsar", "and ten other words said once here")))
            .abs()
                < 1e-6
        );
    }
}
