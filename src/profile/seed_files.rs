//! Seed files as text in, seeds out: BibTeX/BibLaTeX, CSL-JSON, RIS
//! (ris.rs) and lists of arXiv ids (`seed add FILE`), and one Zotero item's fields (`seed sync
//! zotero`). Nothing here touches the library, so the fuzz crate compiles
//! this file on its own (see `fuzz/src/lib.rs`).
//!
//! A seed file is someone else's text. BibTeX is read by the `biblatex`
//! crate, which resolves `@string` references and `crossref`/`xdata`
//! inheritance by recursion without memory: a cycle overflows the stack and
//! a chain of strings that doubles at each step takes time and memory
//! exponential in its length. So the raw parse is checked before anything is
//! resolved (`check_strings`, `check_inheritance`): cycles are refused naming
//! the entry, and depth, expanded length and work are capped (the `MAX_*`
//! constants; docs/reliability.md has the figures).

use super::arxiv_ids::arxiv_id_from_fields;
use crate::listing::fields::{self, calendar_day, line_of};
use crate::paper::{embedding_text, text_hash, ArxivId};
use anyhow::{bail, Result};
use biblatex::{Bibliography, ChunksExt, RawBibliography, RawChunk};
use std::collections::HashMap;

/// How deep `@string` references, `crossref`/`xdata` chains and braces in
/// one value may nest. Real files nest two or three deep.
pub const MAX_DEPTH: u64 = 32;
/// The most one field may hold once its `@string` references are expanded.
pub const MAX_FIELD_BYTES: u64 = 1 << 20;
/// The most pieces (literals, references, brace groups, `$…$`) one field
/// may be made of: biblatex joins them one by one, in time quadratic in
/// their number (100,000 nested braces took 21 s).
pub const MAX_FIELD_PARTS: u64 = 4096;
/// What `@string` expansion may add to the file's own length, all fields
/// together.
pub const MAX_EXPANSION_BYTES: u64 = 16 << 20;
/// The sum over every expansion of its pieces squared: the joining work.
pub const MAX_JOIN_WORK: u64 = 1 << 28;
/// What `crossref` and `xdata` may copy into one entry, counting every path.
pub const MAX_ENTRY_INHERITED_BYTES: u64 = 4 << 20;
/// What `crossref` and `xdata` may copy from entry to entry, all together.
pub const MAX_INHERITED_BYTES: u64 = 64 << 20;

/// A seed as read from the user's input, before it is stored.
#[derive(Debug, Clone, PartialEq)]
pub struct SeedInput {
    /// The arXiv id when known, else `text:` + a short hash of the text.
    pub key: String,
    pub title: String,
    pub abstract_text: String,
    /// Where it came from, for `seed list`.
    pub origin: String,
    /// When the export says the user added the paper, else (for a paper
    /// without an arXiv id, whose id tells its age) its publication date;
    /// `YYYY`, `YYYY-MM` or `YYYY-MM-DD`, a date the calendar has. Orders
    /// the seeds of one `seed add`.
    pub date: Option<String>,
}

impl SeedInput {
    /// A description of what the user wants to read, used as a seed.
    pub fn from_free_text(text: &str) -> SeedInput {
        let text = crate::listing::text::inline(strip_bom(text));
        SeedInput::from_text(&text, "", SENTENCE)
    }

    pub fn from_text(title: &str, abstract_text: &str, origin: &str) -> SeedInput {
        let hash = text_hash(&embedding_text(title, abstract_text));
        let key = format!("text:{}", hex(&hash[..6]));
        SeedInput { key, title: title.to_string(), abstract_text: abstract_text.to_string(), origin: origin.to_string(), date: None }
    }
}

/// The origin of a seed written as a sentence.
/// (library::store::profiles::SENTENCE_ORIGIN; the fuzz crate compiles
/// this file without the store.)
pub(super) const SENTENCE: &str = "sentence";

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// A text without the UTF-8 byte-order mark that Windows editors (and some
/// exports) put first.
pub fn strip_bom(text: &str) -> &str {
    text.strip_prefix('\u{feff}').unwrap_or(text)
}

/// What a seed file holds.
#[derive(Debug)]
pub enum SeedFile {
    /// BibTeX, CSL-JSON or RIS entries.
    Seeds(Vec<SeedInput>),
    /// arXiv ids, each with its line number; the library must know them.
    Ids(Vec<(usize, ArxivId)>),
}

/// Tells the file kinds apart by their first meaningful character.
pub fn read(text: &str, source: &str) -> Result<SeedFile> {
    let text = strip_bom(text);
    Ok(match text.trim_start().chars().next() {
        Some('[') | Some('{') => SeedFile::Seeds(parse_csl_json(text, source)?),
        _ if looks_like_bibtex(text) => SeedFile::Seeds(parse_bibtex(text, source)?),
        _ if super::ris::looks_like_ris(text) => SeedFile::Seeds(from_ris(text, source)?),
        _ => SeedFile::Ids(parse_id_list(text, source)?),
    })
}

/// RIS records (ris.rs) as seeds: by arXiv id where one was found.
pub fn from_ris(text: &str, source: &str) -> Result<Vec<SeedInput>> {
    let records = super::ris::parse_ris(text, source)?;
    Ok(records
        .into_iter()
        .map(|r| {
            let origin = format!("{source} (record at line {})", r.line);
            match r.arxiv_id {
                Some(key) => SeedInput { key, title: r.title, abstract_text: r.abstract_text, origin, date: None },
                None => SeedInput::from_text(&r.title, &r.abstract_text, &origin),
            }
        })
        .collect())
}

fn looks_like_bibtex(text: &str) -> bool {
    text.lines().map(str::trim_start).any(|l| l.starts_with('@') && l.contains('{'))
}

/// BibTeX/BibLaTeX (Zotero, JabRef): title, abstract and the arXiv id fields.
pub fn parse_bibtex(text: &str, source: &str) -> Result<Vec<SeedInput>> {
    let text = strip_bom(text);
    let bib = bibliography(text, source)?;
    let mut out = Vec::new();
    // `@xdata` entries hold fields for others to share, and are no papers.
    for entry in bib.iter().filter(|e| e.entry_type != biblatex::EntryType::XData) {
        let get = |k: &str| entry.get(k).map(|c| clean_latex(&c.format_verbatim()));
        let title = get("title").unwrap_or_default();
        if title.is_empty() {
            bail!("{source}: entry {} has no title", crate::listing::text::excerpt(&entry.key));
        }
        let abstract_text = get("abstract").unwrap_or_default();
        let origin = format!("{source} ({})", entry.key);
        // JabRef writes `timestamp` or `creationdate`, Better BibTeX `dateadded`.
        let added = ["dateadded", "creationdate", "timestamp"].iter().find_map(|k| get(k).and_then(|v| date_prefix(&v)));
        let published = || {
            let date = get("date").and_then(|v| date_prefix(&v));
            date.or_else(|| {
                let year = get("year").and_then(|v| date_prefix(&v))?.get(..4)?.to_string();
                Some(match get("month").and_then(|m| month_number(&m)) {
                    Some(m) => format!("{year}-{m:02}"),
                    None => year,
                })
            })
        };
        out.push(match arxiv_id_from_fields(&get) {
            Some(id) => SeedInput { key: id, title, abstract_text, origin, date: added },
            None => SeedInput { date: added.or_else(published), ..SeedInput::from_text(&title, &abstract_text, &origin) },
        });
    }
    if out.is_empty() {
        bail!("{source}: no BibTeX entries");
    }
    Ok(out)
}

/// The field names biblatex's crossref resolution reads, and what the first
/// pass calls them instead so that it resolves nothing.
const INHERIT: [(&str, &str); 2] = [("crossref", "paperscout-crossref"), ("xdata", "paperscout-xdata")];

/// The file as biblatex reads it, once the raw parse has passed the checks.
fn bibliography(text: &str, source: &str) -> Result<Bibliography> {
    let bad = |e: biblatex::ParseError| anyhow::anyhow!("{source}:{}: not valid BibTeX: {}", line_of(text, e.span.start), e.kind);
    // The raw parse counts braces in one pass and resolves nothing.
    let raw = RawBibliography::parse(text).map_err(bad)?;
    check_strings(&raw, text, source)?;
    // First pass: every field resolved, crossref and xdata renamed so that
    // nothing is inherited yet.
    let mut first = raw.clone();
    let mut inherits = false;
    for entry in &mut first.entries {
        for pair in &mut entry.v.fields {
            if let Some(&(_, renamed)) = INHERIT.iter().find(|(name, _)| pair.key.v.eq_ignore_ascii_case(name)) {
                pair.key.v = renamed;
                inherits = true;
            }
        }
    }
    let bib = resolve(first, text, source)?;
    if !inherits {
        return Ok(bib);
    }
    check_inheritance(&bib, &raw, text, source)?;
    resolve(raw, text, source)
}

/// biblatex's resolution of a raw parse. It panics on some inputs the checks
/// let through (found by fuzzing: `month = 0` in an entry another inherits
/// from, where it subtracts one from the month), and a file is never a
/// reason to stop: a panic is this file's error.
fn resolve(raw: RawBibliography, text: &str, source: &str) -> Result<Bibliography> {
    let bad = |e: biblatex::ParseError| anyhow::anyhow!("{source}:{}: not valid BibTeX: {}", line_of(text, e.span.start), e.kind);
    crate::listing::contain::quietly("BibTeX reader", || Bibliography::from_raw(raw))
        .map_err(|why| anyhow::anyhow!("{source}: not valid BibTeX: {why}"))?
        .map_err(bad)
}

/// What expanding a value costs: bytes out, pieces joined at its own level,
/// joining work of it and everything it refers to, and how deep it nests.
#[derive(Clone, Copy, Default)]
struct Cost {
    bytes: u64,
    parts: u64,
    work: u64,
    depth: u64,
}

/// Brace depth and pieces of one literal, as biblatex's parsers count them:
/// a backslash escapes the next character; `{`, `}` and `$` each start a
/// piece at most.
fn literal(t: &str) -> (u64, u64) {
    let (mut depth, mut max, mut parts) = (0u64, 0u64, 1u64);
    let mut bytes = t.bytes();
    while let Some(b) = bytes.next() {
        match b {
            b'\\' => {
                bytes.next();
            }
            b'{' => {
                depth += 1;
                max = max.max(depth);
                parts += 1;
            }
            b'}' => {
                depth = depth.saturating_sub(1);
                parts += 1;
            }
            b'$' => parts += 2,
            _ => {}
        }
    }
    (max, parts)
}

struct Strings<'a, 's> {
    defs: HashMap<&'s str, &'a biblatex::Pair<'s>>,
    done: HashMap<&'s str, Cost>,
    text: &'a str,
    source: &'a str,
}

impl<'a, 's> Strings<'a, 's> {
    /// The cost of a value; `path` is the chain of strings being expanded.
    fn value(&mut self, value: &biblatex::Field<'s>, path: &mut Vec<&'s str>) -> Result<Cost> {
        let mut c = Cost::default();
        for chunk in value {
            let (bytes, parts, work, depth) = match chunk.v {
                RawChunk::Normal(t) => {
                    let (depth, parts) = literal(t);
                    (1 + t.len() as u64, parts, 0, depth)
                }
                RawChunk::Abbreviation(name) => match self.defs.get(name) {
                    Some(_) => {
                        let s = self.string(name, path)?;
                        (s.bytes, s.parts, s.work, s.depth + 1)
                    }
                    // A month, or a name biblatex will call unknown.
                    None => (10, 1, 0, 0),
                },
            };
            c.bytes = c.bytes.saturating_add(bytes);
            c.parts = c.parts.saturating_add(parts);
            c.work = c.work.saturating_add(work);
            c.depth = c.depth.max(depth);
        }
        c.work = c.work.saturating_add(c.parts.saturating_mul(c.parts));
        Ok(c)
    }

    fn string(&mut self, name: &'s str, path: &mut Vec<&'s str>) -> Result<Cost> {
        if let Some(c) = self.done.get(name) {
            return Ok(*c);
        }
        let def = self.defs[name];
        let at = line_of(self.text, def.key.span.start);
        let (text, source) = (self.text, self.source);
        let q = |s: &str| crate::listing::text::excerpt(s);
        if let Some(pos) = path.iter().position(|n| *n == name) {
            let through: Vec<String> = path[pos + 1..].iter().map(|n| q(n)).collect();
            let at = line_of(text, self.defs[path[pos]].key.span.start);
            if through.is_empty() {
                bail!("{source}:{at}: @string {} refers to itself", q(name));
            }
            bail!("{source}:{at}: @string {} refers to itself through {}", q(name), through.join(", "));
        }
        if path.len() as u64 >= MAX_DEPTH {
            bail!("{source}:{at}: @string {} nests references more than {MAX_DEPTH} deep", q(name));
        }
        path.push(name);
        let c = self.value(&def.value.v, path)?;
        path.pop();
        if c.depth > MAX_DEPTH {
            bail!("{source}:{at}: @string {} nests braces or references more than {MAX_DEPTH} deep", q(name));
        }
        self.done.insert(name, c);
        Ok(c)
    }
}

/// Refuses `@string` cycles, and fields whose expansion nests too deep, grows
/// too long or would take biblatex too long to join.
fn check_strings(raw: &RawBibliography, text: &str, source: &str) -> Result<()> {
    // biblatex keeps the last definition of a name.
    let defs: HashMap<&str, &biblatex::Pair> = raw.abbreviations.iter().map(|p| (p.key.v, p)).collect();
    let mut strings = Strings { defs, done: HashMap::new(), text, source };
    let q = |s: &str| crate::listing::text::excerpt(s);
    for pair in &raw.abbreviations {
        strings.string(pair.key.v, &mut Vec::new())?;
    }
    let (mut bytes, mut work) = (0u64, 0u64);
    for entry in &raw.entries {
        for pair in &entry.v.fields {
            let c = strings.value(&pair.value.v, &mut Vec::new())?;
            let at = line_of(text, pair.key.span.start);
            let what = || format!("{source}:{at}: field {} of entry {}", q(pair.key.v), q(entry.v.key.v));
            if c.depth > MAX_DEPTH {
                bail!("{} nests braces or @string references more than {MAX_DEPTH} deep", what());
            }
            if c.bytes > MAX_FIELD_BYTES {
                bail!("{} expands to more than {} MiB", what(), MAX_FIELD_BYTES >> 20);
            }
            if c.parts > MAX_FIELD_PARTS {
                bail!("{} is made of more than {MAX_FIELD_PARTS} pieces (brace groups, formulas, @string references)", what());
            }
            bytes = bytes.saturating_add(c.bytes);
            work = work.saturating_add(c.work);
            if bytes > (text.len() as u64).saturating_add(MAX_EXPANSION_BYTES) {
                bail!("{}: @string references expand the file by more than {} MiB", what(), MAX_EXPANSION_BYTES >> 20);
            }
            if work > MAX_JOIN_WORK {
                bail!("{}: the fields up to here take too many pieces to join (more than 2^28 steps)", what());
            }
        }
    }
    Ok(())
}

/// Refuses `crossref`/`xdata` cycles and chains that nest or copy too much.
/// `bib` is the first pass, with the two fields renamed and nothing
/// inherited; its entries are those of `raw`, in order.
fn check_inheritance(bib: &Bibliography, raw: &RawBibliography, text: &str, source: &str) -> Result<()> {
    let entries: Vec<&biblatex::Entry> = bib.iter().collect();
    // Keys as `Bibliography::get` finds them: the key, then `ids` aliases,
    // a later entry's winning.
    let mut index: HashMap<&str, usize> = HashMap::new();
    let ids: Vec<Vec<String>> = entries.iter().map(|e| e.get_as::<Vec<String>>("ids").unwrap_or_default()).collect();
    for (i, e) in entries.iter().enumerate() {
        index.insert(e.key.as_str(), i);
        for alias in &ids[i] {
            index.insert(alias.as_str(), i);
        }
    }
    let parents: Vec<Vec<usize>> = entries
        .iter()
        .map(|e| {
            let mut keys: Vec<String> = e.get_as::<String>(INHERIT[0].1).into_iter().collect();
            keys.extend(e.get_as::<Vec<String>>(INHERIT[1].1).unwrap_or_default());
            keys.iter().filter_map(|k| index.get(k.as_str()).copied()).collect()
        })
        .collect();
    let size: Vec<u64> = entries
        .iter()
        .map(|e| e.fields.values().flatten().map(|c| 64 + c.v.get().len() as u64).sum::<u64>() + 64 * (1 + e.fields.len() as u64))
        .collect();
    let line = |i: usize| raw.entries.get(i).map_or(0, |e| line_of(text, e.span.start));
    let q = |i: usize| crate::listing::text::excerpt(&entries[i].key);

    // Depth-first with memory: what each entry copies from its ancestors.
    let mut done: Vec<Option<(u64, u64)>> = vec![None; entries.len()];
    let mut total = 0u64;
    for start in 0..entries.len() {
        // (entry, next parent to visit, bytes so far, depth so far)
        let mut stack: Vec<(usize, usize, u64, u64)> = vec![(start, 0, 0, 0)];
        while let Some(top) = stack.last_mut() {
            let node = top.0;
            if done[node].is_some() {
                stack.pop();
                continue;
            }
            if let Some(&p) = parents[node].get(top.1) {
                top.1 += 1;
                if let Some((b, d)) = done[p] {
                    top.2 = top.2.saturating_add(b).saturating_add(size[p]);
                    top.3 = top.3.max(d + 1);
                    continue;
                }
                if let Some(pos) = stack.iter().position(|s| s.0 == p) {
                    let through: Vec<String> = stack[pos + 1..].iter().map(|s| q(s.0)).collect();
                    if through.is_empty() {
                        bail!("{source}:{}: entry {} inherits from itself (crossref or xdata)", line(p), q(p));
                    }
                    bail!("{source}:{}: entry {} inherits from itself through {} (crossref or xdata)", line(p), q(p), through.join(", "));
                }
                if stack.len() as u64 > MAX_DEPTH {
                    bail!(
                        "{source}:{}: entry {} inherits through crossref or xdata more than {MAX_DEPTH} levels deep",
                        line(start),
                        q(start)
                    );
                }
                stack.push((p, 0, 0, 0));
                continue;
            }
            let (node, _, bytes, depth) = stack.pop().unwrap_or_default();
            if bytes > MAX_ENTRY_INHERITED_BYTES {
                bail!(
                    "{source}:{}: entry {} copies more than {} MiB from the entries it inherits from (crossref or xdata)",
                    line(node),
                    q(node),
                    MAX_ENTRY_INHERITED_BYTES >> 20
                );
            }
            done[node] = Some((bytes, depth));
            total = total.saturating_add(bytes);
            if total > MAX_INHERITED_BYTES {
                bail!(
                    "{source}:{}: entry {}: crossref and xdata copy more than {} MiB between the entries up to here",
                    line(node),
                    q(node),
                    MAX_INHERITED_BYTES >> 20
                );
            }
            if let Some(parent) = stack.last_mut() {
                parent.2 = parent.2.saturating_add(bytes).saturating_add(size[node]);
                parent.3 = parent.3.max(depth + 1);
            }
        }
    }
    Ok(())
}

/// BibTeX protects capitals with braces; they are markup, not text.
fn clean_latex(s: &str) -> String {
    crate::listing::text::inline(&s.replace(['{', '}'], ""))
}

/// CSL-JSON (Zotero's "CSL JSON" export): a list of items, or one item.
pub fn parse_csl_json(text: &str, source: &str) -> Result<Vec<SeedInput>> {
    let text = strip_bom(text);
    let value: serde_json::Value =
        serde_json::from_str(text).map_err(|e| anyhow::anyhow!("{source}:{}: not valid CSL-JSON: {e}", e.line()))?;
    let items = match value {
        serde_json::Value::Array(items) => items,
        obj @ serde_json::Value::Object(_) => vec![obj],
        _ => bail!("{source}: CSL-JSON must be a list of items"),
    };
    let mut out = Vec::new();
    for (i, item) in items.iter().enumerate() {
        let get = |k: &str| item.get(k).and_then(|v| v.as_str()).map(crate::listing::text::inline);
        let Some(title) = get("title").filter(|t| !t.is_empty()) else {
            bail!("{source}: item {} has no title", i + 1);
        };
        let abstract_text = get("abstract").unwrap_or_default();
        let origin = format!("{source} (item {})", i + 1);
        let id = arxiv_id_from_fields(&|k: &str| get(k)).or_else(|| get("id").and_then(|v| ArxivId::parse(&v)).map(|a| a.id));
        // Zotero's own JSON has `dateAdded`; CSL-JSON only `issued`.
        let issued = || {
            let parts = item.pointer("/issued/date-parts/0")?.as_array()?;
            let n = |i: usize| parts.get(i).and_then(|v| v.as_u64().or_else(|| v.as_str()?.trim().parse().ok()));
            calendar(n(0)?, n(1), n(2))
        };
        let added = get("dateAdded").and_then(|v| date_prefix(&v));
        out.push(match id {
            Some(id) => SeedInput { key: id, title, abstract_text, origin, date: added },
            None => SeedInput { date: added.or_else(issued), ..SeedInput::from_text(&title, &abstract_text, &origin) },
        });
    }
    Ok(out)
}

/// One arXiv id per line (blank lines and `#` comments allowed).
pub fn parse_id_list(text: &str, source: &str) -> Result<Vec<(usize, ArxivId)>> {
    let text = strip_bom(text);
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let Some(id) = ArxivId::parse(line) else {
            bail!(
                "{source}:{}: {} is not an arXiv id (expected one id per line, or a BibTeX or CSL-JSON file)",
                i + 1,
                crate::listing::text::excerpt(line)
            );
        };
        out.push((i + 1, id));
    }
    if out.is_empty() {
        bail!("{source}: no arXiv ids in it");
    }
    Ok(out)
}

/// `YYYY`, `YYYY-MM` or `YYYY-MM-DD` of a year and perhaps a month and day,
/// as precise as the calendar allows: a month 13 leaves the year, a
/// 30 February the month.
fn calendar(year: u64, month: Option<u64>, day: Option<u64>) -> Option<String> {
    let year = i32::try_from(year).ok().filter(|y| (1000..=9999).contains(y))?;
    let Some(month) = month.and_then(|m| u32::try_from(m).ok()).filter(|m| (1..=12).contains(m)) else {
        return Some(format!("{year:04}"));
    };
    let whole = day.and_then(|d| u32::try_from(d).ok()).and_then(|d| calendar_day(year as u32, month, d));
    Some(whole.unwrap_or_else(|| format!("{year:04}-{month:02}")))
}

/// The date at the start of an export's date field (`2025-07-10 12:01:02`,
/// `2025.07.10`, `2025`), as `YYYY[-MM[-DD]]`, as precise as the calendar
/// allows.
fn date_prefix(v: &str) -> Option<String> {
    let b = v.trim().as_bytes();
    let digits = |r: std::ops::Range<usize>| -> Option<u64> {
        let d = b.get(r)?;
        d.iter().all(u8::is_ascii_digit).then(|| d.iter().fold(0, |n, c| n * 10 + u64::from(c - b'0')))
    };
    let sep = |i: usize| b.get(i).is_some_and(|c| matches!(c, b'-' | b'.' | b'/'));
    let year = digits(0..4)?;
    let month = if sep(4) { digits(5..7) } else { None };
    let day = if month.is_some() && sep(7) { digits(8..10) } else { None };
    calendar(year, month, day)
}

/// BibTeX months: `7`, `jul`, `July`.
fn month_number(m: &str) -> Option<u32> {
    let m = m.trim().to_ascii_lowercase();
    if let Ok(n) = m.parse::<u32>() {
        return (1..=12).contains(&n).then_some(n);
    }
    fields::month_number(&m)
}

/// One Zotero item as a seed, from its key, `dateAdded` and the fields a
/// sync reads (`title`, `abstractNote`, `url`, `DOI`, `extra`, `archiveID`,
/// `number`); `now` stands in for a `dateAdded` that is no date. None when
/// it has no title. The seed's date is the day it was added, and the second
/// value that moment as RFC 3339.
pub fn zotero_item(key: &str, date_added: &str, fields: &HashMap<String, String>, now: &str) -> Option<(SeedInput, String)> {
    let text = |k: &str| crate::listing::text::inline(fields.get(k).map(String::as_str).unwrap_or(""));
    let title = text("title");
    if title.is_empty() {
        return None;
    }
    let abstract_text = text("abstractNote");
    let origin = format!("zotero ({})", crate::listing::text::inline(key));
    let added = zotero_rfc3339(date_added).unwrap_or_else(|| now.to_string());
    let date = added.get(..10).map(str::to_string);
    let seed = match zotero_arxiv_id(fields) {
        Some(aid) => SeedInput { key: aid, title, abstract_text, origin, date },
        None => SeedInput { date, ..SeedInput::from_text(&title, &abstract_text, &origin) },
    };
    Some((seed, added))
}

/// The arXiv id an item carries: its archive id or number (`arXiv:…`), an
/// arxiv.org URL, a `10.48550/arXiv.…` DOI, or an `arXiv: …` line in Extra.
pub fn zotero_arxiv_id(fields: &HashMap<String, String>) -> Option<String> {
    let prefixed = |v: &str| v.trim().get(..6).is_some_and(|p| p.eq_ignore_ascii_case("arxiv:"));
    let get = |k: &str| fields.get(k).map(String::as_str);
    let tries = [
        get("archiveID").filter(|v| prefixed(v)),
        get("url").filter(|v| v.to_ascii_lowercase().contains("arxiv.org/")),
        get("DOI").and_then(|v| v.to_ascii_lowercase().find("10.48550/arxiv.").and_then(|at| v.get(at + 15..))),
        get("extra").and_then(|v| v.lines().find(|l| prefixed(l))),
        get("number").filter(|v| prefixed(v)),
    ];
    // `arXiv: 2603.00356` has a space the id parser does not take.
    let bare = |v: &str| if prefixed(v) { v.trim()[6..].trim().to_string() } else { v.trim().to_string() };
    tries.into_iter().flatten().find_map(|v| ArxivId::parse(&bare(v))).map(|a| a.id)
}

/// `2024-01-05 10:00:00` (UTC, as Zotero stores it) as RFC 3339.
pub fn zotero_rfc3339(date_added: &str) -> Option<String> {
    use chrono::Datelike;
    let t = chrono::NaiveDateTime::parse_from_str(date_added.trim(), "%Y-%m-%d %H:%M:%S").ok()?;
    // chrono takes `-2024` and `12024` for years; Zotero writes four digits.
    (1000..=9999).contains(&t.year()).then(|| t.and_utc().to_rfc3339_opts(chrono::SecondsFormat::Micros, true))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bibtex_from_zotero() {
        let bib = r#"
@misc{rashid_qosflow_2026,
  title = {{QoSFlow}: Ensuring Service Quality of Distributed Workflows},
  author = {Rashid, Md Hasanur and Firoz, Jesun},
  year = {2026},
  eprint = {2602.23598},
  archivePrefix = {arXiv},
  abstract = {With the increasing importance of distributed
              scientific workflows, ...},
}
@article{other,
  title = {A paper without an arXiv id},
  doi = {10.1000/xyz},
}
@article{doi_only,
  title = {Found by its DOI},
  doi = {10.48550/arXiv.2507.07114},
}"#;
        let seeds = parse_bibtex(bib, "z.bib").unwrap();
        assert_eq!(seeds.len(), 3);
        assert_eq!(seeds[0].key, "2602.23598");
        assert_eq!(seeds[0].title, "QoSFlow: Ensuring Service Quality of Distributed Workflows");
        assert!(seeds[0].abstract_text.starts_with("With the increasing importance of distributed scientific"));
        assert!(seeds[1].key.starts_with("text:"));
        assert_eq!(seeds[2].key, "2507.07114");
        let scholar = parse_bibtex("@article{x, title={T}, journal={arXiv preprint arXiv:2401.07851}}", "s.bib").unwrap();
        assert_eq!(scholar[0].key, "2401.07851", "Google Scholar's export");
        let err = parse_bibtex("@article{x, title = {unclosed", "bad.bib").unwrap_err().to_string();
        assert!(err.starts_with("bad.bib:"), "{err}");
    }

    #[test]
    fn csl_json_from_zotero() {
        let csl = r#"[{"id": "http://zotero.org/users/1/items/ABC", "type": "article",
            "title": "Distributed Training under Packet Loss", "abstract": "State-of-the-art  models",
            "URL": "http://arxiv.org/abs/2507.07114v1", "number": "arXiv:2507.07114"},
            {"id": "x", "title": "No id here"}]"#;
        let seeds = parse_csl_json(csl, "z.json").unwrap();
        assert_eq!(seeds[0].key, "2507.07114");
        assert_eq!(seeds[0].abstract_text, "State-of-the-art models");
        assert!(seeds[1].key.starts_with("text:"));
        assert!(parse_csl_json("[{\"title\": 3}]", "z.json").is_err());
        assert!(parse_csl_json("{", "z.json").unwrap_err().to_string().starts_with("z.json:1"));
    }

    #[test]
    fn id_lists() {
        let ids = parse_id_list("# mine\n2602.23598v2\n\narXiv:astro-ph/0601001 # old\n", "ids.txt").unwrap();
        assert_eq!(ids.iter().map(|(l, i)| (*l, i.id.as_str())).collect::<Vec<_>>(), vec![(2, "2602.23598"), (4, "astro-ph/0601001")]);
        let err = parse_id_list("2602.23598\nnot an id\n", "ids.txt").unwrap_err().to_string();
        assert!(err.starts_with("ids.txt:2:"), "{err}");
    }

    #[test]
    fn a_byte_order_mark_is_skipped_in_every_kind() {
        let bib = "\u{feff}@misc{e, title = {T}, eprint = {2507.07400}}";
        assert!(matches!(read(bib, "b.bib").unwrap(), SeedFile::Seeds(s) if s[0].key == "2507.07400"));
        let csl = "\u{feff}[{\"title\": \"T\", \"URL\": \"http://arxiv.org/abs/2507.07400\"}]";
        assert!(matches!(read(csl, "c.json").unwrap(), SeedFile::Seeds(s) if s[0].key == "2507.07400"));
        assert!(matches!(read("\u{feff}2507.07400\r\n", "i.txt").unwrap(), SeedFile::Ids(i) if i[0].1.id == "2507.07400"));
        assert_eq!(SeedInput::from_free_text("\u{feff}GPU scheduling").title, "GPU scheduling");
    }

    #[test]
    fn dates_are_days_the_calendar_has() {
        assert_eq!(date_prefix("2025-07-10 12:01:02").as_deref(), Some("2025-07-10"));
        assert_eq!(date_prefix("2025.07").as_deref(), Some("2025-07"));
        assert_eq!(date_prefix("2026-02-30").as_deref(), Some("2026-02"));
        assert_eq!(date_prefix("2026-13-01").as_deref(), Some("2026"));
        assert_eq!(date_prefix("0000"), None);
        assert_eq!(date_prefix("20x6"), None);
        assert_eq!(calendar(2024, Some(2), Some(29)).as_deref(), Some("2024-02-29"));
        assert_eq!(calendar(99999, None, None), None);
    }

    fn err(bib: &str) -> String {
        parse_bibtex(bib, "s.bib").unwrap_err().to_string()
    }

    #[test]
    fn string_cycles_are_refused_naming_the_string() {
        assert_eq!(err("@string{a = \"x\" # a}\n@misc{e, title = a}"), "s.bib:1: @string \"a\" refers to itself");
        assert_eq!(
            err("@misc{e, title = a}\n@string{a = \"x\" # b}\n@string{b = c}\n@string{c = a}"),
            "s.bib:2: @string \"a\" refers to itself through \"b\", \"c\""
        );
        // Unused, and still refused: BibTeX itself could not have defined it.
        assert!(err("@string{a = b}\n@string{b = a}\n@misc{e, title = {T}}").contains("refers to itself"));
    }

    #[test]
    fn expansion_is_bounded() {
        let chain = |n: usize, first: &str| {
            let mut s = format!("@string{{s0 = \"{first}\"}}\n");
            for i in 1..=n {
                s.push_str(&format!("@string{{s{i} = s{} # s{}}}\n", i - 1, i - 1));
            }
            s + &format!("@misc{{e, title = s{n}}}\n")
        };
        // Doubling 11 times is 2,048 pieces: fine. 13 is not, even of nothing.
        assert_eq!(parse_bibtex(&chain(11, "x"), "s.bib").unwrap()[0].title.len(), 2048);
        let e = err(&chain(13, ""));
        assert!(e.starts_with("s.bib:15: field \"title\" of entry \"e\" is made of more than 4096 pieces"), "{e}");
        // Few pieces, long text.
        let long = format!("@string{{a = {{{}}}}}\n@string{{b = a # a}}\n@misc{{e, title = b}}", "x".repeat(600_000));
        assert!(err(&long).contains("expands to more than 1 MiB"));
        // Deep references and deep braces.
        let mut deep = "@string{s0 = \"x\"}\n".to_string();
        for i in 1..=40 {
            deep.push_str(&format!("@string{{s{i} = s{}}}\n", i - 1));
        }
        assert!(err(&format!("{deep}@misc{{e, title = s40}}")).contains("more than 32 deep"));
        let braces = format!("@misc{{e, title = {{{}x{}}}}}", "{".repeat(100_000), "}".repeat(100_000));
        let e = err(&braces);
        assert_eq!(e, "s.bib:1: field \"title\" of entry \"e\" nests braces or @string references more than 32 deep");
        // Many flat groups: not deep, but quadratic to join.
        assert!(err(&format!("@misc{{e, title = {{{}}}}}", "{}".repeat(5000))).contains("more than 4096 pieces"));
    }

    #[test]
    fn inheritance_cycles_and_blowups_are_refused() {
        assert_eq!(
            err("@misc{a, title={A}, crossref={b}}\n@misc{b, title={B}, crossref={a}}"),
            "s.bib:1: entry \"a\" inherits from itself through \"b\" (crossref or xdata)"
        );
        assert_eq!(err("@misc{a, title={A}, crossref={a}}"), "s.bib:1: entry \"a\" inherits from itself (crossref or xdata)");
        assert!(err("@misc{a, title={A}, xdata={b}}\n@xdata{b, xdata={a}}").contains("inherits from itself"));
        // Through an alias (`ids`), as biblatex looks keys up.
        assert!(err("@misc{a, title={A}, ids={x}, crossref={b}}\n@misc{b, title={B}, xdata={x}}").contains("inherits from itself"));
        // A diamond chain: 2^40 paths.
        let mut s = "@xdata{d0, note={x}}\n".to_string();
        for i in 1..=40 {
            s.push_str(&format!("@xdata{{d{i}, xdata={{d{},d{}}}}}\n", i - 1, i - 1));
        }
        let e = err(&format!("{s}@misc{{e, title={{T}}, xdata={{d40}}}}"));
        assert!(e.contains("copies more than 4 MiB"), "{e}");
    }

    #[test]
    fn strings_crossref_and_xdata_still_work() {
        let bib = r#"@string{conf = "Proc. of " # sys}
@string{sys = {SOSP}}
@proceedings{sosp, title = conf, booktitle = conf, year = 2025}
@xdata{shared, doi = {10.48550/arXiv.2507.07400}}
@inproceedings{p, title = {Paper} # { } # sys, xdata = {shared}}
@inproceedings{r, title = {R}, crossref = {sosp}}
@misc{q, title = {Q}, month = jul, year = 2024}"#;
        let seeds = parse_bibtex(bib, "ok.bib").unwrap();
        assert_eq!(seeds.len(), 4, "@xdata is no paper");
        assert_eq!(seeds[0].title, "Proc. of SOSP");
        assert_eq!((seeds[1].title.as_str(), seeds[1].key.as_str()), ("Paper SOSP", "2507.07400"));
        assert_eq!(seeds[2].date.as_deref(), Some("2025"), "the year from the crossref");
        assert_eq!(seeds[3].date.as_deref(), Some("2024-07"));
    }

    /// Found by fuzzing (`bibtex`): biblatex reads the date of an entry
    /// another inherits from and subtracts one from its month, which panics
    /// where overflow is checked (debug builds, the fuzz build) and wraps
    /// where it is not. Either way the file is read or refused, never a crash.
    #[test]
    fn a_zero_month_in_an_inherited_entry_is_no_panic() {
        let bib = "@proceedings{sosp, title = {Proc.}, year = 2025, month = 0}\n@inproceedings{r, title = {R}, crossref = {sosp}}\n";
        match (parse_bibtex(bib, "zero.bib"), cfg!(debug_assertions)) {
            (Ok(seeds), false) => {
                assert_eq!(seeds.len(), 2);
                assert_eq!(seeds[1].date.as_deref(), Some("2025"), "a month 0 is no month");
            }
            (Ok(_), true) => panic!("overflow is checked here: biblatex should have panicked"),
            (Err(e), _) => {
                let e = format!("{e:#}");
                assert!(e.starts_with("zero.bib: not valid BibTeX: the BibTeX reader failed"), "{e}");
            }
        }
    }

    #[test]
    fn zotero_items_as_seeds() {
        let f = |k: &str, v: &str| HashMap::from([(k.to_string(), v.to_string())]);
        assert_eq!(zotero_arxiv_id(&f("archiveID", "arXiv:2401.00001")).as_deref(), Some("2401.00001"));
        assert_eq!(zotero_arxiv_id(&f("url", "http://arxiv.org/abs/2507.07400v2")).as_deref(), Some("2507.07400"));
        assert_eq!(zotero_arxiv_id(&f("DOI", "10.48550/arXiv.2602.23598")).as_deref(), Some("2602.23598"));
        assert_eq!(zotero_arxiv_id(&f("extra", "tex.ids: x\narXiv: 2603.00356\n")).as_deref(), Some("2603.00356"));
        assert_eq!(zotero_arxiv_id(&f("number", "arXiv:astro-ph/0601001")).as_deref(), Some("astro-ph/0601001"));
        assert_eq!(zotero_arxiv_id(&f("number", "2401.00001")), None, "a bare report number is not taken for an id");
        assert_eq!(zotero_arxiv_id(&f("url", "https://example.org/2401.00001")), None);
        assert_eq!(zotero_rfc3339("2024-01-05 10:00:00").as_deref(), Some("2024-01-05T10:00:00.000000Z"));
        assert_eq!(zotero_rfc3339("yesterday"), None);
        // Found by fuzzing (zotero_rows): the seed's date was `-2024-01-0`.
        assert_eq!(zotero_rfc3339("-2024-01-05 10:00:00"), None);
        assert_eq!(zotero_rfc3339("12024-01-05 10:00:00"), None);
        let now = "2026-03-01T00:00:00.000000Z";
        assert!(zotero_item("K", "2024-01-05 10:00:00", &f("url", "http://arxiv.org/abs/2507.07400"), now).is_none());
        let (seed, added) = zotero_item("K", "junk", &f("title", "A  title"), now).unwrap();
        assert_eq!((seed.title.as_str(), seed.date.as_deref(), added.as_str()), ("A title", Some("2026-03-01"), now));
        assert!(seed.key.starts_with("text:"));
    }
}
