//! Words as the ranker sees them: a paper's title and abstract as a sparse
//! TF-IDF vector over single words and phrases (two words in a row), cut
//! by the lexical index's analyzer and weighted by its document
//! frequencies over the library: sublinear term frequency, smoothed idf,
//! unit length. No document-frequency cap either way (docs/quality.md,
//! "Phrases and fields"): dropping what a tenth of the library says
//! (max_df 0.1) added nothing on the history replay once idf weighs common
//! words down, and in a narrow library would drop the reader's own topic;
//! dropping what one paper alone says (min_df 2) gained 0.006 MRR there
//! but lost 0.9 MAP on CSFCube, and would silence the one paper of the day
//! that shares a rare word with a free-text seed.

use crate::library::lexical::{phrases, stems, word_analyzer, LexicalIndex};
use std::collections::HashMap;
use tantivy::schema::Field;
use tantivy::tokenizer::TextAnalyzer;
use tantivy::{Searcher, Term};

/// A sparse unit vector over term ids, sorted by id, with the first form
/// each term had in the text (what a reason shows: "prefetching", not
/// the stem "prefetch"; "KV caches", not "kv cach") and whether it is a
/// phrase.
#[derive(Debug, Clone, Default)]
pub struct Terms {
    pub entries: Vec<(u32, f32)>,
    pub surface: Vec<String>,
    pub phrase: Vec<bool>,
}

impl Terms {
    pub fn dot(&self, other: &Terms) -> f32 {
        let (a, b) = (&self.entries, &other.entries);
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

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

/// Term ids and their idf, handed out as texts are read: one vocabulary
/// serves one ranking (a day, a query), so ids only need to agree there.
pub struct Vocabulary {
    analyzer: TextAnalyzer,
    searcher: Option<Searcher>,
    fields: Option<(Field, Field)>,
    docs: f32,
    ids: HashMap<String, u32>,
    /// Each term's idf.
    idf: Vec<f32>,
}

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
            ids: HashMap::new(),
            idf: Vec::new(),
        }
    }

    /// A term's id; phrases are keyed "first second", words by their stem.
    fn id(&mut self, key: &str, phrase: bool) -> u32 {
        if let Some(&id) = self.ids.get(key) {
            return id;
        }
        let df = match (&self.searcher, self.fields) {
            (Some(s), Some((words, phrases))) => {
                let field = if phrase { phrases } else { words };
                s.doc_freq(&Term::from_field_text(field, key)).unwrap_or(0) as f32
            }
            _ => 0.0,
        };
        // Smoothed as scikit-learn does: a term no paper has counts as rare.
        let idf = ((1.0 + self.docs) / (1.0 + df)).ln() + 1.0;
        let id = self.idf.len() as u32;
        self.idf.push(idf);
        self.ids.insert(key.to_string(), id);
        id
    }

    /// The TF-IDF vector of a title and abstract.
    pub fn terms(&mut self, title: &str, abstract_text: &str) -> Terms {
        let text = format!("{title}\n{abstract_text}");
        let words = stems(&mut self.analyzer, &text);
        // Terms in the order they first occur (so ids, and sums over them,
        // come out the same on every run), each with its count and place.
        let mut order: HashMap<String, usize> = HashMap::new();
        let mut counts: Vec<(String, usize, std::ops::Range<usize>, bool)> = Vec::new();
        let all = words.iter().cloned().map(|w| (w, false)).chain(phrases(&text, &words).map(|p| (p, true)));
        for (t, phrase) in all {
            match order.get(&t.stem) {
                Some(&i) => counts[i].1 += 1,
                None => {
                    order.insert(t.stem.clone(), counts.len());
                    counts.push((t.stem, 1, t.at, phrase));
                }
            }
        }
        let mut rows: Vec<(u32, f32, String, bool)> = counts
            .into_iter()
            .map(|(key, tf, at, phrase)| {
                let id = self.id(&key, phrase);
                let surface = text.get(at).map_or(key, |s| s.split_whitespace().collect::<Vec<_>>().join(" "));
                (id, (1.0 + (tf as f32).ln()) * self.idf[id as usize], surface, phrase)
            })
            .collect();
        let norm = rows.iter().map(|r| r.1 * r.1).sum::<f32>().sqrt();
        if norm > 0.0 {
            rows.iter_mut().for_each(|r| r.1 /= norm);
        }
        rows.sort_unstable_by_key(|r| r.0);
        let mut t = Terms::default();
        for (id, w, surface, phrase) in rows {
            t.entries.push((id, w));
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

    /// The words of a text known by its hash.
    pub fn terms(&mut self, text_hash: &[u8], title: &str, abstract_text: &str) -> Terms {
        if let Some(t) = self.by_text.get(text_hash) {
            return t.clone();
        }
        if self.by_text.len() >= CACHED_PAPERS {
            self.by_text.clear();
        }
        let t = self.vocab.terms(title, abstract_text);
        self.by_text.insert(text_hash.to_vec(), t.clone());
        t
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
