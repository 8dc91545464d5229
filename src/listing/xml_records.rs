//! A small reader for the record-shaped XML of arXiv's feeds: a header
//! (RSS `<channel>`, Atom `<feed>`) followed by flat records (`<item>`,
//! `<entry>`) whose children are simple text elements. Both feed parsers
//! need the same thing from it: each record's child elements with their text
//! and attributes, and a note when the document breaks off, so that a
//! truncated download still yields the records that were complete.

use quick_xml::events::{BytesRef, BytesStart, Event};
use quick_xml::Reader;

use super::fields::LineCounter;
use super::{ListingError, Parsed};

/// One element: its local name (namespace prefix dropped), attributes and
/// own text (entities resolved).
#[derive(Debug, Default)]
pub struct Field {
    pub name: String,
    pub attrs: Vec<(String, String)>,
    pub text: String,
}

impl Field {
    pub fn attr(&self, key: &str) -> Option<&str> {
        self.attrs.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str())
    }
}

/// The elements found inside one record, in document order, and the line
/// the record starts on.
#[derive(Debug, Default)]
pub struct Record {
    pub line: usize,
    pub fields: Vec<Field>,
}

impl Record {
    /// Text of the first element called `name`.
    pub fn text(&self, name: &str) -> Option<&str> {
        self.fields.iter().find(|f| f.name == name).map(|f| f.text.as_str())
    }

    pub fn all<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a Field> + 'a {
        self.fields.iter().filter(move |f| f.name == name)
    }
}

/// Why reading stopped before the end of a well-formed document.
#[derive(Debug)]
pub struct Problem {
    pub line: usize,
    pub message: String,
}

impl Problem {
    /// The error for a `feed` ("RSS feed", "Atom feed") that broke here.
    pub fn error(&self, source: &str, feed: &str) -> ListingError {
        ListingError::new(source, Some(self.line), format!("unreadable {feed}: {}", self.message))
    }
}

/// The end of a feed parse: when the document broke off, the complete
/// records before the break (`unit`s: "item", "entry") are kept with a
/// warning, and with none kept it is an error.
pub fn keep_complete(mut parsed: Parsed, problem: Option<&Problem>, source: &str, feed: &str, unit: &str) -> Result<Parsed, ListingError> {
    if let Some(problem) = problem {
        if parsed.papers.is_empty() {
            return Err(problem.error(source, feed));
        }
        parsed.skip(format!(
            "{source}:{}: {}; kept the {} complete {unit}(s) before it",
            problem.line,
            problem.message,
            parsed.papers.len()
        ));
    }
    Ok(parsed)
}

#[derive(Debug, Default)]
pub struct Document {
    /// Local name of the root element, if one was seen.
    pub root: Option<String>,
    /// Elements outside any record (feed title, channel description …).
    pub header: Record,
    /// Complete records only.
    pub records: Vec<Record>,
    pub problem: Option<Problem>,
}

enum Open {
    /// The element that starts the record being read.
    Record,
    /// Index of a field in the header or in the current record.
    Field(usize),
}

/// Reads `xml`, collecting every element called `record_name` (local name)
/// as a record. Never fails: syntax errors and early ends are reported in
/// [`Document::problem`] with whatever was read before them.
pub fn read(xml: &str, record_name: &str) -> Document {
    let mut reader = Reader::from_str(xml);
    let mut lines = LineCounter::new(xml);
    let mut doc = Document::default();
    let mut stack: Vec<Open> = Vec::new();
    let mut current: Option<Record> = None;
    loop {
        let start = byte_pos(reader.buffer_position());
        match reader.read_event() {
            Ok(Event::Start(e)) => {
                open_element(&e, start, record_name, &mut doc, &mut current, &mut stack, &mut lines);
            }
            Ok(Event::Empty(e)) => {
                open_element(&e, start, record_name, &mut doc, &mut current, &mut stack, &mut lines);
                close_element(&mut doc, &mut current, &mut stack);
            }
            Ok(Event::End(_)) => close_element(&mut doc, &mut current, &mut stack),
            Ok(Event::Text(t)) => {
                if let Ok(s) = t.decode() {
                    push_text(&mut doc, &mut current, &stack, &s);
                }
            }
            Ok(Event::CData(c)) => {
                if let Ok(s) = c.decode() {
                    push_text(&mut doc, &mut current, &stack, &s);
                }
            }
            Ok(Event::GeneralRef(r)) => {
                push_text(&mut doc, &mut current, &stack, &resolve_reference(&r));
            }
            Ok(Event::Eof) => {
                if let Some(record) = &current {
                    doc.problem = Some(Problem { line: record.line, message: "the document ends inside this record (truncated?)".into() });
                } else if !stack.is_empty() {
                    doc.problem = Some(Problem {
                        line: lines.line_at(xml.len()),
                        message: "the document ends before its closing tags (truncated?)".into(),
                    });
                }
                break;
            }
            Ok(_) => {}
            Err(e) => {
                doc.problem =
                    Some(Problem { line: lines.line_at(byte_pos(reader.error_position())), message: format!("malformed XML: {e}") });
                break;
            }
        }
    }
    doc
}

fn byte_pos(pos: u64) -> usize {
    usize::try_from(pos).unwrap_or(usize::MAX)
}

fn open_element(
    e: &BytesStart<'_>,
    start: usize,
    record_name: &str,
    doc: &mut Document,
    current: &mut Option<Record>,
    stack: &mut Vec<Open>,
    lines: &mut LineCounter<'_>,
) {
    let name = String::from_utf8_lossy(e.local_name().as_ref()).into_owned();
    if doc.root.is_none() {
        doc.root = Some(name.clone());
    }
    if current.is_none() && name == record_name {
        *current = Some(Record { line: lines.line_at(start), fields: Vec::new() });
        stack.push(Open::Record);
        return;
    }
    let attrs = e
        .attributes()
        .flatten()
        .filter_map(|a| {
            let key = String::from_utf8_lossy(a.key.local_name().as_ref()).into_owned();
            a.unescape_value().ok().map(|v| (key, v.into_owned()))
        })
        .collect();
    let fields = match current {
        Some(record) => &mut record.fields,
        None => &mut doc.header.fields,
    };
    fields.push(Field { name, attrs, text: String::new() });
    stack.push(Open::Field(fields.len() - 1));
}

fn close_element(doc: &mut Document, current: &mut Option<Record>, stack: &mut Vec<Open>) {
    if let Some(Open::Record) = stack.pop() {
        if let Some(record) = current.take() {
            doc.records.push(record);
        }
    }
}

fn push_text(doc: &mut Document, current: &mut Option<Record>, stack: &[Open], s: &str) {
    let Some(Open::Field(index)) = stack.last() else {
        return;
    };
    let fields = match current {
        Some(record) => &mut record.fields,
        None => &mut doc.header.fields,
    };
    if let Some(field) = fields.get_mut(*index) {
        field.text.push_str(s);
    }
}

/// Resolves `&amp;`, `&#233;` and the other XML references. Unknown named
/// references (HTML's `&eacute;` in a sloppy feed) are kept as written so the
/// common text clean-up can decode them.
fn resolve_reference(r: &BytesRef<'_>) -> String {
    if r.is_char_ref() {
        return match r.resolve_char_ref() {
            Ok(Some(c)) => c.to_string(),
            _ => char::REPLACEMENT_CHARACTER.to_string(),
        };
    }
    let name = String::from_utf8_lossy(r);
    match name.as_ref() {
        "amp" => "&".into(),
        "lt" => "<".into(),
        "gt" => ">".into(),
        "quot" => "\"".into(),
        "apos" => "'".into(),
        other => format!("&{other};"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_records_and_header() {
        let xml = "<?xml version='1.0'?>\n<feed><title>T &amp; U</title>\n<entry><id>1</id>\
                   <category term=\"cs.DC\"/><author><name>A &#233;</name></author></entry>\n\
                   <entry><id>2</id></entry></feed>";
        let doc = read(xml, "entry");
        assert!(doc.problem.is_none());
        assert_eq!(doc.root.as_deref(), Some("feed"));
        assert_eq!(doc.header.text("title"), Some("T & U"));
        assert_eq!(doc.records.len(), 2);
        assert_eq!(doc.records[0].line, 3);
        assert_eq!(doc.records[0].text("name"), Some("A é"));
        assert_eq!(doc.records[0].all("category").next().and_then(|f| f.attr("term")), Some("cs.DC"));
        assert_eq!(doc.records[1].line, 4);
    }

    #[test]
    fn reports_truncation_and_keeps_complete_records() {
        let doc = read("<rss><channel><item><title>a</title></item><item><title>b", "item");
        assert_eq!(doc.records.len(), 1);
        assert!(doc.problem.is_some());
        let doc = read("<rss><channel><item><title>a</title></item><ite", "item");
        assert_eq!(doc.records.len(), 1);
        assert!(doc.problem.is_some());
    }
}
