//! Closeness in words: a paper's BM25 match, as a document, to the liked
//! seeds' words and phrases as one query (the `lexical` method, and a
//! hybrid signal; see [`super::vocabulary`]). It explains itself by the
//! shared words and phrases that weigh most in that match, which every
//! pick's reason quotes.

use super::signal::{Details, Naming, Part, Seeds, Signal, SignalId};
use super::vocabulary::dot;
use super::{Candidate, Terms};

/// Words a reason quotes.
const QUOTED: usize = 3;

/// The seeds' query weights summed, and its length: a match is divided
/// by it, which keeps the signal's scale from growing with the number of
/// seeds (the day's papers share the divisor; a rated paper is divided by
/// the length of the others' sum, as a cosine would be). Dense over term
/// ids (a day's vocabulary is some ten thousand terms), so every sum runs
/// in the same order and a ranking is the same to the last bit on every
/// run.
struct WordSum {
    sum: Vec<f32>,
    norm2: f32,
}

impl WordSum {
    fn new<'a>(terms: impl Iterator<Item = (&'a Terms, f32)>) -> WordSum {
        let mut sum: Vec<f32> = Vec::new();
        for (t, w) in terms {
            debug_assert_eq!(t.entries.len(), t.query.len());
            for (&(id, _), &x) in t.entries.iter().zip(&t.query) {
                let id = id as usize;
                if id >= sum.len() {
                    sum.resize(id + 1, 0.0);
                }
                sum[id] += w * x;
            }
        }
        let norm2 = sum.iter().map(|x| x * x).sum();
        WordSum { sum, norm2 }
    }

    fn overlap(&self, t: &[(u32, f32)]) -> f32 {
        t.iter().map(|&(id, w)| w * self.weight(id).unwrap_or(0.0)).sum()
    }

    /// The match of document `t` to the sum, without `own` (a summed query
    /// vector and its weight), over the length of what is left.
    fn score(&self, t: &[(u32, f32)], own: Option<(&[(u32, f32)], f32)>) -> f32 {
        let mut num = self.overlap(t);
        let mut norm2 = self.norm2;
        if let Some((o, w)) = own {
            num -= w * dot(t, o);
            norm2 += -2.0 * w * self.overlap(o) + w * w * dot(o, o);
        }
        // What is left of the sum once its own seed is out can be rounding
        // alone (a rated paper that is the only liked seed).
        if norm2 <= 1e-6 * self.norm2 || norm2 <= 1e-12 {
            0.0
        } else {
            num / norm2.sqrt()
        }
    }

    /// A term's weight in the sum, if any seed has it.
    fn weight(&self, id: u32) -> Option<f32> {
        self.sum.get(id as usize).copied().filter(|&x| x != 0.0)
    }
}

pub const WORDS: Part = Part {
    name: "words",
    label: "shared words",
    legend: "the words and phrases it shares with your seeds, those telling of them weighing most",
    cold: 0.3,
    per_ln_seeds: super::hybrid::WORDS_PER_LN_SEEDS,
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

    /// A rated paper's own query vector and weight, left out of the sum it is scored on.
    fn own(&self, seeds: &Seeds, c: &Candidate<'_>) -> Option<(Vec<(u32, f32)>, f32)> {
        seeds.own_liked(c).map(|s| (seeds.all[s].terms.query_vector(), seeds.all[s].weight)).filter(|(_, w)| *w != 0.0)
    }

    /// The words that weigh most in the match, as a small library's
    /// reason judges them ([`Terms::telling`]), without the paper's own
    /// seed's part (a rated paper shares every word with itself, which is
    /// no reason): phrases first, and no word a phrase shown already says
    /// ("speculative decoding", not also "decoding").
    fn shared(&self, seeds: &Seeds, c: &Candidate<'_>) -> Vec<String> {
        let terms = c.terms;
        let own = self.own(seeds, c);
        let mut parts: Vec<(f32, usize)> = terms
            .entries
            .iter()
            .enumerate()
            .filter_map(|(i, &(t, d))| {
                let q = self.sum.weight(t)? - own.as_ref().map_or(0.0, |(o, ow)| ow * weight_of(o, t));
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
        day.iter()
            .map(|c| {
                let own = self.own(seeds, c);
                self.sum.score(&c.terms.entries, own.as_ref().map(|(o, w)| (o.as_slice(), *w)))
            })
            .collect()
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

/// The weight of term `id` in `t`, 0 when absent.
fn weight_of(t: &[(u32, f32)], id: u32) -> f32 {
    t.binary_search_by_key(&id, |e| e.0).map_or(0.0, |i| t[i].1)
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
