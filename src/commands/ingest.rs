use crate::cli::IngestArgs;
use crate::library::{self, Library};
use crate::workflow::ingest;
use anyhow::Result;
use std::time::Instant;

/// Reads every input a batch at a time (the bulk snapshot is millions of
/// lines) into one transaction, so a bad input anywhere leaves the library
/// as it was; then embeds what has no vector.
pub fn run(args: &IngestArgs) -> Result<()> {
    let start = Instant::now();
    let dir = library::resolve_dir(args.library.library.as_deref())?;
    let files = ingest::input_files(&args.files)?;
    let mut lib = Library::open_write(&dir)?;
    let done = ingest::ingest_files(&mut lib, &files, &args.model, args.no_embed)?;
    println!("{}", done.summary(start, &dir));
    Ok(())
}
