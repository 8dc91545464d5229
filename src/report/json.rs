use crate::paper::Paper;
use std::io::{self, Write};

/// One JSON object per paper per line, with every field of [`Paper`].
pub fn write_papers(out: &mut impl Write, papers: &[Paper]) -> io::Result<()> {
    for p in papers {
        serde_json::to_writer(&mut *out, p)?;
        out.write_all(b"\n")?;
    }
    Ok(())
}

/// One object per neighbour: the paper's fields plus its score.
pub fn write_neighbours(out: &mut impl Write, found: &[crate::workflow::neighbours::Neighbour]) -> io::Result<()> {
    for n in found {
        serde_json::to_writer(&mut *out, &neighbour(n))?;
        out.write_all(b"\n")?;
    }
    Ok(())
}

/// The object `like --json` prints for one neighbour (the server's too).
pub fn neighbour(n: &crate::workflow::neighbours::Neighbour) -> serde_json::Value {
    let p = &n.paper.paper;
    let mut v = serde_json::json!({
        "id": p.id,
        "version": p.version,
        "score": (n.score * 10_000.0).round() / 10_000.0,
        "title": p.title,
        "authors": p.authors,
        "primary": p.primary,
        "subjects": p.subjects,
        "listing_date": n.paper.first_date,
        "gist": n.paper.gist(),
    });
    // As `parse --json` has them: only where a source named any.
    if let (false, Some(o)) = (p.affiliations.is_empty(), v.as_object_mut()) {
        o.insert("affiliations".into(), p.affiliations.clone().into());
    }
    v
}

/// One object per paper found: [`neighbour`]'s fields and `matched` (how:
/// "id", "author", "words", "meaning").
pub fn write_found(out: &mut impl Write, found: &[crate::workflow::search::Found]) -> io::Result<()> {
    for f in found {
        serde_json::to_writer(&mut *out, &found_value(f))?;
        out.write_all(b"\n")?;
    }
    Ok(())
}

pub fn found_value(f: &crate::workflow::search::Found) -> serde_json::Value {
    let mut v = neighbour(&f.hit);
    if let Some(o) = v.as_object_mut() {
        o.insert("matched".into(), f.matched.iter().map(|m| m.name()).collect::<Vec<_>>().into());
    }
    v
}
