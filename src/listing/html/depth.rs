//! The guard that keeps html5ever from deep pages: how deep a page's
//! elements nest, counted before it is parsed. Apart from the parser
//! because it is a tokenizer of its own, with html5ever's rules for what
//! closes what.

/// The deepest element nesting a page may have. arXiv's pages nest about
/// 20 deep; html5ever's tree building walks the stack of open elements for
/// every tag, so its time grows with depth times size (a 200k-deep page
/// took minutes). Past this bound the page is refused, not parsed.
pub const MAX_DEPTH: usize = 512;

/// Where the element nesting of `text` first passes `limit`, as a byte
/// offset, or `None` when it never does. It follows html5ever's rules for
/// what closes what closely enough that it never counts much less than the
/// real tree: an end tag closes only what it would close there, and tags
/// html5ever closes implicitly (`<p>`, `<li>`, `<td>`, a second `<a>`) are
/// closed here too, so real pages do not count deeper than they are. Linear
/// in the length of `text` times `limit`, which bounds every stack walk.
pub fn too_deep(text: &str, limit: usize) -> Option<usize> {
    let b = text.as_bytes();
    let mut stack: Vec<String> = Vec::new();
    let mut i = 0;
    while let Some(lt) = memchr(b'<', &b[i..]) {
        let at = i + lt;
        let rest = &text[at..];
        if let Some(comment) = rest.strip_prefix("<!--") {
            i = comment.find("-->").map_or(b.len(), |e| at + 4 + e + 3);
            continue;
        }
        if rest.starts_with("<!") || rest.starts_with("<?") {
            i = memchr(b'>', &b[at..]).map_or(b.len(), |e| at + e + 1);
            continue;
        }
        let closing = rest.as_bytes().get(1) == Some(&b'/');
        let name_start = at + 1 + usize::from(closing);
        let name_len = b[name_start..].iter().take_while(|c| c.is_ascii_alphanumeric() || **c == b'-').count();
        if name_len == 0 || !b[name_start].is_ascii_alphabetic() {
            i = at + 1;
            continue;
        }
        let name = text[name_start..name_start + name_len].to_ascii_lowercase();
        i = tag_end(b, name_start + name_len);
        if closing {
            close(&mut stack, &name);
            continue;
        }
        if VOID.contains(&name.as_str()) {
            continue;
        }
        if name == "plaintext" && !in_foreign(&stack) {
            return None;
        }
        if RAW_TEXT.contains(&name.as_str()) && !in_foreign(&stack) {
            // No elements inside: skip to the matching end tag.
            let end = format!("</{name}");
            i = find_ascii_ci(&text[i..], &end).map_or(b.len(), |e| i + e);
            continue;
        }
        open(&mut stack, &name);
        if stack.len() > limit {
            return Some(at);
        }
    }
    None
}

/// Elements with no content and no end tag.
const VOID: &[&str] = &[
    "area", "base", "basefont", "bgsound", "br", "col", "embed", "frame", "hr", "img", "input", "keygen", "link", "meta", "param",
    "source", "track", "wbr",
];

/// Elements whose content is text up to their end tag.
const RAW_TEXT: &[&str] = &["iframe", "noembed", "noframes", "noscript", "script", "style", "textarea", "title", "xmp"];

/// Where an end tag for a special element stops looking (html5ever's
/// "in scope" boundaries).
const SCOPE: &[&str] = &["applet", "caption", "html", "marquee", "object", "table", "td", "template", "th"];

/// HTML's "special" elements: an end tag of any other element stops at them.
const SPECIAL: &[&str] = &[
    "address",
    "applet",
    "area",
    "article",
    "aside",
    "base",
    "basefont",
    "bgsound",
    "blockquote",
    "body",
    "br",
    "button",
    "caption",
    "center",
    "col",
    "colgroup",
    "dd",
    "details",
    "dir",
    "div",
    "dl",
    "dt",
    "embed",
    "fieldset",
    "figcaption",
    "figure",
    "footer",
    "form",
    "frame",
    "frameset",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "head",
    "header",
    "hgroup",
    "hr",
    "html",
    "iframe",
    "img",
    "input",
    "keygen",
    "li",
    "link",
    "listing",
    "main",
    "marquee",
    "menu",
    "meta",
    "nav",
    "noembed",
    "noframes",
    "noscript",
    "object",
    "ol",
    "p",
    "param",
    "plaintext",
    "pre",
    "script",
    "search",
    "section",
    "select",
    "source",
    "style",
    "summary",
    "table",
    "tbody",
    "td",
    "template",
    "textarea",
    "tfoot",
    "th",
    "thead",
    "title",
    "tr",
    "track",
    "ul",
    "wbr",
    "xmp",
];

/// Elements whose start closes an open `<p>`.
const CLOSES_P: &[&str] = &[
    "address",
    "article",
    "aside",
    "blockquote",
    "center",
    "details",
    "dialog",
    "dir",
    "div",
    "dl",
    "fieldset",
    "figcaption",
    "figure",
    "footer",
    "form",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "header",
    "hgroup",
    "listing",
    "main",
    "menu",
    "nav",
    "ol",
    "p",
    "pre",
    "search",
    "section",
    "summary",
    "table",
    "ul",
    "li",
    "dd",
    "dt",
];

/// Inside `<svg>` or `<math>`, `<title>` and `<style>` hold elements.
fn in_foreign(stack: &[String]) -> bool {
    stack.iter().any(|n| n == "svg" || n == "math")
}

/// The topmost element named in `targets`, unless `stop` holds for an
/// element above it.
fn find(stack: &[String], targets: &[&str], stop: &dyn Fn(&str) -> bool) -> Option<usize> {
    let idx = stack.iter().rposition(|n| targets.contains(&n.as_str()) || stop(n))?;
    targets.contains(&stack[idx].as_str()).then_some(idx)
}

fn open(stack: &mut Vec<String>, name: &str) {
    if CLOSES_P.contains(&name) {
        if let Some(idx) = find(stack, &["p"], &|n| SCOPE.contains(&n) || n == "button") {
            stack.truncate(idx);
        }
    }
    let siblings: &[&str] = match name {
        "li" => &["li"],
        "dd" | "dt" => &["dd", "dt"],
        "td" | "th" => &["td", "th"],
        "tr" => &["tr"],
        "option" => &["option"],
        "thead" | "tbody" | "tfoot" => &["thead", "tbody", "tfoot"],
        "h1" | "h2" | "h3" | "h4" | "h5" | "h6" => {
            if stack.last().is_some_and(|n| matches!(n.as_str(), "h1" | "h2" | "h3" | "h4" | "h5" | "h6")) {
                stack.pop();
            }
            &[]
        }
        _ => &[],
    };
    if !siblings.is_empty() {
        let stop = |n: &str| n == "table" || (SPECIAL.contains(&n) && !matches!(n, "address" | "div" | "p"));
        if let Some(idx) = find(stack, siblings, &|n| !siblings.contains(&n) && stop(n)) {
            stack.truncate(idx);
        }
    }
    if name == "a" {
        // A second <a> ends the first, leaving what was opened inside it.
        if let Some(idx) = stack.iter().rposition(|n| n == "a") {
            stack.remove(idx);
        }
    }
    stack.push(name.to_string());
}

fn close(stack: &mut Vec<String>, name: &str) {
    let special = SPECIAL.contains(&name);
    for idx in (0..stack.len()).rev() {
        let node = stack[idx].as_str();
        if node == name {
            stack.truncate(idx);
            return;
        }
        if (special && SCOPE.contains(&node)) || (!special && SPECIAL.contains(&node)) {
            if !special {
                // A formatting element's end tag across a block leaves the
                // block open but still ends the element.
                if let Some(own) = stack[..idx].iter().rposition(|n| n == name) {
                    stack.remove(own);
                }
            }
            return;
        }
    }
}

/// The index just past the `>` that ends a tag whose attributes start at
/// `from`. A quote opens a value (which may hold `>`) only after `=`, as in
/// HTML's tokenizer: elsewhere it is part of a name.
fn tag_end(b: &[u8], from: usize) -> usize {
    let mut quote = None;
    let mut after_equals = false;
    for (k, &c) in b[from..].iter().enumerate() {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => {}
            None if c == b'>' => return from + k + 1,
            None if after_equals && (c == b'"' || c == b'\'') => quote = Some(c),
            None => {}
        }
        if quote.is_none() && !c.is_ascii_whitespace() {
            after_equals = c == b'=';
        }
    }
    b.len()
}

fn memchr(needle: u8, hay: &[u8]) -> Option<usize> {
    hay.iter().position(|&c| c == needle)
}

fn find_ascii_ci(hay: &str, needle: &str) -> Option<usize> {
    let (h, n) = (hay.as_bytes(), needle.as_bytes());
    h.windows(n.len()).position(|w| w.eq_ignore_ascii_case(n))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nesting_depth_follows_what_closes_what() {
        let deep = |unit: &str, n: usize| too_deep(&unit.repeat(n), 100).is_some();
        // Deep: plain nesting, and the ways html5ever keeps elements open.
        for unit in ["<div>", "<span><div></span>", "<div x\"><div>", "<a><div>", "<b><div></b>", "<div><table></div>", "<svg><title><div>"]
        {
            assert!(deep(unit, 200), "{unit}");
        }
        // Flat: what html5ever closes, and what holds no elements.
        for unit in [
            "<div></div>",
            "<p>x",
            "<li>x",
            "<dt>a<dd>b",
            "<td>x",
            "<a>x",
            "<br><img src=x>",
            "<!-- <div> -->",
            "<div class='>'></div>",
            "<h1>x<h2>y",
            "<div><p>x</div>",
        ] {
            assert!(!deep(unit, 200), "{unit}");
        }
        assert!(!deep("<script><div>", 1) && too_deep("<script>x</script><div><div>", 1).is_some());
        assert!(!deep("<textarea><div><div></textarea>", 2));
    }
}
