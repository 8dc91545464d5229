//! `paperscout eval csfcube|history|tldr`: ranking quality on an
//! expert-judged benchmark and on a replay of the library's own history;
//! the gist's quality on SciTLDR.

use crate::cli::{EvalArgs, EvalBenchmark, EvalCsfcubeArgs, EvalHistoryArgs, EvalTldrArgs};
use crate::embed;
use crate::eval::csfcube::{self, Aggregation, FacetSummary, QueryResult};
use crate::eval::{feedback, history, Reliability, Rng};
use crate::library::lexical::LexicalIndex;
use crate::library::{self, Library};
use crate::rank::{Method, Terms, Vocabulary, DEFAULT_METHOD};
use anyhow::{bail, Context, Result};
use serde::Serialize;
use std::collections::HashMap;
use std::io::Write;
use std::time::Instant;

pub fn run(args: &EvalArgs) -> Result<()> {
    match &args.benchmark {
        EvalBenchmark::Csfcube(a) => run_csfcube(a),
        EvalBenchmark::History(a) => run_history(a),
        EvalBenchmark::Tldr(a) => run_tldr(a),
    }
}

fn run_tldr(args: &EvalTldrArgs) -> Result<()> {
    use crate::eval::tldr::{self, Method};
    use clap::ValueEnum;
    let records = tldr::load(&args.file)?;
    let name = args.file.display().to_string();
    if let Some(out) = &args.fit {
        let all: Vec<&tldr::Record> = records.iter().collect();
        let scorer = tldr::fit(&all);
        let file = args.file.file_name().map(|f| f.to_string_lossy().into_owned()).unwrap_or_else(|| name.clone());
        std::fs::write(out, tldr::model_source(&scorer, &format!("SciTLDR-A {file} ({} papers)", records.len())))
            .with_context(|| format!("{}: cannot write the fitted scorer", out.display()))?;
        crate::messages::note(format!("fitted on {} papers of {name}; wrote {}", records.len(), out.display()));
    }
    let methods: Vec<Method> = if args.method.is_empty() { Method::value_variants().to_vec() } else { args.method.clone() };
    let scorer = crate::gist::Scorer::fitted();
    let mut rows = Vec::new();
    for m in methods {
        let cross = args.cross_validate && matches!(m, Method::Gist | Method::GistUntrimmed | Method::GistOwnSplit);
        let scores = if cross {
            tldr::cross_validate(&records, m)
        } else {
            let predictions: Vec<String> = records.iter().map(|r| m.predict(&scorer, r)).collect();
            tldr::scores(&records, &predictions)
        };
        let label = if cross { format!("{} (5-fold)", m.name()) } else { m.name().to_string() };
        rows.push(tldr::summarise(&label, &scores));
    }
    if let Some(path) = &args.predictions {
        let text = std::fs::read_to_string(path).with_context(|| format!("{}: cannot read", path.display()))?;
        let lines: Vec<String> = text.lines().map(str::to_owned).collect();
        if lines.len() != records.len() {
            bail!("{}: {} lines for {} records of {name}; one line per record, in order", path.display(), lines.len(), records.len());
        }
        rows.push(tldr::summarise(&path.display().to_string(), &tldr::scores(&records, &lines)));
    }
    let mut out = std::io::stdout().lock();
    if args.json {
        for r in &rows {
            serde_json::to_writer(&mut out, r)?;
            writeln!(out)?;
        }
        return Ok(());
    }
    writeln!(out, "SciTLDR, {} papers of {name}: F1 x100, best of each paper's gold lines, 95 % bootstrap interval", records.len())?;
    writeln!(out, "{:<34} {:>20} {:>20} {:>20}", "method", "ROUGE-1", "ROUGE-2", "ROUGE-L")?;
    let cell = |i: &tldr::Interval| format!("{:.2} [{:.2}, {:.2}]", i.mean, i.low, i.high);
    for r in &rows {
        writeln!(out, "{:<34} {:>20} {:>20} {:>20}", r.method, cell(&r.r1), cell(&r.r2), cell(&r.rl))?;
    }
    Ok(())
}

/// What `eval csfcube --json` prints.
#[derive(Serialize)]
struct CsfcubeOutput<'a> {
    benchmark: &'static str,
    /// The embedding model, or the run file pattern that was scored.
    ranker: String,
    aggregation: Aggregation,
    relevant_grade: u8,
    /// Cosine ranking (or the given run), per facet and aggregated.
    summary: &'a [FacetSummary],
    /// Aggregated figures of each ranking method, the query as its one seed.
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    methods: &'a [MethodRow],
    /// Simulated ratings (`--feedback`): figures on the unrated remainder.
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    feedback: &'a [FeedbackRow],
    /// The default method's strengths and calibrated scores against the
    /// pools' grades, pooled over every query (the query as its one seed).
    #[serde(skip_serializing_if = "Option::is_none")]
    reliability: Option<&'a Reliability>,
    queries: &'a [QueryResult],
}

/// Aggregated figures after `n` simulated ratings per pool, beside the same
/// remainder ranked without them; percentages.
#[derive(Serialize)]
struct FeedbackRow {
    /// The method's name, or "default" when no --method was given.
    method: &'static str,
    rule: &'static str,
    n: usize,
    map: f64,
    ndcg20: f64,
    map_without: f64,
    ndcg20_without: f64,
    /// Half-width of the 95 % interval of `map` − `map_without`, paired by
    /// query.
    map_gain_ci95: f64,
    /// Share of the ratings that were 👍.
    liked_share: f64,
    /// Each query's figures on its remainder (`--json` only): a row's mean
    /// hides how few relevant papers some remainders keep, and two builds'
    /// rows (cold ones too, N = 0) pair query by query.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    queries: Vec<FeedbackQuery>,
}

/// One query after the simulated ratings; average precision in percent.
#[derive(Serialize)]
struct FeedbackQuery {
    query: String,
    facet: String,
    liked: usize,
    /// Relevant papers left unrated.
    relevant: usize,
    ap: f64,
    ap_without: f64,
}

/// Aggregated CSFCube figures of one ranking method.
#[derive(Serialize)]
struct MethodRow {
    method: &'static str,
    map: f64,
    ndcg_pct20: f64,
    ndcg_at20: f64,
}

/// Grades in ranked order for every query: by cosine (or a given run), and
/// by each ranking method.
struct Rankings {
    ranker: String,
    main: Vec<Vec<u8>>,
    by_method: Vec<(Method, Vec<Vec<u8>>)>,
    feedback: Vec<FeedbackRow>,
    reliability: Option<Reliability>,
}

/// Seed of the background sampling for the logistic method: fixed, so the
/// figures are the same on every run.
const BACKGROUND_SEED: u64 = 1;

fn run_csfcube(args: &EvalCsfcubeArgs) -> Result<()> {
    let collection = csfcube::load(&args.dir)?;
    let mut queries = collection.queries.clone();
    if let Some(n) = args.queries {
        if n == 0 {
            bail!("--queries must be at least 1");
        }
        queries.truncate(n);
    }
    if let Some(fold) = args.fold {
        let Some(keys) = collection.folds.as_ref().and_then(|f| f.get("all")).and_then(|f| f.get(usize::from(fold) - 1)) else {
            bail!("{}: --fold needs evaluation_splits.json (or orig_evaluation_splits.json) there", args.dir.display());
        };
        queries.retain(|q| keys.contains(&q.key()));
    }
    let rankings = match &args.ranked {
        Some(pattern) => {
            if !args.feedback.is_empty() {
                bail!("--feedback simulates ratings on our own vectors; it does not apply to --ranked runs");
            }
            Rankings {
                ranker: pattern.clone(),
                main: ranked_from_run(&queries, pattern)?,
                by_method: Vec::new(),
                feedback: Vec::new(),
                reliability: None,
            }
        }
        None => embed_and_rank(&collection, &queries, args)?,
    };
    let score_all = |ranked: &[Vec<u8>]| -> Vec<QueryResult> { queries.iter().zip(ranked).map(|(q, r)| csfcube::score(q, r)).collect() };
    let results = score_all(&rankings.main);
    let (summary, aggregation) = csfcube::summarise(&results, collection.folds.as_ref());
    let methods: Vec<MethodRow> = rankings
        .by_method
        .iter()
        .filter_map(|(method, ranked)| {
            let (rows, _) = csfcube::summarise(&score_all(ranked), collection.folds.as_ref());
            let all = rows.into_iter().find(|r| r.facet == "aggregated")?;
            Some(MethodRow { method: method.name(), map: all.map, ndcg_pct20: all.ndcg_pct20, ndcg_at20: all.ndcg_at20 })
        })
        .collect();
    let ranker = rankings.ranker;

    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    if args.json && !rankings.feedback.is_empty() {
        for row in &rankings.feedback {
            serde_json::to_writer(&mut out, row)?;
            writeln!(out)?;
        }
    } else if args.json {
        let doc = CsfcubeOutput {
            benchmark: "csfcube",
            ranker,
            aggregation,
            relevant_grade: csfcube::RELEVANT_GRADE,
            summary: &summary,
            methods: &methods,
            feedback: &rankings.feedback,
            reliability: rankings.reliability.as_ref(),
            queries: &results,
        };
        serde_json::to_writer_pretty(&mut out, &doc)?;
        writeln!(out)?;
    } else {
        write_csfcube_table(&mut out, &ranker, &summary, aggregation)?;
        write_method_table(&mut out, &methods)?;
        write_feedback_table(&mut out, &rankings.feedback)?;
        if let Some(r) = &rankings.reliability {
            write_reliability_table(&mut out, r)?;
        }
    }
    out.flush()?;
    Ok(())
}

/// Embeds every paper the queries need once, then ranks each pool by
/// cosine and by each ranking method.
fn embed_and_rank(collection: &csfcube::Collection, queries: &[csfcube::Query], args: &EvalCsfcubeArgs) -> Result<Rankings> {
    let ids = collection.papers_needed(queries);
    let texts: Vec<String> = ids.iter().map(|id| collection.papers.get(id).map(|p| p.embedding_text()).unwrap_or_default()).collect();
    let embedder = embed::load(&args.model)?;
    let start = Instant::now();
    let bar = crate::messages::progress("embedding");
    let refs: Vec<&str> = texts.iter().map(String::as_str).collect();
    let vectors = embedder.embed(&refs, &|done| bar.set(done, refs.len()))?;
    drop(bar);
    crate::messages::detail(format_args!("embedded {} papers in {:.1}s", texts.len(), library::secs(start)));
    let by_id: HashMap<String, Vec<f32>> = ids.iter().cloned().zip(vectors).collect();
    // Document frequencies over the whole collection, as a library of these
    // papers would have them.
    let texts: Vec<(&str, &str)> = collection.papers.values().map(|p| (p.title.trim(), p.abstract_text.trim())).collect();
    let index = LexicalIndex::in_memory(texts)?;
    let mut vocab = Vocabulary::new(Some(&index));
    let terms: HashMap<String, Terms> = ids
        .iter()
        .filter_map(|id| collection.papers.get(id).map(|p| (id.clone(), vocab.terms(p.title.trim(), p.abstract_text.trim()))))
        .collect();
    let papers = csfcube::Encoded { vectors: by_id, terms };
    let main = queries.iter().map(|q| csfcube::rank_by_cosine(q, &papers.vectors)).collect::<Result<_>>()?;
    let mut rng = Rng::new(BACKGROUND_SEED);
    let backgrounds: Vec<Vec<String>> =
        queries.iter().map(|q| csfcube::background(q, &ids, &papers.vectors, history::BACKGROUND, &mut rng)).collect();
    let mut by_method = Vec::new();
    for method in Method::ALL {
        let ranked =
            queries.iter().zip(&backgrounds).map(|(q, bg)| csfcube::rank_with_method(method, q, &papers, bg)).collect::<Result<_>>()?;
        by_method.push((method, ranked));
    }
    let (method, label) = match args.method {
        Some(m) => (m, m.name()),
        None => (DEFAULT_METHOD, "default"),
    };
    let mut scored = Vec::new();
    for (q, bg) in queries.iter().zip(&backgrounds) {
        let ranker = papers.ranker(method, vec![papers.seed(&q.pid, false, false)?], bg)?;
        scored.extend(csfcube::strengths(q, &papers, &ranker)?);
    }
    let reliability = Some(Reliability::of(&scored));
    let mut rows = Vec::new();
    {
        for rule in feedback::Choice::ALL {
            for &n in &args.feedback {
                let mut with = Vec::new();
                let mut without = Vec::new();
                let mut liked = 0;
                let mut rated = 0;
                let mut each = Vec::new();
                for (q, bg) in queries.iter().zip(&backgrounds) {
                    let o = feedback::simulate(q, &papers, bg, method, rule, n)?;
                    if args.json {
                        each.push(FeedbackQuery {
                            query: q.pid.clone(),
                            facet: q.facet.clone(),
                            liked: o.liked,
                            relevant: o.with.relevant,
                            ap: 100.0 * o.with.average_precision,
                            ap_without: 100.0 * o.without.average_precision,
                        });
                    }
                    with.push(o.with);
                    without.push(o.without);
                    liked += o.liked;
                    rated += o.rated.len();
                }
                let agg =
                    |r: &[QueryResult]| csfcube::summarise(r, collection.folds.as_ref()).0.into_iter().find(|s| s.facet == "aggregated");
                let (Some(a), Some(b)) = (agg(&with), agg(&without)) else { continue };
                let (_, gain_ci95) = csfcube::paired_map_difference(&with, &without, collection.folds.as_ref());
                let pct = |x: f64| (x * 10_000.0).round() / 100.0;
                rows.push(FeedbackRow {
                    method: label,
                    rule: rule.name(),
                    n,
                    map: pct(a.map),
                    ndcg20: pct(a.ndcg_pct20),
                    map_without: pct(b.map),
                    ndcg20_without: pct(b.ndcg_pct20),
                    map_gain_ci95: pct(gain_ci95),
                    // Of the papers rated: a pool smaller than N has fewer to rate.
                    liked_share: if rated == 0 { 0.0 } else { liked as f64 / rated as f64 },
                    queries: each,
                });
            }
        }
    }
    Ok(Rankings { ranker: embedder.model_id().to_string(), main, by_method, feedback: rows, reliability })
}

/// Grades in the order a CSFCube-format run file ranks each pool.
fn ranked_from_run(queries: &[csfcube::Query], pattern: &str) -> Result<Vec<Vec<u8>>> {
    if !pattern.contains("{facet}") {
        bail!("--ranked needs a path with {{facet}} in it, e.g. runs/test-pid2pool-csfcube-specter-{{facet}}-ranked.json");
    }
    let mut runs = HashMap::new();
    for facet in csfcube::FACETS {
        if queries.iter().any(|q| q.facet == facet) {
            runs.insert(facet, csfcube::read_run(pattern, facet)?);
        }
    }
    queries
        .iter()
        .map(|q| {
            let ranking = runs
                .get(q.facet.as_str())
                .and_then(|r| r.get(&q.pid))
                .with_context(|| format!("{} has no ranking for query {}", pattern.replace("{facet}", &q.facet), q.pid))?;
            csfcube::grades_in_order(q, ranking)
        })
        .collect()
}

fn write_csfcube_table(out: &mut impl Write, ranker: &str, summary: &[FacetSummary], how: Aggregation) -> Result<()> {
    writeln!(out, "CSFCube, pools ranked by cosine of {ranker}")?;
    writeln!(out, "{:<11} {:>7} {:>7} {:>8} {:>8}", "facet", "queries", "MAP", "NDCG%20", "NDCG@20")?;
    for s in summary {
        writeln!(
            out,
            "{:<11} {:>7} {:>7.2} {:>8.2} {:>8.2}",
            s.facet,
            s.queries,
            100.0 * s.map,
            100.0 * s.ndcg_pct20,
            100.0 * s.ndcg_at20
        )?;
    }
    let how = match how {
        Aggregation::TestFolds => "mean of the two test folds (CSFCube protocol)",
        Aggregation::QueryMean => "plain mean over the queries evaluated (not all of the splits: not the CSFCube protocol)",
    };
    writeln!(out, "MAP: grades 2-3 relevant. NDCG: linear gains, CSFCube's discount; NDCG%20 cuts at 20% of the pool.")?;
    writeln!(out, "Averages: {how}. Figures are percentages.")?;
    Ok(())
}

fn write_method_table(out: &mut impl Write, methods: &[MethodRow]) -> Result<()> {
    if methods.is_empty() {
        return Ok(());
    }
    writeln!(out)?;
    writeln!(out, "By ranking method, the query paper as the only seed (aggregated):")?;
    writeln!(out, "{:<13} {:>7} {:>8} {:>8}", "method", "MAP", "NDCG%20", "NDCG@20")?;
    for m in methods {
        writeln!(out, "{:<13} {:>7.2} {:>8.2} {:>8.2}", m.method, 100.0 * m.map, 100.0 * m.ndcg_pct20, 100.0 * m.ndcg_at20)?;
    }
    Ok(())
}

fn write_feedback_table(out: &mut impl Write, rows: &[FeedbackRow]) -> Result<()> {
    if rows.is_empty() {
        return Ok(());
    }
    writeln!(out)?;
    writeln!(out, "Simulated ratings: N papers of each pool rated (grade >= 2 liked), scored on the unrated rest")?;
    writeln!(out, "(\"without\": the same rest ranked from the query alone; aggregated, percentages):")?;
    writeln!(
        out,
        "{:<9} {:<7} {:>3} {:>7} {:>8} {:>9} {:>10} {:>7} {:>6} {:>6}",
        "method", "rule", "N", "MAP", "NDCG%20", "MAP w/o", "NDCG w/o", "ΔMAP", "±95%", "liked"
    )?;
    for r in rows {
        writeln!(
            out,
            "{:<9} {:<7} {:>3} {:>7.2} {:>8.2} {:>9.2} {:>10.2} {:>+7.2} {:>6.2} {:>5.0}%",
            r.method,
            r.rule,
            r.n,
            r.map,
            r.ndcg20,
            r.map_without,
            r.ndcg20_without,
            r.map - r.map_without,
            r.map_gain_ci95,
            100.0 * r.liked_share
        )?;
    }
    Ok(())
}

fn run_history(args: &EvalHistoryArgs) -> Result<()> {
    if args.cases == 0 {
        bail!("--cases must be at least 1");
    }
    let dir = library::resolve_dir(args.library.library.as_deref())?;
    let lib = Library::open_read(&dir)?;
    let start = Instant::now();
    let opts = history::Options {
        cases: args.cases,
        seed: args.seed,
        half: args.half,
        signals: args.signals.is_some(),
        max_seeds: args.max_seeds.map(usize::from),
    };
    let report = history::run(&lib, opts)?;
    if let Some(path) = &args.signals {
        let file = std::fs::File::create(path).with_context(|| format!("cannot write {}", path.display()))?;
        let mut w = std::io::BufWriter::new(file);
        for case in &report.signals {
            serde_json::to_writer(&mut w, case)?;
            writeln!(w)?;
        }
        w.flush().with_context(|| format!("cannot write {}", path.display()))?;
    }
    crate::messages::detail(format_args!("replayed {} cases in {:.1}s", report.cases, library::secs(start)));
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    if args.json {
        serde_json::to_writer_pretty(&mut out, &report)?;
        writeln!(out)?;
    } else {
        write_history_table(&mut out, &report)?;
    }
    out.flush()?;
    Ok(())
}

fn write_history_table(out: &mut impl Write, r: &history::Report) -> Result<()> {
    writeln!(out, "History replay of {} papers ({}), seed {}", r.papers, r.model, r.seed)?;
    writeln!(
        out,
        "{} cases from {} authors with papers on 3+ days (at most {} papers each)",
        r.cases,
        r.eligible_authors,
        history::MAX_AUTHOR_PAPERS
    )?;
    let limit = r.max_seeds.map(|n| format!(" (each author's latest {n} at most)")).unwrap_or_default();
    writeln!(
        out,
        "median {} candidates per day, {} seeds per author{limit}; {} cases hide several papers",
        r.median_candidates, r.median_seeds, r.cases_with_several_hidden
    )?;
    writeln!(out, "{:<18} {:>6} {:>8} {:>10}   MRR behind the best (paired s.e.)", "method", "MRR", "±95%", "recall@10")?;
    for m in r.methods.iter().chain(std::iter::once(&r.random)) {
        let behind = match m.mrr_behind_best {
            Some((d, se)) => format!("{d:.3} ± {se:.3}"),
            None if m.method == r.random.method => String::new(),
            None => "best".to_string(),
        };
        let ci = if m.mrr_ci95 > 0.0 { format!("{:.3}", m.mrr_ci95) } else { String::new() };
        let line = format!("{:<18} {:>6.3} {:>8} {:>10.3}   {}", m.method, m.mrr, ci, m.recall_at_10, behind);
        writeln!(out, "{}", line.trim_end())?;
    }
    let b = &r.bar;
    writeln!(out)?;
    writeln!(
        out,
        "The default method's bar (usual): lists of {:.1} papers on average hold {:.1}% of the next papers; a fixed top {} holds {:.1}%",
        b.mean_list,
        100.0 * b.next_in_list,
        b.fixed_k,
        100.0 * b.next_in_fixed_k
    )?;
    writeln!(
        out,
        "Top 20s: {:.1}% of picks marked weak; a weak pick is the next paper {:.2}% of the time, an unmarked one {:.2}%",
        100.0 * b.weak_share_top20,
        100.0 * b.next_rate_weak,
        100.0 * b.next_rate_unmarked
    )?;
    Ok(())
}

fn write_reliability_table(out: &mut impl Write, r: &Reliability) -> Result<()> {
    writeln!(out)?;
    writeln!(out, "How sure a pick is: every pool paper by its strength and calibrated score, pooled over the queries")?;
    writeln!(out, "(the query as its one seed; relevant: grade >= 2; 95% Wilson intervals):")?;
    writeln!(out, "{:<13} {:>7} {:>9} {:>8} {:>15}", "", "papers", "relevant", "share", "95%")?;
    for (i, row) in r.by_strength.iter().chain(&r.by_score).enumerate() {
        if i == r.by_strength.len() {
            writeln!(out, "score")?;
        }
        writeln!(
            out,
            "{:<13} {:>7} {:>9} {:>7.1}% {:>6.1}–{:>5.1}%",
            row.label,
            row.papers,
            row.relevant,
            100.0 * row.share,
            100.0 * row.low,
            100.0 * row.high
        )?;
    }
    Ok(())
}
