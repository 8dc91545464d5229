//! The shape of the house, checked: which module may use which
//! (docs/architecture.md), no import circles between files, and rooms of
//! a size to read. It reads the source as text: every `use crate::…`,
//! `use super::…` and inline `crate::…`/`super::…` path outside comments
//! and test modules, resolved to the file that holds it.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The top-level modules by layer, the front doors first: a module may use
/// its own layer and those below it, never one above. Within a layer,
/// the no-circles test keeps the ties one way.
const LAYERS: &[&[&str]] = &[
    &["commands", "serve"],
    &["cli"],
    &["report", "delivery", "accounts", "eval"],
    &["workflow"],
    &["profile", "rank"],
    &["library", "fetch"],
    &["embed", "listing", "gist"],
    &["paper", "vector", "error", "messages"],
];

/// Files allowed past `MAX_LINES`, each with the reason its top comment
/// gives. None today.
const LONG_FILES: &[&str] = &[];
const MAX_LINES: usize = 800;

struct Source {
    /// `listing::browser_text::names`; the crate root is "".
    module: String,
    path: PathBuf,
    text: String,
}

fn sources() -> Vec<Source> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                walk(&p, out);
            } else if p.extension().is_some_and(|x| x == "rs") {
                out.push(p);
            }
        }
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    walk(&root, &mut files);
    files.sort();
    files
        .into_iter()
        .filter(|p| p.file_name().is_some_and(|n| n != "main.rs"))
        .map(|p| {
            let rel = p.strip_prefix(&root).unwrap().with_extension("");
            let mut parts: Vec<String> = rel.iter().map(|s| s.to_string_lossy().into_owned()).collect();
            if matches!(parts.last().map(String::as_str), Some("mod" | "lib")) {
                parts.pop();
            }
            Source { module: parts.join("::"), text: std::fs::read_to_string(&p).unwrap(), path: p }
        })
        .collect()
}

/// The code of a file without its comments and its test module.
fn code(text: &str) -> String {
    let mut out = String::new();
    let mut lines = text.lines().peekable();
    while let Some(line) = lines.next() {
        let t = line.trim();
        if t == "#[cfg(test)]" && lines.peek().is_some_and(|n| n.trim_start().starts_with("mod ")) {
            break;
        }
        out.push_str(line.split("//").next().unwrap_or(""));
        out.push('\n');
    }
    out
}

/// `a::{b, c::{d, e}}` → `a::b`, `a::c::d`, `a::c::e`.
fn expand(tree: &str) -> Vec<String> {
    let tree: String = tree.chars().filter(|c| !c.is_whitespace()).collect();
    let Some(open) = tree.find('{') else {
        return vec![tree.split(" as ").next().unwrap_or("").to_string()];
    };
    let (prefix, inner) = (&tree[..open], &tree[open + 1..tree.len() - 1]);
    let (mut items, mut depth, mut start) = (Vec::new(), 0, 0);
    for (i, c) in inner.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                items.push(&inner[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    items.push(&inner[start..]);
    items.into_iter().filter(|i| !i.is_empty()).flat_map(|i| expand(&format!("{prefix}{i}"))).collect()
}

/// Paths a file's code names, as `crate::…` or `super::…` strings.
fn paths(code: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = code;
    while let Some(at) = rest.find("use ") {
        let before = &rest[..at];
        let stmt_start = before.is_empty() || before.ends_with(|c: char| c.is_whitespace() || c == ';' || c == '{' || c == '}');
        let after = &rest[at + 4..];
        let end = after.find(';').unwrap_or(after.len());
        if stmt_start && (after.starts_with("crate::") || after.starts_with("super::")) {
            out.extend(expand(&after[..end]));
        }
        rest = &after[end.min(after.len())..];
    }
    for head in ["crate::", "super::"] {
        let mut from = 0;
        while let Some(i) = code[from..].find(head) {
            let start = from + i;
            let end = code[start..].find(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':')).map_or(code.len(), |e| start + e);
            out.push(code[start..end].trim_end_matches(':').to_string());
            from = end.max(start + head.len());
        }
    }
    out
}

/// The module a path from `module`'s file leads to: the longest known
/// prefix.
fn resolve(path: &str, module: &str, known: &BTreeSet<String>) -> Option<String> {
    let mut base: Vec<&str> = if module.is_empty() { vec![] } else { module.split("::").collect() };
    let mut parts: Vec<&str> = path.split("::").filter(|p| !p.is_empty()).collect();
    match parts.first() {
        Some(&"crate") => {
            base.clear();
            parts.remove(0);
        }
        Some(&"super") => {
            while parts.first() == Some(&"super") {
                base.pop();
                parts.remove(0);
            }
        }
        _ => return None,
    }
    let full: Vec<&str> = base.into_iter().chain(parts).collect();
    (0..=full.len()).rev().map(|n| full[..n].join("::")).find(|m| known.contains(m))
}

fn related(a: &str, b: &str) -> bool {
    a.is_empty() || b.is_empty() || a.starts_with(&format!("{b}::")) || b.starts_with(&format!("{a}::"))
}

/// Each file's module → the modules it uses (a module and its own
/// submodules excepted: a folder's mod.rs and its files go together).
fn graph(srcs: &[Source]) -> BTreeMap<String, BTreeSet<String>> {
    let known: BTreeSet<String> = srcs.iter().map(|s| s.module.clone()).collect();
    srcs.iter()
        .map(|s| {
            let uses = paths(&code(&s.text))
                .iter()
                .filter_map(|p| resolve(p, &s.module, &known))
                .filter(|m| *m != s.module && !related(m, &s.module))
                .collect();
            (s.module.clone(), uses)
        })
        .collect()
}

fn top(module: &str) -> &str {
    module.split("::").next().unwrap_or(module)
}

#[test]
fn each_module_uses_only_its_layer_and_those_below() {
    let g = graph(&sources());
    let layer = |m: &str| LAYERS.iter().position(|l| l.contains(&top(m)));
    let mut wrong = Vec::new();
    for (from, tos) in &g {
        if from.is_empty() {
            continue;
        }
        let Some(lf) = layer(from) else {
            wrong.push(format!("{from}: a top-level module no layer names (add it to LAYERS and docs/architecture.md)"));
            continue;
        };
        for to in tos {
            if layer(to).is_some_and(|lt| lt < lf) {
                wrong.push(format!("{from} uses {to}, a layer above it"));
            }
        }
    }
    assert!(wrong.is_empty(), "ties that climb:\n{}", wrong.join("\n"));
}

#[test]
fn no_import_circles_between_files() {
    let g = graph(&sources());
    // Tarjan's strongly connected components.
    struct Walk<'a> {
        g: &'a BTreeMap<String, BTreeSet<String>>,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        circles: Vec<Vec<&'a str>>,
    }
    impl<'a> Walk<'a> {
        fn visit(&mut self, v: &'a str) {
            let n = self.index.len();
            self.index.insert(v, n);
            self.low.insert(v, n);
            self.stack.push(v);
            for w in self.g.get(v).into_iter().flatten() {
                let w = w.as_str();
                if !self.index.contains_key(w) {
                    self.visit(w);
                    let lw = self.low[w];
                    let lv = self.low.get_mut(v).unwrap();
                    *lv = (*lv).min(lw);
                } else if self.stack.contains(&w) {
                    let iw = self.index[w];
                    let lv = self.low.get_mut(v).unwrap();
                    *lv = (*lv).min(iw);
                }
            }
            if self.low[v] == self.index[v] {
                let mut part = Vec::new();
                while let Some(w) = self.stack.pop() {
                    part.push(w);
                    if w == v {
                        break;
                    }
                }
                if part.len() > 1 {
                    part.sort();
                    self.circles.push(part);
                }
            }
        }
    }
    let mut walk = Walk { g: &g, index: BTreeMap::new(), low: BTreeMap::new(), stack: Vec::new(), circles: Vec::new() };
    for v in g.keys() {
        if !walk.index.contains_key(v.as_str()) {
            walk.visit(v);
        }
    }
    let circles: Vec<String> = walk.circles.iter().map(|c| c.join(" ↔ ")).collect();
    assert!(circles.is_empty(), "import circles:\n{}", circles.join("\n"));
}

#[test]
fn the_front_doors_do_not_use_each_other_and_workflows_do_not_render() {
    let g = graph(&sources());
    let uses = |from: &str, to: &str| -> Vec<String> {
        g.iter()
            .filter(|(f, _)| top(f) == from)
            .flat_map(|(f, tos)| tos.iter().filter(|t| top(t) == to).map(move |t| format!("{f} uses {t}")))
            .collect()
    };
    let mut wrong = uses("serve", "commands");
    wrong.extend(uses("commands", "serve").into_iter().filter(|u| !u.starts_with("commands::serve ")));
    wrong.extend(uses("workflow", "report"));
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// The files of `srcs` whose code (tests and comments aside) holds any of
/// `needles`, outside the modules `allowed` says may: "module: needle".
fn found_outside(srcs: &[Source], needles: &[&str], allowed: impl Fn(&str) -> bool) -> Vec<String> {
    srcs.iter()
        .filter(|s| !allowed(&s.module))
        .flat_map(|s| {
            let code = code(&s.text);
            needles.iter().filter(move |n| code.contains(*n)).map(move |n| format!("{}: {n}", s.module)).collect::<Vec<_>>()
        })
        .collect()
}

/// Only the front doors, the writers of results and `messages` write to
/// the terminal: a stage that printed would write into a server's log or a
/// command's results.
#[test]
fn only_messages_report_and_the_front_doors_print() {
    let may = |m: &str| ["messages", "report", "commands"].contains(&top(m));
    let wrong = found_outside(&sources(), &["println!", "eprintln!", "print!(", "eprint!(", "dbg!("], may);
    assert!(wrong.is_empty(), "prints outside messages, report and commands (say it through crate::messages):\n{}", wrong.join("\n"));
}

/// SQL lives in library/store; profile/zotero.rs reads Zotero's own
/// database. Outside them no statement is written and no connection held.
#[test]
fn sql_lives_in_the_store() {
    let may = |m: &str| m == "library::store" || m.starts_with("library::store::") || m == "profile::zotero";
    let statements = ["\"SELECT ", "\"INSERT ", "\"UPDATE ", "\"DELETE ", "\"CREATE ", "\"PRAGMA ", "\"ALTER ", "\"DROP ", "\"WITH "];
    let mut wrong = found_outside(&sources(), &statements, may);
    wrong.extend(found_outside(&sources(), &["rusqlite"], may));
    assert!(wrong.is_empty(), "SQL or a raw connection outside library/store:\n{}", wrong.join("\n"));
}

/// A progress bar is drawn by messages::Progress, where the front door
/// allows bars; the stages only say how far they are.
#[test]
fn progress_bars_are_drawn_only_where_the_front_doors_say() {
    let may = |m: &str| m == "messages" || top(m) == "commands";
    let wrong = found_outside(&sources(), &["indicatif"], may);
    assert!(wrong.is_empty(), "a progress bar below the front doors (use crate::messages::progress):\n{}", wrong.join("\n"));
}

/// The edge checks on made-up files: each finds what it looks for in
/// code, and nothing in comments or test modules.
#[test]
fn the_edge_checks_find_what_they_look_for() {
    let file = |module: &str, text: &str| Source { module: module.into(), path: PathBuf::new(), text: text.into() };
    let srcs = [
        file("workflow::x", "fn f(c: &C) { c.execute(\"DELETE FROM papers\"); } // println!(\"no\")\n#[cfg(test)]\nmod tests { fn g() { println!(\"ok\"); } }\n"),
        file("library::store::y", "fn f(c: &C) { c.execute(\"DELETE FROM papers\"); println!(\"x\"); }\n"),
    ];
    let store = |m: &str| m.starts_with("library::store");
    assert_eq!(found_outside(&srcs, &["\"DELETE "], store), ["workflow::x: \"DELETE "]);
    assert_eq!(found_outside(&srcs, &["println!"], |m| m == "messages"), ["library::store::y: println!"]);
}

#[test]
fn rooms_are_of_a_size_to_read() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let long: Vec<String> = sources()
        .iter()
        .filter(|s| s.text.lines().count() > MAX_LINES)
        .map(|s| s.path.strip_prefix(root).unwrap().display().to_string())
        .filter(|p| !LONG_FILES.contains(&p.as_str()))
        .collect();
    assert!(
        long.is_empty(),
        "over {MAX_LINES} lines: {long:?}; split by concern, or say at the file's top why it is one room and list it in LONG_FILES"
    );
}

/// The reader itself, on the shapes it must see through.
#[test]
fn the_reader_finds_grouped_and_inline_paths() {
    let code = code(
        "use crate::library::{self, store::{StoredPaper, Store}};\n\
         use super::view::Card; // crate::commands in a comment\n\
         fn f() { crate::workflow::digest::rank_day(); }\n\
         #[cfg(test)]\nmod tests { use crate::serve; }\n",
    );
    let p = paths(&code);
    for want in ["crate::library::self", "crate::library::store::StoredPaper", "super::view::Card", "crate::workflow::digest::rank_day"] {
        assert!(p.iter().any(|x| x == want), "{want} not in {p:?}");
    }
    assert!(!p.iter().any(|x| x.contains("commands") || x.contains("serve")), "{p:?}");
    let known: BTreeSet<String> =
        ["", "library", "library::store", "serve", "serve::view", "workflow", "workflow::digest"].map(String::from).into();
    assert_eq!(resolve("super::view::Card", "serve::pages", &known).as_deref(), Some("serve::view"));
    assert_eq!(resolve("crate::library::store::StoredPaper", "x", &known).as_deref(), Some("library::store"));
    assert_eq!(resolve("crate::library::self", "x", &known).as_deref(), Some("library"));
}

/// scripts/check-cuda builds and lints with `--features cuda` only the
/// targets whose code the feature changes: the lib, the binary and the GPU
/// tests. That holds while the feature is named in src/ outside its unit
/// tests, tests/it/gpu.rs and the helpers it shares with the `cuda` test
/// binary (tests/common) alone; a test or bench that names it must be added
/// to that check.
#[test]
fn the_cuda_feature_is_named_where_the_cuda_check_builds() {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                walk(&p, out);
            } else if p.extension().is_some_and(|x| x == "rs") {
                out.push(p);
            }
        }
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for dir in ["tests", "benches", "examples"] {
        if root.join(dir).is_dir() {
            walk(&root.join(dir), &mut files);
        }
    }
    let feature = ["feature", " = ", "\"cuda\""].concat();
    let named: Vec<String> = files
        .iter()
        .filter(|p| std::fs::read_to_string(p).unwrap().contains(&feature))
        .map(|p| p.strip_prefix(root).unwrap().display().to_string())
        .filter(|p| p != "tests/it/gpu.rs" && !p.starts_with("tests/common/"))
        .collect();
    assert!(named.is_empty(), "{named:?} name the cuda feature: build them in scripts/check-cuda too");
    // Nor do the lib's unit tests, which that check does not build.
    let mut sources = Vec::new();
    walk(&root.join("src"), &mut sources);
    let in_unit_tests: Vec<String> = sources
        .iter()
        .filter(|p| {
            let text = std::fs::read_to_string(p).unwrap();
            text.split_once("#[cfg(test)]").is_some_and(|(_, tests)| tests.contains(&feature))
        })
        .map(|p| p.strip_prefix(root).unwrap().display().to_string())
        .collect();
    assert!(in_unit_tests.is_empty(), "{in_unit_tests:?}: unit tests name the cuda feature: build --lib in scripts/check-cuda too");
}
