//! Every integration test, in one crate so that they link once: each file
//! of this directory is a module (the layout rust-analyzer uses, and why).
//! A test's name is its path here (`serve::search_page_finds_by_meaning`),
//! so `cargo test --test it serve::` runs one file's tests.

#[path = "../common/mod.rs"]
mod common;

mod architecture;
mod browser;
mod bulk_import;
mod chat;
mod daily;
mod delivery;
mod embed_bounds;
mod embed_parity;
mod eval;
mod fetch;
mod gist;
mod gpu;
mod help;
mod hostile_seeds;
mod index_recall;
mod kill_trials;
mod library;
mod listing_feeds;
mod listing_fixtures;
mod morning;
mod morning_safety;
mod output_safety;
mod ranking;
mod ratings;
mod real_documents;
mod robust_library;
mod serve;
mod server_safety;
