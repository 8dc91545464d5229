//! paperscout: which of today's arXiv papers to read.
//!
//! The pipeline, one module per stage:
//! listing → paper → gist, embed → library (store + index) → profile → rank → report.
//! `digest` (a day ranked for a profile), `neighbours` (papers like one)
//! and `search` (papers by id, name, words and meaning) are the questions
//! both front doors ask: `commands` (the command
//! line) and `serve` (the browser).

pub mod accounts;
pub mod cli;
pub mod commands;
pub mod delivery;
pub mod embed;
pub mod error;
pub mod eval;
pub mod fetch;
pub mod gist;
pub mod library;
pub mod listing;
pub mod messages;
pub mod paper;
pub mod profile;
pub mod rank;
pub mod report;
pub mod serve;
pub mod vector;
pub mod workflow;
