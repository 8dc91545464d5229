//! Replaying the library's own history: would a profile built from an
//! author's earlier papers have put their next paper near the top of the
//! day it was listed?
//!
//! For each sampled author with papers on at least three distinct listing
//! days, the papers before their latest day are the seeds (added on their
//! first listing date), and that day's whole listing — every library paper
//! first listed that day — is ranked with each method. The author's papers
//! of that day are the hidden targets (usually one). Authors are matched by
//! name, so very prolific names, which are mostly several people sharing a
//! name, are left out.

use super::{median, random_reciprocal_rank, Rng};
use crate::library::store::DatedPaper;
use crate::library::Library;
use crate::paper::Paper;
use crate::rank::{Candidate, Method, Ranker, SeedVector, Signals, Terms, Vocabulary, DEFAULT_METHOD};
use anyhow::{bail, Result};
use serde::Serialize;
use std::collections::{BTreeMap, HashMap, HashSet};

/// Authors with more papers than this are taken to be a name shared by
/// several people and skipped.
pub const MAX_AUTHOR_PAPERS: usize = 30;
/// Random library vectors the logistic method gets as implicit negatives.
pub const BACKGROUND: usize = 200;
/// Fewest distinct listing days an author needs: two days of seeds, one to hide.
const MIN_DAYS: usize = 3;
/// Cut-off of the recall figure.
const RECALL_AT: usize = 10;

#[derive(Debug, Clone, Copy)]
pub struct Options {
    pub cases: usize,
    pub seed: u64,
    /// Only the authors of one half.
    pub half: Option<Half>,
    /// Keep each case's hybrid signals in the report.
    pub signals: bool,
    /// Seed each profile with only the author's latest this many earlier
    /// papers (a small profile: one seed is what CSFCube's queries are).
    pub max_seeds: Option<usize>,
}

/// The two halves of the authors, split by a hash of the name that stays
/// the same from run to run and library to library: what weights are fit
/// on is never what they are reported on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, clap::ValueEnum)]
#[serde(rename_all = "kebab-case")]
pub enum Half {
    Fit,
    Check,
}

impl Half {
    fn of(name: &str) -> Half {
        // FNV-1a: fixed by its definition, unlike std's hasher.
        let h = name.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3));
        if h % 2 == 0 {
            Half::Fit
        } else {
            Half::Check
        }
    }
}

/// One case's signals for the hybrid, raw, where its hidden papers are,
/// and how many liked seeds its profile has (the cold mix depends on it).
#[derive(Debug, Clone, Serialize)]
pub struct CaseSignals {
    pub hidden: Vec<usize>,
    pub liked: usize,
    #[serde(flatten)]
    pub signals: Signals,
}

/// MRR and recall@10 of one method over all cases.
#[derive(Debug, Clone, Serialize)]
pub struct MethodScore {
    pub method: String,
    pub mrr: f64,
    /// Half-width of the 95% confidence interval of the MRR (1.96 standard
    /// errors over the cases).
    pub mrr_ci95: f64,
    pub recall_at_10: f64,
    /// MRR of the best method less this one's, case by case, with the
    /// standard error of that mean: the methods rank the same cases, so the
    /// paired difference says more than two separate error bars.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mrr_behind_best: Option<(f64, f64)>,
}

#[derive(Debug, Clone, Serialize)]
pub struct Report {
    pub model: String,
    pub seed: u64,
    pub papers: usize,
    pub eligible_authors: usize,
    pub cases: usize,
    pub median_candidates: usize,
    pub median_seeds: usize,
    /// Cases whose latest day held more than one paper by the author.
    pub cases_with_several_hidden: usize,
    pub methods: Vec<MethodScore>,
    /// What ranking the day at random would score on average.
    pub random: MethodScore,
    pub half: Option<Half>,
    /// The profiles' limit (`--max-seeds`), if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_seeds: Option<usize>,
    /// The default method's bar and strengths on the same cases.
    pub bar: BarReport,
    #[serde(skip)]
    pub signals: Vec<CaseSignals>,
}

/// A library paper as the replay needs it.
struct Entry {
    rowid: i64,
    /// Position of its vector in the flat file.
    pos: usize,
    day: usize,
    /// Its title, abstract, categories and first listing date.
    paper: Paper,
}

/// Everything read from the library in one pass.
struct History {
    entries: Vec<Entry>,
    /// Listing days, oldest first; `Entry::day` indexes this.
    days: Vec<String>,
    /// Entries first listed on each day.
    by_day: Vec<Vec<usize>>,
    /// Normalised author name → their entries.
    by_author: HashMap<String, Vec<usize>>,
}

/// Trims and folds inner whitespace runs to one space: the same person
/// written with a double space or a trailing newline is one author.
pub fn normalise_author(name: &str) -> String {
    name.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// One pass over the papers that have a vector and a first listing date.
fn read_history(lib: &Library, position: &HashMap<i64, usize>) -> Result<History> {
    let mut raw: Vec<(i64, usize, String, Vec<String>, DatedPaper)> = Vec::new();
    let mut days = BTreeMap::new();
    for p in lib.store.dated_papers()? {
        let Some(&pos) = position.get(&p.rowid) else { continue };
        // A malformed author list loses that paper's authors, not the run.
        let authors: Vec<String> = serde_json::from_str(&p.authors_json).unwrap_or_default();
        days.insert(p.first_date.clone(), 0usize);
        raw.push((p.rowid, pos, p.first_date.clone(), authors, p));
    }
    for (i, v) in days.values_mut().enumerate() {
        *v = i;
    }
    let mut h = History {
        entries: Vec::with_capacity(raw.len()),
        days: days.keys().cloned().collect(),
        by_day: vec![Vec::new(); days.len()],
        by_author: HashMap::new(),
    };
    for (rowid, pos, date, authors, p) in raw {
        let idx = h.entries.len();
        let day = days[&date];
        let paper = Paper {
            title: p.title,
            abstract_text: p.abstract_text,
            subjects: p.subjects,
            listing_date: Some(date),
            ..crate::paper::UNKNOWN.clone()
        };
        h.entries.push(Entry { rowid, pos, day, paper });
        h.by_day[day].push(idx);
        let mut names: Vec<String> = authors.iter().map(|a| normalise_author(a)).filter(|a| !a.is_empty()).collect();
        names.sort_unstable();
        names.dedup();
        for name in names {
            h.by_author.entry(name).or_default().push(idx);
        }
    }
    Ok(h)
}

/// Authors with papers on at least three days and not too many papers,
/// sorted so that sampling does not depend on hash order.
fn eligible_authors(h: &History) -> Vec<&str> {
    let mut names: Vec<&str> = h
        .by_author
        .iter()
        .filter(|(_, papers)| papers.len() <= MAX_AUTHOR_PAPERS)
        .filter(|(_, papers)| papers.iter().map(|&i| h.entries[i].day).collect::<HashSet<_>>().len() >= MIN_DAYS)
        .map(|(name, _)| name.as_str())
        .collect();
    names.sort_unstable();
    names
}

/// One replayed day: the ranks of the hidden papers under one method.
struct CaseOutcome {
    reciprocal_rank: f64,
    recall: f64,
}

/// How the default method's bar and strengths did: the list the digest
/// leads with (above the usual bar, at least 3, at most 20) against a
/// fixed top-k of the same mean length, and how often a top-20 pick
/// marked weak was the author's next paper against one that was not.
#[derive(Debug, Clone, Default, Serialize)]
pub struct BarReport {
    /// Mean length of the list above the bar.
    pub mean_list: f64,
    /// Share of the next papers (all cases' hidden papers) in that list.
    pub next_in_list: f64,
    /// The fixed k nearest the mean length, and the share of next papers
    /// within the top k.
    pub fixed_k: usize,
    pub next_in_fixed_k: f64,
    /// Share of the top-20 picks marked weak.
    pub weak_share_top20: f64,
    /// How often a top-20 pick was a next paper, marked weak and not.
    pub next_rate_weak: f64,
    pub next_rate_unmarked: f64,
}

/// One case as the bar sees it: the list length above the bar, how many
/// next papers it held, each next paper's rank, and the top 20's weak and
/// unmarked picks with how many of each were next papers.
#[derive(Default)]
struct CaseBar {
    list: usize,
    next_in_list: usize,
    ranks: Vec<usize>,
    weak: usize,
    weak_next: usize,
    unmarked: usize,
    unmarked_next: usize,
}

/// The top a digest shows by default, and the most the bar's list holds.
const DIGEST_TOP: usize = 20;

fn case_bar(scored: &[crate::rank::Scored], rowids: &[i64], hidden: &[usize]) -> CaseBar {
    let mut order: Vec<usize> = (0..scored.len()).collect();
    order.sort_by(|&a, &b| scored[b].order.total_cmp(&scored[a].order).then(rowids[a].cmp(&rowids[b])));
    let is_next = |i: usize| hidden.contains(&i);
    let bar = crate::rank::Bar::default().threshold();
    let above = order.iter().filter(|&&i| scored[i].score >= bar).count();
    let list = above.clamp(crate::rank::Bar::AT_LEAST, DIGEST_TOP).min(order.len());
    // The digest's lead: those above the bar in the day's order, then the
    // best of the rest up to three.
    let (lead, rest): (Vec<usize>, Vec<usize>) = order.iter().partition(|&&i| scored[i].score >= bar);
    let shown: Vec<usize> = lead.into_iter().chain(rest).take(list).collect();
    let mut c = CaseBar { list, next_in_list: shown.iter().filter(|&&i| is_next(i)).count(), ..CaseBar::default() };
    c.ranks = hidden.iter().filter_map(|h| order.iter().position(|i| i == h).map(|p| p + 1)).collect();
    for &i in order.iter().take(DIGEST_TOP) {
        if scored[i].strength == crate::rank::Strength::Weak {
            c.weak += 1;
            c.weak_next += usize::from(is_next(i));
        } else {
            c.unmarked += 1;
            c.unmarked_next += usize::from(is_next(i));
        }
    }
    c
}

fn bar_report(cases: &[CaseBar]) -> BarReport {
    let next: usize = cases.iter().map(|c| c.ranks.len()).sum();
    let share = |x: usize, of: usize| if of == 0 { 0.0 } else { x as f64 / of as f64 };
    let mean_list = share(cases.iter().map(|c| c.list).sum(), cases.len());
    let fixed_k = (mean_list.round() as usize).max(1);
    let within_k: usize = cases.iter().map(|c| c.ranks.iter().filter(|&&r| r <= fixed_k).count()).sum();
    let (weak, weak_next): (usize, usize) = (cases.iter().map(|c| c.weak).sum(), cases.iter().map(|c| c.weak_next).sum());
    let (unmarked, unmarked_next): (usize, usize) = (cases.iter().map(|c| c.unmarked).sum(), cases.iter().map(|c| c.unmarked_next).sum());
    BarReport {
        mean_list,
        next_in_list: share(cases.iter().map(|c| c.next_in_list).sum(), next),
        fixed_k,
        next_in_fixed_k: share(within_k, next),
        weak_share_top20: share(weak, weak + unmarked),
        next_rate_weak: share(weak_next, weak),
        next_rate_unmarked: share(unmarked_next, unmarked),
    }
}

/// The last `n` of `papers` (all of them without a limit): an author's
/// latest earlier papers, `papers` being in listing order.
fn latest(papers: &[usize], n: Option<usize>) -> &[usize] {
    &papers[papers.len() - n.map_or(papers.len(), |n| n.min(papers.len()))..]
}

/// Ranks of `hidden` (1 = top) when `candidates` are sorted by score, ties
/// going to the smaller rowid so that the order is total and reproducible.
fn hidden_ranks(scores: &[(f32, i64)], hidden: &[usize]) -> Vec<usize> {
    hidden
        .iter()
        .map(|&h| {
            let (s, id) = scores[h];
            1 + scores.iter().filter(|&&(t, other)| t > s || (t == s && other < id)).count()
        })
        .collect()
}

fn outcome(ranks: &[usize]) -> CaseOutcome {
    let best = ranks.iter().copied().min().unwrap_or(usize::MAX);
    let found = ranks.iter().filter(|&&r| r <= RECALL_AT).count();
    CaseOutcome {
        reciprocal_rank: if best == usize::MAX { 0.0 } else { 1.0 / best as f64 },
        recall: if ranks.is_empty() { 0.0 } else { found as f64 / ranks.len() as f64 },
    }
}

/// Mean of `a - b` over paired cases and the standard error of that mean.
fn paired_difference(a: &[f64], b: &[f64]) -> (f64, f64) {
    let d: Vec<f64> = a.iter().zip(b).map(|(x, y)| x - y).collect();
    let n = d.len() as f64;
    if d.len() < 2 {
        return (d.first().copied().unwrap_or(0.0), 0.0);
    }
    let mean = d.iter().sum::<f64>() / n;
    let var = d.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0);
    (mean, (var / n).sqrt())
}

/// Standard error of the mean of `xs`.
fn standard_error(xs: &[f64]) -> f64 {
    if xs.len() < 2 {
        return 0.0;
    }
    let n = xs.len() as f64;
    let mean = xs.iter().sum::<f64>() / n;
    (xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0) / n).sqrt()
}

/// Up to `n` random papers (their positions) from the whole library, none
/// of them a candidate of the day or a seed.
fn background(flat: &crate::library::vectors::FlatVectors, exclude: &HashSet<usize>, n: usize, rng: &mut Rng) -> Vec<usize> {
    let mut out = Vec::with_capacity(n);
    let mut taken = HashSet::new();
    // Bounded tries: a tiny library may not have `n` papers to spare.
    for _ in 0..n * 20 {
        if out.len() == n || flat.count == 0 {
            break;
        }
        let pos = rng.below(flat.count);
        if !exclude.contains(&pos) && taken.insert(pos) {
            out.push(pos);
        }
    }
    out
}

/// Runs the replay on the library's default model's vectors.
pub fn run(lib: &Library, opts: Options) -> Result<Report> {
    let model = crate::workflow::library_model(lib)?;
    let flat = lib.flat_vectors(&model)?;
    let position: HashMap<i64, usize> = (0..flat.count).map(|p| (flat.rowid(p), p)).collect();
    let h = read_history(lib, &position)?;
    let mut eligible = eligible_authors(&h);
    if let Some(half) = opts.half {
        eligible.retain(|name| Half::of(name) == half);
    }
    if eligible.is_empty() {
        bail!(
            "no author in the library at {} has papers on {MIN_DAYS} or more listing days (and at most {MAX_AUTHOR_PAPERS} papers)",
            lib.dir.display()
        );
    }
    let mut rng = Rng::new(opts.seed);
    let sampled = rng.sample(&eligible, opts.cases);
    // Words weighted by the library's own document frequencies, as `daily` does.
    let lexical = lib.lexical()?;
    let mut vocab = Vocabulary::new(lexical.as_ref());
    let mut terms: Vec<Option<Terms>> = (0..h.entries.len()).map(|_| None).collect();
    let mut terms_of = |i: usize, vocab: &mut Vocabulary| -> Terms {
        terms[i].get_or_insert_with(|| vocab.terms(&h.entries[i].paper.title, &h.entries[i].paper.abstract_text)).clone()
    };

    let entry_at: HashMap<usize, usize> = h.entries.iter().enumerate().map(|(i, e)| (e.pos, i)).collect();
    let mut outcomes: Vec<Vec<CaseOutcome>> = Method::ALL.iter().map(|_| Vec::new()).collect();
    let (mut random_rr, mut random_recall) = (0.0, 0.0);
    let (mut pool_sizes, mut seed_counts) = (Vec::new(), Vec::new());
    let mut several_hidden = 0;
    let mut signals = Vec::new();
    let mut bars = Vec::new();
    for name in &sampled {
        let mut mine = h.by_author.get(*name).cloned().unwrap_or_default();
        mine.sort_by_key(|&i| (h.entries[i].day, h.entries[i].rowid));
        let Some(last_day) = mine.last().map(|&i| h.entries[i].day) else { continue };
        let earlier: Vec<usize> = mine.iter().copied().filter(|&i| h.entries[i].day < last_day).collect();
        let seeds: Vec<SeedVector> = latest(&earlier, opts.max_seeds)
            .iter()
            .map(|&i| {
                let e = &h.entries[i];
                SeedVector {
                    label: e.rowid.to_string(),
                    vector: flat.vector(e.pos).to_vec(),
                    terms: terms_of(i, &mut vocab),
                    subjects: e.paper.subjects.clone(),
                    weight: 1.0,
                    negative: false,
                    rated: false,
                    added: h.days[e.day].clone(),
                }
            })
            .collect();
        let candidates = &h.by_day[last_day];
        let hidden_set: HashSet<usize> = mine.iter().copied().filter(|&i| h.entries[i].day == last_day).collect();
        let hidden: Vec<usize> = (0..candidates.len()).filter(|&c| hidden_set.contains(&candidates[c])).collect();
        let mut exclude: HashSet<usize> = candidates.iter().map(|&i| h.entries[i].pos).collect();
        exclude.extend(mine.iter().map(|&i| h.entries[i].pos));
        // The background: what the scores are read against, and the
        // logistic models' "not this". A library paper the history does
        // not hold (never listed) lends its vector alone.
        let bg_pos = background(&flat, &exclude, BACKGROUND, &mut rng);
        let bg: Vec<Vec<f32>> = bg_pos.iter().map(|&p| flat.vector(p).to_vec()).collect();
        let bg_entries: Vec<Option<usize>> = bg_pos.iter().map(|p| entry_at.get(p).copied()).collect();
        let bg_words: Vec<Terms> = bg_entries.iter().map(|e| e.map(|i| terms_of(i, &mut vocab)).unwrap_or_default()).collect();
        let bg_candidates: Vec<Candidate<'_>> = bg_pos
            .iter()
            .zip(&bg_entries)
            .zip(&bg_words)
            .map(|((&p, e), t)| Candidate {
                vector: flat.vector(p),
                terms: t,
                paper: e.map_or(&crate::paper::UNKNOWN, |i| &h.entries[i].paper),
                own_seed: None,
            })
            .collect();

        let words: Vec<Terms> = candidates.iter().map(|&i| terms_of(i, &mut vocab)).collect();
        let day: Vec<Candidate<'_>> = candidates
            .iter()
            .zip(&words)
            .map(|(&i, t)| Candidate { paper: &h.entries[i].paper, vector: flat.vector(h.entries[i].pos), terms: t, own_seed: None })
            .collect();
        for (m, method) in Method::ALL.iter().enumerate() {
            let mut ranker = Ranker::new(*method, seeds.clone(), &bg);
            ranker.calibrate(&bg_candidates);
            let scored = ranker.score_all(&day);
            let scores: Vec<(f32, i64)> = scored.iter().zip(candidates).map(|(s, &i)| (s.order, h.entries[i].rowid)).collect();
            if *method == DEFAULT_METHOD {
                let rowids: Vec<i64> = candidates.iter().map(|&i| h.entries[i].rowid).collect();
                bars.push(case_bar(&scored, &rowids, &hidden));
            }
            outcomes[m].push(outcome(&hidden_ranks(&scores, &hidden)));
            if opts.signals && *method == Method::Hybrid {
                signals.push(CaseSignals { hidden: hidden.clone(), liked: ranker.liked(), signals: ranker.signals(&day) });
            }
        }
        random_rr += random_reciprocal_rank(candidates.len(), hidden.len());
        random_recall += RECALL_AT.min(candidates.len()) as f64 / candidates.len().max(1) as f64;
        pool_sizes.push(candidates.len());
        seed_counts.push(seeds.len());
        several_hidden += usize::from(hidden.len() > 1);
    }

    let cases = pool_sizes.len();
    let per_case = |x: f64| if cases == 0 { 0.0 } else { x / cases as f64 };
    let rr: Vec<Vec<f64>> = outcomes.iter().map(|os| os.iter().map(|o| o.reciprocal_rank).collect()).collect();
    let mrr: Vec<f64> = rr.iter().map(|v| per_case(v.iter().sum())).collect();
    let best = (0..mrr.len()).max_by(|&a, &b| mrr[a].total_cmp(&mrr[b])).unwrap_or(0);
    let methods = Method::ALL
        .iter()
        .enumerate()
        .map(|(m, method)| MethodScore {
            method: method.name().to_string(),
            mrr: mrr[m],
            mrr_ci95: 1.96 * standard_error(&rr[m]),
            recall_at_10: per_case(outcomes[m].iter().map(|o| o.recall).sum()),
            mrr_behind_best: (m != best).then(|| paired_difference(&rr[best], &rr[m])),
        })
        .collect();
    Ok(Report {
        model,
        seed: opts.seed,
        papers: h.entries.len(),
        eligible_authors: eligible.len(),
        cases,
        median_candidates: median(&pool_sizes),
        median_seeds: median(&seed_counts),
        cases_with_several_hidden: several_hidden,
        methods,
        random: MethodScore {
            method: "random (expected)".to_string(),
            mrr: per_case(random_rr),
            mrr_ci95: 0.0,
            recall_at_10: per_case(random_recall),
            mrr_behind_best: None,
        },
        half: opts.half,
        max_seeds: opts.max_seeds,
        bar: bar_report(&bars),
        signals,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn author_names_are_trimmed_and_whitespace_folded() {
        assert_eq!(normalise_author("  Ada \n Lovelace "), "Ada Lovelace");
        assert_eq!(normalise_author("Ada\tLovelace"), "Ada Lovelace");
        assert_eq!(normalise_author("   "), "");
    }

    #[test]
    fn a_limited_profile_keeps_the_latest_papers() {
        let papers = [10, 11, 12];
        assert_eq!(latest(&papers, Some(1)), [12]);
        assert_eq!(latest(&papers, Some(2)), [11, 12]);
        assert_eq!(latest(&papers, Some(5)), papers);
        assert_eq!(latest(&papers, None), papers);
        assert!(latest(&[], Some(1)).is_empty());
    }

    #[test]
    fn ranks_count_better_scores_and_break_ties_by_rowid() {
        let scores = [(0.9, 5), (0.5, 1), (0.9, 2), (0.1, 3)];
        // Index 0 (0.9, rowid 5) is behind (0.9, rowid 2): rank 2.
        assert_eq!(hidden_ranks(&scores, &[0, 2, 3]), vec![2, 1, 4]);
        let (mean, se) = paired_difference(&[1.0, 0.5, 0.5], &[0.5, 0.5, 0.0]);
        assert!((mean - 1.0 / 3.0).abs() < 1e-12);
        // Differences 0.5, 0, 0.5: sample variance 1/12, over n = 3.
        assert!((se - (1.0f64 / 36.0).sqrt()).abs() < 1e-12);
        let o = outcome(&[2, 12]);
        assert!((o.reciprocal_rank - 0.5).abs() < 1e-12);
        assert!((o.recall - 0.5).abs() < 1e-12);
    }
}
