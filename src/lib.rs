//! paperscout: which of today's arXiv papers to read.
//!
//! The pipeline, one module per stage:
//! listing → paper → gist, embed → library (store + index) → profile → rank → report.
//! `digest` (a day ranked for a profile), `neighbours` (papers like one)
//! and `search` (papers by id, name, words and meaning) are the questions
//! both front doors ask: `commands` (the command
//! line) and `serve` (the browser).
//!
//! Without the `app` feature only the parsers are built (`paper`,
//! `listing`, `profile::seed_files`): what `fuzz/` fuzzes.

// Each application module is marked on its own: a macro that declared them
// in a group would hide their files from rustfmt (and so from the fmt check).
#[cfg(feature = "app")]
pub mod accounts;
#[cfg(feature = "app")]
pub mod cli;
#[cfg(feature = "app")]
pub mod commands;
#[cfg(feature = "app")]
pub mod delivery;
#[cfg(feature = "app")]
pub mod embed;
#[cfg(feature = "app")]
pub mod error;
#[cfg(feature = "app")]
pub mod eval;
#[cfg(feature = "app")]
pub mod fetch;
#[cfg(feature = "app")]
pub mod gist;
#[cfg(feature = "app")]
pub mod library;
pub mod listing;
#[cfg(feature = "app")]
pub mod messages;
pub mod paper;
pub mod profile;
#[cfg(feature = "app")]
pub mod rank;
#[cfg(feature = "app")]
pub mod report;
#[cfg(feature = "app")]
pub mod serve;
#[cfg(feature = "app")]
pub mod vector;
#[cfg(feature = "app")]
pub mod workflow;
