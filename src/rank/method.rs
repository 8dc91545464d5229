//! The ranking methods a reader may choose: the hybrid (the default), or
//! one signal alone.

use serde::Serialize;
use std::fmt;
use std::str::FromStr;

/// How a candidate is scored against the seeds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, clap::ValueEnum)]
#[serde(rename_all = "kebab-case")]
pub enum Method {
    /// Meaning and words fused per day, learning from every rating (the default).
    Hybrid,
    /// Words alone: BM25 match to the liked seeds' words and phrases.
    Lexical,
    /// Cosine to the weighted mean of the liked seeds.
    Centroid,
    /// zotero-arxiv-daily: mean similarity, newest seeds weighted most.
    DecayedMean,
    /// Mean similarity to the k nearest liked seeds, less that to disliked ones.
    Knn,
    /// A per-profile logistic regression: seeds against disliked and random papers.
    Logistic,
}

impl Method {
    pub const ALL: [Method; 6] = [Method::Hybrid, Method::Lexical, Method::Centroid, Method::DecayedMean, Method::Knn, Method::Logistic];

    pub fn name(self) -> &'static str {
        match self {
            Method::Hybrid => "hybrid",
            Method::Lexical => "lexical",
            Method::Centroid => "centroid",
            Method::DecayedMean => "decayed-mean",
            Method::Knn => "knn",
            Method::Logistic => "logistic",
        }
    }
}

impl fmt::Display for Method {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Method {
    type Err = String;
    fn from_str(s: &str) -> Result<Method, String> {
        Method::ALL
            .into_iter()
            .find(|m| m.name() == s)
            .ok_or_else(|| format!("unknown method {s:?}; use hybrid, lexical, centroid, decayed-mean, knn or logistic"))
    }
}

/// The method `daily` uses unless told otherwise (docs/quality.md).
pub const DEFAULT_METHOD: Method = Method::Hybrid;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for m in Method::ALL {
            assert_eq!(m.name().parse::<Method>().unwrap(), m);
        }
        assert!("cosine".parse::<Method>().is_err());
    }
}
