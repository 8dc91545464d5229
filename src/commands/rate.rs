use crate::cli::RateArgs;
use crate::library::store::ProfileKey;
use crate::library::{self, Library};
use crate::paper::ArxivId;
use crate::profile::ratings;
use anyhow::{Context, Result};

pub fn run(args: &RateArgs, profile: &ProfileKey) -> Result<()> {
    let rating = ratings::parse_value(&args.rating)?;
    let dir = library::resolve_dir(args.library.library.as_deref())?;
    // Opened for reading first, so a mistyped --library is an error rather than a new library.
    let paper = {
        let lib = Library::open_read(&dir)?;
        let id = ArxivId::parse(&args.id).with_context(|| format!("{:?} is not an arXiv id", args.id))?;
        lib.store.get_paper(&id.id)?.with_context(|| format!("{} is not in the library at {}", id.id, dir.display()))?
    };
    let mut lib = Library::open_write_existing(&dir)?;
    let now = crate::library::store::now();
    let tx = lib.store.transaction()?;
    let done = ratings::rate(tx.db(), profile, &paper, rating, &now)?;
    tx.commit()?;
    match done {
        Some(r) if r.rating > 0 => println!("{} liked in profile {:?}", paper.paper.id, profile.as_str()),
        Some(_) => println!("{} marked not interested in profile {:?}", paper.paper.id, profile.as_str()),
        None => println!("{} unrated in profile {:?}", paper.paper.id, profile.as_str()),
    }
    Ok(())
}
