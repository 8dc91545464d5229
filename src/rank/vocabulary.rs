//! Words as the ranker sees them: a paper's title and abstract as a sparse
//! TF-IDF vector over single words and phrases (two words in a row), cut
//! by the lexical index's analyzer and weighted by its document
//! frequencies over the library: sublinear term frequency, smoothed idf,
//! unit length. Beside it the same text's topical vector: only the terms
//! some other paper also says (df ≥ 2) and at most a tenth of the library
//! says, the middle band where a field's own vocabulary lives. The two are
//! separate signals (docs/quality.md, "Two word signals"): on the history
//! replay their sum beats either alone, since an author's rare words (a
//! system's name) and their field's words both say what they write next;
//! the full vector alone keeps the one paper that shares a rare word with
//! a free-text seed, and a narrow library's own topic words. A library of
//! fewer than twenty papers (or none) has no topical term: that signal is
//! then silent, as the fields are where no paper has a category.

use crate::library::lexical::{phrases, stems, word_analyzer, LexicalIndex, Stem};
use rustc_hash::FxHashMap;
use std::collections::HashMap;
use tantivy::schema::Field;
use tantivy::tokenizer::TextAnalyzer;
use tantivy::{Searcher, Term};

/// A sparse unit vector over term ids, sorted by id, with the first form
/// each term had in the text (what a reason shows: "prefetching", not
/// the stem "prefetch"; "KV caches", not "kv cach"), whether it is a
/// phrase, and whether a reason may quote it.
#[derive(Debug, Clone, Default)]
pub struct Terms {
    pub entries: Vec<(u32, f32)>,
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
    /// The unit vector over the topical terms alone, sorted by id.
    pub topical: Vec<(u32, f32)>,
}

/// The dot product of two sparse vectors sorted by id.
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
    pub fn dot(&self, other: &Terms) -> f32 {
        dot(&self.entries, &other.entries)
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

/// `v` scaled to length 1 (empty stays empty).
fn unit(mut v: Vec<(u32, f32)>) -> Vec<(u32, f32)> {
    let norm = v.iter().map(|r| r.1 * r.1).sum::<f32>().sqrt();
    if norm > 0.0 {
        v.iter_mut().for_each(|r| r.1 /= norm);
    }
    v
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
    /// Each term's idf.
    idf: Vec<f32>,
    /// Each term's document frequency.
    df: Vec<f32>,
    /// Whether a reason may quote each term ([`Terms::quotable`]).
    quotable: Vec<bool>,
    /// Whether each term is topical: df in [`TOPICAL_MIN_DF`,
    /// [`TOPICAL_MAX_SHARE`] × the library].
    topical: Vec<bool>,
}

/// A topical term is said by at least this many papers: one alone can
/// match no other paper, and in a unit vector it only dilutes the rest.
const TOPICAL_MIN_DF: f32 = 2.0;
/// ... and by at most this share of the library: "model", "propose" and
/// "results" say nothing of a field. The lead (scikit-learn's
/// min_df 2, max_df 0.1); on the replay's fit half 5 %, 20 % or df ≥ 3
/// did no better (docs/quality.md, "Two word signals").
const TOPICAL_MAX_SHARE: f32 = 0.1;
/// A library of fewer papers quotes every phrase: in four papers that all
/// say "speculative" and "decoding", two saying "speculative decoding" is
/// below chance, and means nothing either way.
const QUOTABLE_MIN_DOCS: f32 = 20.0;

impl Vocabulary {
    /// Document frequencies from the library's lexical index.
    pub fn new(index: Option<&LexicalIndex>) -> Vocabulary {
        let searcher = index.map(LexicalIndex::searcher);
        let docs = searcher.as_ref().map_or(0, |s| s.num_docs()) as f32;
        Vocabulary {
            analyzer: word_analyzer(),
            searcher,
            fields: index.map(|ix| (ix.fields.text, ix.fields.phrases)),
            docs,
            ids: FxHashMap::default(),
            idf: Vec::new(),
            df: Vec::new(),
            quotable: Vec::new(),
            topical: Vec::new(),
        }
    }

    /// A term's id; phrases are keyed "first second", words by their stem.
    fn id(&mut self, key: &str, phrase: bool) -> u32 {
        if let Some(&id) = self.ids.get(key) {
            return id;
        }
        let df = self.df(key, phrase);
        // Smoothed as scikit-learn does: a term no paper has counts as rare.
        let idf = ((1.0 + self.docs) / (1.0 + df)).ln() + 1.0;
        let quotable = match key.split_once(' ') {
            // Too few papers to tell a phrase from two words that met.
            Some((a, b)) if phrase && self.docs >= QUOTABLE_MIN_DOCS => df * self.docs > self.word_df(a) * self.word_df(b),
            _ => true,
        };
        let id = self.idf.len() as u32;
        self.idf.push(idf);
        self.df.push(df);
        self.quotable.push(quotable);
        self.topical.push(df >= TOPICAL_MIN_DF && df <= TOPICAL_MAX_SHARE * self.docs);
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

    /// The TF-IDF vector of a title and abstract.
    pub fn terms(&mut self, title: &str, abstract_text: &str) -> Terms {
        self.terms_of_many(&[(title, abstract_text)]).pop().unwrap_or_default()
    }

    /// The TF-IDF vectors of many titles and abstracts (a day's listing).
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

    /// The unit TF-IDF vectors of a text's counted terms, all and topical.
    fn weigh(&mut self, text: &str, counts: &[Counted]) -> Terms {
        let mut rows: Vec<(u32, f32, String, bool)> = counts
            .iter()
            .map(|c| {
                let id = self.id(&c.key, c.phrase);
                let surface = match text.get(c.at.clone()) {
                    Some(s) if s.contains(char::is_whitespace) => s.split_whitespace().collect::<Vec<_>>().join(" "),
                    Some(s) => s.to_string(),
                    None => c.key.clone(),
                };
                (id, (1.0 + (c.tf as f32).ln()) * self.idf[id as usize], surface, c.phrase)
            })
            .collect();
        rows.sort_unstable_by_key(|r| r.0);
        let mut t = Terms {
            entries: unit(rows.iter().map(|r| (r.0, r.1)).collect()),
            topical: unit(rows.iter().filter(|r| self.topical[r.0 as usize]).map(|r| (r.0, r.1)).collect()),
            ..Terms::default()
        };
        for (id, _, surface, phrase) in rows {
            t.quotable.push(self.quotable[id as usize] || (phrase && !surface.contains(char::is_whitespace)));
            t.surface.push(surface);
            t.phrase.push(phrase);
        }
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
mod tests {
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
        assert!((singly[0].dot(&singly[1]) - together[0].dot(&together[1])).abs() < 1e-6);

        let mut cache = WordCache::new(Vocabulary::new(Some(&index)));
        let first = cache.terms(&[(b"a".as_slice(), papers[0].0, papers[0].1), (b"b", papers[1].0, papers[1].1)]);
        // A known hash is served from the cache (even with another text),
        // a new one is cut, and the order is the caller's.
        let second = cache.terms(&[(b"c".as_slice(), papers[2].0, papers[2].1), (b"a", "ignored", "")]);
        assert_eq!(by_surface(&second[1]), by_surface(&first[0]));
        assert_eq!(by_surface(&second[0]), by_surface(&singly[2]));
        assert!((first[0].dot(&second[1]) - 1.0).abs() < 1e-5);
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
        assert!(seed.dot(&together) > seed.dot(&apart), "{} <= {}", seed.dot(&together), seed.dot(&apart));
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

    #[test]
    fn topical_terms_are_said_by_more_than_one_paper_and_at_most_a_tenth() {
        let papers = twenty();
        let index = LexicalIndex::in_memory(papers.iter().map(|(t, a)| (t.as_str(), a.as_str()))).unwrap();
        let mut vocab = Vocabulary::new(Some(&index));
        let t = vocab.terms("Pulsar quasar method", "");
        let id = |s: &str| t.entries[t.surface.iter().position(|x| x == s).unwrap_or_else(|| panic!("{s}: {:?}", t.surface))].0;
        // "pulsar": 2 of 20 papers. Not "quasar" (1: it can match no other
        // paper), nor "method" (20), nor the phrases (none in the library).
        assert_eq!(t.topical.len(), 1, "{:?}", t.topical);
        assert_eq!(t.topical[0].0, id("Pulsar"));
        assert!((t.topical[0].1 - 1.0).abs() < 1e-6, "a unit vector of its own");
        // All of them in the full vector, rare ones heaviest.
        let weight = |s: &str| t.entries.iter().find(|e| e.0 == id(s)).unwrap().1;
        assert!(weight("quasar") > weight("Pulsar") && weight("Pulsar") > weight("method"));
        assert!((dot(&t.entries, &t.entries) - 1.0).abs() < 1e-5);
        // Without a library nothing is known to be topical.
        let t = Vocabulary::new(None).terms("Pulsar quasar method", "");
        assert!(t.topical.is_empty() && !t.entries.is_empty());
    }
}
