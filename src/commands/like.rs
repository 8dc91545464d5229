use crate::cli::LikeArgs;
use crate::library::{self, Library, UseIndex};
use crate::report;
use crate::workflow::{neighbours, query};
use anyhow::{bail, Context, Result};
use std::io::Write;

pub fn run(args: &LikeArgs) -> Result<()> {
    let dir = library::resolve_dir(args.library.library.as_deref())?;
    let lib = Library::open_read(&dir)?;
    let (model, query, exclude) = match &args.id {
        // An id query needs no model: its vector is already stored.
        Some(id) => {
            let model = crate::workflow::library_model(&lib)?;
            let (paper, v) = neighbours::paper_query(&lib, &model, id)?;
            (model, v, Some(paper.rowid))
        }
        None => {
            let text = query_text(args)?;
            let known = lib.store.default_model()?;
            let (id, v) = query::embed_text(&text, known.as_deref(), &args.model)?;
            (id, v, None)
        }
    };
    let use_index = if args.approx { UseIndex::Always } else { UseIndex::Never };
    let vectors = lib.vectors(&model, use_index)?;
    let scope = args.scope.scope()?;
    let found = neighbours::nearest(&lib, &vectors, &query, args.k, exclude, &scope)?;
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    if args.json {
        report::json::write_neighbours(&mut out, &found)?;
    } else {
        report::table::write_neighbours(&mut out, &found)?;
    }
    out.flush()?;
    Ok(())
}
/// The text of a `--text` or `--file` query; an empty one is an error, as
/// its vector would rank papers by nothing.
fn query_text(args: &LikeArgs) -> Result<String> {
    let (text, from) = match (&args.text, &args.file) {
        (Some(t), _) => (t.clone(), "--text".to_string()),
        (None, Some(f)) => (
            crate::profile::seed_files::strip_bom(&std::fs::read_to_string(f).with_context(|| format!("cannot read {}", f.display()))?)
                .to_string(),
            f.display().to_string(),
        ),
        (None, None) => bail!("give an arXiv id, --text or --file"),
    };
    if text.trim().is_empty() {
        bail!("{from} is empty; give a title, an abstract or a sentence to search for");
    }
    Ok(text)
}
