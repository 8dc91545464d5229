//! Seed profiles: the papers a user likes (or explicitly does not), read
//! from arXiv ids, BibTeX and CSL-JSON exports (Zotero, JabRef), lists of ids
//! or free text, and kept per named profile in the library.

mod arxiv_ids;
mod ris;
pub mod seed_files;

#[cfg(feature = "app")]
pub mod filters;
#[cfg(feature = "app")]
pub mod ratings;
#[cfg(feature = "app")]
mod seeds;
#[cfg(feature = "app")]
pub mod zotero;

pub use seed_files::{parse_bibtex, parse_csl_json, parse_id_list, SeedInput};
#[cfg(feature = "app")]
pub use seeds::*;
