//! CSFCube (Mysore et al., NeurIPS 2021 datasets track): 50 query papers,
//! each judged along one facet (background, method or result) against a pool
//! of 88 to 253 candidates graded 0–3 by experts.
//!
//! We rank each judged pool by the cosine between whole-paper embeddings
//! (the facet is ignored: that is what a plain "papers like this one"
//! recommender does) and score the ranking as CSFCube's own evaluation
//! script does, so the figures compare with published baselines:
//! MAP with grades 2–3 relevant, NDCG%20 (NDCG at 20% of the pool) and
//! NDCG@20, averaged per facet and over all queries, each average being the
//! mean of the two test folds of `evaluation_splits.json`.
//!
//! Reads either the layout in `shared/data/relevance/csfcube`
//! (`csfcube_papers.jsonl`, `csfcube_queries_with_judged_pools.jsonl`) or
//! the original release (`abstracts-csfcube-preds.jsonl`,
//! `test-pid2anns-csfcube-<facet>.json`, optionally prefixed `orig_`).

use super::{average_precision, ndcg, ndcg_pct20, Rng};
use crate::rank::{Candidate, Method, Ranker, SeedVector, Terms};
use crate::vector::dot;
use anyhow::{bail, Context, Result};
use serde::Serialize;
use serde_json::Value;
use std::collections::{BTreeSet, HashMap, HashSet};
use std::path::{Path, PathBuf};

pub const FACETS: [&str; 3] = ["background", "method", "result"];
/// Grades from this one up count as relevant for MAP (the script's `threshold_grade`).
pub const RELEVANT_GRADE: u8 = 2;

/// Title and abstract of one paper, abstract sentences already joined.
#[derive(Debug, Clone)]
pub struct PaperText {
    pub title: String,
    pub abstract_text: String,
}

impl PaperText {
    /// What the embedder sees: the same "title. abstract" as library papers.
    pub fn embedding_text(&self) -> String {
        crate::paper::embedding_text(self.title.trim(), self.abstract_text.trim())
    }
}

/// One query paper with the facet it is judged along and its judged pool.
#[derive(Debug, Clone)]
pub struct Query {
    pub pid: String,
    pub facet: String,
    /// (candidate pid, grade 0–3), in file order.
    pub pool: Vec<(String, u8)>,
}

impl Query {
    /// The id the evaluation splits use: `<pid>_<facet>`.
    pub fn key(&self) -> String {
        format!("{}_{}", self.pid, self.facet)
    }
}

/// The benchmark as read from disk.
#[derive(Debug)]
pub struct Collection {
    pub papers: HashMap<String, PaperText>,
    pub queries: Vec<Query>,
    /// Facet (or "all") → the query keys of each test fold.
    pub folds: Option<HashMap<String, Vec<Vec<String>>>>,
}

/// Metrics of one query.
#[derive(Debug, Clone, Serialize)]
pub struct QueryResult {
    pub query: String,
    pub facet: String,
    pub pool: usize,
    /// Candidates graded 2 or 3.
    pub relevant: usize,
    pub average_precision: f64,
    pub ndcg_pct20: f64,
    pub ndcg_at20: f64,
}

/// Averages over the queries of one facet, or over all ("aggregated").
#[derive(Debug, Clone, Serialize)]
pub struct FacetSummary {
    pub facet: String,
    pub queries: usize,
    pub map: f64,
    pub ndcg_pct20: f64,
    pub ndcg_at20: f64,
}

/// How the facet averages were taken.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Aggregation {
    /// Mean of the means of the two test folds: CSFCube's protocol.
    TestFolds,
    /// Plain mean over the queries evaluated (a subset, or no splits file).
    QueryMean,
}

/// The first of `names` that exists in `dir`.
fn find(dir: &Path, names: &[&str]) -> Option<PathBuf> {
    names.iter().map(|n| dir.join(n)).find(|p| p.is_file())
}

fn read_json(path: &Path) -> Result<Value> {
    let text = std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    serde_json::from_str(&text).with_context(|| format!("{} is not valid JSON", path.display()))
}

/// Each non-empty line of a JSON-lines file, parsed, with its line number.
fn read_jsonl(path: &Path) -> Result<Vec<(usize, Value)>> {
    let text = std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| {
            let v = serde_json::from_str(l).with_context(|| format!("{} line {}: not valid JSON", path.display(), i + 1))?;
            Ok((i + 1, v))
        })
        .collect()
}

/// A paper id, written as a string or a number depending on the file.
fn pid_of(v: Option<&Value>) -> Option<String> {
    match v? {
        Value::String(s) => Some(s.trim().to_string()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

/// An abstract given as one string, as a list of sentences (the original
/// release), or only as labelled sentences (`abstract_sentences[].text`).
/// Sentences are joined with single spaces, which is how the shared copy's
/// own `abstract` string was made from them.
fn abstract_of(paper: &Value) -> String {
    match paper.get("abstract") {
        Some(a @ (Value::String(_) | Value::Array(_))) => text_of(a, None),
        _ => paper.get("abstract_sentences").map_or_else(String::new, |s| text_of(s, Some("text"))),
    }
}

/// A text, or a list of sentences (each a string, or an object holding
/// one under `field`) joined by spaces.
fn text_of(v: &Value, field: Option<&str>) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Array(items) => items
            .iter()
            .filter_map(|s| match field {
                Some(f) => s.get(f).and_then(Value::as_str),
                None => s.as_str(),
            })
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .collect::<Vec<_>>()
            .join(" "),
        _ => String::new(),
    }
}

fn read_papers(path: &Path) -> Result<HashMap<String, PaperText>> {
    let mut papers = HashMap::new();
    for (line, v) in read_jsonl(path)? {
        let pid = pid_of(v.get("pid").or_else(|| v.get("paper_id")))
            .with_context(|| format!("{} line {line}: no pid or paper_id", path.display()))?;
        let title = v.get("title").and_then(Value::as_str).unwrap_or_default().to_string();
        papers.insert(pid, PaperText { title, abstract_text: abstract_of(&v) });
    }
    if papers.is_empty() {
        bail!("{} holds no papers", path.display());
    }
    Ok(papers)
}

fn grade_of(v: Option<&Value>) -> Option<u8> {
    v.and_then(Value::as_u64).and_then(|g| u8::try_from(g).ok()).filter(|&g| g <= 3)
}

/// Queries from `csfcube_queries_with_judged_pools.jsonl`; query texts the
/// papers file lacks are taken from the query's own title and abstract.
fn read_judged_pools(path: &Path, papers: &mut HashMap<String, PaperText>) -> Result<Vec<Query>> {
    let mut queries = Vec::new();
    for (line, v) in read_jsonl(path)? {
        let at = || format!("{} line {line}", path.display());
        let pid = pid_of(v.get("query_pid")).with_context(|| format!("{}: no query_pid", at()))?;
        let facet = v.get("facet").and_then(Value::as_str).with_context(|| format!("{}: no facet", at()))?;
        let candidates = v.get("candidates").and_then(Value::as_array).with_context(|| format!("{}: no candidates list", at()))?;
        let mut pool = Vec::with_capacity(candidates.len());
        for c in candidates {
            let cpid = pid_of(c.get("pid")).with_context(|| format!("{}: a candidate has no pid", at()))?;
            let grade = grade_of(c.get("relevance")).with_context(|| format!("{}: candidate {cpid} has no relevance 0-3", at()))?;
            pool.push((cpid, grade));
        }
        if let (false, Some(title)) = (papers.contains_key(&pid), v.get("query_title").and_then(Value::as_str)) {
            let abstract_text = v.get("query_abstract").map_or_else(String::new, |a| text_of(a, None));
            papers.insert(pid.clone(), PaperText { title: title.to_string(), abstract_text });
        }
        queries.push(Query { pid, facet: facet.to_string(), pool });
    }
    Ok(queries)
}

/// Queries from the original per-facet files `{qpid: {cands, relevance_adju}}`
/// (the adjudicated grades, as the CSFCube script uses).
fn read_pid2anns(dir: &Path) -> Result<Vec<Query>> {
    let mut queries = Vec::new();
    for facet in FACETS {
        let names = [format!("test-pid2anns-csfcube-{facet}.json"), format!("orig_test-pid2anns-csfcube-{facet}.json")];
        let Some(path) = find(dir, &[&names[0], &names[1]]) else {
            bail!("{}: no {} (nor csfcube_queries_with_judged_pools.jsonl)", dir.display(), names[0]);
        };
        let json = read_json(&path)?;
        let map = json.as_object().with_context(|| format!("{} is not a JSON object", path.display()))?;
        for (qpid, anns) in map {
            let cands = anns.get("cands").and_then(Value::as_array);
            let grades = anns.get("relevance_adju").and_then(Value::as_array);
            let (Some(cands), Some(grades)) = (cands, grades) else {
                bail!("{}: query {qpid} lacks cands or relevance_adju", path.display());
            };
            if cands.len() != grades.len() {
                bail!("{}: query {qpid} has {} cands but {} grades", path.display(), cands.len(), grades.len());
            }
            let mut pool = Vec::with_capacity(cands.len());
            for (c, g) in cands.iter().zip(grades) {
                let cpid = pid_of(Some(c)).with_context(|| format!("{}: query {qpid}: bad candidate id", path.display()))?;
                let grade =
                    grade_of(Some(g)).with_context(|| format!("{}: query {qpid}: candidate {cpid} has no grade 0-3", path.display()))?;
                pool.push((cpid, grade));
            }
            queries.push(Query { pid: qpid.clone(), facet: facet.to_string(), pool });
        }
    }
    Ok(queries)
}

/// `evaluation_splits.json`: facet → fold name → query keys; only the two
/// test folds are kept (the published figures are test figures).
fn read_folds(path: &Path) -> Result<HashMap<String, Vec<Vec<String>>>> {
    let json = read_json(path)?;
    let facets = json.as_object().with_context(|| format!("{} is not a JSON object", path.display()))?;
    let mut out = HashMap::new();
    for (facet, folds) in facets {
        let mut test = Vec::new();
        for name in ["fold1_test", "fold2_test"] {
            let ids =
                folds.get(name).and_then(Value::as_array).with_context(|| format!("{}: {facet} has no {name} list", path.display()))?;
            test.push(ids.iter().filter_map(Value::as_str).map(str::to_string).collect());
        }
        out.insert(facet.clone(), test);
    }
    Ok(out)
}

/// Reads the collection in `dir` and checks every judged paper has a text.
pub fn load(dir: &Path) -> Result<Collection> {
    let papers_path = find(dir, &["csfcube_papers.jsonl", "abstracts-csfcube-preds.jsonl"]).with_context(|| {
        format!("{}: no csfcube_papers.jsonl or abstracts-csfcube-preds.jsonl; is this the CSFCube directory?", dir.display())
    })?;
    let mut papers = read_papers(&papers_path)?;
    let mut queries = match find(dir, &["csfcube_queries_with_judged_pools.jsonl"]) {
        Some(path) => read_judged_pools(&path, &mut papers)?,
        None => read_pid2anns(dir)?,
    };
    // One query (8781666) is judged against itself, graded 3. A paper is no
    // recommendation for itself, and the SPECTER run published with CSFCube
    // leaves it out too, so it is dropped from its own pool.
    for q in &mut queries {
        let pid = q.pid.clone();
        q.pool.retain(|(p, _)| *p != pid);
    }
    if queries.is_empty() {
        bail!("{}: no queries found", dir.display());
    }
    for q in &queries {
        for pid in std::iter::once(&q.pid).chain(q.pool.iter().map(|(p, _)| p)) {
            if !papers.contains_key(pid) {
                bail!("{}: paper {pid} (query {}) is not in {}", dir.display(), q.key(), papers_path.display());
            }
        }
    }
    let folds = match find(dir, &["evaluation_splits.json", "orig_evaluation_splits.json"]) {
        Some(path) => Some(read_folds(&path)?),
        None => None,
    };
    Ok(Collection { papers, queries, folds })
}

impl Collection {
    /// Every distinct paper the given queries need (queries and pools),
    /// sorted by id, so each is embedded once.
    pub fn papers_needed(&self, queries: &[Query]) -> Vec<String> {
        let mut ids = BTreeSet::new();
        for q in queries {
            ids.insert(q.pid.clone());
            ids.extend(q.pool.iter().map(|(p, _)| p.clone()));
        }
        ids.into_iter().collect()
    }
}

/// The pool's grades in the order of descending cosine to the query.
pub fn rank_by_cosine(query: &Query, vectors: &HashMap<String, Vec<f32>>) -> Result<Vec<u8>> {
    let qv = vector_of(vectors, &query.pid)?;
    rank_by(query, vectors, |v| dot(qv, v))
}

/// Every paper the evaluation needs, as the ranker sees it: its vector and
/// its words (weighted by document frequencies over the whole collection,
/// as a library's would be).
pub struct Encoded {
    pub vectors: HashMap<String, Vec<f32>>,
    pub terms: HashMap<String, Terms>,
}

impl Encoded {
    pub fn seed(&self, pid: &str, negative: bool, rated: bool) -> Result<SeedVector> {
        Ok(SeedVector {
            label: pid.to_string(),
            vector: vector_of(&self.vectors, pid)?.to_vec(),
            terms: self.terms.get(pid).cloned().unwrap_or_default(),
            subjects: Vec::new(),
            weight: 1.0,
            negative,
            rated,
            added: String::new(),
        })
    }

    /// The background papers' vectors.
    pub fn vectors_of(&self, ids: &[String]) -> Vec<Vec<f32>> {
        ids.iter().filter_map(|id| self.vectors.get(id).cloned()).collect()
    }

    /// A ranker for `seeds`, its scores read against the `background` papers.
    pub fn ranker(&self, method: Method, seeds: Vec<SeedVector>, background: &[String]) -> Result<Ranker> {
        let mut ranker = Ranker::new(method, seeds, &self.vectors_of(background));
        let on: Vec<Candidate<'_>> = background.iter().map(|id| self.candidate(id)).collect::<Result<_>>()?;
        ranker.calibrate(&on);
        Ok(ranker)
    }

    pub fn candidate(&self, pid: &str) -> Result<Candidate<'_>> {
        static NONE: std::sync::OnceLock<Terms> = std::sync::OnceLock::new();
        Ok(Candidate::of_text(vector_of(&self.vectors, pid)?, self.terms.get(pid).unwrap_or_else(|| NONE.get_or_init(Terms::default))))
    }
}

/// The pool's grades ranked by one of the recommender's methods with the
/// query paper as the only seed. With one seed, centroid, decayed-mean and
/// knn order the pool exactly as the cosine does; logistic also learns from
/// `background` (random papers of the collection, as a library would give).
pub fn rank_with_method(method: Method, query: &Query, papers: &Encoded, background: &[String]) -> Result<Vec<u8>> {
    let ranker = papers.ranker(method, vec![papers.seed(&query.pid, false, false)?], background)?;
    rank_pool(query, papers, &ranker)
}

/// Each pool paper's calibrated score and strength, and whether it is
/// relevant (grade ≥ [`RELEVANT_GRADE`]).
pub fn strengths(query: &Query, papers: &Encoded, ranker: &Ranker) -> Result<Vec<(f32, crate::rank::Strength, bool)>> {
    let candidates: Vec<Candidate<'_>> = query.pool.iter().map(|(p, _)| papers.candidate(p)).collect::<Result<_>>()?;
    Ok(ranker.score_all(&candidates).into_iter().zip(&query.pool).map(|(s, (_, g))| (s.score, s.strength, *g >= RELEVANT_GRADE)).collect())
}

/// The pool's grades in the order `ranker` scores the pool, scored together.
pub fn rank_pool(query: &Query, papers: &Encoded, ranker: &Ranker) -> Result<Vec<u8>> {
    let candidates: Vec<Candidate<'_>> = query.pool.iter().map(|(p, _)| papers.candidate(p)).collect::<Result<_>>()?;
    let scores: Vec<f32> = ranker.score_all(&candidates).into_iter().map(|s| s.order).collect();
    Ok(in_score_order(query, &scores))
}

/// Up to `n` random papers of the collection outside the query's pool (of
/// those in `vectors`): what the scores are read against, and the logistic
/// method's implicit negatives.
pub fn background(query: &Query, ids: &[String], vectors: &HashMap<String, Vec<f32>>, n: usize, rng: &mut Rng) -> Vec<String> {
    let pool: HashSet<&str> = query.pool.iter().map(|(p, _)| p.as_str()).chain([query.pid.as_str()]).collect();
    let outside: Vec<&String> = ids.iter().filter(|id| !pool.contains(id.as_str()) && vectors.contains_key(*id)).collect();
    rng.sample(&outside, n).into_iter().cloned().collect()
}

fn vector_of<'a>(vectors: &'a HashMap<String, Vec<f32>>, pid: &str) -> Result<&'a [f32]> {
    vectors.get(pid).map(Vec::as_slice).with_context(|| format!("no vector for paper {pid}"))
}

/// Grades in descending score order. Ties go to the smaller paper id: the
/// judged-pools file lists candidates best grade first, so keeping file
/// order on ties would leak the answer.
fn rank_by(query: &Query, vectors: &HashMap<String, Vec<f32>>, score: impl Fn(&[f32]) -> f32) -> Result<Vec<u8>> {
    let scores: Vec<f32> = query.pool.iter().map(|(pid, _)| Ok(score(vector_of(vectors, pid)?))).collect::<Result<_>>()?;
    Ok(in_score_order(query, &scores))
}

/// The pool's grades sorted by `scores` (one per pool entry), best first,
/// ties to the smaller paper id.
pub fn in_score_order(query: &Query, scores: &[f32]) -> Vec<u8> {
    let mut scored: Vec<(f32, &str, u8)> = query.pool.iter().zip(scores).map(|((pid, grade), &s)| (s, pid.as_str(), *grade)).collect();
    scored.sort_by(|a, b| b.0.total_cmp(&a.0).then_with(|| a.1.cmp(b.1)));
    scored.into_iter().map(|(_, _, g)| g).collect()
}

/// The pool's grades in the order another system ranked it. The ranking
/// must hold every judged candidate once (CSFCube's script requires the same).
pub fn grades_in_order(query: &Query, ranked: &[String]) -> Result<Vec<u8>> {
    let grades: HashMap<&str, u8> = query.pool.iter().map(|(p, g)| (p.as_str(), *g)).collect();
    let mut seen = HashSet::new();
    let mut out = Vec::with_capacity(ranked.len());
    for pid in ranked {
        let g = grades.get(pid.as_str()).with_context(|| format!("{}: {pid} is not in the judged pool", query.key()))?;
        if !seen.insert(pid.as_str()) {
            bail!("{}: {pid} is ranked twice", query.key());
        }
        out.push(*g);
    }
    if out.len() != query.pool.len() {
        bail!("{}: ranks {} of the {} judged candidates", query.key(), out.len(), query.pool.len());
    }
    Ok(out)
}

/// A run in CSFCube's format, `{qpid: [[pid, score], …]}` best first, for
/// one facet: `pattern` is a path with `{facet}` in it.
pub fn read_run(pattern: &str, facet: &str) -> Result<HashMap<String, Vec<String>>> {
    let path = PathBuf::from(pattern.replace("{facet}", facet));
    let json = read_json(&path)?;
    let map = json.as_object().with_context(|| format!("{} is not a JSON object", path.display()))?;
    let mut out = HashMap::new();
    for (qpid, list) in map {
        let list = list.as_array().with_context(|| format!("{}: {qpid} is not a list", path.display()))?;
        let pids = list
            .iter()
            .map(|item| pid_of(item.get(0)).or_else(|| pid_of(Some(item))))
            .collect::<Option<Vec<_>>>()
            .with_context(|| format!("{}: {qpid}: entries must be [pid, score] or pid", path.display()))?;
        out.insert(qpid.clone(), pids);
    }
    Ok(out)
}

/// Metrics of one query from its grades in ranked order.
pub fn score(query: &Query, ranked: &[u8]) -> QueryResult {
    QueryResult {
        query: query.pid.clone(),
        facet: query.facet.clone(),
        pool: ranked.len(),
        relevant: ranked.iter().filter(|&&g| g >= RELEVANT_GRADE).count(),
        average_precision: average_precision(ranked, RELEVANT_GRADE),
        ndcg_pct20: ndcg_pct20(ranked),
        ndcg_at20: ndcg(ranked, 20),
    }
}

/// Per-facet and aggregated averages. The CSFCube protocol (mean of the two
/// test folds' means) applies when the splits are known and every query
/// they list was evaluated; otherwise it is a plain mean over queries.
pub fn summarise(results: &[QueryResult], folds: Option<&HashMap<String, Vec<Vec<String>>>>) -> (Vec<FacetSummary>, Aggregation) {
    let by_key = keyed(results);
    let complete = complete_folds(&by_key, folds);
    let groups = FACETS.iter().map(|f| (*f, Some(*f))).chain(std::iter::once(("aggregated", None)));
    let mut out = Vec::new();
    for (name, facet) in groups {
        let members: Vec<&QueryResult> = results.iter().filter(|r| facet.is_none_or(|f| r.facet == f)).collect();
        if members.is_empty() {
            continue;
        }
        let mean_of = |metric: fn(&QueryResult) -> f64| -> f64 {
            match complete.and_then(|f| f.get(facet.unwrap_or("all"))) {
                Some(test_folds) => {
                    let fold_means: Vec<f64> = test_folds
                        .iter()
                        .filter(|keys| !keys.is_empty())
                        .map(|keys| mean(keys.iter().filter_map(|k| by_key.get(k)).map(|r| metric(r))))
                        .collect();
                    mean(fold_means.into_iter())
                }
                None => mean(members.iter().map(|r| metric(r))),
            }
        };
        out.push(FacetSummary {
            facet: name.to_string(),
            queries: members.len(),
            map: mean_of(|r| r.average_precision),
            ndcg_pct20: mean_of(|r| r.ndcg_pct20),
            ndcg_at20: mean_of(|r| r.ndcg_at20),
        });
    }
    let how = if complete.is_some() { Aggregation::TestFolds } else { Aggregation::QueryMean };
    (out, how)
}

/// A result's key in the splits file: "<pid>_<facet>".
fn key_of(r: &QueryResult) -> String {
    format!("{}_{}", r.query, r.facet)
}

fn keyed(results: &[QueryResult]) -> HashMap<String, &QueryResult> {
    results.iter().map(|r| (key_of(r), r)).collect()
}

/// The splits, when every query they list was evaluated.
fn complete_folds<'f>(
    by_key: &HashMap<String, &QueryResult>,
    folds: Option<&'f HashMap<String, Vec<Vec<String>>>>,
) -> Option<&'f HashMap<String, Vec<Vec<String>>>> {
    folds.filter(|f| {
        ["background", "method", "result", "all"]
            .iter()
            .all(|facet| f.get(*facet).is_some_and(|fs| fs.iter().flatten().all(|k| by_key.contains_key(k))))
    })
}

/// The aggregated MAP of `a` less that of `b` (two rankings of the same
/// queries, paired by query) and the half-width of its 95 % interval,
/// aggregated as [`summarise`] does: under the CSFCube protocol the mean of
/// the test folds' mean differences, whose variance is the folds' own
/// (each fold's sample variance over its size) over the folds counted
/// twice. Fifty queries leave a gain of a few MAP points uncertain; this
/// says by how much.
pub fn paired_map_difference(a: &[QueryResult], b: &[QueryResult], folds: Option<&HashMap<String, Vec<Vec<String>>>>) -> (f64, f64) {
    let (a_by, b_by) = (keyed(a), keyed(b));
    let diff = |k: &String| Some(a_by.get(k)?.average_precision - b_by.get(k)?.average_precision);
    let groups: Vec<Vec<f64>> =
        match complete_folds(&a_by, folds).filter(|_| complete_folds(&b_by, folds).is_some()).and_then(|f| f.get("all")) {
            Some(test_folds) => test_folds.iter().map(|keys| keys.iter().filter_map(diff).collect()).collect(),
            None => vec![a.iter().filter_map(|r| diff(&key_of(r))).collect()],
        };
    let groups: Vec<Vec<f64>> = groups.into_iter().filter(|d| !d.is_empty()).collect();
    if groups.is_empty() {
        return (0.0, 0.0);
    }
    let g = groups.len() as f64;
    let mut centre = 0.0;
    let mut variance = 0.0;
    for d in &groups {
        let n = d.len() as f64;
        let m = mean(d.iter().copied());
        centre += m / g;
        if d.len() > 1 {
            variance += d.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / (n - 1.0) / n / (g * g);
        }
    }
    (centre, 1.96 * variance.sqrt())
}

fn mean(values: impl Iterator<Item = f64>) -> f64 {
    let (sum, n) = values.fold((0.0, 0usize), |(s, n), v| (s + v, n + 1));
    if n == 0 {
        0.0
    } else {
        sum / n as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn query(pid: &str, facet: &str, pool: &[(&str, u8)]) -> Query {
        Query { pid: pid.into(), facet: facet.into(), pool: pool.iter().map(|(p, g)| (p.to_string(), *g)).collect() }
    }

    #[test]
    fn cosine_ranking_breaks_ties_by_id_not_by_file_order() {
        // The file lists the relevant candidate first; both tie on cosine.
        let q = query("q", "method", &[("b", 3), ("a", 0)]);
        let vectors: HashMap<String, Vec<f32>> =
            [("q", vec![1.0, 0.0]), ("a", vec![0.0, 1.0]), ("b", vec![0.0, 1.0])].into_iter().map(|(k, v)| (k.to_string(), v)).collect();
        assert_eq!(rank_by_cosine(&q, &vectors).unwrap(), vec![0, 3]);
    }

    #[test]
    fn with_one_seed_the_similarity_methods_rank_as_the_cosine_does() {
        let q = query("q", "method", &[("a", 3), ("b", 1), ("c", 0), ("d", 2)]);
        let vectors: HashMap<String, Vec<f32>> = [
            ("q", vec![1.0, 0.0, 0.0]),
            ("a", vec![0.8, 0.6, 0.0]),
            ("b", vec![0.0, 1.0, 0.0]),
            ("c", vec![-1.0, 0.0, 0.0]),
            ("d", vec![0.6, 0.0, 0.8]),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_string(), v))
        .collect();
        let cosine = rank_by_cosine(&q, &vectors).unwrap();
        assert_eq!(cosine, vec![3, 2, 1, 0]);
        let papers = Encoded { vectors, terms: HashMap::new() };
        for m in [Method::Centroid, Method::DecayedMean, Method::Knn] {
            assert_eq!(rank_with_method(m, &q, &papers, &[]).unwrap(), cosine, "{m}");
        }
    }

    #[test]
    fn other_runs_must_rank_the_whole_pool_once() {
        let q = query("q", "result", &[("a", 2), ("b", 0)]);
        let ids = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(grades_in_order(&q, &ids(&["b", "a"])).unwrap(), vec![0, 2]);
        assert!(grades_in_order(&q, &ids(&["a"])).is_err());
        assert!(grades_in_order(&q, &ids(&["a", "a"])).is_err());
        assert!(grades_in_order(&q, &ids(&["a", "c"])).is_err());
    }

    #[test]
    fn abstracts_as_lists_are_joined_with_spaces() {
        let v = serde_json::json!({"abstract": ["One. ", " Two."]});
        assert_eq!(abstract_of(&v), "One. Two.");
        let v = serde_json::json!({"abstract_sentences": [{"text": "A."}, {"text": "B."}]});
        assert_eq!(abstract_of(&v), "A. B.");
    }

    #[test]
    fn a_paired_difference_is_aggregated_by_folds_with_its_interval() {
        let r = |q: &str, ap: f64| QueryResult {
            query: q.into(),
            facet: "method".into(),
            pool: 10,
            relevant: 1,
            average_precision: ap,
            ndcg_pct20: ap,
            ndcg_at20: ap,
        };
        let a = vec![r("1", 0.5), r("2", 0.6), r("3", 0.9), r("4", 0.4)];
        let b = vec![r("1", 0.4), r("2", 0.4), r("3", 0.6), r("4", 0.4)];
        // Differences 0.1, 0.2 (fold 1) and 0.3, 0.0 (fold 2): fold means
        // 0.15 and 0.15; sample variances 0.005 and 0.045, each over 2, the
        // sum over 2².
        let fold = |ids: &[&str]| ids.iter().map(|s| format!("{s}_method")).collect::<Vec<_>>();
        let folds: HashMap<String, Vec<Vec<String>>> = ["background", "method", "result", "all"]
            .iter()
            .map(|f| {
                let fs =
                    if *f == "background" || *f == "result" { vec![vec![], vec![]] } else { vec![fold(&["1", "2"]), fold(&["3", "4"])] };
                (f.to_string(), fs)
            })
            .collect();
        let (centre, half) = paired_map_difference(&a, &b, Some(&folds));
        assert!((centre - 0.15).abs() < 1e-12, "{centre}");
        let expected = 1.96 * ((0.005 / 2.0 + 0.045 / 2.0) / 4.0f64).sqrt();
        assert!((half - expected).abs() < 1e-12, "{half} against {expected}");
        // The centre is the difference of the two aggregated MAPs.
        let map = |x: &[QueryResult]| summarise(x, Some(&folds)).0.into_iter().find(|s| s.facet == "aggregated").unwrap().map;
        assert!((centre - (map(&a) - map(&b))).abs() < 1e-12);
        // Without the splits: one group, the plain paired interval.
        let (centre, half) = paired_map_difference(&a, &b, None);
        assert!((centre - 0.15).abs() < 1e-12);
        let var = [0.1f64, 0.2, 0.3, 0.0].iter().map(|d| (d - 0.15) * (d - 0.15)).sum::<f64>() / 3.0;
        assert!((half - 1.96 * (var / 4.0).sqrt()).abs() < 1e-12);
        // Nothing paired, nothing claimed.
        assert_eq!(paired_map_difference(&a, &[], None), (0.0, 0.0));
    }

    #[test]
    fn folds_are_averaged_as_the_csfcube_script_does() {
        let r = |q: &str, facet: &str, ap: f64| QueryResult {
            query: q.into(),
            facet: facet.into(),
            pool: 10,
            relevant: 1,
            average_precision: ap,
            ndcg_pct20: ap,
            ndcg_at20: ap,
        };
        // Fold 1 holds one query, fold 2 two: the fold means (1.0 and 0.25)
        // are averaged, which is not the mean over the three queries.
        let results = vec![r("1", "method", 1.0), r("2", "method", 0.5), r("3", "method", 0.0)];
        let fold = |ids: &[&str]| ids.iter().map(|s| format!("{s}_method")).collect::<Vec<_>>();
        let folds: HashMap<String, Vec<Vec<String>>> = ["background", "method", "result", "all"]
            .iter()
            .map(|f| {
                let fs = if *f == "background" || *f == "result" { vec![vec![], vec![]] } else { vec![fold(&["1"]), fold(&["2", "3"])] };
                (f.to_string(), fs)
            })
            .collect();
        let (summary, how) = summarise(&results, Some(&folds));
        assert_eq!(how, Aggregation::TestFolds);
        let method = summary.iter().find(|s| s.facet == "method").unwrap();
        assert!((method.map - 0.625).abs() < 1e-12);
        let all = summary.iter().find(|s| s.facet == "aggregated").unwrap();
        assert!((all.map - 0.625).abs() < 1e-12);
        // Without the splits (or with queries missing): the plain mean.
        let (summary, how) = summarise(&results[..2], Some(&folds));
        assert_eq!(how, Aggregation::QueryMean);
        assert!((summary[0].map - 0.75).abs() < 1e-12);
    }
}
