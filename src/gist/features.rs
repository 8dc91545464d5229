//! What the gist's scorer knows of each sentence of an abstract: where it
//! stands, whether it says what the paper does ("we propose", "this
//! paper"), how much of the title and of the other sentences it shares,
//! how long it is, and how often its words reach a one-line summary
//! (the fitted prior, [`super::model::PRIOR`]). All of it from the text alone, so a gist
//! costs microseconds at ingest and needs no model.

use super::words::{is_stop, stems};
use regex::RegexSet;
use std::collections::{HashMap, HashSet};
use std::sync::LazyLock;

/// Phrases tested on each sentence in lower case, one feature each.
const CUES: &[&str] = &[
    r"\bwe (propose|present|introduce|develop|describe)",
    r"\bwe (show|demonstrate|find|prove|establish)",
    r"\bthis (paper|work)\b",
    r"\bin this (work|paper)\b",
    r"\bwe (study|investigate|explore|analy[sz]e|consider|examine)",
    r"\b(our|the proposed) (method|approach|model|framework|algorithm)",
    r"\bnovel\b",
    r"\b(experiments?|empirical(ly)?|results?)\b",
    r"\b(outperform|state[- ]of[- ]the[- ]art|achiev)",
    r"^(however|unfortunately|but|although|while)\b",
    r"^(recent|recently|existing|despite|many|most|deep|current)",
    r"\bhere\b",
    r"\bwe\b",
    r"\bcalled\b|\bnamed\b|\bdubbed\b",
];

/// The first four cues say what the paper does: the first sentence with
/// one of them is a feature of its own.
const CONTRIBUTION_CUES: usize = 4;

static CUE_SET: LazyLock<RegexSet> = LazyLock::new(|| RegexSet::new(CUES).expect("the cue patterns are valid"));

/// How many numbers describe a sentence.
pub const COUNT: usize = 15 + CUES.len() + 6 + 2;

/// The features of every sentence of an abstract, in order.
/// `prior` gives each word its summary prior ([`super::Scorer::prior`]).
pub fn of(title: &str, sentences: &[&str], prior: &dyn Fn(&str) -> f64) -> Vec<[f64; COUNT]> {
    let n = sentences.len();
    let title_words: HashSet<String> = stems(title).into_iter().filter(|w| !is_stop(w)).collect();
    let words: Vec<Vec<String>> = sentences.iter().map(|s| stems(s)).collect();
    let mut sentences_with: HashMap<&str, usize> = HashMap::new();
    for sentence in &words {
        for w in sentence.iter().map(String::as_str).collect::<HashSet<_>>() {
            *sentences_with.entry(w).or_default() += 1;
        }
    }
    let weights: Vec<HashMap<&str, f64>> = words.iter().map(|s| tf_idf(s, &sentences_with, n)).collect();
    let mut centroid: HashMap<&str, f64> = HashMap::new();
    for v in &weights {
        for (w, x) in v {
            *centroid.entry(w).or_default() += x / n as f64;
        }
    }
    let mut first_cue = None;
    let mut out = Vec::with_capacity(n);
    for (i, sentence) in sentences.iter().enumerate() {
        let lower = sentence.to_lowercase();
        let cues = CUE_SET.matches(lower.trim());
        if first_cue.is_none() && (0..CONTRIBUTION_CUES).any(|c| cues.matched(c)) {
            first_cue = Some(i);
        }
        let own = &words[i];
        let distinct: HashSet<&str> = own.iter().map(String::as_str).filter(|w| !is_stop(w)).collect();
        let overlap = distinct.iter().filter(|w| title_words.contains(**w)).count() as f64;
        let len = own.len() as f64;
        let content: Vec<&str> = own.iter().map(String::as_str).filter(|w| !is_stop(w)).collect();
        let c = content.len().max(1) as f64;
        let repeats: Vec<usize> = content.iter().map(|w| sentences_with[w] - 1).collect();
        let key = content.iter().filter(|w| title_words.contains(**w) || sentences_with[**w] >= 2).count() as f64;
        let prior: Vec<f64> = own.iter().map(|w| prior(w)).collect();
        let mut f = Vec::with_capacity(COUNT);
        f.extend([
            flag(i == 0),
            flag(i == 1),
            flag(i == 2),
            i as f64 / (n.max(2) - 1) as f64,
            flag(i + 1 == n),
            n as f64,
            overlap,
            overlap / title_words.len().max(1) as f64,
            overlap / distinct.len().max(1) as f64,
            cosine(&weights[i], &centroid),
            len,
            (len + 1.0).ln(),
            flag(len < 6.0),
            flag(len > 45.0),
        ]);
        f.push(0.0); // the first contribution cue, set below
        f.extend((0..CUES.len()).map(|c| flag(cues.matched(c))));
        f.extend([
            repeats.iter().sum::<usize>() as f64 / c,
            repeats.iter().filter(|&&r| r > 0).count() as f64 / c,
            key / c,
            key,
            content.len() as f64 / len.max(1.0),
            content.iter().filter(|w| title_words.contains(**w)).count() as f64 / c,
        ]);
        f.push(if prior.is_empty() { 0.0 } else { prior.iter().sum::<f64>() / prior.len() as f64 });
        f.push(prior.iter().sum());
        let mut row = [0.0; COUNT];
        row.copy_from_slice(&f);
        out.push(row);
    }
    if let Some(i) = first_cue {
        out[i][FIRST_CUE] = 1.0;
    }
    out
}

/// Where "the first sentence with a contribution cue" sits in a row.
const FIRST_CUE: usize = 14;

fn flag(b: bool) -> f64 {
    if b {
        1.0
    } else {
        0.0
    }
}

/// A sentence's words weighted by how few of the abstract's sentences
/// share them (stop words weigh nothing).
fn tf_idf<'a>(words: &'a [String], sentences_with: &HashMap<&str, usize>, n: usize) -> HashMap<&'a str, f64> {
    let mut v: HashMap<&str, f64> = HashMap::new();
    for w in words {
        let x = if is_stop(w) { 0.0 } else { ((n + 1) as f64 / sentences_with[w.as_str()] as f64).ln() + 1.0 };
        *v.entry(w.as_str()).or_default() += x;
    }
    v
}

fn cosine(a: &HashMap<&str, f64>, b: &HashMap<&str, f64>) -> f64 {
    let dot: f64 = a.iter().map(|(w, x)| x * b.get(w).copied().unwrap_or(0.0)).sum();
    let norm = |v: &HashMap<&str, f64>| v.values().map(|x| x * x).sum::<f64>().sqrt();
    let (na, nb) = (norm(a), norm(b));
    if na > 0.0 && nb > 0.0 {
        dot / (na * nb)
    } else {
        0.0
    }
}

/// Names of the numbers in a row, in order (the fit prints its weights by them).
pub fn names() -> Vec<String> {
    let fixed = [
        "first",
        "second",
        "third",
        "position",
        "last",
        "sentences",
        "title words",
        "title share",
        "title density",
        "centroid",
        "words",
        "log words",
        "short",
        "long",
        "first cue",
    ];
    let tail =
        ["shared words", "shared share", "key share", "key words", "content share", "title share of content", "prior mean", "prior sum"];
    fixed.iter().map(|s| s.to_string()).chain(CUES.iter().map(|c| format!("cue {c}"))).chain(tail.iter().map(|s| s.to_string())).collect()
}
