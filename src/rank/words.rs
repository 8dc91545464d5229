//! Words as the ranker sees them: a paper's title and abstract as a sparse
//! TF-IDF vector, cut by the lexical index's analyzer and weighted by its
//! document frequencies over the library (arxiv-sanity-lite's settings:
//! sublinear term frequency, smoothed idf, unit length).

use crate::library::lexical::{word_analyzer, LexicalIndex};
use std::collections::HashMap;
use tantivy::schema::Field;
use tantivy::tokenizer::TextAnalyzer;
use tantivy::{Searcher, Term};

/// A sparse unit vector over term ids, sorted by id, with the first form
/// each term had in the text (what a reason shows: "prefetching", not
/// the stem "prefetch").
#[derive(Debug, Clone, Default)]
pub struct Terms {
    pub entries: Vec<(u32, f32)>,
    pub surface: Vec<String>,
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
    field: Option<Field>,
    docs: f32,
    ids: HashMap<String, u32>,
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
            field: index.map(|ix| ix.fields.text),
            docs,
            ids: HashMap::new(),
            idf: Vec::new(),
        }
    }

    fn id(&mut self, stem: &str) -> u32 {
        if let Some(&id) = self.ids.get(stem) {
            return id;
        }
        let df = match (&self.searcher, self.field) {
            (Some(s), Some(f)) => s.doc_freq(&Term::from_field_text(f, stem)).unwrap_or(0) as f32,
            _ => 0.0,
        };
        // Smoothed as scikit-learn does: a word no paper has counts as rare.
        let idf = ((1.0 + self.docs) / (1.0 + df)).ln() + 1.0;
        let id = self.idf.len() as u32;
        self.idf.push(idf);
        self.ids.insert(stem.to_string(), id);
        id
    }

    /// The TF-IDF vector of a title and abstract.
    pub fn terms(&mut self, title: &str, abstract_text: &str) -> Terms {
        let text = format!("{title}\n{abstract_text}");
        // Stems in the order they first occur (so ids, and sums over them,
        // come out the same on every run), each with its count and place.
        let mut order: HashMap<String, usize> = HashMap::new();
        let mut counts: Vec<(String, usize, std::ops::Range<usize>)> = Vec::new();
        {
            let mut stream = self.analyzer.token_stream(&text);
            while let Some(t) = stream.next() {
                match order.get(&t.text) {
                    Some(&i) => counts[i].1 += 1,
                    None => {
                        order.insert(t.text.clone(), counts.len());
                        counts.push((t.text.clone(), 1, t.offset_from..t.offset_to));
                    }
                }
            }
        }
        let mut rows: Vec<(u32, f32, String)> = counts
            .into_iter()
            .map(|(stem, tf, at)| {
                let id = self.id(&stem);
                let surface = text.get(at).map_or(stem, str::to_string);
                (id, (1.0 + (tf as f32).ln()) * self.idf[id as usize], surface)
            })
            .collect();
        let norm = rows.iter().map(|r| r.1 * r.1).sum::<f32>().sqrt();
        if norm > 0.0 {
            rows.iter_mut().for_each(|r| r.1 /= norm);
        }
        rows.sort_unstable_by_key(|r| r.0);
        let (entries, surface) = rows.into_iter().map(|(id, w, s)| ((id, w), s)).unzip();
        Terms { entries, surface }
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
