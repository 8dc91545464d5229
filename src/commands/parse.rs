use crate::cli::ParseArgs;
use crate::listing;
use crate::report;
use anyhow::Context;
use std::io::Write;

/// Parses every file, printing what it found. A file that cannot be read as a
/// listing is reported and the others still run; the exit status says so.
pub fn run(args: &ParseArgs) -> anyhow::Result<()> {
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let mut failed = 0usize;
    for path in &args.files {
        match listing::parse_path(path) {
            Ok(parsed) => {
                for w in &parsed.warnings {
                    crate::messages::warning(w);
                }
                if let Some(summary) = parsed.skip_summary(&path.display().to_string()) {
                    crate::messages::warning(summary);
                }
                crate::messages::detail(format_args!("{}: {} paper(s) as {}", path.display(), parsed.papers.len(), parsed.format.name()));
                if args.json {
                    report::json::write_papers(&mut out, &parsed.papers)?;
                } else {
                    report::table::write_papers(&mut out, &parsed.papers)?;
                }
            }
            Err(e) => {
                failed += 1;
                crate::messages::error(e);
            }
        }
    }
    out.flush().context("writing output")?;
    if failed > 0 {
        anyhow::bail!("{failed} of {} input(s) could not be read", args.files.len());
    }
    Ok(())
}
