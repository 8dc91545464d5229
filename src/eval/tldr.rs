//! SciTLDR-A (Cachola et al., Findings of EMNLP 2020): abstracts split
//! into sentences, each with 1–4 gold one-line summaries. The gist and
//! the one-sentence baselines of the dataset's README are scored here as
//! the paper scores (see [`super::rouge`]), with a 95 % bootstrap
//! interval over papers; `fit` fits the gist's scorer on a split.

use super::rouge::{multi_max, Rouge};
use super::Rng;
use crate::gist::{self, features, words, Scorer};
use anyhow::{bail, Context, Result};
use serde::Deserialize;
use std::collections::{HashMap, HashSet};
use std::path::Path;

/// One paper of the dataset.
#[derive(Debug, Clone, Deserialize)]
pub struct Record {
    pub source: Vec<String>,
    pub target: Vec<String>,
    pub title: String,
    #[serde(default)]
    pub paper_id: String,
}

/// The records of a SciTLDR JSONL file.
pub fn load(path: &Path) -> Result<Vec<Record>> {
    let text = std::fs::read_to_string(path).with_context(|| format!("{}: cannot read", path.display()))?;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
        let r: Record = serde_json::from_str(line).with_context(|| format!("{}:{}: not a SciTLDR record", path.display(), i + 1))?;
        out.push(r);
    }
    if out.is_empty() {
        bail!("{}: no SciTLDR records", path.display());
    }
    Ok(out)
}

/// A way to make a paper's one line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Method {
    /// paperscout's gist: the fitted choice among the given sentences, trimmed.
    Gist,
    /// The gist's choice, the sentence whole (no trimming).
    GistUntrimmed,
    /// The gist from the abstract as one text, cut by paperscout's own
    /// sentence splitter (as a library's abstracts are).
    GistOwnSplit,
    /// The first sentence.
    First,
    /// The sentence with most distinct title words (first on ties).
    TitleWords,
    /// The first sentence with a contribution cue, else the first.
    Cue,
    /// The title itself (not extractive).
    Title,
    /// The sentence with the best score against the targets (an upper bound).
    Oracle,
}

impl Method {
    pub fn name(self) -> &'static str {
        match self {
            Method::Gist => "gist",
            Method::GistUntrimmed => "gist, whole sentence",
            Method::GistOwnSplit => "gist, own sentence split",
            Method::First => "first sentence",
            Method::TitleWords => "most title words",
            Method::Cue => "first contribution cue",
            Method::Title => "title",
            Method::Oracle => "oracle sentence",
        }
    }

    /// This method's line for `r` (empty when it makes none).
    pub fn predict(self, scorer: &Scorer, r: &Record) -> String {
        let sentences: Vec<&str> = r.source.iter().map(String::as_str).collect();
        let first = || sentences.first().map(|s| s.to_string()).unwrap_or_default();
        match self {
            Method::Gist => scorer.choose(&r.title, &sentences).map(|i| gist::trim(sentences[i])).unwrap_or_default(),
            Method::GistUntrimmed => scorer.choose(&r.title, &sentences).map(|i| sentences[i].to_string()).unwrap_or_default(),
            Method::GistOwnSplit => {
                let whole = r.source.iter().map(|s| s.trim()).collect::<Vec<_>>().join(" ");
                let own = gist::sentences::split(&whole);
                scorer.choose(&r.title, &own).map(|i| gist::trim(own[i])).unwrap_or_default()
            }
            Method::First => first(),
            Method::TitleWords => {
                let title: HashSet<String> = words::stems(&r.title).into_iter().filter(|w| !words::is_stop(w)).collect();
                let count = |s: &str| words::stems(s).into_iter().filter(|w| title.contains(w)).collect::<HashSet<_>>().len();
                let best = sentences.iter().map(|s| count(s)).max().unwrap_or(0);
                sentences.iter().find(|s| count(s) == best).map(|s| s.to_string()).unwrap_or_default()
            }
            Method::Cue => {
                static CUE: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
                    regex::Regex::new(r"(?i)we (propose|present|introduce|show)|this paper|in this work").expect("the cue pattern is valid")
                });
                sentences.iter().find(|s| CUE.is_match(s)).map(|s| s.to_string()).unwrap_or_else(first)
            }
            Method::Title => r.title.clone(),
            Method::Oracle => {
                let mut best: Option<(f64, &str)> = None;
                for s in &sentences {
                    let r1 = multi_max(&r.target, s).r1;
                    if best.is_none_or(|(b, _)| r1 > b) {
                        best = Some((r1, s));
                    }
                }
                best.map(|(_, s)| s.to_string()).unwrap_or_default()
            }
        }
    }
}

/// A method's mean scores ×100 over papers, with 95 % intervals.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Summary {
    pub method: String,
    pub papers: usize,
    pub r1: Interval,
    pub r2: Interval,
    pub rl: Interval,
}

#[derive(Debug, Clone, Copy, serde::Serialize)]
pub struct Interval {
    pub mean: f64,
    pub low: f64,
    pub high: f64,
}

/// Each record's multi-max score for `predictions` (one per record).
pub fn scores(records: &[Record], predictions: &[String]) -> Vec<Rouge> {
    records.iter().zip(predictions).map(|(r, p)| multi_max(&r.target, p)).collect()
}

/// Means ×100 with percentile intervals from 1,000 resamples of the papers
/// (as ROUGE-1.5.5's `-c 95 -r 1000`), the same resamples for each metric.
pub fn summarise(method: &str, scores: &[Rouge]) -> Summary {
    let n = scores.len().max(1);
    let mean = |f: &dyn Fn(&Rouge) -> f64| 100.0 * scores.iter().map(f).sum::<f64>() / n as f64;
    let mut rng = Rng::new(2020);
    let mut samples: [Vec<f64>; 3] = Default::default();
    for _ in 0..1000 {
        let mut sum = [0.0; 3];
        for _ in 0..scores.len() {
            let s = scores[rng.below(n)];
            sum[0] += s.r1;
            sum[1] += s.r2;
            sum[2] += s.rl;
        }
        for k in 0..3 {
            samples[k].push(100.0 * sum[k] / n as f64);
        }
    }
    let interval = |k: usize, m: f64| {
        let v = &mut samples[k].clone();
        v.sort_by(f64::total_cmp);
        Interval { mean: m, low: v[25], high: v[974] }
    };
    Summary {
        method: method.to_string(),
        papers: scores.len(),
        r1: interval(0, mean(&|s| s.r1)),
        r2: interval(1, mean(&|s| s.r2)),
        rl: interval(2, mean(&|s| s.rl)),
    }
}

/// Words of the summary prior: the most frequent in the fitting set's
/// sentences, so that the table holds the field-independent words of how
/// abstracts are written ("propose", "show", "however") and not one
/// field's subjects.
const PRIOR_WORDS: usize = 300;
/// Ridge penalty of the fit.
const RIDGE: f64 = 1.0;

/// How often each common word of a sentence is a word of its paper's
/// summaries, smoothed (+1 / +4), over `records`.
fn count_prior(records: &[&Record]) -> (HashMap<String, f64>, f64) {
    let mut sentences_with: HashMap<String, (usize, usize)> = HashMap::new();
    for r in records {
        let summary: HashSet<String> = r.target.iter().flat_map(|t| words::stems(t)).collect();
        for s in &r.source {
            for w in words::stems(s).into_iter().collect::<HashSet<_>>() {
                let e = sentences_with.entry(w.clone()).or_default();
                e.0 += 1;
                e.1 += usize::from(summary.contains(&w));
            }
        }
    }
    let mut common: Vec<(String, (usize, usize))> = sentences_with.into_iter().collect();
    common.sort_by(|a, b| b.1 .0.cmp(&a.1 .0).then_with(|| a.0.cmp(&b.0)));
    common.truncate(PRIOR_WORDS);
    let table = common.into_iter().map(|(w, (all, in_summary))| (w, (in_summary as f64 + 1.0) / (all as f64 + 4.0))).collect();
    (table, 0.25)
}

/// Fits the scorer on `records`: a ridge regression of each sentence's
/// ROUGE-1 on its features. The prior a sentence's features see is counted
/// on the other half of the papers, so the fit does not learn to trust a
/// prior that has seen the very summaries it predicts.
pub fn fit(records: &[&Record]) -> Scorer {
    let halves: [Vec<&Record>; 2] = [records.iter().step_by(2).copied().collect(), records.iter().skip(1).step_by(2).copied().collect()];
    let mut rows: Vec<[f64; features::COUNT]> = Vec::new();
    let mut ys: Vec<f64> = Vec::new();
    for h in 0..2 {
        let counted = Scorer { bias: 0.0, weights: [0.0; features::COUNT], prior: Some(count_prior(&halves[1 - h])) };
        for r in &halves[h] {
            let sentences: Vec<&str> = r.source.iter().map(String::as_str).collect();
            let prior = |w: &str| counted.prior(w);
            rows.extend(features::of(&r.title, &sentences, &prior).0);
            ys.extend(sentences.iter().map(|s| multi_max(&r.target, s).r1));
        }
    }
    let (bias, weights) = ridge(&rows, &ys, RIDGE);
    Scorer { bias, weights, prior: Some(count_prior(records)) }
}

/// Least squares with an intercept and an L2 penalty on the weights.
fn ridge(rows: &[[f64; features::COUNT]], ys: &[f64], alpha: f64) -> (f64, [f64; features::COUNT]) {
    const K: usize = features::COUNT;
    let n = rows.len().max(1) as f64;
    let mut mean_x = [0.0; K];
    for r in rows {
        for k in 0..K {
            mean_x[k] += r[k] / n;
        }
    }
    let mean_y = ys.iter().sum::<f64>() / n;
    let mut a = vec![[0.0; K]; K];
    let mut b = [0.0; K];
    for (r, y) in rows.iter().zip(ys) {
        for i in 0..K {
            let xi = r[i] - mean_x[i];
            b[i] += xi * (y - mean_y);
            for j in 0..K {
                a[i][j] += xi * (r[j] - mean_x[j]);
            }
        }
    }
    for (i, row) in a.iter_mut().enumerate() {
        row[i] += alpha;
    }
    let w = solve(a, b);
    let bias = mean_y - (0..K).map(|k| w[k] * mean_x[k]).sum::<f64>();
    (bias, w)
}

/// Gaussian elimination with partial pivoting; the ridge term keeps the
/// matrix positive definite.
fn solve<const K: usize>(mut a: Vec<[f64; K]>, mut b: [f64; K]) -> [f64; K] {
    for col in 0..K {
        let pivot = (col..K).max_by(|&i, &j| a[i][col].abs().total_cmp(&a[j][col].abs())).unwrap_or(col);
        a.swap(col, pivot);
        b.swap(col, pivot);
        let d = a[col][col];
        if d.abs() < 1e-12 {
            continue;
        }
        let pivot_row = a[col];
        for row in col + 1..K {
            let f = a[row][col] / d;
            for (x, p) in a[row][col..].iter_mut().zip(&pivot_row[col..]) {
                *x -= f * p;
            }
            b[row] -= f * b[col];
        }
    }
    let mut x = [0.0; K];
    for col in (0..K).rev() {
        let s: f64 = (col + 1..K).map(|k| a[col][k] * x[k]).sum();
        x[col] = if a[col][col].abs() < 1e-12 { 0.0 } else { (b[col] - s) / a[col][col] };
    }
    x
}

/// Five-fold cross-validation of [`fit`] on `records`: each paper's gist
/// chosen by a scorer fitted on the other four folds.
pub fn cross_validate(records: &[Record], method: Method) -> Vec<Rouge> {
    let mut order: Vec<usize> = (0..records.len()).collect();
    let mut rng = Rng::new(5);
    order = rng.sample(&order, order.len());
    let mut out = vec![Rouge::default(); records.len()];
    for fold in 0..5 {
        let held: HashSet<usize> = order.iter().enumerate().filter(|(k, _)| k % 5 == fold).map(|(_, &i)| i).collect();
        let train: Vec<&Record> = (0..records.len()).filter(|i| !held.contains(i)).map(|i| &records[i]).collect();
        let scorer = fit(&train);
        for &i in &held {
            out[i] = multi_max(&records[i].target, &method.predict(&scorer, &records[i]));
        }
    }
    out
}

/// The fitted scorer as the source of `src/gist/model.rs`.
pub fn model_source(scorer: &Scorer, fitted_on: &str) -> String {
    let mut s = format!(
        "//! The gist's scorer: a ridge regression of each sentence's ROUGE-1 on its\n\
         //! features, and the summary prior, fitted on {fitted_on} by\n\
         //! `paperscout eval tldr --fit`, which wrote this file. Refit rather than edit.\n\n\
         use super::features::COUNT;\n\n\
         pub const BIAS: f64 = {:?};\n\n\
         /// By feature: {}.\n\
         #[rustfmt::skip]\n\
         pub const WEIGHTS: [f64; COUNT] = [\n",
        scorer.bias,
        features::names().join(", ")
    );
    for w in scorer.weights {
        s.push_str(&format!("    {w:?},\n"));
    }
    let (table, default) = scorer.prior.clone().unwrap_or_default();
    let mut table: Vec<(String, f64)> = table.into_iter().collect();
    table.sort_by(|a, b| a.0.cmp(&b.0));
    s.push_str(&format!("];\n\npub const PRIOR_DEFAULT: f64 = {default:?};\n\n/// Sorted by word.\n#[rustfmt::skip]\npub const PRIOR: &[(&str, f64)] = &[\n"));
    for (w, p) in table {
        s.push_str(&format!("    ({w:?}, {p:?}),\n"));
    }
    s.push_str("];\n");
    s
}
