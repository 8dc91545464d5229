//! `paperscout eval` end to end through the binary: CSFCube on a subset
//! (the full run embeds ~4,200 papers), scoring a given run without a model,
//! and the history replay on a small library built here.
//! The metric arithmetic itself is unit-tested in `src/eval`.

use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::Once;

const BIN: &str = env!("CARGO_BIN_EXE_paperscout");

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn csfcube_dir() -> PathBuf {
    root().join("../shared/data/relevance/csfcube")
}

fn model_dir() -> PathBuf {
    static FETCH: Once = Once::new();
    FETCH.call_once(|| {
        let ok = Command::new(root().join("models/fetch")).arg("-q").status().expect("run models/fetch");
        assert!(ok.success(), "models/fetch failed");
    });
    root().join("models/all-MiniLM-L6-v2")
}

fn paperscout(args: &[&str]) -> Output {
    let out = Command::new(BIN)
        .args(args)
        .env("PAPERSCOUT_MODEL", model_dir())
        .env_remove("PAPERSCOUT_LIBRARY")
        .output()
        .expect("run paperscout");
    assert!(out.status.success(), "paperscout {args:?} failed: {}", String::from_utf8_lossy(&out.stderr));
    out
}

fn json_of(out: &Output) -> Value {
    serde_json::from_slice(&out.stdout).expect("stdout is one JSON document")
}

fn summary_row<'a>(doc: &'a Value, facet: &str) -> &'a Value {
    doc["summary"].as_array().unwrap().iter().find(|s| s["facet"] == facet).unwrap()
}

#[test]
fn csfcube_subset_is_sane_and_deterministic() {
    let dir = csfcube_dir();
    let args = ["eval", "csfcube", dir.to_str().unwrap(), "--queries", "2", "--json"];
    let first = json_of(&paperscout(&args));
    let queries = first["queries"].as_array().unwrap();
    assert_eq!(queries.len(), 2);
    for q in queries {
        let pool = q["pool"].as_u64().unwrap();
        assert!((80..=260).contains(&pool), "odd pool size {pool}");
        for m in ["average_precision", "ndcg_pct20", "ndcg_at20"] {
            let v = q[m].as_f64().unwrap();
            assert!((0.0..=1.0).contains(&v), "{m} = {v}");
        }
    }
    // A subset is not the CSFCube protocol, and says so.
    assert_eq!(first["aggregation"], "query-mean");
    let all = summary_row(&first, "aggregated");
    assert_eq!(all["queries"], 2);
    // Far above what a random order of these pools scores, far below perfect.
    let map = all["map"].as_f64().unwrap();
    let ndcg = all["ndcg_pct20"].as_f64().unwrap();
    assert!(map > 0.1 && map < 0.95, "MAP {map}");
    assert!(ndcg > 0.2 && ndcg < 0.98, "NDCG%20 {ndcg}");
    // With the query as the only seed, centroid ranks exactly by cosine.
    let methods = first["methods"].as_array().unwrap();
    assert_eq!(methods.len(), 6);
    let centroid = methods.iter().find(|m| m["method"] == "centroid").unwrap();
    assert_eq!(centroid["map"], all["map"]);
    assert_eq!(centroid["ndcg_pct20"], all["ndcg_pct20"]);

    // A second run (as a table, to cover that output too) gives the same
    // figures: embedding and ranking are deterministic.
    let table = String::from_utf8(paperscout(&args[..5]).stdout).unwrap();
    assert!(table.contains("NDCG%20") && table.contains("plain mean"), "{table}");
    let row = table.lines().find(|l| l.starts_with("aggregated")).expect("an aggregated row");
    let want = format!("{:.2} {:>8.2}", 100.0 * map, 100.0 * ndcg);
    assert!(row.contains(&want), "{row:?} does not hold {want:?}");
    for name in ["hybrid", "lexical", "centroid", "decayed-mean", "knn", "logistic"] {
        assert!(table.lines().any(|l| l.starts_with(name)), "no {name} row in {table}");
    }
}

#[test]
fn rated_rows_carry_their_interval_and_each_querys_figures() {
    let dir = csfcube_dir();
    let out = paperscout(&["eval", "csfcube", dir.to_str().unwrap(), "--queries", "3", "--feedback", "0,3", "--json"]);
    let rows: Vec<Value> = String::from_utf8(out.stdout).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(rows.len(), 4, "{rows:?}");
    // Relevant papers (grade 2 or 3) in each judged pool, from the file.
    let text = std::fs::read_to_string(dir.join("csfcube_queries_with_judged_pools.jsonl")).unwrap();
    let relevant: std::collections::HashMap<(String, String), usize> = text
        .lines()
        .map(|l| {
            let q: Value = serde_json::from_str(l).unwrap();
            let n = q["candidates"].as_array().unwrap().iter().filter(|c| c["relevance"].as_u64().unwrap() >= 2).count();
            ((q["query_pid"].as_str().unwrap().to_string(), q["facet"].as_str().unwrap().to_string()), n)
        })
        .collect();
    for row in &rows {
        let (map, without, ci) =
            (row["map"].as_f64().unwrap(), row["map_without"].as_f64().unwrap(), row["map_gain_ci95"].as_f64().unwrap());
        let each = row["queries"].as_array().unwrap();
        if row["n"] == 0 {
            // Nothing rated: the same ranking twice, nothing to be unsure of.
            assert_eq!((map, ci), (without, 0.0), "{row}");
            assert!(each.iter().all(|q| q["ap"] == q["ap_without"] && q["liked"] == 0), "{row}");
        }
        assert_eq!(each.len(), 3, "{row}");
        let mut gains = Vec::new();
        for q in each {
            let liked = q["liked"].as_u64().unwrap() as usize;
            assert!(liked <= row["n"].as_u64().unwrap() as usize, "{q}");
            // A 👍 is a relevant paper taken out of the remainder.
            let key = (q["query"].as_str().unwrap().to_string(), q["facet"].as_str().unwrap().to_string());
            assert_eq!(q["relevant"].as_u64().unwrap() as usize + liked, relevant[&key], "{q}");
            let (ap, ap_without) = (q["ap"].as_f64().unwrap(), q["ap_without"].as_f64().unwrap());
            assert!((0.0..=100.0).contains(&ap) && (0.0..=100.0).contains(&ap_without), "{q}");
            gains.push(ap - ap_without);
        }
        // A subset is a plain mean over its queries: the row's gain is the
        // queries' mean gain, and its interval 1.96 standard errors of it.
        let mean = gains.iter().sum::<f64>() / 3.0;
        let sd = (gains.iter().map(|g| (g - mean) * (g - mean)).sum::<f64>() / 2.0).sqrt();
        assert!((map - without - mean).abs() < 0.02, "{row}: gain {} against the queries' {mean}", map - without);
        assert!((ci - 1.96 * sd / 3f64.sqrt()).abs() < 0.02, "{row}: interval {ci} against {}", 1.96 * sd / 3f64.sqrt());
        // These pools hold more than N, so each query rated N papers.
        let rated = 3 * row["n"].as_u64().unwrap();
        let liked: u64 = each.iter().map(|q| q["liked"].as_u64().unwrap()).sum();
        let share = if rated == 0 { 0.0 } else { liked as f64 / rated as f64 };
        assert!((row["liked_share"].as_f64().unwrap() - share).abs() < 1e-9, "{row}");
    }
}

/// The first query's judged pool, as (pid, grade), from the shared file.
fn first_pool() -> (String, String, Vec<(String, u64)>) {
    let text = std::fs::read_to_string(csfcube_dir().join("csfcube_queries_with_judged_pools.jsonl")).unwrap();
    let q: Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
    let pool = q["candidates"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| (c["pid"].as_str().unwrap().to_string(), c["relevance"].as_u64().unwrap()))
        .collect();
    (q["query_pid"].as_str().unwrap().to_string(), q["facet"].as_str().unwrap().to_string(), pool)
}

fn write_run(dir: &Path, facet: &str, qpid: &str, order: &[(String, u64)]) -> String {
    let ranked: Vec<Value> = order.iter().enumerate().map(|(i, (p, _))| json!([p, i as f64])).collect();
    std::fs::write(dir.join(format!("run-{facet}.json")), json!({ qpid: ranked }).to_string()).unwrap();
    dir.join("run-{facet}.json").to_string_lossy().into_owned()
}

#[test]
fn a_given_run_is_scored_without_a_model() {
    let tmp = tempfile::tempdir().unwrap();
    let (qpid, facet, mut pool) = first_pool();
    let dir = csfcube_dir();

    // Best grades first: every metric is perfect.
    pool.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    let pattern = write_run(tmp.path(), &facet, &qpid, &pool);
    let args = ["eval", "csfcube", dir.to_str().unwrap(), "--queries", "1", "--json", "--ranked", &pattern];
    let perfect = json_of(&paperscout(&args));
    let row = summary_row(&perfect, "aggregated");
    for m in ["map", "ndcg_pct20", "ndcg_at20"] {
        assert!((row[m].as_f64().unwrap() - 1.0).abs() < 1e-9, "{m}: {row}");
    }

    // Worst first: MAP is the average of precisions at the last ranks.
    pool.reverse();
    write_run(tmp.path(), &facet, &qpid, &pool);
    let worst = json_of(&paperscout(&args));
    let n = pool.len();
    let relevant: Vec<usize> = (0..n).filter(|&i| pool[i].1 >= 2).collect();
    let want: f64 = relevant.iter().enumerate().map(|(h, &i)| (h + 1) as f64 / (i + 1) as f64).sum::<f64>() / relevant.len() as f64;
    let got = summary_row(&worst, "aggregated")["map"].as_f64().unwrap();
    assert!((got - want).abs() < 1e-9, "MAP {got}, by hand {want}");

    // A run that leaves out a judged candidate is refused, naming the query.
    pool.pop();
    write_run(tmp.path(), &facet, &qpid, &pool);
    let out = Command::new(BIN).args(args).output().unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains(&qpid));
}

#[test]
fn csfcube_errors_name_the_missing_file() {
    let tmp = tempfile::tempdir().unwrap();
    let out = Command::new(BIN).args(["eval", "csfcube", tmp.path().to_str().unwrap()]).output().unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("csfcube_papers.jsonl"));
}

/// One paper as a line of our corpus JSONL.
fn paper(id: &str, date: &str, authors: &[&str], title: &str, abstract_text: &str) -> String {
    json!({"id": id, "title": title, "abstract": abstract_text, "categories": ["cs.LG"], "date": date, "authors": authors}).to_string()
}

/// Unrelated papers listed every day, each by authors of its own.
const OTHER_TOPICS: [(&str, &str); 14] = [
    (
        "A Survey of Federated Learning Privacy Attacks",
        "We review membership inference and gradient leakage attacks on federated training.",
    ),
    (
        "Efficient Video Transformers for Action Recognition",
        "Token pruning speeds up video transformers on Kinetics with little accuracy loss.",
    ),
    (
        "Compiler Autotuning with Bayesian Optimization",
        "We tune loop tiling and unrolling parameters of GPU kernels with Gaussian processes.",
    ),
    ("Speech Enhancement with Diffusion Models", "A score-based generative model removes background noise from speech recordings."),
    ("Formal Verification of Smart Contracts", "We model Solidity contracts in a proof assistant and prove the absence of reentrancy."),
    ("Robot Grasping from Tactile Feedback", "A gripper with tactile sensors learns to adjust its grasp on slipping objects."),
    ("Sparse Attention for Long Document Summarization", "Block-sparse attention lets an encoder-decoder summarize books of 100k tokens."),
    ("Energy-Aware Scheduling in Data Centers", "Jobs are placed on servers to minimise power draw while meeting deadlines."),
    ("Differentially Private Synthetic Tabular Data", "We generate census-like tables under differential privacy with marginal queries."),
    ("Autonomous Driving Trajectory Prediction", "A transformer forecasts the paths of pedestrians and vehicles at intersections."),
    ("Image Super-Resolution with Implicit Neural Functions", "Continuous image representations upscale photos to arbitrary resolutions."),
    ("Fairness in Credit Scoring Models", "We audit loan approval classifiers for disparate impact across demographic groups."),
    ("Byzantine Fault Tolerant Consensus at Scale", "A pipelined BFT protocol reaches consensus among hundreds of replicas."),
    ("Music Generation with Symbolic Transformers", "A transformer composes piano pieces as sequences of MIDI events."),
];

/// Three authors, each writing on one topic over several days, among the
/// unrelated papers of each day. Returns the JSONL text.
fn history_corpus() -> String {
    let days = ["2025-01-06", "2025-01-07", "2025-01-08", "2025-01-09"];
    let mut lines = Vec::new();
    let mut n = 0;
    let mut id = || {
        n += 1;
        format!("2501.{n:05}")
    };
    let ada = ["Ada Lovelace", "Grace Hopper"];
    let molecules = [
        (
            "Graph Neural Networks for Molecular Property Prediction",
            "Message passing networks predict solubility and toxicity of small molecules from their graphs.",
        ),
        (
            "Equivariant Message Passing for Molecules",
            "An E(3)-equivariant graph network predicts quantum chemical properties of molecules.",
        ),
        (
            "Pretraining Graph Networks on Unlabeled Molecules",
            "Self-supervised pretraining of molecular graph neural networks improves property prediction.",
        ),
        (
            "Molecular Graph Transformers for Drug Discovery",
            "A graph transformer over atoms and bonds ranks drug candidates by predicted binding affinity.",
        ),
    ];
    let qec = [
        (
            "Surface Code Decoding with Neural Networks",
            "A neural decoder corrects errors of the surface code for fault-tolerant quantum computing.",
        ),
        (
            "Logical Error Rates of Quantum LDPC Codes",
            "We simulate quantum low-density parity-check codes and their logical error rates under circuit noise.",
        ),
        (
            "Fast Decoders for Quantum Error Correction",
            "Union-find decoding of surface code syndromes runs in real time for quantum error correction.",
        ),
    ];
    let rl = [
        (
            "Offline Reinforcement Learning with Conservative Q-Functions",
            "Conservative value estimates keep offline reinforcement learning policies close to the data.",
        ),
        (
            "Reward Shaping for Sparse-Reward Reinforcement Learning",
            "Potential-based reward shaping speeds up policy learning in sparse-reward environments.",
        ),
        (
            "Model-Based Offline Reinforcement Learning",
            "A learned dynamics model with uncertainty penalties enables offline policy optimisation.",
        ),
    ];
    for (d, day) in days.iter().enumerate() {
        for (t, (title, abs)) in OTHER_TOPICS.iter().enumerate() {
            let a1 = format!("Other Author {d}-{t}");
            lines.push(paper(&id(), day, &[&a1], title, abs));
        }
        // Ada writes every day; the spacing of her name varies.
        let name = if d == 1 { "  Ada  Lovelace " } else { ada[0] };
        lines.push(paper(&id(), day, &[name, ada[1]], molecules[d].0, molecules[d].1));
        // Alan writes on days 0, 2, 3; Barbara on 1, 2, 3.
        if d != 1 {
            let k = if d == 0 { 0 } else { d - 1 };
            lines.push(paper(&id(), day, &["Alan Turing"], qec[k].0, qec[k].1));
        }
        if d != 0 {
            lines.push(paper(&id(), day, &["Barbara Liskov"], rl[d - 1].0, rl[d - 1].1));
        }
    }
    lines.join("\n") + "\n"
}

#[test]
fn history_ranks_a_consistent_authors_next_paper_high() {
    let tmp = tempfile::tempdir().unwrap();
    let lib = tmp.path().join("lib");
    let corpus = tmp.path().join("corpus.jsonl");
    std::fs::write(&corpus, history_corpus()).unwrap();
    let lib_arg = lib.to_str().unwrap();
    paperscout(&["ingest", corpus.to_str().unwrap(), "--library", lib_arg]);

    let args = ["eval", "history", "--library", lib_arg, "--cases", "50", "--seed", "3", "--json"];
    let doc = json_of(&paperscout(&args));
    // Ada, Alan and Barbara have papers on three or more days, Grace too
    // (she co-writes with Ada); the other authors on one day each.
    assert_eq!(doc["eligible_authors"], 4, "{doc}");
    assert_eq!(doc["cases"], 4);
    // Everyone's latest day is the last one: 14 others, Ada, Alan, Barbara.
    assert_eq!(doc["median_candidates"], 17);
    let random_mrr = doc["random"]["mrr"].as_f64().unwrap();
    for m in doc["methods"].as_array().unwrap() {
        let mrr = m["mrr"].as_f64().unwrap();
        assert!(mrr >= 0.75, "{}: MRR {mrr}", m["method"]);
        assert!(mrr > 3.0 * random_mrr, "{}: MRR {mrr} vs random {random_mrr}", m["method"]);
        assert!((m["recall_at_10"].as_f64().unwrap() - 1.0).abs() < 1e-9, "{m}");
    }
    assert_eq!(doc["methods"].as_array().unwrap().len(), 6);

    // The signals file: a line a case, the hybrid's signals in the cold
    // mix's order, candidates in row-id order, and the profile's number of
    // liked seeds. Mixed by the cold weights for that many seeds on the
    // day's z-scores, ties to the earlier candidate (as scripts/fit-weights
    // does), they give the hybrid's own MRR.
    let signals = tmp.path().join("signals.jsonl");
    paperscout(&[&args[..8], &["--signals", signals.to_str().unwrap()]].concat());
    let text = std::fs::read_to_string(&signals).unwrap();
    let parts: Vec<&paperscout::rank::Part> = paperscout::rank::HYBRID.iter().map(|r| r.part).collect();
    let names: Vec<String> = parts.iter().map(|p| serde_json::to_string(&paperscout::rank::SignalId(p)).unwrap()).collect();
    assert_eq!(names, ["\"nearest\"", "\"centroid\"", "\"words\"", "\"fields\""]);
    let mut rr = Vec::new();
    for line in text.lines() {
        let at: Vec<usize> = names.iter().map(|n| line.find(&format!("{n}:")).unwrap_or_else(|| panic!("{n} in {line}"))).collect();
        assert!(at.windows(2).all(|w| w[0] < w[1]), "signals out of order: {line}");
        let case: Value = serde_json::from_str(line).unwrap();
        let z: Vec<Vec<f64>> = names
            .iter()
            .map(|n| {
                let x: Vec<f64> = case[n.trim_matches('"')].as_array().unwrap().iter().map(|v| v.as_f64().unwrap()).collect();
                let mean = x.iter().sum::<f64>() / x.len() as f64;
                let sd = (x.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / x.len() as f64).sqrt();
                x.iter().map(|v| if sd <= 1e-6 { 0.0 } else { (v - mean) / sd }).collect()
            })
            .collect();
        // The cold mix of a profile of this many liked seeds.
        let liked = case["liked"].as_u64().unwrap() as usize;
        assert!(liked >= 1, "{line}");
        let w = paperscout::rank::cold(&parts, liked);
        let score: Vec<f64> = (0..z[0].len()).map(|i| w.iter().zip(&z).map(|(w, z)| f64::from(*w) * z[i]).sum()).collect();
        let best = case["hidden"]
            .as_array()
            .unwrap()
            .iter()
            .map(|h| {
                let h = h.as_u64().unwrap() as usize;
                1 + (0..score.len()).filter(|&j| score[j] > score[h] || (score[j] == score[h] && j < h)).count()
            })
            .min()
            .unwrap();
        rr.push(1.0 / best as f64);
    }
    assert_eq!(rr.len(), 4);
    // Alan and Barbara have two earlier papers each, Ada and Grace three.
    let mut liked: Vec<u64> = text.lines().map(|l| serde_json::from_str::<Value>(l).unwrap()["liked"].as_u64().unwrap()).collect();
    liked.sort_unstable();
    assert_eq!(liked, [2, 2, 3, 3]);
    let hybrid = doc["methods"].as_array().unwrap().iter().find(|m| m["method"] == "hybrid").unwrap();
    assert!((rr.iter().sum::<f64>() / 4.0 - hybrid["mrr"].as_f64().unwrap()).abs() < 1e-9, "{rr:?} against {hybrid}");

    // --max-seeds 1: each profile is the author's latest earlier paper
    // alone, and the signals file says one liked seed for every case.
    let one = tmp.path().join("one.jsonl");
    let single = json_of(&paperscout(&[&args[..], &["--max-seeds", "1", "--signals", one.to_str().unwrap()]].concat()));
    assert_eq!((single["cases"].as_u64(), single["median_seeds"].as_u64()), (Some(4), Some(1)), "{single}");
    assert_eq!((single["max_seeds"].as_u64(), doc.get("max_seeds")), (Some(1), None), "the report says its limit");
    assert!(doc["median_seeds"].as_u64().unwrap() >= 2, "{doc}");
    let liked: Vec<u64> = std::fs::read_to_string(&one)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap()["liked"].as_u64().unwrap())
        .collect();
    assert_eq!(liked, [1, 1, 1, 1]);

    // Same seed, same library: same figures; the table has every method.
    assert_eq!(doc, json_of(&paperscout(&args)));
    let table = String::from_utf8(paperscout(&args[..8]).stdout).unwrap();
    for name in ["hybrid", "lexical", "centroid", "decayed-mean", "knn", "logistic", "random"] {
        assert!(table.contains(name), "{table}");
    }
}

#[test]
fn history_on_an_empty_history_says_why() {
    let tmp = tempfile::tempdir().unwrap();
    let lib = tmp.path().join("lib");
    let corpus = tmp.path().join("one.jsonl");
    std::fs::write(&corpus, paper("2501.00001", "2025-01-06", &["Solo Author"], "A title", "An abstract.") + "\n").unwrap();
    paperscout(&["ingest", corpus.to_str().unwrap(), "--library", lib.to_str().unwrap()]);
    let out = Command::new(BIN).args(["eval", "history", "--library", lib.to_str().unwrap()]).output().unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("no author"), "{}", String::from_utf8_lossy(&out.stderr));
}
