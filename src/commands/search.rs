use crate::cli::SearchArgs;
use crate::embed;
use crate::library::{self, Library, UseIndex};
use crate::{report, search};
use anyhow::{bail, Context, Result};
use std::io::Write;

pub fn run(args: &SearchArgs, verbose: bool) -> Result<()> {
    let query = args.query.join(" ");
    if query.trim().is_empty() {
        bail!("give words, a name, an arXiv id or a sentence to search for");
    }
    let dir = library::resolve_dir(args.library.library.as_deref())?;
    let lib = Library::open_read(&dir)?;
    let lexical = lib.lexical()?;
    let scope = args.scope.scope();
    let model = lib.store.default_model()?;
    // An id is looked up, not embedded: no model to load for it.
    let wants_meaning = !args.no_meaning && search::id_query(&query).is_none();
    let meaning = match (&model, wants_meaning) {
        (Some(known), true) => {
            let embedder = embed::load(&embed::args_for_library(&args.model, Some(known)), verbose)?;
            if embedder.model_id() != known {
                bail!(embed::model_mismatch(known, embedder.model_id()));
            }
            let v = embedder.embed(&[query.trim()], &|_| {})?.into_iter().next().context("the model returned no vector")?;
            Some((lib.vectors(known, UseIndex::Never)?, v))
        }
        _ => None,
    };
    let found = search::find(&lib, lexical.as_ref(), meaning.as_ref().map(|(vs, v)| (vs, v.as_slice())), &query, args.k, &scope)?;
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    if found.is_empty() {
        eprintln!("no good match for {:?} in the library at {}", query.trim(), dir.display());
    } else if args.json {
        report::json::write_found(&mut out, &found)?;
    } else {
        report::table::write_found(&mut out, &found)?;
    }
    out.flush()?;
    Ok(())
}
