//! paperscout: which of today's arXiv papers to read.
//!
//! The pipeline, one module per stage:
//! listing → paper → embed → library (store + index) → profile → rank → report.

pub mod cli;
pub mod commands;
pub mod embed;
pub mod eval;
pub mod fetch;
pub mod library;
pub mod listing;
pub mod paper;
pub mod profile;
pub mod rank;
pub mod report;
