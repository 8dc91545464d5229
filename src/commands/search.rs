use crate::cli::SearchArgs;
use crate::library::{self, Library, UseIndex};
use crate::report;
use crate::workflow::{query, search};
use anyhow::{bail, Result};
use std::io::Write;

pub fn run(args: &SearchArgs, verbose: bool) -> Result<()> {
    let query = args.query.join(" ");
    if query.trim().is_empty() {
        bail!("give words, a name, an arXiv id or a sentence to search for");
    }
    let dir = library::resolve_dir(args.library.library.as_deref())?;
    let lib = Library::open_read(&dir)?;
    let lexical = lib.lexical()?;
    let scope = args.scope.scope()?;
    let model = lib.store.default_model()?;
    // An id is looked up, not embedded: no model to load for it.
    let wants_meaning = !args.no_meaning && search::id_query(&query).is_none();
    let meaning = match (&model, wants_meaning) {
        (Some(known), true) => {
            let (_, v) = query::embed_text(&query, Some(known), &args.model, verbose)?;
            Some((lib.vectors(known, UseIndex::Never)?, v))
        }
        _ => None,
    };
    let found = search::find(&lib, lexical.as_ref(), meaning.as_ref().map(|(vs, v)| (vs, v.as_slice())), &query, args.k, &scope)?;
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    if found.is_empty() {
        crate::messages::note(format_args!("no good match for {:?} in the library at {}", query.trim(), dir.display()));
    } else if args.json {
        report::json::write_found(&mut out, &found)?;
    } else {
        report::table::write_found(&mut out, &found)?;
    }
    out.flush()?;
    Ok(())
}
