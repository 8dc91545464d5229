use crate::paper::Paper;
use std::io::{self, IsTerminal, Write};

/// Columns a table may fill: the terminal's, else `COLUMNS` (as a shell
/// exports it), else 100 for a file or a mail.
pub fn width() -> usize {
    if io::stdout().is_terminal() {
        if let Some((terminal_size::Width(w), _)) = terminal_size::terminal_size() {
            return usize::from(w);
        }
    }
    std::env::var("COLUMNS").ok().and_then(|c| c.trim().parse().ok()).filter(|&w: &usize| w >= 40).unwrap_or(100)
}

/// A readable table: id, kind, primary category, title and first author.
pub fn write_papers(out: &mut impl Write, papers: &[Paper]) -> io::Result<()> {
    for p in papers {
        let id = match p.version {
            Some(v) => format!("{}v{}", p.id, v),
            None => p.id.clone(),
        };
        writeln!(out, "{:<18} {:<8} {:<10} {}{}", id, p.kind.as_str(), p.primary.as_deref().unwrap_or("-"), truncate(&p.title, 90), by(p))?;
    }
    Ok(())
}

/// ` — First Author et al.` after a title; nothing for a paper without authors.
fn by(p: &Paper) -> String {
    match p.authors.len() {
        0 => String::new(),
        1 => format!(" — {}", printable(&p.authors[0])),
        _ => format!(" — {} et al.", printable(&p.authors[0])),
    }
}

/// Score, id, date, primary category, title and first author of each neighbour.
pub fn write_neighbours(out: &mut impl Write, found: &[crate::workflow::neighbours::Neighbour]) -> io::Result<()> {
    for n in found {
        let p = &n.paper.paper;
        writeln!(
            out,
            "{:.3}  {:<12} {:<10} {:<10} {}{}",
            n.score,
            p.id,
            n.paper.first_date.as_deref().unwrap_or("-"),
            p.primary.as_deref().unwrap_or("-"),
            truncate(&p.title, 90),
            by(p)
        )?;
    }
    Ok(())
}

/// Like [`write_neighbours`], with how each paper matched.
pub fn write_found(out: &mut impl Write, found: &[crate::workflow::search::Found]) -> io::Result<()> {
    for f in found {
        let p = &f.hit.paper.paper;
        let how: Vec<&str> = f.matched.iter().map(|m| m.name()).collect();
        writeln!(
            out,
            "{:.3}  {:<16} {:<10} {:<14} {}",
            f.hit.score,
            p.id,
            f.hit.paper.first_date.as_deref().unwrap_or("-"),
            how.join("+"),
            truncate(&p.title, 90)
        )?;
    }
    Ok(())
}

fn printable(s: &str) -> String {
    s.chars().filter(|c| !c.is_control()).collect()
}

/// `s` cut to `max` characters, without control characters: a library
/// filled before listings were cleaned of them must not reach the terminal
/// with an escape sequence.
fn truncate(s: &str, max: usize) -> String {
    let mut chars = s.chars().filter(|c| !c.is_control());
    let mut t: String = chars.by_ref().take(max).collect();
    if chars.next().is_some() {
        t.pop();
        t.push('…');
    }
    t
}
