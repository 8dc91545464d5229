use crate::cli::SearchArgs;
use crate::library::{self, Library, UseIndex};
use crate::report;
use crate::workflow::{query, search};
use anyhow::{bail, Result};
use std::io::Write;

pub fn run(args: &SearchArgs) -> Result<()> {
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
            let (_, v) = query::embed_text(&query, Some(known), &args.model)?;
            Some((lib.vectors(known, UseIndex::Never)?, v))
        }
        _ => None,
    };
    let page = args.offset..args.offset.saturating_add(args.k);
    let results = search::find(&lib, lexical.as_ref(), meaning.as_ref().map(|(vs, v)| (vs, v.as_slice())), &query, page, &scope)?;
    let found = &results.found;
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    if results.total == 0 {
        crate::messages::note(format_args!("no good match for {:?} in the library at {}", query.trim(), dir.display()));
    } else {
        let shown =
            if found.is_empty() { "none".to_string() } else { format!("{}–{}", results.offset + 1, results.offset + found.len()) };
        let more = match results.more() {
            0 => String::new(),
            n => format!("; {n} more: --offset {}", results.offset + found.len()),
        };
        crate::messages::note(format_args!("{} found, showing {shown}{more}", results.total));
    }
    if args.json {
        report::json::write_found(&mut out, found)?;
    } else if !found.is_empty() {
        report::table::write_found(&mut out, found)?;
    }
    out.flush()?;
    Ok(())
}
