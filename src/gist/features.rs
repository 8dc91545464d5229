//! What the gist's scorer knows of each sentence of an abstract: where it
//! stands, whether it says what the paper does ("we propose", "this
//! paper"), how much of the title and of the other sentences it shares,
//! how long it is, and how often its words reach a one-line summary
//! (the fitted prior, [`super::model::PRIOR`]). All of it from the text alone, so a gist
//! costs microseconds at ingest and needs no model.

use super::words;
use regex::RegexSet;
use rustc_hash::FxHashMap;
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

/// ASCII word boundaries (`-u`): the patterns are ASCII, and Unicode ones
/// would slow every search of a sentence with a non-ASCII letter.
static CUE_SET: LazyLock<RegexSet> =
    LazyLock::new(|| RegexSet::new(CUES.iter().map(|c| format!("(?-u){c}"))).expect("the cue patterns are valid"));

/// How many numbers describe a sentence.
pub const COUNT: usize = 15 + CUES.len() + 6 + 2;

/// The features of every sentence of an abstract, in order, and how many
/// words each has. `prior` gives each word its summary prior
/// ([`super::Scorer::prior`]).
pub fn of(title: &str, sentences: &[&str], prior: &dyn Fn(&str) -> f64) -> (Vec<[f64; COUNT]>, Vec<usize>) {
    let n = sentences.len();
    words::forget_if_full();
    // Each distinct stem of the abstract and title gets a number here, from
    // 0, so that counting and comparing words is indexing, not hashing.
    let mut local = Local::default();
    let mut read = Vec::new();
    let mut title_words: Vec<u32> = Vec::new();
    words::stem_numbers(title, &mut read);
    title_words.extend(read.drain(..).map(|w| local.number(w)));
    let sentence_words: Vec<Vec<u32>> = sentences
        .iter()
        .map(|s| {
            words::stem_numbers(s, &mut read);
            read.drain(..).map(|w| local.number(w)).collect()
        })
        .collect();
    let (stop, priors): (Vec<bool>, Vec<f64>) = local
        .global
        .iter()
        .map(|&g| {
            let (stem, stop) = words::stem_of(g);
            (stop, prior(&stem))
        })
        .unzip();
    let vocabulary = local.global.len();
    title_words.retain(|&w| !stop[w as usize]);
    title_words.sort_unstable();
    title_words.dedup();
    let in_title = |w: u32| title_words.binary_search(&w).is_ok();
    let distinct: Vec<Vec<u32>> = sentence_words
        .iter()
        .map(|s| {
            let mut d = s.clone();
            d.sort_unstable();
            d.dedup();
            d
        })
        .collect();
    let mut sentences_with = vec![0usize; vocabulary];
    for d in &distinct {
        for &w in d {
            sentences_with[w as usize] += 1;
        }
    }
    // Each sentence's words weighted by how few sentences share them (stop
    // words weigh nothing), and the abstract's mean of those weights.
    let weights: Vec<Vec<(u32, f64)>> = distinct
        .iter()
        .zip(&sentence_words)
        .map(|(d, all)| {
            d.iter()
                .map(|&w| {
                    let per = if stop[w as usize] { 0.0 } else { ((n + 1) as f64 / sentences_with[w as usize] as f64).ln() + 1.0 };
                    (w, per * all.iter().filter(|&&x| x == w).count() as f64)
                })
                .collect()
        })
        .collect();
    let mut centroid = vec![0.0; vocabulary];
    for v in &weights {
        for &(w, x) in v {
            centroid[w as usize] += x / n as f64;
        }
    }
    let centroid_norm = centroid.iter().map(|x| x * x).sum::<f64>().sqrt();
    let mut first_cue = None;
    let mut out = Vec::with_capacity(n);
    for (i, sentence) in sentences.iter().enumerate() {
        let lower = sentence.to_lowercase();
        let cues = CUE_SET.matches(lower.trim());
        if first_cue.is_none() && (0..CONTRIBUTION_CUES).any(|c| cues.matched(c)) {
            first_cue = Some(i);
        }
        let own = &sentence_words[i];
        let content_distinct = distinct[i].iter().filter(|&&w| !stop[w as usize]).count();
        let overlap = distinct[i].iter().filter(|&&w| !stop[w as usize] && in_title(w)).count() as f64;
        let len = own.len() as f64;
        let content: Vec<u32> = own.iter().copied().filter(|&w| !stop[w as usize]).collect();
        let c = content.len().max(1) as f64;
        let repeats: Vec<usize> = content.iter().map(|&w| sentences_with[w as usize] - 1).collect();
        let key = content.iter().filter(|&&w| in_title(w) || sentences_with[w as usize] >= 2).count() as f64;
        let prior_sum: f64 = own.iter().map(|&w| priors[w as usize]).sum();
        let norm = weights[i].iter().map(|(_, x)| x * x).sum::<f64>().sqrt();
        let dot: f64 = weights[i].iter().map(|&(w, x)| x * centroid[w as usize]).sum();
        let cosine = if norm > 0.0 && centroid_norm > 0.0 { dot / (norm * centroid_norm) } else { 0.0 };
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
            overlap / content_distinct.max(1) as f64,
            cosine,
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
            content.iter().filter(|&&w| in_title(w)).count() as f64 / c,
        ]);
        f.push(if own.is_empty() { 0.0 } else { prior_sum / own.len() as f64 });
        f.push(prior_sum);
        let mut row = [0.0; COUNT];
        row.copy_from_slice(&f);
        out.push(row);
    }
    if let Some(i) = first_cue {
        out[i][FIRST_CUE] = 1.0;
    }
    (out, sentence_words.iter().map(Vec::len).collect())
}

/// One abstract's stems, numbered from 0 in order of first sight, with
/// the thread's number for each.
#[derive(Default)]
struct Local {
    of_global: FxHashMap<u32, u32>,
    global: Vec<u32>,
}

impl Local {
    fn number(&mut self, global: u32) -> u32 {
        *self.of_global.entry(global).or_insert_with(|| {
            self.global.push(global);
            (self.global.len() - 1) as u32
        })
    }
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
