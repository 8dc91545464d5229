//! The three real listing pages in ../shared/fixtures/listings, read through
//! the public API (so format detection is covered too), must give exactly
//! what expected.jsonl says, field by field.

use paperscout::listing::{self, Format};
use paperscout::paper::Paper;
use serde_json::Value;
use std::path::{Path, PathBuf};

fn fixtures_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/fixtures/listings")
}

const PAGES: [&str; 3] = ["cs.DC-2025-07-11.txt", "cs.DC-2026-03-02.txt", "cs.DC-2026-03-03.txt"];

/// Expected rows of one page, in page order.
fn expected_rows(file: &str) -> Vec<Value> {
    let path = fixtures_dir().join("expected.jsonl");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut rows: Vec<Value> = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("expected.jsonl: {e}: {l}")))
        .filter(|row: &Value| row["file"] == file)
        .collect();
    rows.sort_by_key(|row| row["index"].as_u64());
    rows
}

fn opt_str(v: &Value) -> Option<String> {
    v.as_str().map(str::to_string)
}

fn str_list(v: &Value) -> Vec<String> {
    v.as_array().map(|a| a.iter().filter_map(|s| s.as_str().map(str::to_string)).collect()).unwrap_or_default()
}

/// Compares every field; returns one line per difference.
fn diff(file: &str, index: u64, paper: &Paper, row: &Value) -> Vec<String> {
    let mut out = Vec::new();
    let mut check = |field: &str, got: String, want: String| {
        if got != want {
            out.push(format!("{file} [{index}] {field}:\n    got:  {got}\n    want: {want}"));
        }
    };
    check("id", paper.id.clone(), row["id"].as_str().unwrap_or_default().to_string());
    check("kind", paper.kind.as_str().to_string(), row["kind"].as_str().unwrap_or_default().to_string());
    check("title", paper.title.clone(), row["title"].as_str().unwrap_or_default().to_string());
    // The page showing no authors is `null` there and an empty list here.
    check("authors", format!("{:?}", paper.authors), format!("{:?}", str_list(&row["authors"])));
    check("comments", format!("{:?}", paper.comments), format!("{:?}", opt_str(&row["comments"])));
    check("journal_ref", format!("{:?}", paper.journal_ref), format!("{:?}", opt_str(&row["journal_ref"])));
    check("subjects", format!("{:?}", paper.subjects), format!("{:?}", str_list(&row["subjects"])));
    check("primary", format!("{:?}", paper.primary), format!("{:?}", opt_str(&row["primary"])));
    check("abstract", paper.abstract_text.clone(), row["abstract"].as_str().unwrap_or_default().to_string());
    out
}

#[test]
fn fixture_pages_match_expected_jsonl() {
    let mut problems = Vec::new();
    let mut total = 0;
    for file in PAGES {
        let path = fixtures_dir().join(file);
        let parsed = listing::parse_path(&path).unwrap_or_else(|e| panic!("{file}: {e}"));
        assert_eq!(parsed.format, Format::BrowserText, "{file}: detected as {}", parsed.format.name());
        assert!(parsed.warnings.is_empty(), "{file}: unexpected warnings: {:#?}", parsed.warnings);

        let rows = expected_rows(file);
        total += rows.len();
        if parsed.papers.len() != rows.len() {
            problems.push(format!("{file}: {} papers parsed, {} expected", parsed.papers.len(), rows.len()));
        }
        for (i, (paper, row)) in parsed.papers.iter().zip(&rows).enumerate() {
            let index = row["index"].as_u64().unwrap_or_default();
            if index != i as u64 + 1 {
                problems.push(format!("{file}: paper {} is expected row with index {index}", i + 1));
            }
            problems.extend(diff(file, index, paper, row));
            if paper.source != path.display().to_string() {
                problems.push(format!("{file} [{index}] source: {}", paper.source));
            }
        }
    }
    assert_eq!(total, 78, "expected.jsonl should describe 78 entries");
    assert!(problems.is_empty(), "{} difference(s):\n{}", problems.len(), problems.join("\n"));
}

#[test]
fn fixture_pages_carry_their_listing_date() {
    for (file, date) in
        [("cs.DC-2025-07-11.txt", "2025-07-11"), ("cs.DC-2026-03-02.txt", "2026-03-02"), ("cs.DC-2026-03-03.txt", "2026-03-03")]
    {
        let parsed = listing::parse_path(&fixtures_dir().join(file)).unwrap_or_else(|e| panic!("{file}: {e}"));
        for paper in &parsed.papers {
            assert_eq!(paper.listing_date.as_deref(), Some(date), "{file} {}", paper.id);
            assert_eq!(paper.version, None, "{file} {}", paper.id);
        }
    }
}

/// `parse --json` output is itself an input: every field reads back the same,
/// except that JSONL abstracts take single line breaks as wrapping (as arXiv
/// metadata dumps need), so paragraph breaks come back as spaces.
#[test]
fn json_output_reads_back_unchanged() {
    let root = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/fixtures/listings");
    for name in ["cs.DC-2025-07-11.txt", "cs.DC-2026-03-03.txt"] {
        let original = paperscout::listing::parse_path(&root.join(name)).unwrap().papers;
        let mut lines = Vec::new();
        paperscout::report::json::write_papers(&mut lines, &original).unwrap();
        let again = paperscout::listing::parse_bytes(&lines, "roundtrip.jsonl").unwrap();
        assert_eq!(again.format, paperscout::listing::Format::Jsonl);
        assert_eq!(again.papers.len(), original.len());
        for (a, b) in original.iter().zip(&again.papers) {
            let mut b = b.clone();
            b.source = a.source.clone();
            let mut a = a.clone();
            a.abstract_text = a.abstract_text.replace('\n', " ");
            assert_eq!(a, b, "{name}: {} changed on the way back", a.id);
        }
    }
}

/// A page copied only up to the middle of its last entry's abstract is
/// reported, naming the file and the entry; the whole pages, and the feeds
/// and mailings of ../shared/fixtures/feeds, never are.
#[test]
fn a_page_cut_inside_its_last_entry_is_reported() {
    const CUT: &str = "the page ends inside this entry";
    for page in PAGES {
        let text = std::fs::read_to_string(fixtures_dir().join(page)).expect("fixture page");
        let whole = listing::parse_bytes(text.as_bytes(), page).expect("whole page");
        assert!(!whole.warnings.iter().any(|w| w.contains(CUT)), "{page}: {:?}", whole.warnings);

        // Cut the page in the middle of each of the last three abstracts
        // (mid-word, and after a comma), dropping whatever followed.
        for paper in whole.papers.iter().rev().take(3) {
            let head: String = paper.abstract_text.chars().take(40).collect();
            let start = text.find(&head).unwrap_or_else(|| panic!("{page}: abstract of {} not found", paper.id));
            let end = (start + paper.abstract_text.len()).min(text.len());
            let end = (0..=end).rev().find(|&i| text.is_char_boundary(i)).unwrap_or(start);
            let words: Vec<(usize, &str)> =
                text[start..end].match_indices(|c: char| c.is_whitespace()).map(|(i, s)| (start + i, s)).collect();
            let mid = words[words.len() / 2].0;
            let after_comma = text[start..mid].rfind(", ").map(|i| start + i + 1);
            for cut in [mid + 3, mid].into_iter().chain(after_comma) {
                let cut = (0..=cut).rev().find(|&i| text.is_char_boundary(i)).unwrap_or(0);
                let got = listing::parse_bytes(&text.as_bytes()[..cut], page).expect("cut page");
                let last = got.papers.last().expect("papers before the cut");
                let warned: Vec<&String> = got.warnings.iter().filter(|w| w.contains(CUT)).collect();
                assert_eq!(warned.len(), 1, "{page} cut at byte {cut}: {:?}", got.warnings);
                assert!(warned[0].starts_with(&format!("{page}:")) && warned[0].contains(&format!("arXiv:{}", last.id)), "{}", warned[0]);
            }
        }
    }
    let feeds = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/fixtures/feeds");
    for entry in std::fs::read_dir(&feeds).expect("feeds fixtures") {
        let path = entry.expect("entry").path();
        if let Ok(parsed) = listing::parse_path(&path) {
            assert!(!parsed.warnings.iter().any(|w| w.contains(CUT)), "{}: {:?}", path.display(), parsed.warnings);
        }
    }
}
