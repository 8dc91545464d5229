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
pub mod query;
pub mod search;
pub mod seeds;
pub mod stats;
