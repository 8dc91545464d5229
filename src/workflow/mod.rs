//! The pipeline's verbs, each a whole piece of work over the stages below
//! it: ingest documents, fetch a day (or missing papers) from arXiv, add
//! and embed seeds, rank a day for a profile, answer "papers like this"
//! and searches, and say what a library holds. Both front doors call
//! them: `commands` (the command line) and `serve` (the browser); neither
//! calls the other, and nothing here prints results (that is `report`'s).

pub mod day;
pub mod digest;
pub mod fetch;
pub mod ingest;
pub mod neighbours;
pub mod paper;
pub mod query;
pub mod search;
pub mod seeds;
pub mod stats;

use crate::error::{Kind, Kinded};
use crate::library::Library;
use std::path::PathBuf;

/// The model the library's vectors are of; [`Error::NoVectors`] before
/// the first ingest.
pub fn library_model(lib: &Library) -> anyhow::Result<String> {
    Ok(lib.store.default_model()?.ok_or(Error::NoVectors)?)
}

/// What a verb refuses on the asker's account, with its kind
/// (crate::error): the ids, dates and papers a front door passes on.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("{given:?} is not an arXiv id")]
    NotAnId { given: String },
    #[error("{given:?} is not a date like 2026-03-02")]
    NotADate { given: String },
    /// `dir`, the library's, where the asker is its owner (the command line).
    #[error("{id} is not in the library{}", dir.as_ref().map(|d| format!(" at {}", d.display())).unwrap_or_default())]
    NotInLibrary { id: String, dir: Option<PathBuf> },
    #[error("{id} has no vector yet; run `paperscout ingest` to embed it")]
    NoVector { id: String },
    #[error("no profile {name:?}; the profiles are {}", known.join(", "))]
    UnknownProfile { name: String, known: Vec<String> },
    #[error("no listing on {day}; the newest days are {}", newest.join(", "))]
    NoListing { day: String, newest: Vec<String> },
    #[error("the library has no listings yet; run `paperscout ingest` with a listing")]
    NoListings,
    /// arXiv's API did not answer a lookup (the network, or arXiv, is down):
    /// worth trying again, and meanwhile the paper can come in by its text.
    #[error("arXiv could not be reached to look up {}; try again later, or add the paper by its title and abstract (as a sentence, or in a .bib or CSL-JSON export that has them)", ids.join(", "))]
    ArxivUnreachable { ids: Vec<String> },
    #[error("arXiv's API does not know {}", ids.join(", "))]
    UnknownToArxiv { ids: Vec<String> },
    /// Nothing embedded yet: nothing to rank or compare against until an
    /// ingest has run.
    #[error("the library holds no vectors yet; add papers with `paperscout ingest FILE`")]
    NoVectors,
}

impl Kinded for Error {
    fn kind(&self) -> Kind {
        match self {
            Error::NotAnId { .. } | Error::NotADate { .. } => Kind::BadInput,
            Error::NotInLibrary { .. }
            | Error::NoVector { .. }
            | Error::UnknownProfile { .. }
            | Error::NoListing { .. }
            | Error::NoListings
            | Error::UnknownToArxiv { .. } => Kind::NotFound,
            Error::ArxivUnreachable { .. } | Error::NoVectors => Kind::Busy,
        }
    }
}
