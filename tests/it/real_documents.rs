//! Reads every real arXiv document in `../shared/real-documents/` and checks
//! the papers field by field against an independent reading of the raw files
//! (see that folder's SOURCES.md). Expectations were written from the raw
//! XML/HTML/text, never from paperscout's output.
//!
//! Conventions of the expectation tables below:
//! - `version: None` / `listing_date: None` mean "not asserted" (ambiguous in
//!   the document); `Some(x)` asserts `x`.
//! - An affiliation written `"?X"` accepts either `""` or `"X"`: the document
//!   gives `X` after a later author only, and arXiv's own author parser
//!   propagates such an affiliation back to preceding authors without one
//!   while a strictly local reading leaves them empty.
//! - `comments: Some("<skip>")` means the comments are not asserted.

use paperscout::listing::{parse_path, Parsed};
use paperscout::paper::{ArxivId, Kind, Paper};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use unicode_normalization::{is_nfc, UnicodeNormalization};

fn docs_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/real-documents")
}

fn parse(file: &str) -> Parsed {
    let path = docs_dir().join(file);
    match parse_path(&path) {
        Ok(p) => p,
        Err(e) => panic!("{file}: parse_path failed: {e}"),
    }
}

#[allow(dead_code)]
enum Abs {
    Full(&'static str),
    Ends(&'static str, &'static str),
    Empty,
}

struct E {
    id: &'static str,
    version: Option<Option<u32>>,
    kind: Kind,
    title: &'static str,
    authors: &'static [&'static str],
    affiliations: &'static [&'static str],
    abs: Abs,
    subjects: &'static [&'static str],
    comments: Option<&'static str>,
    journal_ref: Option<&'static str>,
    listing_date: Option<Option<&'static str>>,
}

fn find<'a>(file: &str, p: &'a Parsed, id: &str) -> &'a Paper {
    let found: Vec<&Paper> = p.papers.iter().filter(|x| x.id == id).collect();
    assert!(!found.is_empty(), "{file}: no paper with id {id}");
    assert_eq!(found.len(), 1, "{file}: id {id} read {} times", found.len());
    found[0]
}

fn check(file: &str, p: &Parsed, e: &E) {
    let x = find(file, p, e.id);
    let id = e.id;
    if let Some(v) = e.version {
        assert_eq!(x.version, v, "{file} {id}: version");
    }
    assert_eq!(x.kind, e.kind, "{file} {id}: kind");
    assert_eq!(x.title, e.title, "{file} {id}: title");
    assert_eq!(x.authors, e.authors, "{file} {id}: authors");
    if e.affiliations.is_empty() {
        assert!(x.affiliations.is_empty(), "{file} {id}: affiliations should be empty, got {:?}", x.affiliations);
    } else {
        assert_eq!(x.affiliations.len(), e.affiliations.len(), "{file} {id}: affiliations length: {:?}", x.affiliations);
        for (i, (got, want)) in x.affiliations.iter().zip(e.affiliations).enumerate() {
            if let Some(alt) = want.strip_prefix('?') {
                assert!(got.is_empty() || got == alt, "{file} {id}: affiliation {i} ({}) is {got:?}, want \"\" or {alt:?}", e.authors[i]);
            } else {
                assert_eq!(got, want, "{file} {id}: affiliation {i} ({})", e.authors[i]);
            }
        }
    }
    match e.abs {
        Abs::Full(a) => assert_eq!(x.abstract_text, a, "{file} {id}: abstract"),
        Abs::Ends(s, t) => {
            assert!(x.abstract_text.starts_with(s), "{file} {id}: abstract should start with {s:?}, is {:?}", x.abstract_text);
            assert!(x.abstract_text.ends_with(t), "{file} {id}: abstract should end with {t:?}, is {:?}", x.abstract_text);
        }
        Abs::Empty => assert_eq!(x.abstract_text, "", "{file} {id}: abstract should be empty"),
    }
    if let Some(primary) = e.subjects.first().and_then(|s| s.strip_prefix('~')) {
        // RSS 1.0: the item shows only its primary in brackets; the feed's
        // own category may or may not be added after it.
        let feed = e.subjects[1];
        assert_eq!(x.primary.as_deref(), Some(primary), "{file} {id}: primary");
        assert!(
            x.subjects == [primary] || x.subjects == [primary, feed],
            "{file} {id}: subjects {:?}, want [{primary}] or [{primary}, {feed}]",
            x.subjects
        );
    } else {
        assert_eq!(x.subjects, e.subjects, "{file} {id}: subjects");
        assert_eq!(x.primary.as_deref(), e.subjects.first().copied(), "{file} {id}: primary");
    }
    if e.comments != Some("<skip>") {
        assert_eq!(x.comments.as_deref(), e.comments, "{file} {id}: comments");
    }
    assert_eq!(x.journal_ref.as_deref(), e.journal_ref, "{file} {id}: journal_ref");
    if let Some(d) = e.listing_date {
        assert_eq!(x.listing_date.as_deref(), d, "{file} {id}: listing_date");
    }
}

fn check_all(file: &str, p: &Parsed, es: &[E]) {
    for e in es {
        check(file, p, e);
    }
}

fn counts(file: &str, p: &Parsed, total: usize, per_kind: &[(Kind, usize)]) {
    assert_eq!(p.papers.len(), total, "{file}: number of papers");
    for (k, n) in per_kind {
        let got = p.papers.iter().filter(|x| x.kind == *k).count();
        assert_eq!(got, *n, "{file}: number of {k} papers");
    }
}

fn clean(file: &str, id: &str, what: &str, s: &str) {
    assert_eq!(s, s.trim(), "{file} {id}: {what} has leading/trailing whitespace: {s:?}");
    assert!(!s.contains("  "), "{file} {id}: {what} has doubled spaces: {s:?}");
    // Abstracts keep their paragraphs, one line each; nothing else breaks.
    let breaks: &[char] = if what == "abstract" { &['\r', '\t'] } else { &['\n', '\r', '\t'] };
    assert!(!s.contains(breaks), "{file} {id}: {what} has a line break or tab: {s:?}");
    assert!(s.lines().all(|l| !l.is_empty() && l == l.trim()), "{file} {id}: {what} has an empty or untrimmed paragraph: {s:?}");
    assert!(is_nfc(s), "{file} {id}: {what} is not NFC: {s:?}");
}

/// What every paper of every document must satisfy.
fn invariants(file: &str, p: &Parsed) {
    let mut seen = HashMap::new();
    for x in &p.papers {
        let id = x.id.as_str();
        let parsed = ArxivId::parse(id).unwrap_or_else(|| panic!("{file}: id {id:?} does not parse"));
        assert_eq!(parsed.id, x.id, "{file}: id {id:?} reads back differently");
        assert_eq!(parsed.version, None, "{file}: id {id:?} keeps its version");
        *seen.entry(id).or_insert(0) += 1;
        assert!(!x.title.is_empty(), "{file} {id}: empty title");
        clean(file, id, "title", &x.title);
        clean(file, id, "abstract", &x.abstract_text);
        if let Some(c) = &x.comments {
            assert!(!c.is_empty(), "{file} {id}: comments Some(\"\")");
            clean(file, id, "comments", c);
        }
        if let Some(j) = &x.journal_ref {
            assert!(!j.is_empty(), "{file} {id}: journal_ref Some(\"\")");
            clean(file, id, "journal_ref", j);
        }
        assert!(!x.title.starts_with("Title:"), "{file} {id}: title keeps its label");
        assert!(!x.abstract_text.starts_with("Abstract:"), "{file} {id}: abstract keeps its label");
        for a in &x.authors {
            clean(file, id, "author", a);
            assert!(!a.is_empty(), "{file} {id}: empty author");
            // A nickname stays ("Chun-Fu (Richard) Chen"); an affiliation
            // after the name does not.
            assert!(!a.contains(['\\', '{', '}']) && !a.ends_with(')'), "{file} {id}: author {a:?} keeps TeX or an affiliation");
            assert!(
                !a.split_whitespace().any(|t| t.chars().all(|c| c.is_ascii_digit())),
                "{file} {id}: author {a:?} has a digit-only token"
            );
            assert!(!a.starts_with("and ") && !a.starts_with("et al"), "{file} {id}: author {a:?}");
            assert_eq!(a.nfc().collect::<String>(), *a, "{file} {id}: author {a:?} not NFC");
        }
        if !x.affiliations.is_empty() {
            assert_eq!(x.affiliations.len(), x.authors.len(), "{file} {id}: affiliations not parallel to authors");
            assert!(x.affiliations.iter().any(|s| !s.is_empty()), "{file} {id}: affiliations all empty but not omitted");
            for s in &x.affiliations {
                if !s.is_empty() {
                    clean(file, id, "affiliation", s);
                    assert!(!s.contains('\\'), "{file} {id}: affiliation {s:?} keeps TeX");
                }
            }
        }
        assert!(!x.subjects.is_empty(), "{file} {id}: no subjects");
        for s in &x.subjects {
            assert!(!s.is_empty() && !s.contains(char::is_whitespace) && !s.contains(['(', ')', ',', ';']), "{file} {id}: subject {s:?}");
        }
        let mut dedup = x.subjects.clone();
        dedup.sort();
        dedup.dedup();
        assert_eq!(dedup.len(), x.subjects.len(), "{file} {id}: duplicate subjects {:?}", x.subjects);
        assert_eq!(x.primary.as_ref(), x.subjects.first(), "{file} {id}: primary is not subjects[0]");
        if let Some(d) = &x.listing_date {
            let b = d.as_bytes();
            assert!(
                b.len() == 10 && b[4] == b'-' && b[7] == b'-' && d.chars().filter(|c| c.is_ascii_digit()).count() == 8,
                "{file} {id}: listing_date {d:?} not ISO"
            );
        }
    }
    for (id, n) in seen {
        assert_eq!(n, 1, "{file}: id {id} appears {n} times");
    }
}

/// Every paper of a listing carries the listing's day.
fn all_dated(file: &str, p: &Parsed, date: &str) {
    for x in &p.papers {
        assert_eq!(x.listing_date.as_deref(), Some(date), "{file} {}: listing_date", x.id);
    }
}

/// A mailing saved without its e-mail header is dated by its "received from
/// ... to ..." window: announced that evening, listed the next day (Monday
/// after a Friday), the day the e-mail's own `Date:` would have said.
fn mailing_dates(file: &str, p: &Parsed, window_end: &str, listing_day: &str) {
    assert_ne!(window_end, listing_day);
    all_dated(file, p, listing_day);
}

fn run(file: &str, total: usize, per_kind: &[(Kind, usize)], es: &[E]) -> Parsed {
    let p = parse(file);
    counts(file, &p, total, per_kind);
    invariants(file, &p);
    check_all(file, &p, es);
    p
}

// ---------------------------------------------------------------- RSS 1.0 / RDF

const RDF_2018: &[E] = &[
    E {
        id: "1805.08875",
        version: Some(Some(1)),
        kind: Kind::New,
        title: "Measurement of Transverse Single Spin Asymmetries",
        authors: &["Christopher Dilks"],
        affiliations: &["STAR Collaboration"],
        abs: Abs::Full("In 2015 the first collisions between polarized protons and nuclei occurred at the Relativistic Heavy Ion Collider (RHIC), at a center-of-mass energy of $\\sqrt{s_{NN}}=200$ GeV. Comparisons between spin asymmetries and cross-sections in $p+p$ production to those in $p+A$ production provide insight into nuclear structure, namely nuclear modification factors, nuclear dependence of spin asymmetries, and comparison to models with saturation effects. The transverse single-spin asymmetry, $A_{N}$, has been measured in $\\pi^{0}$ production in the STAR Forward Meson Spectrometer (FMS), an electromagnetic calorimeter covering a forward psuedorapidity range of $2.6<\\eta<4$. Within this kinematic range, STAR has previously reported the persistence of large $\\pi^0$ asymmetries with unexpected dependences on $p_T$ and event topology in $p+p$ collisions. This talk will compare these dependences to those in $p+A$ production."),
        subjects: &["hep-ex"],
        comments: None,
        journal_ref: None,
        listing_date: Some(Some("2018-05-23")),
    },
    E {
        id: "1805.09166",
        version: Some(Some(1)),
        kind: Kind::Cross,
        title: "Recent Top quark results from the Tevatron",
        authors: &["Boris Tuchming"],
        affiliations: &[],
        abs: Abs::Full("We present recent measurements"),
        subjects: &["hep-ex"],
        comments: None,
        journal_ref: None,
        listing_date: Some(Some("2018-05-23")),
    },
    E {
        id: "1805.06430",
        version: Some(Some(2)),
        kind: Kind::Replaced,
        title: "New Perspective on Hybrid Mesons",
        authors: &["Shu-Sheng Xu", "Zhu-Fang Cui", "Lei Chang", "Joannis Papavassiliou", "Craig D. Roberts", "Hong-Shi Zong"],
        affiliations: &[],
        abs: Abs::Full("It is thought that strong interactions within the Standard Model can generate bound-states in which non-Abelian gauge-bosons play a dual role, serving both as force and matter fields."),
        subjects: &["~nucl-th", "hep-ex"],
        comments: None,
        journal_ref: None,
        listing_date: Some(Some("2018-05-23")),
    },
];

#[test]
fn rss_rdf_hep_ex_2018() {
    let f = "rss-rdf-hep-ex-2018-05-23-trimmed.xml";
    let p = run(f, 3, &[(Kind::New, 1), (Kind::Cross, 1), (Kind::Replaced, 1)], RDF_2018);
    all_dated(f, &p, "2018-05-23");
}

const RDF_2021: &[E] = &[
    E {
        id: "2107.03419",
        version: Some(Some(1)),
        kind: Kind::New,
        title: "Observation of excited $\\Omega_c^0$ baryons in $\\Omega_b^- \\to \\Xi_c^+ K^-\\pi^-$ decays",
        authors: &["LHCb collaboration", "R. Aaij"],
        affiliations: &[],
        abs: Abs::Full("desc1"),
        subjects: &["hep-ex"],
        comments: None,
        journal_ref: None,
        listing_date: Some(Some("2021-07-08")),
    },
    E {
        id: "2106.00550",
        version: Some(Some(2)),
        kind: Kind::Cross,
        title: "Potential applications of modular representation theory to quantum mechanics",
        authors: &["Robert A. Wilson"],
        affiliations: &[],
        abs: Abs::Full("desc2"),
        subjects: &["~math.GR", "hep-ex"],
        comments: None,
        journal_ref: None,
        listing_date: Some(Some("2021-07-08")),
    },
    E {
        id: "2007.03939",
        version: Some(Some(2)),
        kind: Kind::Replaced,
        title: "Fireball tomography from bottomonia elliptic flow in relativistic heavy-ion collisions",
        authors: &["Partha Pratim Bhaduri", "Mubarak Alqahtani", "Nicolas Borghini", "Amaresh Jaiswal", "Michael Strickland"],
        affiliations: &[],
        abs: Abs::Full("desc3"),
        subjects: &["~hep-ph", "hep-ex"],
        comments: None,
        journal_ref: None,
        listing_date: Some(Some("2021-07-08")),
    },
];

#[test]
fn rss_rdf_hep_ex_2021() {
    let f = "rss-rdf-hep-ex-2021-07-08-edited.xml";
    let p = run(f, 3, &[(Kind::New, 1), (Kind::Cross, 1), (Kind::Replaced, 1)], RDF_2021);
    all_dated(f, &p, "2021-07-08");
}

// ---------------------------------------------------------------- rss.arxiv.org Atom (2025)

const ATOM_CS_AI: &[E] = &[
    E {
        id: "2508.13167",
        version: Some(Some(1)),
        kind: Kind::New,
        title: "Chain-of-Agents: End-to-End Agent Foundation Models via Multi-Agent Distillation and Agentic RL",
        authors: &["Weizhen Li", "Jianbo Lin", "Zhuosong Jiang", "Jingyi Cao", "Xinpeng Liu", "Jiayu Zhang", "Zhenqiang Huang", "Qianben Chen", "Weichen Sun", "Qiexiang Wang", "Hongxuan Lu", "Tianrui Qin", "Chenghao Zhu", "Yi Yao", "Shuying Fan", "Xiaowan Li", "Tiannan Wang", "Pai Liu", "King Zhu", "He Zhu", "Dingfeng Shi", "Piaohong Wang", "Yeyi Guan", "Xiangru Tang", "Minghao Liu", "Yuchen Eleanor Jiang", "Jian Yang", "Jiaheng Liu", "Ge Zhang", "Wangchunshu Zhou"],
        affiliations: &[],
        abs: Abs::Full("Recent advances in large language models (LLMs) and multi-agent systems have demonstrated remarkable capabilities in complex problem-solving tasks such as deep research, vibe coding, and mathematical reasoning. However, most existing multi-agent systems are built upon manual prompt/workflow engineering with sophisticated agent frameworks, making them computationally inefficient, less capable, and can not benefit from data-centric learning. In this work, we introduce Chain-of-Agents (CoA), a novel paradigm of LLM reasoning that enables native end-to-end complex problem-solving in the same way as a multi-agent system (i.e., multi-turn problem solving with multiple tools and multiple agents) within one model. In chain-of-agents problem-solving, the model dynamically activates different tool agents and role-playing agents to simulate multi-agent collaboration in an end-to-end fashion. To elicit end-to-end chain-of-agents problem-solving abilities in LLMs, we introduce a multi-agent distillation framework to distill state-of-the-art multi-agent systems into chain-of-agents trajectories for agentic supervised fine-tuning. We then use agentic reinforcement learning on verifiable agentic tasks to further improve the models' capabilities on chain-of-agents problem solving. We call the resulting models Agent Foundation Models (AFMs). Our empirical studies demonstrate that AFM establishes new state-of-the-art performance across diverse benchmarks in both web agent and code agent settings. We make the entire research, including the model weights, code for training and evaluation, and the training data, fully open-sourced, which offers a solid starting point for future research on agent models and agentic RL."),
        subjects: &["cs.AI", "cs.CL"],
        comments: None,
        journal_ref: None,
        listing_date: Some(Some("2025-08-20")),
    },
    E {
        id: "2508.13177",
        version: Some(Some(1)),
        kind: Kind::New,
        title: "A Hardware-oriented Approach for Efficient Active Inference Computation and Deployment",
        authors: &["Nikola Pižurica", "Nikola Milović", "Igor Jovančević", "Conor Heins", "Miguel de Prado"],
        affiliations: &[],
        abs: Abs::Ends("Active Inference (AIF) offers a robust framework for decisio", "fficient AIF agents for real-time and embedded applications."),
        subjects: &["cs.AI"],
        comments: None,
        journal_ref: None,
        listing_date: Some(Some("2025-08-20")),
    },
    E {
        id: "2508.13675",
        version: Some(Some(1)),
        kind: Kind::New,
        title: "Knowledge Graph Completion for Action Prediction on Situational Graphs -- A Case Study on Household Tasks",
        authors: &["Mariam Arustashvili", "Jörg Deigmöller", "Heiko Paulheim"],
        affiliations: &[],
        abs: Abs::Ends("Knowledge Graphs are used for various purposes, including bu", "for the job, and unable to outperform even simple baselines."),
        subjects: &["cs.AI"],
        comments: None,
        journal_ref: None,
        listing_date: Some(Some("2025-08-20")),
    },
    E {
        id: "2508.13811",
        version: Some(Some(1)),
        kind: Kind::New,
        title: "Quantifier Instantiations: To Mimic or To Revolt?",
        authors: &["Jan Jakubův", "Mikoláš Janota"],
        affiliations: &[],
        abs: Abs::Ends("Quantified formulas pose a significant challenge for Satisfi", "alance exploitation and exploration in quantifier reasoning."),
        subjects: &["cs.AI", "cs.LO"],
        comments: None,
        journal_ref: None,
        listing_date: Some(Some("2025-08-20")),
    },
    E {
        id: "2508.13876",
        version: Some(Some(1)),
        kind: Kind::New,
        title: "Improved Generalized Planning with LLMs through Strategy Refinement and Reflection",
        authors: &["Katharina Stein", "Nils Hodel", "Daniel Fišer", "Jörg Hoffmann", "Michael Katz", "Alexander Koller"],
        affiliations: &[],
        abs: Abs::Ends("LLMs have recently been used to generate Python programs rep", "hat can be generated with the respective instance generator."),
        subjects: &["cs.AI", "cs.CL"],
        comments: None,
        journal_ref: None,
        listing_date: Some(Some("2025-08-20")),
    },
    E {
        id: "2508.14040",
        version: Some(Some(1)),
        kind: Kind::New,
        title: "ComputerRL: Scaling End-to-End Online Reinforcement Learning for Computer Use Agents",
        authors: &["Hanyu Lai", "Xiao Liu", "Yanxiao Zhao", "Han Xu", "Hanchen Zhang", "Bohao Jing", "Yanyu Ren", "Shuntian Yao", "Yuxiao Dong", "Jie Tang"],
        affiliations: &[],
        abs: Abs::Ends("We introduce ComputerRL, a framework for autonomous desktop ", "ramework are adopted in building AutoGLM (Liu et al., 2024a)"),
        subjects: &["cs.AI"],
        comments: None,
        journal_ref: None,
        listing_date: Some(Some("2025-08-20")),
    },
    E {
        id: "2508.00875",
        version: Some(Some(1)),
        kind: Kind::Cross,
        title: "Preliminary suggestions for rigorous GPAI model evaluations",
        authors: &["Patricia Paskov", "Michael J. Byun", "Kevin Wei", "Toby Webster"],
        affiliations: &[],
        abs: Abs::Ends("This document presents a preliminary compilation of general-", "demic researchers developing or conducting GPAI evaluations."),
        subjects: &["cs.CY", "cs.AI"],
        comments: None,
        journal_ref: None,
        listing_date: Some(Some("2025-08-20")),
    },
    E {
        id: "2508.13197",
        version: Some(Some(1)),
        kind: Kind::Cross,
        title: "The Rise of Generative AI for Metal-Organic Framework Design and Synthesis",
        authors: &["Chenru Duan", "Aditya Nandy", "Shyam Chand Pal", "Xin Yang", "Wenhao Gao", "Yuanqi Du", "Hendrik Kraß", "Yeonghun Kang", "Varinia Bernales", "Zuyang Ye", "Tristan Pyle", "Ray Yang", "Zeqi Gu", "Philippe Schwaller", "Shengqian Ma", "Shijing Sun", "Alán Aspuru-Guzik", "Seyed Mohamad Moosavi", "Robert Wexler", "Zhiling Zheng"],
        affiliations: &[],
        abs: Abs::Ends("Advances in generative artificial intelligence are transform", "y, and the need for further integration of domain knowledge."),
        subjects: &["cond-mat.mtrl-sci", "cs.AI"],
        comments: None,
        journal_ref: None,
        listing_date: Some(Some("2025-08-20")),
    },
    E {
        id: "2508.13247",
        version: Some(Some(1)),
        kind: Kind::Cross,
        title: "Goal-Directedness is in the Eye of the Beholder",
        authors: &["Nina Rajcic", "Anders Søgaard"],
        affiliations: &[],
        abs: Abs::Ends("Our ability to predict the behavior of complex agents turns ", "ess as an emergent property of dynamic, multi-agent systems."),
        subjects: &["cs.MA", "cs.AI"],
        comments: None,
        journal_ref: None,
        listing_date: Some(Some("2025-08-20")),
    },
    E {
        id: "2508.13288",
        version: Some(Some(1)),
        kind: Kind::Cross,
        title: "Hierarchical Conformal Classification",
        authors: &["Floris den Hengst", "Inès Blin", "Majid Mohammadi", "Syed Ihtesham Hussain Shah", "Taraneh Younesian"],
        affiliations: &[],
        abs: Abs::Ends("Conformal prediction (CP) is a powerful framework for quanti", "significantly prefer hierarchical over flat prediction sets."),
        subjects: &["cs.LG", "cs.AI", "stat.ML"],
        comments: None,
        journal_ref: None,
        listing_date: Some(Some("2025-08-20")),
    },
    E {
        id: "2508.13355",
        version: Some(Some(1)),
        kind: Kind::Cross,
        title: "Counterfactual Probabilistic Diffusion with Expert Models",
        authors: &["Wenhao Mu", "Zhi Cao", "Mehmed Uludag", "Alexander Rodríguez"],
        affiliations: &[],
        abs: Abs::Ends("Predicting counterfactual distributions in complex dynamical", "elines in both point prediction and distributional accuracy."),
        subjects: &["cs.LG", "cs.AI", "stat.ME"],
        comments: None,
        journal_ref: None,
        listing_date: Some(Some("2025-08-20")),
    },
    E {
        id: "2508.13429",
        version: Some(Some(1)),
        kind: Kind::Cross,
        title: "AlphaX: An AI-Based Value Investing Strategy for the Brazilian Stock Market",
        authors: &["Paulo André Lima de Castro"],
        affiliations: &[],
        abs: Abs::Ends("Autonomous trading strategies have been a subject of researc", "mprehensive AI-based Value Investing framework in the future"),
        subjects: &["q-fin.CP", "cs.AI"],
        comments: None,
        journal_ref: None,
        listing_date: Some(Some("2025-08-20")),
    },
    E {
        id: "2508.13434",
        version: Some(Some(1)),
        kind: Kind::Cross,
        title: "EventTSF: Event-Aware Non-Stationary Time Series Forecasting",
        authors: &["Yunfeng Ge", "Ming Jin", "Yiji Zhao", "Hongyan Li", "Bo Du", "Chang Xu", "Shirui Pan"],
        affiliations: &[],
        abs: Abs::Full("Time series forecasting plays a vital role in critical domains like energy and transportation, where non-stationary dynamics are deeply intertwined with events in other modalities such as texts. However, incorporating natural language-based external events to improve non-stationary forecasting remains largely unexplored, as most approaches still rely on a single modality, resulting in limited contextual knowledge and model underperformance. Enabling fine-grained multimodal interactions between temporal and textual data is challenged by three fundamental issues: (1) the difficulty of fine-grained synchronization between time-varying discrete textual events and continuous time series; (2) the inherent temporal uncertainty introduced by textual semantics; and (3) the misalignment between textual event embeddings and multi-resolution temporal patterns. In this work, we address these challenges by introducing event-aware non-stationary time series forecasting (EventTSF), an autoregressive generation framework that integrates historical time series with textual events to make subsequent forecasts. Specifically, EventTSF uses autoregressive diffusion with flow matching at each step to capture nuanced temporal-event interactions. To handle event-induced uncertainty, flow matching timesteps are adaptively controlled according to event semantic signals. The underlying denoiser employs a multimodal U-shaped diffusion transformer that efficiently fuses temporal and textual modalities across different resolutions. Extensive experiments on 8 synthetic and real-world datasets show that EventTSF outperforms 12 baselines across diverse event-aware non-stationary time series forecasting scenarios, achieving substantial improvements of 10.7% higher forecasting accuracy and $1.13\\times$ faster training efficiency."),
        subjects: &["cs.LG", "cs.AI"],
        comments: None,
        journal_ref: None,
        listing_date: Some(Some("2025-08-20")),
    },
];

#[test]
fn rss_atom_cs_ai_2025_closed() {
    let f = "derived-rss-atom-feed-cs.AI-2025-08-20-closed.xml";
    let p = run(f, 86, &[(Kind::New, 41), (Kind::Cross, 45), (Kind::Replaced, 0)], ATOM_CS_AI);
    all_dated(f, &p, "2025-08-20");
}

/// The original stops inside entry 87 (2508.13435): the 86 complete entries
/// are read exactly as from the closed copy, and a warning names the cut one.
#[test]
fn rss_atom_cs_ai_2025_cut() {
    let f = "rss-atom-feed-cs.AI-2025-08-20.xml";
    let p = run(f, 86, &[(Kind::New, 41), (Kind::Cross, 45), (Kind::Replaced, 0)], ATOM_CS_AI);
    all_dated(f, &p, "2025-08-20");
    assert!(p.papers.iter().all(|x| x.id != "2508.13435"), "{f}: the cut entry 2508.13435 was read");
    assert!(
        p.warnings.iter().any(|w| {
            let w = w.to_lowercase();
            ["2508.13435", "87", "truncat", "incomplete", "unexpected end", "unclosed", "unterminated", "cut"].iter().any(|k| w.contains(k))
        }),
        "{f}: no warning about the cut entry; warnings: {:?}",
        p.warnings
    );
    let closed = parse("derived-rss-atom-feed-cs.AI-2025-08-20-closed.xml");
    for (a, b) in p.papers.iter().zip(&closed.papers) {
        let mut b = b.clone();
        b.source = a.source.clone();
        assert_eq!(*a, b, "{f} {}: differs from the closed copy", a.id);
    }
}

// ---------------------------------------------------------------- rss.arxiv.org RSS 2.0 (2026)

const RSS2_CS_AI: &[E] = &[
    E {
        id: "2604.21935",
        version: Some(Some(1)),
        kind: Kind::New,
        title: "Math Takes Two: A test for emergent mathematical reasoning in communication",
        authors: &["Michael Cooper", "Samuel Cooper"],
        affiliations: &[],
        abs: Abs::Full("Although language models demonstrate remarkable proficiency on mathematical benchmarks, it remains unclear whether this reflects true mathematical reasoning or statistical pattern matching over learning formal syntax. Most existing evaluations rely on symbolic problems grounded in established mathematical conventions, limiting insight into the models' ability to construct abstract concepts from first principles. In this work, we propose Math Takes Two, a new benchmark designed to assess the emergence of mathematical reasoning through communication. Motivated by the hypothesis that mathematical cognition in humans co-evolved with the need for precise communication, our benchmark tests whether two agents, without prior mathematical knowledge, can develop a shared symbolic protocol to solve a visually grounded task where the use of a numerical system facilitates extrapolation. Unlike many current datasets, our benchmark eschews predefined mathematical language, instead requiring agents to discover latent structure and representations from scratch. Math Takes Two thus provides a novel lens through which to develop and evaluate models with emergent numerical reasoning capabilities."),
        subjects: &["cs.AI", "cs.LG"],
        comments: None,
        journal_ref: None,
        listing_date: Some(Some("2026-04-27")),
    },
    E {
        id: "2604.21936",
        version: Some(Some(1)),
        kind: Kind::New,
        title: "An Artifact-based Agent Framework for Adaptive and Reproducible Medical Image Processing",
        authors: &["Lianrui Zuo", "Yihao Liu", "Gaurav Rudravaram", "Karthik Ramadass", "Aravind R. Krishnan", "Michael D. Phillips", "Yelena G. Bodien", "Mayur B. Patel", "Paula Trujillo", "Yency Forero Martinez", "Stephen A. Deppen", "Eric L. Grogan", "Fabien Maldonado", "Kevin McGann", "Hudson M. Holmes", "Laurie E. Cutting", "Yuankai Huo", "Bennett A. Landman"],
        affiliations: &[],
        abs: Abs::Ends("Medical imaging research is increasingly shifting from contr", "sing reproducibility in heterogeneous clinical environments."),
        subjects: &["cs.AI", "cs.CV", "cs.MA"],
        comments: None,
        journal_ref: None,
        listing_date: Some(Some("2026-04-27")),
    },
    E {
        id: "2604.21937",
        version: Some(Some(1)),
        kind: Kind::New,
        title: "MolClaw: An Autonomous Agent with Hierarchical Skills for Drug Molecule Evaluation, Screening, and Optimization",
        authors: &["Lisheng Zhang", "Lilong Wang", "Xiangyu Sun", "Wei Tang", "Haoyang Su", "Yuehui Qian", "Qikui Yang", "Qingsong Li", "Zhenyu Tang", "Haoran Sun", "Yingnan Han", "Yankai Jiang", "Wenjie Lou", "Bowen Zhou", "Xiaosong Wang", "Lei Bai", "Zhengwei Xie"],
        affiliations: &[],
        abs: Abs::Ends("Computational drug discovery, particularly the complex workf", " primary capability bottleneck for AI-driven drug discovery."),
        subjects: &["cs.AI", "cs.MA"],
        comments: None,
        journal_ref: None,
        listing_date: Some(Some("2026-04-27")),
    },
];

const RSS2_CS_CL: &[E] = &[
    E {
        id: "2604.22002",
        version: Some(Some(1)),
        kind: Kind::New,
        title: "When Cow Urine Cures Constipation on YouTube: Limits of LLMs in Detecting Culture-specific Health Misinformation",
        authors: &["Anamta Khan", "Ratna Kandala", "Deepti", "Sheza Munir", "Joyojeet Pal"],
        affiliations: &[],
        abs: Abs::Full("Social media platforms have become primary channels for health information in the Global South. Using gomutra (cow urine) discourse on YouTube in India as a case study, we present a post-facto Large Language Model (LLM)-assisted discourse analysis of 30 multilingual transcripts showing that promotional content blends sacred traditional language with pseudo-scientific claims in ways that sophisticated debunking content itself mirrors, creating a rhetorical register that LLMs, trained predominantly on Western corpora, are systematically ill-equipped to analyse. Varying prompt tone across three LLMs (GPT-4o, Gemini 2.5 Pro, DeepSeek-V3.1), we find that culturally embedded health misinformation does not look like ordinary misinformation, and this cultural obfuscation extends to gendered rhetoric and prompt design, compounding analytical unreliability. Our findings argue that cultural competency in LLM-assisted discourse analysis cannot be retrofitted through prompt engineering alone."),
        subjects: &["cs.CL"],
        comments: None,
        journal_ref: None,
        listing_date: Some(Some("2026-04-27")),
    },
    E {
        id: "2604.22027",
        version: Some(Some(1)),
        kind: Kind::New,
        title: "Shared Lexical Task Representations Explain Behavioral Variability In LLMs",
        authors: &["Zhuonan Yang", "Jacob Xiaochen Li", "Francisco Piedrahita Velez", "Eric Todd", "David Bau", "Michael L. Littman", "Stephen H. Bach", "Ellie Pavlick"],
        affiliations: &[],
        abs: Abs::Ends("One of the most common complaints about large language model", " that otherwise seems idiosyncratic to users and developers."),
        subjects: &["cs.CL", "cs.AI", "cs.LG"],
        comments: None,
        journal_ref: None,
        listing_date: Some(Some("2026-04-27")),
    },
    E {
        id: "2604.22038",
        version: Some(Some(1)),
        kind: Kind::New,
        title: "Source-Modality Monitoring in Vision-Language Models",
        authors: &["Etha Tianze Hua", "Tian Yun", "Ellie Pavlick"],
        affiliations: &[],
        abs: Abs::Ends("We define and investigate source-modality monitoring -- the ", "d in the context of increasingly multimodal agentic systems."),
        subjects: &["cs.CL"],
        comments: None,
        journal_ref: None,
        listing_date: Some(Some("2026-04-27")),
    },
];

const RSS2_CS_LG: &[E] = &[
    E {
        id: "2604.21952",
        version: Some(Some(1)),
        kind: Kind::New,
        title: "Focus Session: Hardware and Software Techniques for Accelerating Multimodal Foundation Models",
        authors: &["Muhammad Shafique", "Abdul Basit", "Muhammad Abdullah Hanif", "Alberto Marchisio", "Rachmad Vidya Wicaksana Putra", "Minghao Shao"],
        affiliations: &[],
        abs: Abs::Ends("This work presents a multi-layered methodology for efficient", "nclude with extensions toward energy-efficient spiking-MFMs."),
        subjects: &["cs.LG", "cs.AI", "cs.AR", "cs.NE", "cs.RO"],
        comments: None,
        journal_ref: None,
        listing_date: Some(Some("2026-04-27")),
    },
    E {
        id: "2604.21953",
        version: Some(Some(1)),
        kind: Kind::New,
        title: "Performance Anomaly Detection in Athletics: A Benchmarking System with Visual Analytics",
        authors: &["Blessed Madukoma", "Prasenjit Mitra"],
        affiliations: &[],
        abs: Abs::Ends("Anti-doping programs rely on biological testing to detect pe", "ort, rather than replace, established anti-doping processes."),
        subjects: &["cs.LG", "cs.CY"],
        comments: None,
        journal_ref: None,
        listing_date: Some(Some("2026-04-27")),
    },
    E {
        id: "2604.21956",
        version: Some(Some(1)),
        kind: Kind::New,
        title: "Conditional anomaly detection using soft harmonic functions: An application to clinical alerting",
        authors: &["Michal Valko", "Hamed Valizadegan", "Branislav Kveton", "Gregory F. Cooper", "Milos Hauskrecht"],
        affiliations: &[],
        abs: Abs::Full("Timely detection of concerning events is an important problem in clinical practice. In this paper, we consider the problem of conditional anomaly detection that aims to identify data instances with an unusual response, such as the omission of an important lab test. We develop a new non-parametric approach for conditional anomaly detection based on the soft harmonic solution, with which we estimate the confidence of the label to detect anomalous mislabeling. We further regularize the solution to avoid the detection of isolated examples and examples on the boundary of the distribution support. We demonstrate the efficacy of the proposed method in detecting unusual labels on a real-world electronic health record dataset and compare it to several baseline approaches."),
        subjects: &["cs.LG"],
        comments: None,
        journal_ref: None,
        listing_date: Some(Some("2026-04-27")),
    },
];

#[test]
fn rss2_cs_ai_2026() {
    let f = "rss2-cs.AI-2026-trimmed.xml";
    let p = run(f, 3, &[(Kind::New, 3)], RSS2_CS_AI);
    all_dated(f, &p, "2026-04-27");
}

#[test]
fn rss2_cs_cl_2026() {
    let f = "rss2-cs.CL-2026-trimmed.xml";
    let p = run(f, 3, &[(Kind::New, 3)], RSS2_CS_CL);
    all_dated(f, &p, "2026-04-27");
}

#[test]
fn rss2_cs_lg_2026() {
    let f = "rss2-cs.LG-2026-trimmed.xml";
    let p = run(f, 3, &[(Kind::New, 3)], RSS2_CS_LG);
    all_dated(f, &p, "2026-04-27");
}

// ---------------------------------------------------------------- export.arxiv.org API Atom
// listing_date is not asserted: `published` is the first version's
// submission time, not an announcement day.

const API_2018: &[E] = &[
    E {
        id: "1801.05533",
        version: Some(Some(1)),
        kind: Kind::New,
        title: "Einstein-Weyl structures on almost cosymplectic manifolds",
        authors: &["Xiaomin Chen"],
        affiliations: &[],
        abs: Abs::Full("In this article, we study the Einstein-Weyl structures on almost cosymplectic manifolds. First we prove that an almost cosymplectic $(\\kappa,\\mu)$-manifold is Einstein or cosymplectic if it admits a closed Einstein-Weyl structure or two Einstein-Weyl structures. Next for a three dimensional compact almost $\\alpha$-cosymplectic manifold admitting closed Einstein-Weyl structures, we prove that it is Ricc-flat. Further, we show that an almost $\\alpha$-cosymplectic admitting two Einstein-Weyl structures is either Einstein or $\\alpha$-cosymplectic, provided that its Ricci tensor is commuting. Finally, we prove that a compact $K$-cosymplectic manifold with a closed Einstein-Weyl structure or two special Einstein-Weyl structures is cosymplectic."),
        subjects: &["math.DG"],
        comments: Some("12 pages, no figures"),
        journal_ref: None,
        listing_date: None,
    },
    E {
        id: "0802.2137",
        version: Some(Some(3)),
        kind: Kind::Replaced,
        title: "Einstein solvmanifolds and the pre-Einstein derivation",
        authors: &["Y. Nikolayevsky"],
        affiliations: &[],
        abs: Abs::Ends("An Einstein nilradical is a nilpotent Lie algebra, which can", "al two-step nilpotent Lie algebra is an Einstein nilradical."),
        subjects: &["math.DG"],
        comments: Some("18 pages, added Theorem 5"),
        journal_ref: None,
        listing_date: None,
    },
    E {
        id: "1209.5181",
        version: Some(Some(1)),
        kind: Kind::New,
        title: "Albert Einstein's Methodology",
        authors: &["Galina Weinstein"],
        affiliations: &[],
        abs: Abs::Ends("This paper discusses Einstein's methodology. 1. Einstein cha", "s co-discoverers of the relativity theory which he invented."),
        subjects: &["physics.hist-ph"],
        comments: None,
        journal_ref: None,
        listing_date: None,
    },
    E {
        id: "math/0502287",
        version: Some(Some(1)),
        kind: Kind::New,
        title: "On pseudo-Hermitian Einstein spaces",
        authors: &["Felipe Leitner"],
        affiliations: &[],
        abs: Abs::Ends("We describe and construct here pseudo-Hermitian structures $", " Einstein, but they are locally always conformally Einstein."),
        subjects: &["math.DG"],
        comments: Some("16 pages"),
        journal_ref: None,
        listing_date: None,
    },
    E {
        id: "0707.4595",
        version: Some(Some(1)),
        kind: Kind::New,
        title: "Einstein solvmanifolds with a simple Einstein derivation",
        authors: &["Y. Nikolayevsky"],
        affiliations: &[],
        abs: Abs::Ends("The structure of a solvable Lie groups admitting an Einstein", "own classification results on filiform graded Lie algebras)."),
        subjects: &["math.DG"],
        comments: Some("11 pages"),
        journal_ref: None,
        listing_date: None,
    },
    E {
        id: "1505.03319",
        version: Some(Some(1)),
        kind: Kind::New,
        title: "Quasi-Einstein and Generalized Quasi-Einstein Warped Products with an Affine Connection",
        authors: &["Quan Qu"],
        affiliations: &[],
        abs: Abs::Ends("In this paper, we study the quasi-Einstein and generalized q", "warped products with a semi-symmetric non-metric connection."),
        subjects: &["math.DG"],
        comments: Some("16 pages"),
        journal_ref: None,
        listing_date: None,
    },
    E {
        id: "1207.1944",
        version: Some(Some(1)),
        kind: Kind::New,
        title: "On Einstein Kropina metrics",
        authors: &["Xiaoling Zhang", "Yi-Bing Shen"],
        affiliations: &[],
        abs: Abs::Ends("In this paper, a characteristic condition of Einstein Kropin", "mal map between Einstein Kropina metrics must be homothetic."),
        subjects: &["math.DG"],
        comments: None,
        journal_ref: None,
        listing_date: None,
    },
    E {
        id: "0808.2097",
        version: Some(Some(1)),
        kind: Kind::New,
        title: "A class of compact Poincare-Einstein manifolds: properties and construction",
        authors: &["A. Rod Gover", "Felipe Leitner"],
        affiliations: &[],
        abs: Abs::Ends("We develop a geometric and explicit construction principle t", "tant mean curvature totally umbillic embedded hypersurfaces."),
        subjects: &["math.DG", "math-ph", "math.MP"],
        comments: Some("28 pages"),
        journal_ref: None,
        listing_date: None,
    },
    E {
        id: "1205.0922",
        version: Some(Some(1)),
        kind: Kind::New,
        title: "Einstein's Clocks and Langevin's Twins",
        authors: &["Galina Weinstein"],
        affiliations: &[],
        abs: Abs::Ends("In 1905 Einstein presented the Clock Paradox and in 1911 Pau", "nstein quickly replied with witty, smart and clever retorts."),
        subjects: &["physics.hist-ph"],
        comments: None,
        journal_ref: None,
        listing_date: None,
    },
    E {
        id: "math/0507289",
        version: Some(Some(1)),
        kind: Kind::New,
        title: "Kaehler-Einstein metrics on orbifolds and Einstein metrics on spheres",
        authors: &["Alessandro Ghigi", "János Kollár"],
        affiliations: &[],
        abs: Abs::Ends("A construction of Kaehler-Einstein metrics using Galois cove", "n degree 2 Del Pezzo surfaces with A_1 or A_2-singularities."),
        subjects: &["math.DG", "math.AG"],
        comments: None,
        journal_ref: None,
        listing_date: None,
    },
];

const API_2026_MECH: &[E] = &[
    E {
        id: "2002.00741",
        version: Some(Some(1)),
        kind: Kind::New,
        title: "Déjà vu: A Contextualized Temporal Attention Mechanism for Sequential Recommendation",
        authors: &["Jibang Wu", "Renqin Cai", "Hongning Wang"],
        affiliations: &[],
        abs: Abs::Full("Predicting users' preferences based on their sequential behaviors in history is challenging and crucial for modern recommender systems. Most existing sequential recommendation algorithms focus on transitional structure among the sequential actions, but largely ignore the temporal and context information, when modeling the influence of a historical event to current prediction.\nIn this paper, we argue that the influence from the past events on a user's current action should vary over the course of time and under different context. Thus, we propose a Contextualized Temporal Attention Mechanism that learns to weigh historical actions' influence on not only what action it is, but also when and how the action took place. More specifically, to dynamically calibrate the relative input dependence from the self-attention mechanism, we deploy multiple parameterized kernel functions to learn various temporal dynamics, and then use the context information to determine which of these reweighing kernels to follow for each input. In empirical evaluations on two large public recommendation datasets, our model consistently outperformed an extensive set of state-of-the-art sequential recommendation methods."),
        subjects: &["cs.IR", "cs.CL", "cs.LG"],
        comments: Some("Key Words: Sequential Recommendation, Self-attention mechanism, Temporal Recommendation"),
        journal_ref: None,
        listing_date: None,
    },
    E {
        id: "1102.2017",
        version: Some(Some(2)),
        kind: Kind::Replaced,
        title: "Synthesis of Mechanism for single- and hybrid-tasks using Differential Evolution",
        authors: &["F. Penunuri", "R. Peon-Escalante", "C. Villanueva", "D. Pech-Oy"],
        affiliations: &[],
        abs: Abs::Ends("The optimal dimensional synthesis for planar mechanisms usin", "result, the evolutionary algorithm increases its efficiency."),
        subjects: &["cs.CE"],
        comments: Some("Final version accepted in Mechanism and Machine Theory"),
        journal_ref: Some("Mechanism and Machine Theory 46 (2011) 1335--1349"),
        listing_date: None,
    },
    E {
        id: "1112.2954",
        version: Some(Some(2)),
        kind: Kind::Replaced,
        title: "Synthesis of Spherical 4R Mechanism for Path Generation using Differential Evolution",
        authors: &["F. Penunuri", "R. Peon-Escalante", "C. Villanueva", "Carlos A. Cruz-Villar"],
        affiliations: &[],
        abs: Abs::Ends("The problem of path generation for the spherical 4R mechanis", " simplicity and effectiveness of this approach are included."),
        subjects: &["cs.CE"],
        comments: Some("Submitted to Mechanism and Machine Theory"),
        journal_ref: Some("Mechanism and Machine Theory 57 (2012) 62-70"),
        listing_date: None,
    },
];

const API_2026_TI: &[E] = &[
    E {
        id: "2201.00978",
        version: Some(Some(1)),
        kind: Kind::New,
        title: "PyramidTNT: Improved Transformer-in-Transformer Baselines with Pyramid Architecture",
        authors: &["Kai Han", "Jianyuan Guo", "Yehui Tang", "Yunhe Wang"],
        affiliations: &[],
        abs: Abs::Full("Transformer networks have achieved great progress for computer vision tasks. Transformer-in-Transformer (TNT) architecture utilizes inner transformer and outer transformer to extract both local and global representations. In this work, we present new TNT baselines by introducing two advanced designs: 1) pyramid architecture, and 2) convolutional stem. The new \"PyramidTNT\" significantly improves the original TNT by establishing hierarchical representations. PyramidTNT achieves better performances than the previous state-of-the-art vision transformers such as Swin Transformer. We hope this new baseline will be helpful to the further research and application of vision transformer. Code will be available at https://github.com/huawei-noah/CV-Backbones/tree/master/tnt_pytorch."),
        subjects: &["cs.CV"],
        comments: Some("Tech Report. An extension of \"Transformer in Transformer\" (arXiv:2103.00112)"),
        journal_ref: None,
        listing_date: None,
    },
    E {
        id: "2104.11502",
        version: Some(Some(1)),
        kind: Kind::New,
        title: "Learning to Cluster Faces via Transformer",
        authors: &["Jinxing Ye", "Xioajiang Peng", "Baigui Sun", "Kai Wang", "Xiuyu Sun", "Hao Li", "Hanqing Wu"],
        affiliations: &[],
        abs: Abs::Ends("Face clustering is a useful tool for applications like autom", "rformance, e.g., 91.12\\% in pairwise F-score on MS-Celeb-1M."),
        subjects: &["cs.CV"],
        comments: Some("Face Transformer"),
        journal_ref: None,
        listing_date: None,
    },
    E {
        id: "2404.05657",
        version: Some(Some(1)),
        kind: Kind::New,
        title: "MLP Can Be A Good Transformer Learner",
        authors: &["Sihao Lin", "Pumeng Lyu", "Dongrui Liu", "Tao Tang", "Xiaodan Liang", "Andy Song", "Xiaojun Chang"],
        affiliations: &[],
        abs: Abs::Ends("Self-attention mechanism is the key of the Transformer but o", "de is available at https://github.com/sihaoevery/lambda_vit."),
        subjects: &["cs.CV"],
        comments: Some("efficient transformer"),
        journal_ref: None,
        listing_date: None,
    },
];

#[test]
fn api_atom_2018_einstein() {
    // The API describes one version of each paper: v1 reads as new, a later
    // version as replaced (see src/listing/atom.rs).
    run("api-atom-2018-all-Einstein.xml", 10, &[(Kind::New, 9), (Kind::Replaced, 1)], API_2018);
}

#[test]
fn api_atom_2026_attention_or_mechanism() {
    run("api-atom-2026-03-26-attention-OR-mechanism-3.xml", 3, &[(Kind::New, 1), (Kind::Replaced, 2)], API_2026_MECH);
}

#[test]
fn api_atom_2026_ti_attention_or_transformer() {
    run("api-atom-2026-04-05-ti-attention-OR-transformer-3.xml", 3, &[(Kind::New, 3)], API_2026_TI);
}

// ---------------------------------------------------------------- e-mail listings

const MAIL_2026_01_20: &[E] = &[
    E {
        id: "2601.11559",
        version: Some(None),
        kind: Kind::New,
        title: "MIMIC-RD: Can LLMs differentially diagnose rare diseases in real-world clinical settings?",
        authors: &["Zilal Eiz AlDin", "John Wu", "Jeffrey Paul Fung", "Jennifer King", "Mya Watts", "Lauren ONeill", "Adam Richard Cross", "Jimeng Sun"],
        affiliations: &[],
        abs: Abs::Full("Despite rare diseases affecting 1 in 10 Americans, their differential diagnosis remains challenging. Due to their impressive recall abilities, large language models (LLMs) have been recently explored for differential diagnosis. Existing approaches to evaluating LLM-based rare disease diagnosis suffer from two critical limitations: they rely on idealized clinical case studies that fail to capture real-world clinical complexity, or they use ICD codes as disease labels, which significantly undercounts rare diseases since many lack direct mappings to comprehensive rare disease databases like Orphanet. To address these limitations, we explore MIMIC-RD, a rare disease differential diagnosis benchmark constructed by directly mapping clinical text entities to Orphanet. Our methodology involved an initial LLM-based mining process followed by validation from four medical annotators to confirm identified entities were genuine rare diseases. We evaluated various models on our dataset of 145 patients and found that current state-of-the-art LLMs perform poorly on rare disease differential diagnosis, highlighting the substantial gap between existing capabilities and clinical needs. From our findings, we outline several future steps towards improving differential diagnosis of rare diseases."),
        subjects: &["cs.AI", "cs.CL", "cs.LG"],
        comments: Some("5 pages"),
        journal_ref: None,
        listing_date: None,
    },
    E {
        id: "2601.13969",
        version: Some(None),
        kind: Kind::New,
        title: "Autonomous Knowledge Graph Exploration with Adaptive Breadth-Depth Retrieval",
        authors: &["Joaquín Polonuer", "Lucas Vittor", "Iñaki Arango", "Ayush Noori", "David A. Clifton", "Luciano Del Corro", "Marinka Zitnik"],
        affiliations: &["Department of Biomedical Informatics, Harvard Medical School, Boston, MA, USA; Departamento de Computación, FCEyN, Universidad de Buenos Aires, Buenos Aires, Argentina", "Department of Biomedical Informatics, Harvard Medical School, Boston, MA, USA", "Department of Biomedical Informatics, Harvard Medical School, Boston, MA, USA", "Department of Biomedical Informatics, Harvard Medical School, Boston, MA, USA; Department of Engineering Science, University of Oxford, Oxford, UK", "Department of Engineering Science, University of Oxford, Oxford, UK; Oxford Suzhou Centre for Advanced Research, University of Oxford, Suzhou, Jiangsu, China", "ELIAS Lab, Departamento de Ingeniería, Universidad de San Andrés, Victoria, Argentina; Lumina Labs, Buenos Aires, Argentina", "Department of Biomedical Informatics, Harvard Medical School, Boston, MA, USA; Kempner Institute for the Study of Natural and Artificial Intelligence, Allston, MA, USA; Broad Institute of MIT and Harvard, Cambridge, MA, USA; Harvard Data Science Initiative, Cambridge, MA, USA"],
        abs: Abs::Ends("Retrieving evidence for language model queries from knowledg", "ly, while retaining up to 98.5% of the teacher's Hit@1 rate."),
        subjects: &["cs.AI", "cs.IR", "cs.LG"],
        comments: None,
        journal_ref: None,
        listing_date: None,
    },
    E {
        id: "2601.13776",
        version: Some(None),
        kind: Kind::New,
        title: "Orthogonium : A Unified, Efficient Library of Orthogonal and 1-Lipschitz Building Blocks",
        authors: &["Thibaut Boissin", "Franck Mamalet", "Valentin Lafargue", "Mathieu Serrurier"],
        affiliations: &["IRIT-MISFIT", "?ANITI, IMT", "ANITI, IMT", "IRIT-MISFIT"],
        abs: Abs::Ends("Orthogonal and 1-Lipschitz neural network layers are essenti", "nium is available at https://github.com/deel-ai/orthogonium."),
        subjects: &["cs.LG", "stat.ML"],
        comments: None,
        journal_ref: Some("ICML 2025 Workshop on Championing Open- source Development in Machine Learning (CODEML '25), Jul 2025, Vancouver, France"),
        listing_date: None,
    },
    E {
        id: "2601.12842",
        version: Some(None),
        kind: Kind::New,
        title: "SCULPT: Constraint-Guided Pruned MCTS that Carves Efficient Paths for Mathematical Reasoning",
        authors: &["Qitong Fang", "Haotian Li", "Xu Wang"],
        affiliations: &["Jilin Jianzhu University", "Jilin Jianzhu University", "Jilin Jianzhu University"],
        abs: Abs::Ends("Automated agent workflows can enhance the problem-solving ab", "curacy while maintaining efficiency and reasoning stability."),
        subjects: &["cs.AI", "cs.LG"],
        comments: Some("11 pages, 3 figures. Equal contribution: Qitong Fang and Haotian Li. Corresponding authors: Qitong Fang (fangqitong@student.jlju.edu.cn), Haotian Li (lihaotian@student.jlju.edu.cn), Xu Wang (wangxu@jlju.edu.cn)"),
        journal_ref: None,
        listing_date: None,
    },
    E {
        id: "2601.11659",
        version: Some(None),
        kind: Kind::New,
        title: "The Llama 4 Herd: Architecture, Training, Evaluation, and Deployment Notes",
        authors: &["Aaron Adcock", "Aayushi Srivastava", "Abhimanyu Dubey", "Abhinav Jauhri", "Abhinav Pande", "Abhinav Pandey", "Abhinav Sharma", "Abhishek Kadian", "Abhishek Kumawat", "Adam Kelsey", "Adam Stelle", "Adeel Cheema", "Adela Kabiljo", "Adina Katz", "Adithya Gangidi", "Aditya Tayade", "Adolfo Victoria", "Adrian Samatan Alastuey", "Adrien Conrath", "Afroz Mohiuddin", "Ahmed Sharif", "Ahnaf Siddiqui", "Ahuva Goldstand", "Aijung Li", "Aidan Boyd", "Aidin Kazemi Daliri", "Aisha Iqbal", "Ajay Menon", "Ajit Mathews", "Akhil Mathur", "Akshat Agarwal", "Alan Schelten", "Alana Shine", "Alejandro Castillejo Muñoz", "Aleksei Guliaev", "Alex Radovic", "Alex Song", "Alex Vaughan", "Alexander Simeonov", "Alexandre Rezende", "Alexandre Rezende", "Alexei Baevski", "Alexey Roubaud", "Allen Ma", "Alvin Lee", "Alyssa Pereira", "Aman Ahmed", "Aman Shankar", "Amanda Kallet", "Amar Budhiraja", "Ameya Khandekar", "Amine Benhalloum"],
        affiliations: &[],
        abs: Abs::Ends("This document consolidates publicly reported technical detai", "tioners who need precise, source-backed facts about Llama 4."),
        subjects: &["cs.SE", "cs.LG"],
        comments: Some("15 pages"),
        journal_ref: None,
        listing_date: None,
    },
    E {
        id: "2601.11594",
        version: Some(None),
        kind: Kind::Cross,
        title: "Multi-Scale Negative Coupled Information Systems (MNCIS): A Unified Spectral Topology Framework for Stability in Turbulence, AI, and Biology",
        authors: &["Pengyue Hou"],
        affiliations: &[],
        abs: Abs::Full("Complex dynamical systems frequently encounter a recurrent structural instability: the collapse of the spectral gap, driving the system toward a low-dimensional \"Zero-Mode Attractor\" (e.g., spectral pile-up or over-smoothing). Building upon recent global well-posedness estimates [Hou, arXiv:2601.00638], this work generalizes the Multi-Scale Negative Coupled Information System (MNCIS) framework. We postulate that global stability requires an active topological operator -- Adaptive Spectral Negative Coupling (ASNC) -- functioning as a state-dependent high-pass filter that penalizes entropy accumulation at spectral boundaries. We validate this unified framework via three implementations:(1) Hydrodynamics: In 3D Navier-Stokes turbulence ($N=256^3$), ASNC acts as a global-enstrophy adaptive sub-grid scale (SGS) model, stabilizing the inviscid limit and preserving the Kolmogorov $-5/3$ inertial range without artificial hyper-viscosity.(2) Artificial Intelligence: Addressing Over-smoothing in Graph Neural Networks (GNNs), we implement ASNC as a parameter-free topological constraint. Unlike baselines (e.g., DeepGCNs) relying on dense residual connections to bypass signal decay, our framework enables the training of ultra-deep 64-layer networks without residual connections, maintaining perfectly stationary feature variance ($\\sigma^2 \\equiv 1.0$) on the ogbn-arxiv benchmark. (3) Biological Physics: In reaction-diffusion morphogenesis, it stabilizes Turing patterns against diffusive washout in high-entropy regimes. Our results suggest that the MNCIS framework provides a base-independent topological condition for distinguishing viable complex systems from those collapsing into thermal equilibrium, bridging physical stability and information persistence."),
        subjects: &["physics.comp-ph", "cs.LG", "nlin.AO", "physics.bio-ph"],
        comments: Some("Includes supplementary materials and code. Foundation and mathematical proofs can be found in the companion paper arXiv:2601.00638"),
        journal_ref: None,
        listing_date: None,
    },
    E {
        id: "2601.11532",
        version: Some(None),
        kind: Kind::Cross,
        title: "\"Jutters\"",
        authors: &["Meike Driessen", "Selina Khan", "Gonçalo Marcelino"],
        affiliations: &[],
        abs: Abs::Ends("This project explores how we engage with AI-generated conten", "can be found at https://www.youtube.com/watch?v=L6319Ii7MT8."),
        subjects: &["cs.HC", "cs.AI", "cs.CV"],
        comments: Some("Accepted at 39th Conference on Neural Information Processing Systems (NeurIPS 2025) Creative AI Track"),
        journal_ref: None,
        listing_date: None,
    },
    E {
        id: "2601.14235",
        version: Some(None),
        kind: Kind::Cross,
        title: "Opportunities in AI/ML for the Rubin LSST Dark Energy Science Collaboration",
        authors: &["LSST Dark Energy Science Collaboration", "Eric Aubourg", "Camille Avestruz", "Matthew R. Becker", "Biswajit Biswas", "Rahul Biswas", "Boris Bolliet", "Adam S. Bolton", "Clecio R. Bom", "Raphaël Bonnet-Guerrini", "Alexandre Boucaud", "Jean-Eric Campagne", "Chihway Chang", "Aleksandra Ćiprijanović", "Johann Cohen-Tanugi", "Michael W. Coughlin", "John Franklin Crenshaw", "Juan C. Cuevas-Tello", "Juan de Vicente", "Seth W. Digel", "Steven Dillmann", "Mariano Javier de León Dominguez Romero", "Alex Drlica-Wagner", "Sydney Erickson", "Alexander T. Gagliano", "Christos Georgiou", "Aritra Ghosh", "Matthew Grayling", "Kirill A. Grishin", "Alan Heavens", "Lindsay R. House", "Mustapha Ishak", "Wassim Kabalan", "Arun Kannawadi", "François Lanusse", "C. Danielle Leonard", "Pierre-François Léget", "Michelle Lochner", "Yao-Yuan Mao", "Peter Melchior", "Grant Merz"],
        affiliations: &[],
        abs: Abs::Ends("The Vera C. Rubin Observatory's Legacy Survey of Space and T", "opportunities for broader coordination with external actors."),
        subjects: &["astro-ph.IM", "astro-ph.CO", "cs.AI", "cs.LG", "stat.ML"],
        comments: Some("84 pages. This is v1.0 of the DESC's white paper on AI/ML, a collaboration document that is being made public but which is not planned for submission to a journal"),
        journal_ref: None,
        listing_date: None,
    },
    E {
        id: "2601.12630",
        version: Some(None),
        kind: Kind::Cross,
        title: "Reorienting off-path Nudged Elastic Bands (RONEB) via Minimum Mode Following",
        authors: &["Rohit Goswami", "Miha Gunde", "Hannes Jónsson"],
        affiliations: &["Institute IMX and Lab-COSMO, École polytechnique fédérale de Lausanne (EPFL), CH-1015 Lausanne, Switzerland; Science Institute, University of Iceland, Reykjavik, Iceland", "Science Institute, University of Iceland, Reykjavik, Iceland; Institute Ruđer Bošković, Bijenička 54, 10000 Zagreb, Croatia", ""],
        abs: Abs::Ends("Accurate determination of transition states remains central ", "ctive tool for high-throughput automated chemical discovery."),
        subjects: &["physics.chem-ph", "cond-mat.mtrl-sci", "cs.LG", "physics.comp-ph"],
        comments: Some("25 pages. 11 figures"),
        journal_ref: None,
        listing_date: None,
    },
    E {
        id: "2601.11775",
        version: Some(None),
        kind: Kind::Cross,
        title: "Quantum Kernel Machine Learning for Autonomous Materials Science",
        authors: &["Felix Adams", "Daiwei Zhu", "David W. Steuerman", "A. Gilad Kusne", "Ichiro Takeuchi"],
        affiliations: &["University of Maryland College Park", "IonQ", "IonQ", "University of Maryland College Park; National Institute for Standards and Technology", "University of Maryland College Park; University of Maryland Quantum Materials Center"],
        abs: Abs::Ends("Autonomous materials science, where active learning is used ", "ta is a candidate for robust quantum kernel model advantage."),
        subjects: &["cond-mat.mtrl-sci", "cs.LG", "quant-ph"],
        comments: None,
        journal_ref: None,
        listing_date: None,
    },
    E {
        id: "2601.14087",
        version: Some(None),
        kind: Kind::Cross,
        title: "'1'-bit Count-based Sorting Unit to Reduce Link Power in DNN Accelerators",
        authors: &["Ruichi Han", "Yizhi Chen", "Tong Lei", "Jordi Altayo Gonzalez", "Ahmed Hemani"],
        affiliations: &["?Department of Electronics and Embedded Systems, KTH Royal Institute of Technology, Stockholm, Sweden", "?Department of Electronics and Embedded Systems, KTH Royal Institute of Technology, Stockholm, Sweden", "?Department of Electronics and Embedded Systems, KTH Royal Institute of Technology, Stockholm, Sweden", "?Department of Electronics and Embedded Systems, KTH Royal Institute of Technology, Stockholm, Sweden", "Department of Electronics and Embedded Systems, KTH Royal Institute of Technology, Stockholm, Sweden"],
        abs: Abs::Ends("Interconnect power consumption remains a bottleneck in Deep ", "% BT reduction compared to 20.42% of precise implementation."),
        subjects: &["cs.AR", "cs.AI", "cs.LG"],
        comments: Some("Accepted for oral presentation at the 2026 VLSI Symposium on Technology, Systems and Applications (VLSI TSA) on April 13-17, 2026, at the Ambassador Hotel, Hsinchu, Taiwan"),
        journal_ref: None,
        listing_date: None,
    },
    E {
        id: "2601.13102",
        version: Some(None),
        kind: Kind::Cross,
        title: "Approximate full conformal prediction in RKHS",
        authors: &["Davidson Lova Razafindrakoto", "Alain Celisse", "Jérôme Lacaille"],
        affiliations: &[],
        abs: Abs::Ends("Full conformal prediction is a framework that implicitly for", "he approximate confidence region and the full conformal one."),
        subjects: &["stat.ML", "cs.LG", "math.ST", "stat.TH"],
        comments: None,
        journal_ref: None,
        listing_date: None,
    },
    E {
        id: "2502.12930",
        version: Some(None),
        kind: Kind::Replaced,
        title: "Universal Embedding Function for Traffic Classification via QUIC Domain Recognition Pretraining: A Transfer Learning Success",
        authors: &["Jan Luxemburk", "Karel Hynek", "Richard Plný", "Tomáš Čejka"],
        affiliations: &[],
        abs: Abs::Empty,
        subjects: &["cs.LG", "cs.NI"],
        comments: None,
        journal_ref: Some("IEEE Transactions on Network and Service Management, vol. 23, pp. 1647-1663, 2026"),
        listing_date: None,
    },
    E {
        id: "2512.14308",
        version: Some(None),
        kind: Kind::Replaced,
        title: "Improving the Accuracy of Amortized Model Comparison with Self-Consistency",
        authors: &["Šimon Kucharský", "Aayush Mishra", "Daniel Habermann", "Stefan T. Radev", "Paul-Christian Bürkner"],
        affiliations: &[],
        abs: Abs::Empty,
        subjects: &["stat.ML", "cs.LG", "stat.CO"],
        comments: Some("17 pages, 9 figures"),
        journal_ref: None,
        listing_date: None,
    },
    E {
        id: "2502.13163",
        version: Some(None),
        kind: Kind::Replaced,
        title: "A Survey of Fuzzing Open-Source Operating Systems",
        authors: &["Kun Hu", "Qicai Chen", "Wenzhuo Zhang", "Zilong Lu", "Bihuan Chen", "You Lu", "Haowen Jiang", "Bingkun Sun", "Xin Peng", "Wenyun Zhao"],
        affiliations: &[],
        abs: Abs::Empty,
        subjects: &["cs.OS", "cs.CR", "cs.SE"],
        comments: Some("35 pages"),
        journal_ref: None,
        listing_date: None,
    },
];

const MAIL_2024_11_21: &[E] = &[
    E {
        id: "2411.13560",
        version: Some(None),
        kind: Kind::New,
        title: "AMSnet-KG: A Netlist Dataset for LLM-based AMS Circuit Auto-Design Using Knowledge Graph RAG",
        authors: &["Yichen Shi", "Zhuofu Tao", "Yuhao Gao", "Tianjia Zhou", "Cheng Chang", "Yaxing Wang", "Bingyu Chen", "Genhao Zhang", "Alvin Liu", "Zhiping Yu", "Ting-Jung Lin", "Lei He"],
        affiliations: &[],
        abs: Abs::Full("High-performance analog and mixed-signal (AMS) circuits are mainly full-custom designed, which is time-consuming and labor-intensive. A significant portion of the effort is experience-driven, which makes the automation of AMS circuit design a formidable challenge. Large language models (LLMs) have emerged as powerful tools for Electronic Design Automation (EDA) applications, fostering advancements in the automatic design process for large-scale AMS circuits. However, the absence of high-quality datasets has led to issues such as model hallucination, which undermines the robustness of automatically generated circuit designs. To address this issue, this paper introduces AMSnet-KG, a dataset encompassing various AMS circuit schematics and netlists. We construct a knowledge graph with annotations on detailed functional and performance characteristics. Facilitated by AMSnet-KG, we propose an automated AMS circuit generation framework that utilizes the comprehensive knowledge embedded in LLMs. We first formulate a design strategy (e.g., circuit architecture using a number of circuit components) based on required specifications. Next, matched circuit components are retrieved and assembled into a complete topology, and transistor sizing is obtained through Bayesian optimization. Simulation results of the netlist are fed back to the LLM for further topology refinement, ensuring the circuit design specifications are met. We perform case studies of operational amplifier and comparator design to verify the automatic design flow from specifications to netlists with minimal human effort. The dataset used in this paper will be open-sourced upon publishing of this paper."),
        subjects: &["cs.AI", "cs.ET", "eess.SP"],
        comments: None,
        journal_ref: None,
        listing_date: None,
    },
    E {
        id: "2411.13566",
        version: Some(None),
        kind: Kind::New,
        title: "Integrated Water Resource Management in the Segura Hydrographic Basin: An Artificial Intelligence Approach",
        authors: &["Urtzi Otamendi", "Mikel Maiza", "Igor G. Olaizola", "Basilio Sierra", "Markel Flores", "Marco Quartulli"],
        affiliations: &[],
        abs: Abs::Ends("Managing resources effectively in uncertain demand, variable", "agement practices in the Segura Hydrographic Basin in Spain."),
        subjects: &["cs.AI"],
        comments: Some("15 pages, 14 figures, 8 tables"),
        journal_ref: Some("Journal of Environmental Management, Volume 370, 2024, ISSN 0301-4797"),
        listing_date: None,
    },
];

const MAIL_2026_01_23: &[E] = &[
    E {
        id: "2601.15305",
        version: Some(None),
        kind: Kind::New,
        title: "Gated Sparse Attention: Combining Computational Efficiency with Training Stability for Long-Context Language Models",
        authors: &["Alfred Shen", "Aaron Shen"],
        affiliations: &[],
        abs: Abs::Full("The computational burden of attention in long-context language models has motivated two largely independent lines of work: sparse attention mechanisms that reduce complexity by attending to selected tokens, and gated attention variants that improve training sta-bility while mitigating the attention sink phenomenon. We observe that these approaches address complementary weaknesses and propose Gated Sparse Attention (GSA), an architecture that realizes the benefits of both. GSA incorporates a gated lightning indexer with sigmoid activations that produce bounded, interpretable selection scores, an adaptive sparsity controller that modulates the number of attended tokens based on local uncertainty, and dual gating at the value and output stages. We establish theoretical foundations for the approach, including complexity analysis, expressiveness results, and convergence guarantees. In experiments with 1.7B parameter models trained on 400B tokens, GSA matches the efficiency of sparse-only baselines (12-16x speedup at 128K context) while achieving the quality gains associated with gated attention: perplexity improves from 6.03 to 5.70, RULER scores at 128K context nearly double, and attention to the first token, a proxy for attention sinks, drops from 47% to under 4%. Training stability improves markedly, with loss spikes reduced by 98%."),
        subjects: &["cs.AI"],
        comments: Some("15 pages, 1 figure, attention mechanism, sparse attention, gating, long-context"),
        journal_ref: None,
        listing_date: None,
    },
    E {
        id: "2601.15306",
        version: Some(None),
        kind: Kind::New,
        title: "Uncovering Latent Bias in LLM-Based Emergency Department Triage Through Proxy Variables",
        authors: &["Ethan Zhang"],
        affiliations: &[],
        abs: Abs::Ends("Recent advances in large language models (LLMs) have enabled", "ponsible deployment of AI technologies in clinical settings."),
        subjects: &["cs.AI"],
        comments: Some("15 pages, 3 figures"),
        journal_ref: None,
        listing_date: None,
    },
    E {
        id: "2601.15307",
        version: Some(None),
        kind: Kind::New,
        title: "DeepSurvey-Bench: Evaluating Academic Value of Automatically Generated Scientific Survey",
        authors: &["Guo-Biao Zhang", "Ding-Yuan Liu", "Da-Yi Wu", "Tian Lan", "Heyan Huang", "Zhijing Wu", "Xian-Ling Mao"],
        affiliations: &[],
        abs: Abs::Ends("The rapid development of automated scientific survey generat", "rmance in assessing the academic value of generated surveys."),
        subjects: &["cs.AI", "cs.CL"],
        comments: None,
        journal_ref: None,
        listing_date: None,
    },
    E {
        id: "2601.15311",
        version: Some(None),
        kind: Kind::New,
        title: "Aeon: High-Performance Neuro-Symbolic Memory Management for Long-Horizon LLM Agents",
        authors: &["Mustafa Arslan"],
        affiliations: &[],
        abs: Abs::Ends("Large Language Models (LLMs) are fundamentally constrained b", "nabling persistent, structured memory for autonomous agents."),
        subjects: &["cs.AI"],
        comments: None,
        journal_ref: None,
        listing_date: None,
    },
    E {
        id: "2601.15316",
        version: Some(None),
        kind: Kind::New,
        title: "The Paradigm Shift: A Comprehensive Survey on Large Vision Language Models for Multimodal Fake News Detection",
        authors: &["Wei Ai", "Yilong Tan", "Yuntao Shou", "Tao Meng", "Haowen Chen", "Zhixiong He", "Keqin Li"],
        affiliations: &[],
        abs: Abs::Ends("In recent years, the rapid evolution of large vision-languag", "ps://github.com/Tan-YiLong/Overview-of-Fake-News-Detection}."),
        subjects: &["cs.AI", "cs.CV"],
        comments: None,
        journal_ref: None,
        listing_date: None,
    },
];

const MAIL_2026_01_26: &[E] = &[
    E {
        id: "2601.16280",
        version: Some(None),
        kind: Kind::New,
        title: "When Agents Fail to Act: A Diagnostic Framework for Tool Invocation Reliability in Multi-Agent LLM Systems",
        authors: &["Donghao Huang", "Gauri Malwe", "Zhaoxia Wang"],
        affiliations: &[],
        abs: Abs::Full("Multi-agent systems powered by large language models (LLMs) are transforming enterprise automation, yet systematic evaluation methodologies for assessing tool-use reliability remain underdeveloped. We introduce a comprehensive diagnostic framework that leverages big data analytics to evaluate procedural reliability in intelligent agent systems, addressing critical needs for SME-centric deployment in privacy-sensitive environments. Our approach features a 12-category error taxonomy capturing failure modes across tool initialization, parameter handling, execution, and result interpretation. Through systematic evaluation of 1,980 deterministic test instances spanning both open-weight models (Qwen2.5 series, Functionary) and proprietary alternatives (GPT-4, Claude 3.5/3.7) across diverse edge hardware configurations, we identify actionable reliability thresholds for production deployment. Our analysis reveals that procedural reliability, particularly tool initialization failures, constitutes the primary bottleneck for smaller models, while qwen2.5:32b achieves flawless performance matching GPT-4.1. The framework demonstrates that mid-sized models (qwen2.5:14b) offer practical accuracy-efficiency trade-offs on commodity hardware (96.6\\% success rate, 7.3 s latency), enabling cost-effective intelligent agent deployment for resource-constrained organizations. This work establishes foundational infrastructure for systematic reliability evaluation of tool-augmented multi-agent AI systems."),
        subjects: &["cs.AI"],
        comments: Some("Accepted for publication in 2026 The 9th International Conference on Artificial Intelligence and Big Data (ICAIBD 2026)"),
        journal_ref: None,
        listing_date: None,
    },
    E {
        id: "2601.16286",
        version: Some(None),
        kind: Kind::New,
        title: "SemanticALLI: Caching Reasoning, Not Just Responses, in Agentic Systems",
        authors: &["Varun Chillara", "Dylan Kline", "Christopher Alvares", "Evan Wooten", "Huan Yang", "Shlok Khetan", "Cade Bauer", "Tré Guillory", "Tanishka Shah", "Yashodhara Dhariwal", "Volodymyr Pavlov", "George Popstefanov"],
        affiliations: &[],
        abs: Abs::Ends("Agentic AI pipelines suffer from a hidden inefficiency: they", "able, structured checkpoints where caching is most reliable."),
        subjects: &["cs.AI", "cs.MA"],
        comments: None,
        journal_ref: None,
        listing_date: None,
    },
    E {
        id: "2601.16344",
        version: Some(None),
        kind: Kind::New,
        title: "DSGym: A Holistic Framework for Evaluating and Training Data Science Agents",
        authors: &["Fan Nie", "Junlin Wang", "Harper Hua", "Federico Bianchi", "Yongchan Kwon", "Zhenting Qi", "Owen Queen", "Shang Zhu", "James Zou"],
        affiliations: &[],
        abs: Abs::Ends("Data science agents promise to accelerate discovery and insi", " and validate data analyses in realistic scientific context."),
        subjects: &["cs.AI"],
        comments: None,
        journal_ref: None,
        listing_date: None,
    },
    E {
        id: "2601.16479",
        version: Some(None),
        kind: Kind::New,
        title: "Doc2AHP: Inferring Structured Multi-Criteria Decision Models via Semantic Trees with LLMs",
        authors: &["Hongjia Wu", "Shuai Zhou", "Hongxin Zhang", "Wei Chen"],
        affiliations: &[],
        abs: Abs::Ends("While Large Language Models (LLMs) demonstrate remarkable pr", "s in both logical completeness and downstream task accuracy."),
        subjects: &["cs.AI"],
        comments: None,
        journal_ref: None,
        listing_date: None,
    },
    E {
        id: "2601.16529",
        version: Some(None),
        kind: Kind::New,
        title: "SycoEval-EM: Sycophancy Evaluation of Large Language Models in Simulated Clinical Encounters for Emergency Care",
        authors: &["Dongshen Peng", "Yi Wang", "Carl Preiksaitis", "Christian Rose"],
        affiliations: &[],
        abs: Abs::Ends("Large language models (LLMs) show promise in clinical decisi", "ulti-turn adversarial testing for clinical AI certification."),
        subjects: &["cs.AI", "cs.HC"],
        comments: Some("11 pages, 5 figures"),
        journal_ref: None,
        listing_date: None,
    },
    E {
        id: "2601.16549",
        version: Some(None),
        kind: Kind::New,
        title: "LLM is Not All You Need: A Systematic Evaluation of ML vs. Foundation Models for text and image based Medical Classification",
        authors: &["Meet Raval", "Tejul Pandit", "Dhvani Upadhyay"],
        affiliations: &[],
        abs: Abs::Ends("The combination of multimodal Vision-Language Models (VLMs) ", "gy, as minimal fine-tuning proved detrimental in this study."),
        subjects: &["cs.AI"],
        comments: Some("9 pages, 5 figures, 3 tables, paper accepted in AAIML'26 conference"),
        journal_ref: None,
        listing_date: None,
    },
    E {
        id: "2601.16649",
        version: Some(None),
        kind: Kind::New,
        title: "LUMINA: Long-horizon Understanding for Multi-turn Interactive Agents",
        authors: &["Amin Rakhsha", "Thomas Hehn", "Pietro Mazzaglia", "Fabio Valerio Massoli", "Arash Behboodi", "Tribhuvanesh Orekondy"],
        affiliations: &[],
        abs: Abs::Ends("Large language models can perform well on many isolated task", "efforts in the development of AI agents and language models."),
        subjects: &["cs.AI"],
        comments: None,
        journal_ref: None,
        listing_date: None,
    },
    E {
        id: "2601.16685",
        version: Some(None),
        kind: Kind::New,
        title: "AgentsEval: Clinically Faithful Evaluation of Medical Imaging Reports via Multi-Agent Reasoning",
        authors: &["Suzhong Fu", "Jingqi Dong", "Xuan Ding", "Rui Sun", "Yiming Yang", "Shuguang Cui", "Zhen Li"],
        affiliations: &[],
        abs: Abs::Ends("Evaluating the clinical correctness and reasoning fidelity o", "integration of large language models into clinical practice."),
        subjects: &["cs.AI"],
        comments: None,
        journal_ref: None,
        listing_date: None,
    },
    E {
        id: "2601.16725",
        version: Some(None),
        kind: Kind::New,
        title: "LongCat-Flash-Thinking-2601 Technical Report",
        authors: &["Meituan LongCat Team", "Anchun Gui", "Bei Li", "Bingyang Tao", "Bole Zhou", "Borun Chen", "Chao Zhang", "Chao Zhang", "Chen Gao", "Chen Zhang", "Chengcheng Han", "Chenhui Yang", "Chuyu Zhang", "Cong Chen", "Cunguang Wang", "Daoru Pan", "Defei Bu", "Dengchang Zhao", "Di Xiu", "Dishan Liu", "Dongyu Ru", "Dunwei Tu", "Fan Wu", "Fengcheng Yuan", "Fengcun Li", "Gang Xu", "Guanyu Wu", "Guoyuan Lin", "Haibin Wang", "Hansi Yang", "Hao Yang", "Haonan Yan", "Haoxiang Ma", "Haoxing Wen", "Hongyan Hao", "Hongyin Tang", "Hongyu Zang", "Hongzhi Ni", "Hui Su", "Jiacheng Zhang", "Jiahong Zhou", "Jiahuan Li", "Jiaming Wang", "Jian Yang", "Jianfei Zhang", "Jianhao Xu", "Jianing Wang", "Jiapeng Zhu", "Jiaqi Sun", "Jiarong Shi", "Jiarui Zhao", "Jingang Wang", "Jinluan Yang", "Jinrui Ding", "Jinwei Xiao", "Jiyuan He", "Juncan Xu", "Kefeng Zhang", "Keheng Wang", "Li Wei", "Lianhui Ma", "Lin Qiu", "Lingbing Kong", "Lingchuan Liu", "Linsen Guo"],
        affiliations: &[],
        abs: Abs::Ends("We introduce LongCat-Flash-Thinking-2601, a 560-billion-para", "asoning depth and width through intensive parallel thinking."),
        subjects: &["cs.AI"],
        comments: None,
        journal_ref: None,
        listing_date: None,
    },
    E {
        id: "2601.16806",
        version: Some(None),
        kind: Kind::New,
        title: "An Efficient Insect-inspired Approach for Visual Point-goal Navigation",
        authors: &["Lu Yihe", "Barbara Webb"],
        affiliations: &[],
        abs: Abs::Ends("In this work we develop a novel insect-inspired agent for vi", "d environment shows the approach is robust to perturbations."),
        subjects: &["cs.AI", "cs.RO"],
        comments: None,
        journal_ref: None,
        listing_date: None,
    },
];

#[test]
fn mailing_cs_2026_01_20_full() {
    let f = "mailing-cs-AI-LG-SE-2026-01-20-full.txt";
    let p = run(f, 1141, &[(Kind::New, 345), (Kind::Cross, 362), (Kind::Replaced, 434)], MAIL_2026_01_20);
    mailing_dates(f, &p, "2026-01-20", "2026-01-21");
    // A line of an abstract that starts with `arXiv:` is not an entry.
    assert!(p.papers.iter().all(|x| x.id != "2601.00638"), "{f}: 2601.00638 (cited inside an abstract) read as a paper");
    // The replaced cross-lists (`(*cross-listing*)` after the replacements marker) are Replaced.
    for id in ["2601.10993", "2507.13941", "2512.14308"] {
        assert_eq!(find(f, &p, id).kind, Kind::Replaced, "{f} {id}: kind");
    }
}

#[test]
fn mailing_cs_2024_11_21_first2() {
    let f = "mailing-cs-AI-CV-LG-2024-11-21-first2.txt";
    let p = run(f, 2, &[(Kind::New, 2)], MAIL_2024_11_21);
    mailing_dates(f, &p, "2024-11-21", "2024-11-22");
}

#[test]
fn mailing_cs_2026_01_23_first5() {
    let f = "mailing-cs-AI-LG-SE-2026-01-23-first5.txt";
    let p = run(f, 5, &[(Kind::New, 5)], MAIL_2026_01_23);
    mailing_dates(f, &p, "2026-01-22", "2026-01-23");
}

#[test]
fn mailing_cs_2026_01_26_first10() {
    let f = "mailing-cs-AI-LG-SE-2026-01-26-first10.txt";
    let p = run(f, 10, &[(Kind::New, 10)], MAIL_2026_01_26);
    mailing_dates(f, &p, "2026-01-23", "2026-01-26");
}

// ---------------------------------------------------------------- 1997 monthly listing

const MATH_PH_1997: &[E] = &[
    E {
        id: "cond-mat/9701067",
        version: Some(None),
        kind: Kind::Cross,
        title: "On Exact Solutions to the Cylindrical Poisson-Boltzmann Equation with Applications to Polyelectrolytes",
        authors: &["C. A. Tracy", "H. Widom"],
        affiliations: &[],
        abs: Abs::Empty,
        subjects: &["cond-mat.soft", "math-ph", "math.MP", "nlin.SI", "physics.chem-ph", "solv-int"],
        comments: Some("12 pages, 4 figures, LaTeX file"),
        journal_ref: Some("Physica A 244 (1997) 402-413"),
        listing_date: None,
    },
    E {
        id: "cond-mat/9701102",
        version: Some(None),
        kind: Kind::Cross,
        title: "Pairing in the Bogoliubov-de Gennes equations",
        authors: &["Yong-Jihn Kim"],
        affiliations: &[],
        abs: Abs::Empty,
        subjects: &["cond-mat.supr-con", "math-ph", "math.MP"],
        comments: Some("16 pages, revtex, no figures, to appear in Int. J. Mod. Phys. B"),
        journal_ref: None,
        listing_date: None,
    },
    E {
        id: "funct-an/9701002",
        version: Some(None),
        kind: Kind::Cross,
        title: "Derivation of Local Gauge Freedom from a Measurement Principle",
        authors: &["Felix Finster"],
        affiliations: &[],
        abs: Abs::Empty,
        subjects: &["funct-an", "hep-th", "math-ph", "math.FA", "math.MP"],
        comments: Some("11 pages, LaTeX (printed version)"),
        journal_ref: Some("\"Photon and Poincare Group,\" V. Dvoeglazov (ed.), Nova Science Publishers (1999) 315-325"),
        listing_date: None,
    },
    E {
        id: "gr-qc/9701066",
        version: Some(None),
        kind: Kind::Cross,
        title: "On 3+1 decompositions with respect to an observer field via differential forms",
        authors: &["Marian Fecko"],
        affiliations: &[],
        abs: Abs::Empty,
        subjects: &["gr-qc", "dg-ga", "math-ph", "math.DG", "math.MP"],
        comments: Some("15 pages, AmsTeX, to be published in J.Math.Phys. (sept.'97), minor changes done"),
        journal_ref: Some("J.Math.Phys. 38 (1997) 4542-4560"),
        listing_date: None,
    },
    E {
        id: "hep-th/9701041",
        version: Some(None),
        kind: Kind::Cross,
        title: "Families of Singular and Subsingular Vectors of the Topological N=2 Superconformal Algebra",
        authors: &["Beatriz Gato-Rivera", "Jose Ignacio Rosado"],
        affiliations: &[],
        abs: Abs::Empty,
        subjects: &["hep-th", "alg-geom", "funct-an", "math-ph", "math.AG", "math.FA", "math.MP", "math.QA", "q-alg"],
        comments: Some("Latex, 51 pages. One figure. Many improvements. Major revision"),
        journal_ref: Some("Nucl.Phys. B514 (1998) 477-522"),
        listing_date: None,
    },
    E {
        id: "hep-th/9701179",
        version: Some(None),
        kind: Kind::Cross,
        title: "A nonperturbative form of the spectral action principle in noncommutative geometry",
        authors: &["H. Figueroa", "J. M. Gracia-Bondia", "F. Lizzi", "J. C. Varilly"],
        affiliations: &[],
        abs: Abs::Empty,
        subjects: &["hep-th", "gr-qc", "math-ph", "math.MP", "math.QA", "q-alg"],
        comments: Some("12 pages. LaTeX2e, instructions for obsolete LaTeX's"),
        journal_ref: Some("J.Geom.Phys. 26 (1998) 329-339"),
        listing_date: None,
    },
    E {
        id: "math.AP/9701214",
        version: Some(None),
        kind: Kind::Cross,
        title: "Retardation of Plateau-Rayleigh Instability: A Distinguishing Characteristic Among Perfectly Wetting Fluids",
        authors: &["John McCuan"],
        affiliations: &[],
        abs: Abs::Empty,
        subjects: &["math.AP", "math-ph", "math.MP"],
        comments: None,
        journal_ref: None,
        listing_date: None,
    },
    E {
        id: "physics/9701004",
        version: Some(None),
        kind: Kind::Cross,
        title: "The Complete Cohomology of $E_8$ Lie Algebra",
        authors: &["H.R.Karadayi", "M.Gungormez"],
        affiliations: &[],
        abs: Abs::Empty,
        subjects: &["physics", "hep-th", "math-ph", "math.MP", "math.QA", "q-alg"],
        comments: Some("17 pages, in TeX file, change in e-mail address"),
        journal_ref: None,
        listing_date: None,
    },
    E {
        id: "physics/9701006",
        version: Some(None),
        kind: Kind::Cross,
        title: "New Symmetries in Mathematical Physics Equations",
        authors: &["G. A. Kotel'nikov"],
        affiliations: &["RRC \"Kurchatov Institute\", Moscow, Russia"],
        abs: Abs::Empty,
        subjects: &["physics", "math-ph", "math.MP"],
        comments: Some("7 pages, LaTeX, Report at the 7th International Conference \"Symmetry Methods in Physics\", JINR, Dubna, Russia, July 10-16, 1995"),
        journal_ref: Some("Proc. 7th Int. Conf. \"Symmetry Methods in Physics\", Dubna, 2 (1996) 358-363"),
        listing_date: None,
    },
    E {
        id: "physics/9701009",
        version: Some(None),
        kind: Kind::Cross,
        title: "Implementation of Endomorphisms of the CAR Algebra",
        authors: &["Carsten Binnenhei"],
        affiliations: &[],
        abs: Abs::Empty,
        subjects: &["physics", "funct-an", "hep-th", "math-ph", "math.FA", "math.MP"],
        comments: Some("30 pages, Latex 2.09, uses amssym.def"),
        journal_ref: Some("Rev. Math. Phys. 7 (1995) 833-869"),
        listing_date: None,
    },
    E {
        id: "physics/9701010",
        version: Some(None),
        kind: Kind::Cross,
        title: "On The Even CAR Algebra",
        authors: &["Carsten Binnenhei"],
        affiliations: &[],
        abs: Abs::Empty,
        subjects: &["physics", "funct-an", "hep-th", "math-ph", "math.FA", "math.MP"],
        comments: Some("3 pages, Latex, uses amssym.def and kluwer.sty, appears in Lett. Math. Phys"),
        journal_ref: Some("Lett. Math. Phys. 40 (1) (1997), 91-93"),
        listing_date: None,
    },
    E {
        id: "physics/9701011",
        version: Some(None),
        kind: Kind::Cross,
        title: "$O_\\infty$ Realized on Bose Fock Space",
        authors: &["Carsten Binnenhei"],
        affiliations: &[],
        abs: Abs::Empty,
        subjects: &["physics", "funct-an", "hep-th", "math-ph", "math.FA", "math.MP"],
        comments: Some("20 pages, Latex, uses amsmath"),
        journal_ref: Some("Commun. Math. Phys. 195, 353-372 (1998)"),
        listing_date: None,
    },
    E {
        id: "physics/9701016",
        version: Some(None),
        kind: Kind::Cross,
        title: "Supersymmetric techniques applied to the Jacobi equation",
        authors: &["H.C. Rosu", "J.R. Guzmán"],
        affiliations: &[],
        abs: Abs::Empty,
        subjects: &["physics", "math-ph", "math.MP"],
        comments: Some("6 pages, LaTex"),
        journal_ref: Some("European J. Phys. 19 (May 1998) 287-292"),
        listing_date: None,
    },
    E {
        id: "physics/9701019",
        version: Some(None),
        kind: Kind::Cross,
        title: "Lie Symmetries of the Self-Dual Yang-Mills Equations",
        authors: &["Marc Voyer", "Louis Marchildon"],
        affiliations: &["?Universite du Quebec", "Universite du Quebec"],
        abs: Abs::Empty,
        subjects: &["physics", "math-ph", "math.MP"],
        comments: Some("5 pages, LaTeX, no figures; contribution to Group21 in Goslar"),
        journal_ref: Some("Proc. of the XXIst ICGTMP, 1017-1021 (1997)"),
        listing_date: None,
    },
    E {
        id: "q-alg/9701029",
        version: Some(None),
        kind: Kind::Cross,
        title: "A nonlinear deformed su(2) algebra with a two-colour quasitriangular Hopf structure",
        authors: &["D. Bonatsos", "C. Daskaloyannis", "P. Kolokotronis", "A. Ludu", "C. Quesne"],
        affiliations: &[],
        abs: Abs::Empty,
        subjects: &["q-alg", "hep-th", "math-ph", "math.MP", "math.QA"],
        comments: Some("28 pages, LaTeX, no figures, to be published in J. Math. Phys"),
        journal_ref: Some("J. Math. Phys. 38 (1997) 369-386"),
        listing_date: None,
    },
    E {
        id: "q-alg/9701030",
        version: Some(None),
        kind: Kind::Cross,
        title: "Nonlinear deformed su(2) algebras involving two deforming functions",
        authors: &["D. Bonatsos", "C. Daskaloyannis", "P. Kolokotronis", "A. Ludu", "C. Quesne"],
        affiliations: &[],
        abs: Abs::Empty,
        subjects: &["q-alg", "hep-th", "math-ph", "math.MP", "math.QA"],
        comments: Some("<skip>"),
        journal_ref: Some("Czech. J. Phys. 46 (1996) 1189-1196"),
        listing_date: None,
    },
    E {
        id: "q-alg/9701031",
        version: Some(None),
        kind: Kind::Cross,
        title: "Representation Theory of Generalized Deformed Oscillator Algebras",
        authors: &["C. Quesne", "N. Vansteenkiste"],
        affiliations: &[],
        abs: Abs::Empty,
        subjects: &["q-alg", "hep-th", "math-ph", "math.MP", "math.QA"],
        comments: Some("<skip>"),
        journal_ref: Some("Czech. J. Phys. 47 (1997) 115-122"),
        listing_date: None,
    },
];

#[test]
fn internal_listing_math_ph_1997_01() {
    run("internal-listing-monthly-math-ph-1997-01.txt", 17, &[(Kind::Cross, 17)], MATH_PH_1997);
}

// ---------------------------------------------------------------- Kaggle snapshot (JSONL)
// version: the last of `versions` (the one the title and abstract describe).

const SNAPSHOT: &[E] = &[
    E {
        id: "0704.0001",
        version: Some(Some(2)),
        kind: Kind::Snapshot,
        title: "Calculation of prompt diphoton production cross sections at Tevatron and LHC energies",
        authors: &["C. Balázs", "E. L. Berger", "P. M. Nadolsky", "C.-P. Yuan"],
        affiliations: &[],
        abs: Abs::Full("A fully differential calculation in perturbative quantum chromodynamics is presented for the production of massive photon pairs at hadron colliders. All next-to-leading order perturbative contributions from quark-antiquark, gluon-(anti)quark, and gluon-gluon subprocesses are included, as well as all-orders resummation of initial-state gluon radiation valid at next-to-next-to-leading logarithmic accuracy. The region of phase space is specified in which the calculation is most reliable. Good agreement is demonstrated with data from the Fermilab Tevatron, and predictions are made for more detailed tests with CDF and DO data. Predictions are shown for distributions of diphoton pairs produced at the energy of the Large Hadron Collider (LHC). Distributions of the diphoton pairs from the decay of a Higgs boson are contrasted with those produced from QCD processes at the LHC, showing that enhanced sensitivity to the signal can be obtained with judicious selection of events."),
        subjects: &["hep-ph"],
        comments: Some("37 pages, 15 figures; published version"),
        journal_ref: Some("Phys.Rev.D76:013009,2007"),
        listing_date: Some(Some("2007-04-02")),
    },
    E {
        id: "0704.0002",
        version: Some(Some(2)),
        kind: Kind::Snapshot,
        title: "Sparsity-certifying Graph Decompositions",
        authors: &["Ileana Streinu", "Louis Theran"],
        affiliations: &[],
        abs: Abs::Ends("We describe a new algorithm, the $(k,\\ell)$-pebble game with", "h algorithms by Gabow, Gabow and Westermann and Hendrickson."),
        subjects: &["math.CO", "cs.CG"],
        comments: Some("To appear in Graphs and Combinatorics"),
        journal_ref: None,
        listing_date: Some(Some("2007-03-31")),
    },
    E {
        id: "0704.0020",
        version: Some(Some(1)),
        kind: Kind::Snapshot,
        title: "Measurement of the Hadronic Form Factor in D0 --> K- e+ nue Decays",
        authors: &["The BABAR Collaboration", "B. Aubert"],
        affiliations: &[],
        abs: Abs::Ends("The shape of the hadronic form factor f+(q2) in the decay D0", "istical, systematic, and from external inputs, respectively."),
        subjects: &["hep-ex"],
        comments: Some("21 pages, 13 postscript figures, submitted to Phys. Rev. D, contributed to 42nd Rencontres de Moriond: QCD and Hadronic Interactions"),
        journal_ref: Some("Phys.Rev.D76:052005,2007"),
        listing_date: Some(Some("2007-03-31")),
    },
    E {
        id: "0704.0025",
        version: Some(Some(1)),
        kind: Kind::Snapshot,
        title: "Spectroscopic Properties of Polarons in Strongly Correlated Systems by Exact Diagrammatic Monte Carlo Method",
        authors: &["A. S. Mishchenko", "N. Nagaosa"],
        affiliations: &["CREST, Japan Science and Technology Agency; Russian Research Centre “Kurchatov Institute”", "CREST, Japan Science and Technology Agency; The University of Tokyo"],
        abs: Abs::Ends("We present recent advances in understanding of the ground an", "exciton, and interacting with phonons hole in the t-J model."),
        subjects: &["cond-mat.str-el", "cond-mat.stat-mech"],
        comments: Some("41 pages, 13 figures, in \"Polarons in Advanced Materials\" ed. A. S. Alexandrov (Canopus/Springer Publishing, Bristol (2007)), pp. 503-544."),
        journal_ref: None,
        listing_date: Some(Some("2007-04-02")),
    },
    E {
        id: "0704.0044",
        version: Some(Some(4)),
        kind: Kind::Snapshot,
        title: "Astrophysical gyrokinetics: kinetic and fluid turbulent cascades in magnetized weakly collisional plasmas",
        authors: &["A. A. Schekochihin", "S. C. Cowley", "W. Dorland", "G. W. Hammett", "G. G. Howes", "E. Quataert", "T. Tatsuno"],
        affiliations: &["Oxford", "Culham", "Maryland", "Princeton", "Iowa", "Berkeley", "Maryland"],
        abs: Abs::Ends("We present a theoretical framework for plasma turbulence in ", "cal and space-physical applications are discussed in detail."),
        subjects: &["astro-ph", "nlin.CD", "physics.plasm-ph", "physics.space-ph"],
        comments: Some("aastex using emulateapj, 65 pages, 10 figures; replaced to match published version"),
        journal_ref: Some("ApJS 182, 310 (2009)"),
        listing_date: Some(Some("2007-03-31")),
    },
    E {
        id: "0704.0049",
        version: Some(Some(1)),
        kind: Kind::Snapshot,
        title: "An algorithm for the classification of smooth Fano polytopes",
        authors: &["Mikkel Øbro"],
        affiliations: &[],
        abs: Abs::Full("We present an algorithm that produces the classification list of smooth Fano d-polytopes for any given d. The input of the algorithm is a single number, namely the positive integer d. The algorithm has been used to classify smooth Fano d-polytopes for d<=7. There are 7622 isomorphism classes of smooth Fano 6-polytopes and 72256 isomorphism classes of smooth Fano 7-polytopes."),
        subjects: &["math.CO"],
        comments: Some("17 pages."),
        journal_ref: None,
        listing_date: Some(Some("2007-04-02")),
    },
    E {
        id: "0704.0062",
        version: Some(Some(1)),
        kind: Kind::Snapshot,
        title: "On-line Viterbi Algorithm and Its Relationship to Random Walks",
        authors: &["Rastislav Šrámek", "Broňa Brejová", "Tomáš Vinař"],
        affiliations: &[],
        abs: Abs::Ends("In this paper, we introduce the on-line Viterbi algorithm fo", "M for gene finding on both simulated and real DNA sequences."),
        subjects: &["cs.DS"],
        comments: None,
        journal_ref: Some("Algorithms in Bioinformatics: 7th International Workshop (WABI), 4645 volume of Lecture Notes in Computer Science, pp. 240-251, Philadelphia, PA, USA, September 2007. Springer"),
        listing_date: Some(Some("2007-03-31")),
    },
    E {
        id: "0704.0155",
        version: Some(Some(1)),
        kind: Kind::Snapshot,
        title: "A computer program for fast non-LTE analysis of interstellar line spectra",
        authors: &["Floris van der Tak", "John Black", "Fredrik Schoeier", "David Jansen", "Ewine van Dishoeck"],
        affiliations: &["SRON Groningen", "Onsala", "Stockholm", "?Leiden", "Leiden"],
        abs: Abs::Ends("The large quantity and high quality of modern radio and infr", "tions from current and future radio and infrared telescopes."),
        subjects: &["astro-ph"],
        comments: Some("Accepted by A&A; 18 A4 pages, 11 figures"),
        journal_ref: None,
        listing_date: Some(Some("2007-04-02")),
    },
    E {
        id: "0704.0174",
        version: Some(Some(1)),
        kind: Kind::Snapshot,
        title: "Reparametrization Invariance, the controversial extraction of $\\alpha$ from $B\\to\\pi\\pi$ and New Physics",
        authors: &["Francisco J. Botella", "Miguel Nebot"],
        affiliations: &["Valencia U. & Valencia U., IFIC", "Lisbon, IST"],
        abs: Abs::Ends("The extraction of the weak phase $\\alpha$ from $B\\to\\pi\\pi$ ", "trary New Physics contributions to the $\\Delta I=1/2$ piece."),
        subjects: &["hep-ph", "hep-ex"],
        comments: Some("25 pages, 40 figures"),
        journal_ref: None,
        listing_date: Some(Some("2007-04-02")),
    },
    E {
        id: "0704.0177",
        version: Some(Some(1)),
        kind: Kind::Snapshot,
        title: "Robust manipulation of electron spin coherence in an ensemble of singly charged quantum dots",
        authors: &["A. Greilich", "M. Wiemann", "F. G. G. Hernandez", "D. R. Yakovlev", "I. A. Yugova", "A. Shabaev", "Al. L. Efros", "D. Reuter", "A. D. Wieck", "M. Bayer"],
        affiliations: &["Universität Dortmund, Germany", "Universität Dortmund, Germany", "Universität Dortmund, Germany", "Universität Dortmund, Germany", "Universität Dortmund, Germany", "Washington, USA", "Washington, USA", "Ruhr-Universität Bochum, Germany", "Ruhr-Universität Bochum, Germany", "Universität Dortmund, Germany"],
        abs: Abs::Ends("Using the recently reported mode locking effect we demonstra", " inverting the polarization within a pulse doublet sequence."),
        subjects: &["physics.optics"],
        comments: Some("5 Pages, 3 figures"),
        journal_ref: Some("Phys. Rev. B 75, 233301 (2007)"),
        listing_date: Some(Some("2007-04-02")),
    },
    E {
        id: "0704.0199",
        version: Some(Some(3)),
        kind: Kind::Snapshot,
        title: "Decomposition numbers for finite Coxeter groups and generalised non-crossing partitions",
        authors: &["Christian Krattenthaler", "Thomas Müller"],
        affiliations: &["Universität Wien", "Queen Mary & Westfield College, University of London"],
        abs: Abs::Ends("Given a finite irreducible Coxeter group $W$, a positive int", "ds to a proof of Armstrong's $F=M$ Conjecture in type $D_n$."),
        subjects: &["math.CO", "math.GR"],
        comments: Some("AmS-LaTeX; 65 pages. Final version to appear in Trans. Amer. Math. Soc"),
        journal_ref: Some("Trans. Amer. Math. Soc. 362 (2010), 2723-2787"),
        listing_date: Some(Some("2007-04-02")),
    },
    E {
        id: "0704.0200",
        version: Some(Some(1)),
        kind: Kind::Snapshot,
        title: "Electromagnetic polarizabilities and the excited states of the nucleon",
        authors: &["Martin Schumacher"],
        affiliations: &[],
        abs: Abs::Ends("The electromagnetic polarizabilities of the nucleon are show", "6$ MeV and two-photon width $\\Gamma_{\\gamma\\gamma}=2.6$ keV."),
        subjects: &["hep-ph", "nucl-ex"],
        comments: None,
        journal_ref: Some("Eur.Phys.J.A31:327-333,2007"),
        listing_date: Some(Some("2007-04-02")),
    },
];

#[test]
fn snapshot_kaggle_first200() {
    let f = "snapshot-kaggle-first200.jsonl";
    let p = run(f, 200, &[(Kind::Snapshot, 200)], SNAPSHOT);
    // authors_parsed agrees with the authors string: keep the "et al" out.
    assert!(find(f, &p, "0704.0020").authors.iter().all(|a| !a.contains("et al")));
}

// ---------------------------------------------------------------- listing HTML
// version is not asserted: the page shows vN only inside some "html" links.

const HTML_GR_QC: &[E] = &[
    E {
        id: "2408.03961",
        version: None,
        kind: Kind::New,
        title: "Barrow Holographic Dark Energy in f (Q, T) gravity",
        authors: &["N. Myrzakulov", "S. H. Shekh", "Anirudh Pradhan", "K Ghaderi"],
        affiliations: &[],
        abs: Abs::Full("In the present analysis, we explore a new version of dark energy called Barrow holographic dark energy within the framework modified gravity called $f(Q,T)$ gravity by adopting the simple homogeneous, isotropic, and spatially flat Friedmann-Robertson-Walker (FRW) model of the universe. Our goal is to understand how the universe evolved over time. To do this, we use parameterizetion of Hubble's parameter method. We then use a powerful tool called Monte Carlo Markov Chain to find the best values for the constants in our formula. We do this by comparing our formula to actual data from observations of the universe. Once we have the best values for the constants, we calculate other important parameters that describe the universe's evolution. These include: Deceleration parameter which measures how quickly the expansion is slowing down. We found $q_0 = -0.601^{+0.0131}_{-0.0131}$. Equation of state parameter to measures the properties of dark energy. We find $\\omega_0 = -0.7018^{+0.0101}_{-0.0101}$. We also study the stability and energy conditions along with the state-finder and $O_m(z)$-parameter of our model to ensure it's consistent with our understanding of the universe."),
        subjects: &["gr-qc"],
        comments: Some("11 pages, 7 figures. arXiv admin note: text overlap with arXiv:2408.00022"),
        journal_ref: None,
        listing_date: Some(Some("2024-08-09")),
    },
    E {
        id: "2305.16009",
        version: None,
        kind: Kind::Replaced,
        title: "Ergodic Concepts for a Self-Organizing Trivalent Spin Network: A Path to $(2+1)$-dimensional Black Hole Entropy",
        authors: &["Christine C. Dantas"],
        affiliations: &["Astrophysics Division, INPE, Brazil"],
        abs: Abs::Ends("We consider, from a dynamical systems point of view, a triva", "on the thermodynamical formalism of Sinai, Ruelle and Bowen."),
        subjects: &["gr-qc"],
        comments: Some("15 pages, 2 figures. Final version, accepted for publication in Annalen der Physik"),
        journal_ref: None,
        listing_date: Some(Some("2024-08-09")),
    },
    E {
        id: "2311.14475",
        version: None,
        kind: Kind::Replaced,
        title: "Spin oscillations in neutrino gravitational scattering",
        authors: &["Mridupawan Deka", "Maxim Dvornikov"],
        affiliations: &["JINR", "JINR; IZMIRAN"],
        abs: Abs::Ends("We study neutrino spin oscillations while the particles scat", "pplications for the observations of astrophysical neutrinos."),
        subjects: &["hep-ph", "astro-ph.HE", "gr-qc"],
        comments: Some("7 pages in Revtex4.1, 6 eps figures; contribution to proceedings of XIX Workshop on High Energy Spin Physics, DSPIN-23 (September 4-8, 2023, JINR, Dubna, Russia); minimal changes; published in Phys.Atom.Nucl"),
        journal_ref: Some("Physics of Atomic Nuclei 87, 483-488 (2024)"),
        listing_date: Some(Some("2024-08-09")),
    },
    E {
        id: "2408.04399",
        version: None,
        kind: Kind::Cross,
        title: "A supersymmetric spin current",
        authors: &["Casey Cartwright", "Domingo Gallegos", "Umut Gürsoy", "Roi Klein", "Amos Yarom"],
        affiliations: &[],
        abs: Abs::Ends("We study the supersymmetric structure of the spin current in", "for holographic studies of theories with background torsion."),
        subjects: &["hep-th", "gr-qc"],
        comments: None,
        journal_ref: None,
        listing_date: Some(Some("2024-08-09")),
    },
    E {
        id: "2408.04530",
        version: None,
        kind: Kind::Cross,
        title: "Multidimensionality of the Hubble tension: the roles of $\\Omega_m$ and $\\omega_c$",
        authors: &["Davide Pedrotti", "Jun-Qian Jiang", "Luis A. Escamilla", "Simony Santos da Costa", "Sunny Vagnozzi"],
        affiliations: &[],
        abs: Abs::Ends("The Hubble tension is inherently multidimensional, and bears", "epresented by galaxy cluster gas mass fraction measurements."),
        subjects: &["astro-ph.CO", "gr-qc", "hep-ph"],
        comments: Some("15 pages, 4 figures"),
        journal_ref: None,
        listing_date: Some(Some("2024-08-09")),
    },
    E {
        id: "2408.02720",
        version: None,
        kind: Kind::Replaced,
        title: "Do holographic CFT states have unique semiclassical bulk duals?",
        authors: &["Stefano Antonini", "Pratik Rath"],
        affiliations: &[],
        abs: Abs::Ends("We discuss a situation where a holographic CFT state has mul", "the black hole interior and the gravitational path integral."),
        subjects: &["hep-th", "gr-qc"],
        comments: Some("10 pages, 3 figures, Essay written for the Gravity Research Foundation 2025 Awards for Essays on Gravitation, typos fixed in v2"),
        journal_ref: None,
        listing_date: Some(Some("2024-08-09")),
    },
];

const HTML_HEP_PH: &[E] = &[
    E {
        id: "2408.03983",
        version: None,
        kind: Kind::New,
        title: "Loosely Bound Composite Dark Matter",
        authors: &["Javier F. Acevedo", "Yilda Boukhtouchen", "Joseph Bramante", "Chris Cappiello", "Gopolang Mohlabeng", "Narayani Tyagi"],
        affiliations: &[],
        abs: Abs::Full("We investigate loosely bound composite states made of dark matter, where the binding energy for constituent particles is less than the constituent mass. We focus on models of nuclear and molecular dark matter, where constituents are separated by length scales larger than the inverse constituent mass, just like nuclei and atoms in the Standard Model. The cosmology, structure, and interactions at underground experiments are described. We find that loosely bound composites can have a very large cross section for scattering with nuclei that scales with nucleon number like $\\sim A^4$. For some couplings, these composites produce extremely soft ($\\ll$ keV) individual atomic recoils while depositing a large amount of total recoil energy ($\\gg$ keV) in a single passage through a detector, implying an interesting new class of signatures for low threshold direct detection."),
        subjects: &["hep-ph", "hep-ex"],
        comments: Some("12 pages, 6 figures"),
        journal_ref: None,
        listing_date: Some(Some("2024-08-09")),
    },
    E {
        id: "2408.03989",
        version: None,
        kind: Kind::New,
        title: "Three-Loop OPE Wilson Coefficients of Dimension-Four Operators for (Axial-)Vector and (Pseudo-)Scalar Current Correlators",
        authors: &["Robin Brüser", "André H. Hoang", "Maximilian Stahlhofen"],
        affiliations: &[],
        abs: Abs::Ends("We calculate the three-loop Wilson coefficients of all physi", "let diagrams are consistent with the one-loop axial anomaly."),
        subjects: &["hep-ph"],
        comments: Some("34 pages, 2 figures, 2 appendices, 1 ancillary file"),
        journal_ref: None,
        listing_date: Some(Some("2024-08-09")),
    },
    E {
        id: "2408.04589",
        version: None,
        kind: Kind::New,
        title: "Effective K\\\"ahler and auxiliary field potentials for chiral superfield models at three loops",
        authors: &["Stephen P. Martin"],
        affiliations: &[],
        abs: Abs::Ends("I obtain the effective Kähler potential at three-loop order ", "isting knowledge of the ordinary scalar effective potential."),
        subjects: &["hep-ph"],
        comments: Some("20 pages"),
        journal_ref: None,
        listing_date: Some(Some("2024-08-09")),
    },
    E {
        id: "2408.04623",
        version: None,
        kind: Kind::New,
        title: "Axion production via trapped misalignment from Peccei-Quinn symmetry breaking",
        authors: &["Luca Di Luzio", "Philip Sørensen"],
        affiliations: &[],
        abs: Abs::Ends("The Peccei-Quinn (PQ) symmetry does not need to be exact, an", "rches for electric dipole moments and axion-mediated forces."),
        subjects: &["hep-ph", "astro-ph.CO"],
        comments: Some("22 pages, 4 figures"),
        journal_ref: None,
        listing_date: Some(Some("2024-08-09")),
    },
    E {
        id: "2311.14475",
        version: None,
        kind: Kind::Replaced,
        title: "Spin oscillations in neutrino gravitational scattering",
        authors: &["Mridupawan Deka", "Maxim Dvornikov"],
        affiliations: &["JINR", "JINR; IZMIRAN"],
        abs: Abs::Ends("We study neutrino spin oscillations while the particles scat", "pplications for the observations of astrophysical neutrinos."),
        subjects: &["hep-ph", "astro-ph.HE", "gr-qc"],
        comments: Some("7 pages in Revtex4.1, 6 eps figures; contribution to proceedings of XIX Workshop on High Energy Spin Physics, DSPIN-23 (September 4-8, 2023, JINR, Dubna, Russia); minimal changes; published in Phys.Atom.Nucl"),
        journal_ref: Some("Physics of Atomic Nuclei 87, 483-488 (2024)"),
        listing_date: Some(Some("2024-08-09")),
    },
    E {
        id: "2408.03995",
        version: None,
        kind: Kind::Cross,
        title: "$\\gamma$-Cascade V4: A Semi-Analytical Code for Modeling Cosmological Gamma-Ray Propagation",
        authors: &["Antonio Capanema", "Carlos Blanco"],
        affiliations: &[],
        abs: Abs::Ends("Since the universe is not transparent to gamma rays with ene", " this new code to existing electromagnetic transport models."),
        subjects: &["astro-ph.HE", "astro-ph.CO", "astro-ph.GA", "hep-ph"],
        comments: Some("24 pages, 7 figures"),
        journal_ref: None,
        listing_date: Some(Some("2024-08-09")),
    },
    E {
        id: "2406.06677",
        version: None,
        kind: Kind::Replaced,
        title: "Uncertainty quantification for $\\mu \\to e$ conversion in nuclei: charge distributions",
        authors: &["Frederic Noël", "Martin Hoferichter"],
        affiliations: &[],
        abs: Abs::Ends("Predicting the rate for $\\mu\\to e$ conversion in nuclei for ", "l $\\mu\\to e$ conversion rates with quantified uncertainties."),
        subjects: &["nucl-th", "hep-ex", "hep-ph", "nucl-ex"],
        comments: Some("63 pages, 17 figures, python notebook with charge distributions included as supplementary material; journal version"),
        journal_ref: Some("JHEP 08 (2024) 052"),
        listing_date: Some(Some("2024-08-09")),
    },
    E {
        id: "2406.07624",
        version: None,
        kind: Kind::Replaced,
        title: "Dark Spiky Primordial Black Holes",
        authors: &["Aurora Ireland"],
        affiliations: &[],
        abs: Abs::Ends("Recent observations of nearby black hole low-mass X-ray bina", "y of a primordial origin for these stellar-mass black holes."),
        subjects: &["astro-ph.CO", "gr-qc", "hep-ph"],
        comments: Some("12 pages, 1 figure; added discussion, appendix, and citations; matches version submitted for publication"),
        journal_ref: None,
        listing_date: Some(Some("2024-08-09")),
    },
];

const HTML_HEP_TH: &[E] = &[
    E {
        id: "2408.04000",
        version: None,
        kind: Kind::New,
        title: "Quantisation of type IIB superstring theory and the matrix model",
        authors: &["Yuhma Asano"],
        affiliations: &[],
        abs: Abs::Full("We discuss the path-integral quantisation of perturbative string theory and show equivalence between the Polyakov-type, Schild-type and Nambu-Goto-type formulations of critical type II superstring theory. Remarkably, we also find that the Minkowskian path integral realises causality in the sense that a string does not propagate between points at space-like separation, by giving careful consideration to the measure of the world-sheet metric. We also discuss matrix regularisation of the path integral for type IIB perturbative superstring theory. The obtained matrix models are the Euclidean IKKT matrix model and a modified Minkowskian IKKT model, known as the NBI matrix model, depending on how the matrix regularisation is applied."),
        subjects: &["hep-th"],
        comments: Some("27 pages"),
        journal_ref: None,
        listing_date: Some(Some("2024-08-09")),
    },
    E {
        id: "2408.04001",
        version: None,
        kind: Kind::New,
        title: "Holographic Gubser flow: A combined analytic and numerical study",
        authors: &["Toshali Mitra", "Sukrut Mondkar", "Ayan Mukhopadhyay", "Alexander Soloviev"],
        affiliations: &[],
        abs: Abs::Full("Gubser flow is an evolution with cylindrical and boost symmetries, which can be best studied by mapping the future wedge of Minkowski space (R$^{3,1}$) to dS$_3$ $\\times$ $\\mathbb{R}$ in a conformal relativistic theory. Here, we sharpen our previous analytic results and validate them via the first numerical exploration of the Gubser flow in a holographic conformal field theory.\nRemarkably, the leading generic behavior at large de Sitter time is free-streaming in transverse directions and the sub-leading behavior is that of a color glass condensate. We also show that Gubser flow can be smoothly glued to the vacuum outside the future Minkowski wedge generically given that the energy density vanishes faster than any power when extrapolated to early proper time or to large distances from the central axis. We find that at intermediate times the ratio of both the transverse and longitudinal pressures to the energy density converge approximately to a fixed point which is hydrodynamic only for large initial energy densities. We argue that our results suggest that the Gubser flow is better applied to collective behavior in jets rather than the full medium in the phenomenology of heavy ion collisions and can reveal new clues to the mechanism of confinement."),
        subjects: &["hep-th", "gr-qc", "hep-ph"],
        comments: Some("59 pages, 16 figures"),
        journal_ref: None,
        listing_date: Some(Some("2024-08-09")),
    },
    E {
        id: "2406.15860",
        version: None,
        kind: Kind::Replaced,
        title: "Elliptic Deformation of the Gaiotto-Rap\\v{c}\\'{a}k Corner VOA and the Associated Partially Symmetric Polynomials",
        authors: &["Panupong Cheewaphutthisakun", "Jun'ichi Shiraishi", "Keng Wiboonton"],
        affiliations: &[],
        abs: Abs::Ends("We construct the elliptic Miura transformation and use it to", "raishi, can be obtained as a particular case of this family."),
        subjects: &["hep-th", "math-ph", "math.CO", "math.QA", "math.RT"],
        comments: Some("44 pages, version to appear in JHEP"),
        journal_ref: None,
        listing_date: Some(Some("2024-08-09")),
    },
    E {
        id: "2408.03981",
        version: None,
        kind: Kind::Cross,
        title: "A Higher Spin Statistics Theorem for Invertible Quantum Field Theories",
        authors: &["Cameron Krulewski", "Lukas Müller", "Luuk Stehouwer"],
        affiliations: &[],
        abs: Abs::Ends("We prove that every unitary invertible quantum field theory ", "y invertible quantum field theory intertwines these actions."),
        subjects: &["math-ph", "hep-th", "math.AT"],
        comments: Some("6 pages, no figures"),
        journal_ref: None,
        listing_date: Some(Some("2024-08-09")),
    },
    E {
        id: "2309.07440",
        version: None,
        kind: Kind::Replaced,
        title: "Stochastic tunneling in de Sitter spacetime",
        authors: &["Taiga Miyachi", "Jiro Soda", "Junsei Tokuda"],
        affiliations: &[],
        abs: Abs::Ends("Tunneling processes in de Sitter spacetime are studied by us", " investigating various tunneling processes during inflation."),
        subjects: &["hep-th", "gr-qc"],
        comments: Some("39 pages, 10 figures"),
        journal_ref: None,
        listing_date: Some(Some("2024-08-09")),
    },
    E {
        id: "2408.04428",
        version: None,
        kind: Kind::New,
        title: "Localized RG flows on composite defects and $\\mathcal{C}$-theorem",
        authors: &["Dongsheng Ge", "Tatsuma Nishioka", "Soichiro Shimamori"],
        affiliations: &[],
        abs: Abs::Ends("We consider a composite defect system where a lower-dimensio", "C}$-theorem holds in our model by perturbative calculations."),
        subjects: &["hep-th", "cond-mat.stat-mech", "cond-mat.str-el"],
        comments: Some("35 pages, 11 figures"),
        journal_ref: None,
        listing_date: Some(Some("2024-08-09")),
    },
    E {
        id: "2407.15919",
        version: None,
        kind: Kind::Replaced,
        title: "Lectures on the quantum phase transitions of metals",
        authors: &["Subir Sachdev"],
        affiliations: &[],
        abs: Abs::Ends("Quantum phase transitions of metals involve changes in the F", " a universal two-dimensional Yukawa-Sachdev-Ye-Kitaev model."),
        subjects: &["cond-mat.str-el", "hep-th"],
        comments: Some("52 pages and 168 slides; Lecture notes and slides for `Prospects in Theoretical Physics 2024', Quantum Matter Summer School, Institute for Advanced Study, Princeton, July 8-19, 2024; Lecture videos at this https URL"),
        journal_ref: None,
        listing_date: Some(Some("2024-08-09")),
    },
];

const HTML_MATH_PH: &[E] = &[
    E {
        id: "2408.03981",
        version: None,
        kind: Kind::New,
        title: "A Higher Spin Statistics Theorem for Invertible Quantum Field Theories",
        authors: &["Cameron Krulewski", "Lukas Müller", "Luuk Stehouwer"],
        affiliations: &[],
        abs: Abs::Full("We prove that every unitary invertible quantum field theory satisfies a generalization of the famous spin statistics theorem. To formulate this extension, we define a `higher spin' action of the stable orthogonal group $O$ on appropriate spacetime manifolds, which extends both the reflection involution and spin flip. On the algebraic side, we define a `higher statistics' action of $O$ on the universal target for invertible field theories, $I\\mathbb{Z}$, which extends both complex conjugation and fermion parity $(-1)^F$. We prove that every unitary invertible quantum field theory intertwines these actions."),
        subjects: &["math-ph", "hep-th", "math.AT"],
        comments: Some("6 pages, no figures"),
        journal_ref: None,
        listing_date: Some(Some("2024-08-09")),
    },
    E {
        id: "2403.17583",
        version: None,
        kind: Kind::Replaced,
        title: "Point potentials on Euclidean space, hyperbolic space and sphere in any dimension",
        authors: &["Jan Dereziński", "Christian Gaß", "Błażej Ruba"],
        affiliations: &[],
        abs: Abs::Ends("In dimensions d= 1, 2, 3 the Laplacian can be perturbed by a", "y the point-splitting method and dimensional regularization."),
        subjects: &["math-ph"],
        comments: Some("52 pages"),
        journal_ref: None,
        listing_date: Some(Some("2024-08-09")),
    },
    E {
        id: "2211.14934",
        version: None,
        kind: Kind::Replaced,
        title: "From logarithmic delocalization of the six-vertex height function under sloped boundary conditions to weakened crossing probability estimates for the Ashkin-Teller, generalized random-cluster, and $(q_{\\sigma},q_{\\tau})$-cubic models",
        authors: &["Pete Rigas"],
        affiliations: &[],
        abs: Abs::Ends("To obtain Russo-Seymour-Welsh estimates for the height funct", " of faces within the strip freeze with positive probability."),
        subjects: &["math.PR", "cond-mat.stat-mech", "math-ph"],
        comments: Some("167 pages (removed 3 figures from previous version, made several minor edits). Presentation at: this https URL for six-vertex, this https URL for Ashkin-Teller, this https URL for generalized random-cluster. Related topics are at: this https URL, this https URL"),
        journal_ref: None,
        listing_date: Some(Some("2024-08-09")),
    },
    E {
        id: "2408.04542",
        version: None,
        kind: Kind::New,
        title: "Local Central Limit Theorem for unbounded long-range potentials",
        authors: &["Eric O. Endo", "Roberto Fernández", "Vlad Margarint", "Nguyen Tong Xuan"],
        affiliations: &[],
        abs: Abs::Ends("We prove the equivalence between the integral central limit ", "ilution\") technique, also introduced in the later reference."),
        subjects: &["math-ph", "math.PR"],
        comments: None,
        journal_ref: None,
        listing_date: Some(Some("2024-08-09")),
    },
    E {
        id: "2402.05646",
        version: None,
        kind: Kind::Replaced,
        title: "Ground state energy of the low density Bose gas with two-body and three-body interactions",
        authors: &["François L. A. Visconti"],
        affiliations: &[],
        abs: Abs::Ends("In the present paper we study the low density Bose gas in th", "he present result resolves a conjecture of Nam-Ricaud-Triay."),
        subjects: &["math-ph"],
        comments: None,
        journal_ref: None,
        listing_date: Some(Some("2024-08-09")),
    },
    E {
        id: "2407.11175",
        version: None,
        kind: Kind::Replaced,
        title: "On trilinear and quadrilinear equations associated with the lattice Gel'fand-Dikii hierarchy",
        authors: &["P.H. van der Kamp", "F.W. Nijhoff", "D.I. McLaren", "G.R.W Quispel"],
        affiliations: &[],
        abs: Abs::Ends("Introduced in 2012, by Zhang, Zhao, and Nijhoff, the triline", "near recurrences, we establish Somos-like integer sequences."),
        subjects: &["nlin.SI", "math-ph", "math.CO"],
        comments: Some("13 pages, 5 figures, Submitted to a special issue devoted to the celebration of 120 years from the day of birth of the famous Soviet mathematician A. Kolmogorov"),
        journal_ref: None,
        listing_date: Some(Some("2024-08-09")),
    },
];

const HTML_QUANT_PH: &[E] = &[
    E {
        id: "2408.03941",
        version: None,
        kind: Kind::New,
        title: "The Born rule for quantum probabilities from Newton's third law",
        authors: &["S.S. Afonin"],
        affiliations: &[],
        abs: Abs::Full("I propose a simple physical answer to the old question of why probability in quantum theory is determined by the square of the wave function or amplitude."),
        subjects: &["quant-ph", "hep-ph", "hep-th"],
        comments: Some("9 pages, 1 figure"),
        journal_ref: None,
        listing_date: Some(Some("2024-08-09")),
    },
    E {
        id: "2408.04366",
        version: None,
        kind: Kind::New,
        title: "Towards Less Greedy Quantum Coalition Structure Generation in Induced Subgraph Games",
        authors: &["Jonas Nüßlein", "Daniëlle Schuman", "David Bucher", "Naeimeh Mohseni", "Kumar Ghosh", "Corey O'Meara", "Giorgio Cortiana", "Claudia Linnhoff-Popien"],
        affiliations: &[],
        abs: Abs::Ends("The transition to 100% renewable energy requires new techniq", "ming QA hardware will become more noise-resilient over time."),
        subjects: &["quant-ph", "cs.ET"],
        comments: Some("7 pages, 4 figures (8 if counting subfigures). To be published in the proceedings of the 2024 IEEE International Conference on Quantum Computing and Engineering (QCE)"),
        journal_ref: None,
        listing_date: Some(Some("2024-08-09")),
    },
    E {
        id: "2303.13968",
        version: None,
        kind: Kind::Replaced,
        title: "Simulation of 1/f charge noise affecting a quantum dot in a Si/SiGe structure",
        authors: &["Marcin Kępa", "Niels Focke", "Łukasz Cywiński", "Jan. A. Krzywda"],
        affiliations: &[],
        abs: Abs::Ends("Due to presence of magnetic field gradient needed for cohere", "a reconstructed in recent experiments on similar structures."),
        subjects: &["cond-mat.mes-hall", "quant-ph"],
        comments: Some("5 pages, 5 figures, added repository: this https URL"),
        journal_ref: Some("Appl. Phys. Lett. 123, 034005 (2023)"),
        listing_date: Some(Some("2024-08-09")),
    },
    E {
        id: "2408.03736",
        version: None,
        kind: Kind::Cross,
        title: "Measurement of total phase fluctuation in cold-atomic quantum simulator",
        authors: &["Taufiq Murtadho", "Federica Cataldini", "Sebastian Erne", "Marek Gluza", "Jörg Schmiedmayer", "Nelly H.Y. Ng"],
        affiliations: &[],
        abs: Abs::Ends("Studying the dynamics of quantum many-body systems is often ", "he scope and capabilities of cold-atomic quantum simulators."),
        subjects: &["cond-mat.quant-gas", "quant-ph"],
        comments: Some("4+10 pages, 10 figures"),
        journal_ref: None,
        listing_date: Some(Some("2024-08-09")),
    },
    E {
        id: "2408.04007",
        version: None,
        kind: Kind::New,
        title: "Reducing Depth and Measurement Weights in Pauli-based Computation",
        authors: &["Filipa C. R. Peres", "Ernesto F. Galvão"],
        affiliations: &[],
        abs: Abs::Ends("Pauli-based computation (PBC) is a universal measurement-bas", "T$ gates and over 20\\% for instances with larger $T$ counts."),
        subjects: &["quant-ph"],
        comments: Some("26 pages, 16 figures, includes a link to the GitHub repository where the greedy algorithm can be found"),
        journal_ref: None,
        listing_date: Some(Some("2024-08-09")),
    },
    E {
        id: "2408.03580",
        version: None,
        kind: Kind::Replaced,
        title: "Atom-Field-Medium Interactions I: Graded Influence Actions for $N$ Harmonic Atoms in a Dielectric-Altered Quantum Field",
        authors: &["Jen-Tsung Hsiang", "Bei-Lok Hu"],
        affiliations: &[],
        abs: Abs::Ends("This series of papers has two broader aims: 1) Construct a t", "interacting with a dielectric medium-modified quantum field."),
        subjects: &["hep-th", "quant-ph"],
        comments: Some("41 pages"),
        journal_ref: None,
        listing_date: Some(Some("2024-08-09")),
    },
];

const HTML_CS_2018: &[E] = &[
    E {
        id: "1807.07067",
        version: None,
        kind: Kind::New,
        title: "A Fixed-Parameter Linear-Time Algorithm to Compute Principal Typings of Planar Flow Networks",
        authors: &["Assaf Kfoury"],
        affiliations: &[],
        abs: Abs::Full("We present an alternative and simpler method for computing principal typings of flow networks. When limited to planar flow networks, the method can be made to run in fixed-parameter linear-time -- where the parameter not to be exceeded is what is called the edge-outerplanarity of the networks' underlying graphs."),
        subjects: &["cs.DS"],
        comments: Some("12 pages, 0 figures, 13 references. arXiv admin note: text overlap with arXiv:1807.04186"),
        journal_ref: None,
        listing_date: Some(Some("2018-07-20")),
    },
    E {
        id: "1807.07091",
        version: None,
        kind: Kind::New,
        title: "Language Preservation Problems in Parametric Timed Automata",
        authors: &["Étienne André", "Didier Lime", "Nicolas Markey"],
        affiliations: &[],
        abs: Abs::Ends("Parametric timed automata (PTA) are a powerful formalism to ", "tions between the reference valuation and the new valuation."),
        subjects: &["cs.LO"],
        comments: Some("Extended version of the paper of the name published in the proceedings of FORMATS 2015"),
        journal_ref: None,
        listing_date: Some(Some("2018-07-20")),
    },
    E {
        id: "1807.07095",
        version: None,
        kind: Kind::Cross,
        title: "Ricci curvature for parametric statistics via optimal transport",
        authors: &["Wuchen Li", "Guido Montufar"],
        affiliations: &[],
        abs: Abs::Ends("We elaborate the notion of a Ricci curvature lower bound for", "r bounds and convergence rates in exponential family models."),
        subjects: &["math.ST", "cs.IT"],
        comments: None,
        journal_ref: None,
        listing_date: Some(Some("2018-07-20")),
    },
    E {
        id: "1807.07547",
        version: None,
        kind: Kind::Cross,
        title: "Partial recovery bounds for clustering with the relaxed $K$means",
        authors: &["Christophe Giraud", "Nicolas Verzelen"],
        affiliations: &[],
        abs: Abs::Ends("We investigate the clustering performances of the relaxed $K", "results put forward the versatility of the relaxed $K$means."),
        subjects: &["math.ST", "cs.LG"],
        comments: Some("33 pages"),
        journal_ref: None,
        listing_date: Some(Some("2018-07-20")),
    },
    E {
        id: "1309.6610",
        version: None,
        kind: Kind::Replaced,
        title: "Adversarial Multiple Access Channels with Individual Injection Rates",
        authors: &["Lakshmi Anantharamu", "Bogdan S. Chlebus", "Mariusz A. Rokicki"],
        affiliations: &[],
        abs: Abs::Empty,
        subjects: &["cs.DC", "cs.NI"],
        comments: None,
        journal_ref: Some("Adversarial multiple access channels with individual injection rates. Theory of Computing Systems, 61(3): 820 - 850, 2017"),
        listing_date: Some(Some("2018-07-20")),
    },
    E {
        id: "1804.05916",
        version: None,
        kind: Kind::Replaced,
        title: "Bitcoin market route to maturity? Evidence from return fluctuations, temporal correlations and multiscaling effects",
        authors: &["Stanisław Drożdż", "Robert Gębarowski", "Ludovico Minati", "Paweł Oświęcimka", "Marcin Wątorek"],
        affiliations: &[],
        abs: Abs::Empty,
        subjects: &["q-fin.ST", "cs.CE", "econ.EM"],
        comments: None,
        journal_ref: Some("S. Drozdz, R. Gebarowski, L. Minati, P. Oswiecimka, and M. Watorek, Chaos 28, 071101 (2018)"),
        listing_date: Some(Some("2018-07-20")),
    },
    E {
        id: "1710.00477",
        version: None,
        kind: Kind::Replaced,
        title: "A Crowd-Annotated Spanish Corpus for Humor Analysis",
        authors: &["Santiago Castro", "Luis Chiruzzo", "Aiala Rosá", "Diego Garat", "Guillermo Moncecchi"],
        affiliations: &[],
        abs: Abs::Empty,
        subjects: &["cs.CL"],
        comments: Some("Camera-ready version of the paper submitted to SocialNLP 2018, with a fixed typo"),
        journal_ref: None,
        listing_date: Some(Some("2018-07-20")),
    },
    E {
        id: "1807.06576",
        version: None,
        kind: Kind::Replaced,
        title: "Comparison of RNN Encoder-Decoder Models for Anomaly Detection",
        authors: &["YeongHyeon Park", "Il Dong Yun"],
        affiliations: &[],
        abs: Abs::Empty,
        subjects: &["cs.LG", "stat.ML"],
        comments: Some("12 pages"),
        journal_ref: None,
        listing_date: Some(Some("2018-07-20")),
    },
];

#[test]
fn listing_html_gr_qc_2024() {
    let f = "listing-html-gr-qc-new-2024-08-09.html";
    let p = run(f, 45, &[(Kind::New, 14), (Kind::Cross, 13), (Kind::Replaced, 18)], HTML_GR_QC);
    all_dated(f, &p, "2024-08-09");
}

#[test]
fn listing_html_hep_ph_2024() {
    let f = "listing-html-hep-ph-new-2024-08-09.html";
    let p = run(f, 49, &[(Kind::New, 20), (Kind::Cross, 11), (Kind::Replaced, 18)], HTML_HEP_PH);
    all_dated(f, &p, "2024-08-09");
}

#[test]
fn listing_html_hep_th_2024() {
    let f = "listing-html-hep-th-new-2024-08-09.html";
    let p = run(f, 49, &[(Kind::New, 14), (Kind::Cross, 22), (Kind::Replaced, 13)], HTML_HEP_TH);
    all_dated(f, &p, "2024-08-09");
}

#[test]
fn listing_html_math_ph_2024() {
    let f = "listing-html-math-ph-new-2024-08-09.html";
    let p = run(f, 23, &[(Kind::New, 6), (Kind::Cross, 10), (Kind::Replaced, 7)], HTML_MATH_PH);
    all_dated(f, &p, "2024-08-09");
}

#[test]
fn listing_html_quant_ph_2024() {
    let f = "listing-html-quant-ph-new-2024-08-09.html";
    let p = run(f, 78, &[(Kind::New, 28), (Kind::Cross, 13), (Kind::Replaced, 37)], HTML_QUANT_PH);
    all_dated(f, &p, "2024-08-09");
}

#[test]
fn listing_html_cs_2018_old_layout() {
    let f = "listing-html-cs-new-2018-07-20-old-layout.html";
    let p = run(f, 87, &[(Kind::New, 6), (Kind::Cross, 16), (Kind::Replaced, 65)], HTML_CS_2018);
    all_dated(f, &p, "2018-07-20");
}

// ---------------------------------------------------------------- OAI-PMH

const OAI_ARXIV: &[E] = &[
    E {
        id: "0704.0002",
        version: Some(None),
        kind: Kind::Snapshot,
        title: "Sparsity-certifying Graph Decompositions",
        authors: &["Ileana Streinu", "Louis Theran"],
        affiliations: &[],
        abs: Abs::Full("We describe a new algorithm, the $(k,\\ell)$-pebble game with colors, and use it obtain a characterization of the family of $(k,\\ell)$-sparse graphs and algorithmic solutions to a family of problems concerning tree decompositions of graphs. Special instances of sparse graphs appear in rigidity theory and have received increased attention in recent years. In particular, our colored pebbles generalize and strengthen the previous results of Lee and Streinu and give a new proof of the Tutte-Nash-Williams characterization of arboricity. We also present a new decomposition that certifies sparsity based on the $(k,\\ell)$-pebble game with colors. Our work also exposes connections between pebble game algorithms and previous sparse graph algorithms by Gabow, Gabow and Westermann and Hendrickson."),
        subjects: &["math.CO", "cs.CG"],
        comments: Some("To appear in Graphs and Combinatorics"),
        journal_ref: None,
        listing_date: Some(Some("2007-03-30")),
    },
    E {
        id: "0704.0046",
        version: Some(None),
        kind: Kind::Snapshot,
        title: "A limit relation for entropy and channel capacity per unit cost",
        authors: &["I. Csiszar", "F. Hiai", "D. Petz"],
        affiliations: &[],
        abs: Abs::Ends("In a quantum mechanical model, Diosi, Feldmann and Kosloff a", "nnels. Both proofs lead to generalization of the conjecture."),
        subjects: &["quant-ph", "cs.IT", "math.IT"],
        comments: Some("LATEX file, 11 pages"),
        journal_ref: Some("J. Math. Phys. 48(2007), 092102."),
        listing_date: Some(Some("2007-04-01")),
    },
    E {
        id: "0704.0062",
        version: Some(None),
        kind: Kind::Snapshot,
        title: "On-line Viterbi Algorithm and Its Relationship to Random Walks",
        authors: &["Rastislav Šrámek", "Broňa Brejová", "Tomáš Vinař"],
        affiliations: &[],
        abs: Abs::Ends("In this paper, we introduce the on-line Viterbi algorithm fo", "M for gene finding on both simulated and real DNA sequences."),
        subjects: &["cs.DS"],
        comments: None,
        journal_ref: Some("Algorithms in Bioinformatics: 7th International Workshop (WABI), 4645 volume of Lecture Notes in Computer Science, pp. 240-251, Philadelphia, PA, USA, September 2007. Springer"),
        listing_date: Some(Some("2007-03-31")),
    },
    E {
        id: "0704.0858",
        version: Some(None),
        kind: Kind::Snapshot,
        title: "Lessons Learned from the deployment of a high-interaction honeypot",
        authors: &["Eric Alata", "Vincent Nicomette", "Mohamed Kaâniche", "Marc Dacier", "Matthieu Herrb"],
        affiliations: &["LAAS", "LAAS", "LAAS", "LAAS", "LAAS"],
        abs: Abs::Ends("This paper presents an experimental study and the lessons le", " a worldwide distributed system of lowinteraction honeypots."),
        subjects: &["cs.CR"],
        comments: None,
        journal_ref: Some("Proc. 6th European Dependable Computing Conference (EDCC-6), Coimbra (Portugal), 18-20 octobre 2006 (18/10/2006) 39-44"),
        listing_date: Some(Some("2007-04-06")),
    },
    E {
        id: "0704.1373",
        version: Some(None),
        kind: Kind::Snapshot,
        title: "A Language-Based Approach for Improving the Robustness of Network Application Protocol Implementations",
        authors: &["Burgy Laurent", "Laurent Réveillère", "Julia Lawall", "Gilles Muller"],
        affiliations: &["INRIA Futurs", "INRIA Futurs", "DIKU", "INRIA Rennes"],
        abs: Abs::Ends("The secure and robust functioning of a network relies on the", "how that Zebu significantly improves application robustness."),
        subjects: &["cs.PL"],
        comments: None,
        journal_ref: None,
        listing_date: Some(Some("2007-04-11")),
    },
    E {
        id: "0704.3904",
        version: Some(None),
        kind: Kind::Snapshot,
        title: "Acyclic Preference Systems in P2P Networks",
        authors: &["Anh-Tuan Gai", "Dmitry Lebedev", "Fabien Mathieu", "Fabien De Montgolfier", "Julien Reynier", "Laurent Viennot"],
        affiliations: &["INRIA Rocquencourt", "FT R&D", "FT R&D", "LIAFA", "LIENS", "INRIA Rocquencourt"],
        abs: Abs::Ends("In this work we study preference systems natural for the Pee", "bserve that its stable configuration is a small-world graph."),
        subjects: &["cs.DS", "cs.GT"],
        comments: None,
        journal_ref: None,
        listing_date: Some(Some("2007-04-30")),
    },
    E {
        id: "0705.1244",
        version: Some(None),
        kind: Kind::Snapshot,
        title: "Evolving Symbolic Controllers",
        authors: &["Nicolas Godzik", "Marc Schoenauer", "Michèle Sebag"],
        affiliations: &["INRIA Futurs, INRIA Rocquencourt", "INRIA Futurs, INRIA Rocquencourt", "INRIA Futurs, LRI"],
        abs: Abs::Ends("The idea of symbolic controllers tries to bridge the gap bet", "lization of the resulting controllers are studied in detail."),
        subjects: &["cs.AI"],
        comments: None,
        journal_ref: Some("Dans 4th European Workshop on Evolutionary Robotics, 2611 (2003) 638-650"),
        listing_date: Some(Some("2007-05-09")),
    },
    E {
        id: "0708.2571",
        version: Some(None),
        kind: Kind::Snapshot,
        title: "On the Security of the Cha-Ko-Lee-Han-Cheon Braid Group Public Key Cryptosystem",
        authors: &["M. M. Chowdhury"],
        affiliations: &[],
        abs: Abs::Ends("We show that a number of cryptographic protocols using non-c", "ain-Ushakov public-key cryptosystems are based on the MSCSP."),
        subjects: &["cs.CR"],
        comments: None,
        journal_ref: None,
        listing_date: Some(Some("2007-08-19")),
    },
];

const OAI_RAW: &[E] = &[
    E {
        id: "0811.3649",
        version: Some(Some(4)),
        kind: Kind::Snapshot,
        title: "Traces of high powers of the Frobenius class in the hyperelliptic ensemble",
        authors: &["Zeev Rudnick"],
        affiliations: &[],
        abs: Abs::Full("The zeta function of a curve over a finite field may be expressed in terms of the characteristic polynomial of a unitary symplectic matrix, called the Frobenius class of the curve. We compute the expected value of the trace of the n-th power of the Frobenius class for an ensemble of hyperelliptic curves of genus g over a fixed finite field in the limit of large genus, and compare the results to the corresponding averages over the unitary symplectic group USp(2g). We are able to compute the averages for powers n almost up to 4g, finding agreement with the Random Matrix results except for small n and for n=2g. As an application we compute the one-level density of zeros of the zeta function of the curves, including lower-order terms, for test functions whose Fourier transform is supported in (-2,2). The results confirm in part a conjecture of Katz and Sarnak, that to leading order the low-lying zeros for this ensemble have symplectic statistics."),
        subjects: &["math.NT"],
        comments: Some("Incorporated referee's comments, fixing some misprints and adding a few explanations"),
        journal_ref: None,
        listing_date: Some(Some("2008-11-21")),
    },
    E {
        id: "0811.3665",
        version: Some(Some(2)),
        kind: Kind::Snapshot,
        title: "Time-dependent Dalitz Plot Measurement of CP Parameters in B0 --> Ks Pi+ Pi- Decays",
        authors: &["J. Dalseno", "Belle Collaboration"],
        affiliations: &[],
        abs: Abs::Ends("We present a time-dependent Dalitz plot measurement of CP vi", " and B0B --> K*-(892) Pi+ which may be used to extract phi3."),
        subjects: &["hep-ex"],
        comments: Some("27 pages, 7 figures, Contributed to ICHEP 2008, Submitted to PRD"),
        journal_ref: Some("Phys.Rev.D79:072004,2009"),
        listing_date: Some(Some("2008-11-22")),
    },
    E {
        id: "0811.3894",
        version: Some(Some(2)),
        kind: Kind::Snapshot,
        title: "The energy spectrum of cosmic-ray electrons at TeV energies",
        authors: &["H.E.S.S. Collaboration", "F. Aharonian"],
        affiliations: &[],
        abs: Abs::Ends("The very large collection area of ground-based gamma-ray tel", "he energy spectrum above 600 GeV compared to lower energies."),
        subjects: &["astro-ph"],
        comments: Some("5 pages, 3 figures. PPB-Bets data points included, typo removed"),
        journal_ref: Some("Phys.Rev.Lett.101:261104,2008"),
        listing_date: Some(Some("2008-11-24")),
    },
    E {
        id: "0811.3654",
        version: Some(Some(2)),
        kind: Kind::Snapshot,
        title: "Chandra observations of the galaxy group AWM 5: cool core re-heating and thermal conduction suppression",
        authors: &["A. Baldi", "W. Forman", "C. Jones", "P. Nulsen", "L. David", "R. Kraft", "A. Simionescu"],
        affiliations: &["Harvard-Smithsonian Center for Astrophysics", "Harvard-Smithsonian Center for Astrophysics", "Harvard-Smithsonian Center for Astrophysics", "Harvard-Smithsonian Center for Astrophysics", "Harvard-Smithsonian Center for Astrophysics", "Harvard-Smithsonian Center for Astrophysics", "Max Planck Institute for Extraterrestrial Physics"],
        abs: Abs::Ends("We present an analysis of a 40 ksec Chandra observation of t", "t likely source that re-heated the central regions of AWM 5."),
        subjects: &["astro-ph"],
        comments: Some("24 pages, 17 figures, Accepted for publication in the Astrophysical Journal"),
        journal_ref: Some("Astrophys.J.694:479-491,2009"),
        listing_date: Some(Some("2008-11-22")),
    },
    E {
        id: "0811.4537",
        version: Some(Some(1)),
        kind: Kind::Snapshot,
        title: "The electron densities of pseudorelativistic eigenfunctions are smooth away from the nuclei",
        authors: &["Søren Fournais", "Thomas Østergaard Sørensen"],
        affiliations: &[],
        abs: Abs::Ends("We consider a pseudorelativistic model of atoms and molecule", "ding one-electron densities are smooth away from the nuclei."),
        subjects: &["math-ph", "math.MP"],
        comments: Some("16 pages"),
        journal_ref: Some("Comm. Partial Differential Equations 35 (2010), no. 7, 1276--1291"),
        listing_date: Some(Some("2008-11-27")),
    },
    E {
        id: "0811.3930",
        version: Some(Some(2)),
        kind: Kind::Snapshot,
        title: "A two-parameter family of complex Hadamard matrices of order 6 induced by hypocycloids",
        authors: &["Ferenc Szöllősi"],
        affiliations: &[],
        abs: Abs::Ends("Constructions of Hadamard matrices from smaller blocks is a ", "of a 2-parameter family of MUB-triplets of order 6 is shown."),
        subjects: &["math.OA"],
        comments: Some("10 pages, 1 figure, a new section added. Revised and submitted version"),
        journal_ref: None,
        listing_date: Some(Some("2008-11-24")),
    },
    E {
        id: "0811.4284",
        version: Some(Some(1)),
        kind: Kind::Snapshot,
        title: "Scattering Resonances in a Degenerate Fermi Gas",
        authors: &["K. J. Challis", "N. Nygaard", "K. Mølmer"],
        affiliations: &[],
        abs: Abs::Ends("We consider elastic single-particle scattering from a one-di", "make a comparison with the results of BCS mean-field theory."),
        subjects: &["cond-mat.other"],
        comments: Some("8 pages, 5 figures"),
        journal_ref: Some("Phys. Rev. A 79, 052701 (2009)"),
        listing_date: Some(Some("2008-11-26")),
    },
    E {
        id: "0811.4352",
        version: Some(Some(1)),
        kind: Kind::Snapshot,
        title: "Does Mesophase Ag4+xPb2O6-z (0 <= x <= 1, 0,5 <= z <= 0,75) Appeal for a Point Contact ATc Superconductivity?",
        authors: &["Danijel Djurek"],
        affiliations: &["Alessandro Volta Applied Ceramics (AVAC), Kesten brijeg 5, Remete, 10 000 Zagreb, Croatia"],
        abs: Abs::Ends("Weakly compacted fine particles of Ag4+xPb2O6-z which is iso", "the input preparation conditions appear as to be conclusive."),
        subjects: &["cond-mat.supr-con"],
        comments: Some("24 pages, 10 figures"),
        journal_ref: None,
        listing_date: Some(Some("2008-11-26")),
    },
    E {
        id: "0811.3743",
        version: Some(Some(1)),
        kind: Kind::Snapshot,
        title: "Quantitative Measurements of CME-driven Shocks from LASCO Observations",
        authors: &["Veronica Ontiveros", "Angelos Vourlidas"],
        affiliations: &["Instituto de Geofisica, Universidad Nacional Autonoma de Mexico, MEXICO; CEOSR, George Mason University, USA", "Naval Research Laboratory, USA"],
        abs: Abs::Ends("In this paper, we demonstrate that CME-driven shocks can be ", "enhancements due to a bow-shock structure driven by the CME."),
        subjects: &["astro-ph"],
        comments: Some("to be published in Astrophysical Journal"),
        journal_ref: Some("Astrophys.J.693:267-275,2009"),
        listing_date: Some(Some("2008-11-24")),
    },
    E {
        id: "0811.3702",
        version: Some(Some(1)),
        kind: Kind::Snapshot,
        title: "Pseudo-euclidean Jordan algebras",
        authors: &["Amir Baklouti", "Said Benayadi"],
        affiliations: &["LMAM", "LMAM"],
        abs: Abs::Ends("A Jordan algebra J is said to be pseudo-euclidean if J is en", "mation on the structure of pseudo-euclidean Jordan algebras."),
        subjects: &["math.RA"],
        comments: Some("39 pages"),
        journal_ref: None,
        listing_date: Some(Some("2008-11-22")),
    },
    E {
        id: "0811.4647",
        version: Some(Some(2)),
        kind: Kind::Snapshot,
        title: "Liouville type of theorems with weights for the Navier-Stokes equations and the Euler equations",
        authors: &["Dongho Chae"],
        affiliations: &[],
        abs: Abs::Ends("We study Liouville type of theorems for the Navier-Stokes an", " results hold for the MHD Equations on $\\Bbb R^N$, $N\\geq3$."),
        subjects: &["math.AP"],
        comments: Some("17 pages"),
        journal_ref: None,
        listing_date: Some(Some("2008-11-28")),
    },
];

#[test]
fn oai_pmh_arxiv_cs_2016() {
    run("oai-pmh-arXiv-cs-2016-03-01.xml", 1000, &[(Kind::Snapshot, 1000)], OAI_ARXIV);
}

/// 1000 records, but the first one's id is `0811.36489` (five digits after a
/// 2008 prefix, not an arXiv id: the paper is 0811.3648): it is skipped with
/// a warning naming it, the other 999 are read.
#[test]
fn oai_pmh_arxivraw_cs_2014() {
    let f = "oai-pmh-arXivRaw-cs-2014-01-16.xml";
    let p = run(f, 999, &[(Kind::Snapshot, 999)], OAI_RAW);
    assert!(p.papers.iter().all(|x| !x.id.starts_with("0811.3648")), "{f}: the malformed id 0811.36489 was read");
    assert!(p.warnings.iter().any(|w| w.contains("0811.36489")), "{f}: no warning names 0811.36489: {:?}", p.warnings);
}
