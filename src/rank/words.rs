//! Closeness in words: a paper's BM25 match, as a document, to the liked
//! seeds' words and phrases as one query (the `lexical` method, and a
//! hybrid signal; see [`super::vocabulary`]). It explains itself by the
//! shared words and phrases that weigh most in that match, which every
//! pick's reason quotes.

use super::signal::{Details, Naming, Part, Seeds, Signal, SignalId};
use super::{Candidate, Terms};

/// Words a reason quotes.
const QUOTED: usize = 3;

/// How much a term's weight trusts the seeds' agreement on it: a seed
/// count of this much is added to both the seeds that say the term and
/// all of them ([`profile_idf`]).
const AGREEMENT_PRIOR: f32 = 0.5;

/// A term's weight for this profile: its idf over the library, less how
/// far the liked seeds fall short of all saying it, ln((r + ½) / (R + ½))
/// for r of R seeds (weights summed). Every seed saying it (and a profile
/// of one seed) leaves its idf; a word one seed of ten says in passing
/// ("management", "serves") loses 1.9 nats, which leaves a common word
/// nothing and a rare one most of its weight. The relevance weight of
/// Robertson and Spärck Jones with the library standing for the
/// non-relevant side, smoothed so that one seed does not count as proof.
fn profile_idf(idf: f32, said: f32, total: f32) -> f32 {
    if said <= 1e-6 {
        return 0.0;
    }
    (idf + ((said + AGREEMENT_PRIOR) / (total + AGREEMENT_PRIOR)).ln()).max(0.0)
}

/// The liked seeds' words as one query: per term, Σ weight × (1 + ln tf)
/// over the seeds that say it, times its [`profile_idf`]; and the query's
/// length, which a match is divided by, so the signal's scale does not
/// grow with the number of seeds (the day's papers share the divisor; a
/// rated paper is scored on what the other seeds make of the query, as a
/// cosine would be). Dense over term ids (a day's vocabulary is some ten
/// thousand terms), so every sum runs in the same order and a ranking is
/// the same to the last bit on every run.
struct WordSum {
    /// Σ weight × (1 + ln tf) of the seeds that say each term.
    tf: Vec<f32>,
    /// Σ weight of the seeds that say each term.
    said: Vec<f32>,
    /// Each term's idf over the library.
    idf: Vec<f32>,
    /// Σ weight of the seeds.
    total: f32,
    /// The query with every seed in.
    sum: Vec<f32>,
    norm2: f32,
}

/// A seed's part of the sums: its terms and its weight.
type Own<'a> = (&'a Terms, f32);

impl WordSum {
    fn new<'a>(terms: impl Iterator<Item = Own<'a>>) -> WordSum {
        let (mut tf, mut said, mut idf, mut total) = (Vec::new(), Vec::new(), Vec::new(), 0.0);
        for (t, w) in terms {
            debug_assert_eq!(t.entries.len(), t.idf.len());
            total += w;
            for ((&(id, _), &q), &i) in t.entries.iter().zip(&t.query).zip(&t.idf) {
                let id = id as usize;
                if id >= tf.len() {
                    tf.resize(id + 1, 0.0);
                    said.resize(id + 1, 0.0);
                    idf.resize(id + 1, 0.0);
                }
                tf[id] += w * if i > 0.0 { q / i } else { 0.0 };
                said[id] += w;
                idf[id] = i;
            }
        }
        let mut ws = WordSum { tf, said, idf, total, sum: Vec::new(), norm2: 0.0 };
        ws.sum = ws.query(None);
        ws.norm2 = ws.sum.iter().map(|x| x * x).sum();
        ws
    }

    /// The query's weights, without `own` (a rated paper's seed).
    fn query(&self, own: Option<Own<'_>>) -> Vec<f32> {
        let (mut tf, mut said, mut total) = (self.tf.clone(), self.said.clone(), self.total);
        if let Some((o, w)) = own {
            total -= w;
            for ((&(id, _), &q), &i) in o.entries.iter().zip(&o.query).zip(&o.idf) {
                let id = id as usize;
                if id < tf.len() {
                    tf[id] -= w * if i > 0.0 { q / i } else { 0.0 };
                    said[id] -= w;
                }
            }
        }
        (0..tf.len()).map(|t| tf[t].max(0.0) * profile_idf(self.idf[t], said[t], total)).collect()
    }

    /// The match of document `doc` to the query, without `own`, over the
    /// length of what is left. A phrase and its two words each count
    /// ("KV cache" is three matches): counting the words only outside a
    /// matched phrase cost CSFCube 0.18 MAP cold and 1.0 after ratings
    /// (docs/quality.md, "Words that are about the seeds").
    fn score(&self, doc: &Terms, own: Option<Own<'_>>) -> f32 {
        let left;
        let (q, norm2) = match own {
            None => (&self.sum, self.norm2),
            Some(o) => {
                left = self.query(Some(o));
                (&left, left.iter().map(|x| x * x).sum())
            }
        };
        // What is left of the query once its own seed is out can be
        // rounding alone (a rated paper that is the only liked seed).
        if norm2 <= 1e-6 * self.norm2 || norm2 <= 1e-12 {
            return 0.0;
        }
        let num: f32 = doc.entries.iter().map(|&(id, w)| w * q.get(id as usize).copied().unwrap_or(0.0)).sum();
        num / norm2.sqrt()
    }
}

/// Weight the words gain from the nearest seed per e-fold of liked seeds
/// (each signal's [`Part::per_ln_seeds`]): one abstract is a noisy query
/// and meaning reads it better, while the words of several agree on what
/// the reader's field calls things (0.37 at two seeds, 0.46 at five, 0.53
/// at ten). The cold weights themselves ([`Part::cold`]): the replay's fit
/// half (with one-seed profiles, `--max-seeds 1`) is flat around them;
/// CSFCube's dev folds chose words 0.3 over 0.35 and 0.4 at one seed; the
/// replay's check half and CSFCube's test folds report them
/// (docs/quality.md, "Words count more as seeds add up").
pub const PER_LN_SEEDS: f32 = 0.1;

pub const WORDS: Part = Part {
    name: "words",
    label: "shared words",
    legend: "the words and phrases it shares with your seeds, those telling of them weighing most",
    cold: 0.3,
    per_ln_seeds: PER_LN_SEEDS,
    naming: Naming::Lifting,
};

pub fn make(seeds: &Seeds) -> Box<dyn Signal> {
    Box::new(Words::new(seeds))
}

/// The liked seeds' words. Liked seeds only: a 👎's words subtracted
/// (Rocchio) lowered CSFCube's rated rows by 5 MAP (docs/quality.md).
pub struct Words {
    sum: WordSum,
}

impl Words {
    pub fn new(seeds: &Seeds) -> Words {
        let liked = seeds.liked.iter().map(|&i| (&seeds.all[i].terms, seeds.all[i].weight));
        Words { sum: WordSum::new(liked.filter(|(_, w)| *w != 0.0)) }
    }

    /// A rated paper's own seed's words and weight, left out of the query it is scored on.
    fn own<'a>(&self, seeds: &'a Seeds, c: &Candidate<'_>) -> Option<Own<'a>> {
        seeds.own_liked(c).map(|s| (&seeds.all[s].terms, seeds.all[s].weight)).filter(|(_, w)| *w != 0.0)
    }

    /// The words that weigh most in the match, as a small library's
    /// reason judges them ([`Terms::telling`]), without the paper's own
    /// seed's part (a rated paper shares every word with itself, which is
    /// no reason): phrases first, and no word a phrase shown already says
    /// ("speculative decoding", not also "decoding").
    fn shared(&self, seeds: &Seeds, c: &Candidate<'_>) -> Vec<String> {
        let terms = c.terms;
        let left;
        let query = match self.own(seeds, c) {
            None => &self.sum.sum,
            own => {
                left = self.sum.query(own);
                &left
            }
        };
        let mut parts: Vec<(f32, usize)> = terms
            .entries
            .iter()
            .enumerate()
            .filter_map(|(i, &(t, d))| {
                let q = *query.get(t as usize)?;
                Some((d * q * terms.telling.get(i).copied().unwrap_or(1.0), i))
            })
            .filter(|(c, _)| *c > 1e-6)
            .filter(|&(_, i)| {
                terms.quotable.get(i).copied().unwrap_or(true)
                    && terms.surface[i].chars().count() > 1
                    && terms.surface[i].chars().any(char::is_alphabetic)
                    && !is_tex(&terms.surface[i])
            })
            .collect();
        parts.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
        // Of the heaviest few, the phrases lead.
        parts.truncate(2 * QUOTED);
        parts.sort_by_key(|&(_, i)| !terms.phrase[i]);
        let mut out: Vec<String> = Vec::with_capacity(QUOTED);
        for (_, i) in parts {
            let w = shown(&terms.surface[i]);
            let said = |o: &String| o.to_lowercase().split(|c: char| !c.is_alphanumeric()).any(|x| x == w.to_lowercase());
            if terms.phrase[i] || !out.iter().any(said) {
                out.push(w);
            }
            if out.len() == QUOTED {
                break;
            }
        }
        out
    }
}

impl Signal for Words {
    fn id(&self) -> SignalId {
        SignalId(&WORDS)
    }

    fn score(&self, seeds: &Seeds, day: &[Candidate<'_>]) -> Vec<f32> {
        day.iter().map(|c| self.sum.score(c.terms, self.own(seeds, c))).collect()
    }

    fn explain(&self, seeds: &Seeds, c: &Candidate<'_>) -> Details {
        Details::Words(self.shared(seeds, c))
    }
}

/// Written in TeX ("4\times", "$L_p$"): a reason quotes plain words, and
/// a macro's name is no word the reader wrote (it still counts in the
/// match).
fn is_tex(surface: &str) -> bool {
    surface.contains(['\\', '$', '^', '_', '{', '}'])
}

/// A word as a reason shows it: lower case, unless it is an acronym or a
/// name written with capitals inside (GPU, LoRA, PyTorch).
fn shown(w: &str) -> String {
    if w.chars().skip(1).any(char::is_uppercase) {
        w.to_string()
    } else {
        w.to_lowercase()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::library::lexical::LexicalIndex;
    use crate::rank::{SeedVector, Vocabulary};

    #[test]
    fn a_word_one_seed_of_four_says_weighs_less_than_its_share_of_the_seeds() {
        // A library in which "pulsar" and "glitches" are equally rare.
        let texts: Vec<(String, String)> = (0..60)
            .map(|i| {
                let said = match i % 10 {
                    0 => "pulsar",
                    1 => "glitches",
                    _ => "",
                };
                (format!("Paper {i}"), format!("On topic {i}. {said}"))
            })
            .collect();
        let index = LexicalIndex::in_memory(texts.iter().map(|(t, a)| (t.as_str(), a.as_str()))).unwrap();
        let mut vocab = Vocabulary::new(Some(&index));
        // Every seed says "pulsar"; one says "glitches" in passing.
        let seeds: Vec<SeedVector> = ["Pulsar timing arrays", "Pulsar timing noise", "Pulsar surveys", "Pulsar glitches"]
            .iter()
            .map(|title| SeedVector {
                label: title.to_string(),
                vector: vec![1.0],
                terms: vocab.terms(title, ""),
                subjects: Vec::new(),
                weight: 1.0,
                negative: false,
                rated: false,
                added: String::new(),
            })
            .collect();
        let seeds = Seeds::new(seeds);
        let words = Words::new(&seeds);
        let (passing, agreed) = (vocab.terms("Glitches explained", ""), vocab.terms("Pulsar explained", ""));
        let day = [Candidate::of_text(&[1.0], &passing), Candidate::of_text(&[1.0], &agreed)];
        let v = words.score(&seeds, &day);
        // Summed over the seeds, "glitches" would weigh a quarter of what
        // "pulsar" does; said by one seed of four, it weighs less still.
        assert!(v[0] > 0.0 && v[0] < 0.2 * v[1], "{v:?}");
        // One seed, or all of them: the library's idf as it is.
        assert_eq!(profile_idf(3.0, 1.0, 1.0), 3.0);
        assert_eq!(profile_idf(3.0, 4.0, 4.0), 3.0);
        assert!((profile_idf(3.0, 1.0, 10.0) - (3.0 + (1.5f32 / 10.5).ln())).abs() < 1e-6);
        assert_eq!(profile_idf(1.0, 1.0, 10.0), 0.0, "a common word one seed of ten says is no evidence");
    }
}
