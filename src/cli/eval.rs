//! `paperscout eval`'s arguments: the benchmarks and their options.

use super::LibraryArgs;
use crate::embed::ModelArgs;
use clap::Subcommand;
use std::path::PathBuf;

#[derive(Debug, clap::Args)]
pub struct EvalArgs {
    #[command(subcommand)]
    pub benchmark: EvalBenchmark,
}

#[derive(Debug, Subcommand)]
pub enum EvalBenchmark {
    /// Rank CSFCube's expert-judged pools by embedding cosine; MAP and NDCG as its paper reports them.
    Csfcube(EvalCsfcubeArgs),
    /// Hide authors' latest papers in their day's listing and rank it from their earlier papers.
    History(EvalHistoryArgs),
    /// Score one-line summaries on SciTLDR (ROUGE-1/2/L F1, stemmed, best of the gold lines).
    Tldr(EvalTldrArgs),
}

#[derive(Debug, clap::Args)]
pub struct EvalTldrArgs {
    /// A SciTLDR JSONL file (e.g. ../shared/data/tldr/scitldr-a/test.jsonl).
    pub file: PathBuf,
    /// The methods to score (default: all of them).
    #[arg(long, value_enum, value_delimiter = ',')]
    pub method: Vec<crate::eval::tldr::Method>,
    /// Also score another system's lines: a text file with one line per record, in order.
    #[arg(long, value_name = "FILE")]
    pub predictions: Option<PathBuf>,
    /// Score the gist methods by five-fold cross-validation on FILE, each
    /// fold's scorer fitted on the other four (for choosing on dev).
    #[arg(long)]
    pub cross_validate: bool,
    /// Fit the gist's scorer on all of FILE and write it as Rust source to
    /// OUT (src/gist/model.rs); fit on dev only.
    #[arg(long, value_name = "OUT")]
    pub fit: Option<PathBuf>,
    /// One JSON object per method instead of the table.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, clap::Args)]
pub struct EvalCsfcubeArgs {
    /// The CSFCube directory (e.g. ../shared/data/relevance/csfcube, or the original release).
    pub dir: PathBuf,
    /// Only the first N query-facet pairs (a quick check; not comparable with published figures).
    #[arg(long, value_name = "N")]
    pub queries: Option<usize>,
    /// Only the queries of test fold 1 or 2 (each fold is the other's dev
    /// fold): choose a change on one, confirm it on the other.
    #[arg(long, value_name = "1|2", value_parser = clap::value_parser!(u8).range(1..=2))]
    pub fold: Option<u8>,
    /// Score another system's rankings instead of embedding: a path with `{facet}` in it, in
    /// CSFCube's run format (`{"qpid": [["pid", score], ...]}`, best first).
    #[arg(long, value_name = "PATTERN")]
    pub ranked: Option<String>,
    /// Also simulate a reader who rates N papers of each pool (grade >= 2 liked,
    /// else not interested), the list's first N or the N it is least sure of, and
    /// score the unrated rest; e.g. --feedback 0,1,3,5,10.
    #[arg(long, value_delimiter = ',', value_name = "N,…")]
    pub feedback: Vec<usize>,
    /// The method whose learning --feedback simulates (default: the default method).
    #[arg(long, value_enum)]
    pub method: Option<crate::rank::Method>,
    /// One JSON document with the averages and every query's figures; with
    /// --feedback, one JSON object per feedback row instead (figures in percent).
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub model: ModelArgs,
}

#[derive(Debug, clap::Args)]
pub struct EvalHistoryArgs {
    /// How many authors to sample (each gives one case).
    #[arg(long, default_value_t = 1000, value_name = "N")]
    pub cases: usize,
    /// Seed of the sampling: the same seed on the same library gives the same figures.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Only the authors of one half (split by a hash of the name): weights
    /// are fit on `fit` and reported on `check`.
    #[arg(long, value_enum)]
    pub half: Option<crate::eval::history::Half>,
    /// Also write each case's hybrid signals as JSON lines to FILE (what
    /// scripts/fit-weights reads).
    #[arg(long, value_name = "FILE")]
    pub signals: Option<std::path::PathBuf>,
    /// Seed each profile with only the author's latest N earlier papers
    /// (1: a profile of one paper, as a "papers like this one" query is).
    #[arg(long, value_name = "N")]
    pub max_seeds: Option<std::num::NonZeroUsize>,
    /// One JSON document instead of a table.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub library: LibraryArgs,
}
