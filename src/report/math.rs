//! The TeX in arXiv titles and abstracts (`$O(n^2)$`, `\textbf{Foo}`, `93\%`) as readable Unicode for a page or a
//! terminal: `O(n²)`, `Foo`, `93%`. A display aid, not a TeX engine: what it does not know it shows as plainly as it
//! can (`\foo` → `foo`), and no input makes it fail. Names and affiliations go through `listing::tex::to_unicode`.
//!
//! Left alone on purpose: `^`, `_` and `~` outside math (file names, `m s^{-1}` typed as text, `~50%` meaning
//! "about"), `--`, a bare `%`, braces in text that no command opens (`a {class} photo`), and a `$` that reads as money.

use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::OnceLock;

/// A `$` pairs only with a closing `$` this close (in characters); further away it is money or a stray.
const MAX_SPAN: usize = 300;
/// Groups nested deeper than this are shown raw, so hostile input cannot exhaust the stack.
const MAX_DEPTH: usize = 40;

/// `s` with its TeX turned into Unicode; borrowed when there is nothing to do.
pub fn display(s: &str) -> Cow<'_, str> {
    if !s.contains(['$', '\\']) {
        return Cow::Borrowed(s);
    }
    let out = scripts_as_text(&converted(s));
    if out == s {
        Cow::Borrowed(s)
    } else {
        Cow::Owned(out)
    }
}

/// `s` as HTML: escaped, its TeX turned into Unicode as [`display`] does,
/// and a script Unicode has no letters for (`d_{JS}`, `x^{ab+c}`) set as
/// `<sub>`/`<sup>` rather than spelt `d_JS`.
pub fn display_html(s: &str) -> String {
    let out = if s.contains(['$', '\\']) { converted(s) } else { s.chars().filter(|c| ![SUB_OPEN, SUP_OPEN, CLOSE].contains(c)).collect() };
    let mut html = String::with_capacity(out.len() + 16);
    let mut open: Vec<&str> = Vec::new();
    for c in out.chars() {
        match c {
            SUB_OPEN | SUP_OPEN => {
                let tag = if c == SUB_OPEN { "sub" } else { "sup" };
                html.push_str(&format!("<{tag}>"));
                open.push(tag);
            }
            // Closes whichever opened last: scripts nest, never cross.
            CLOSE => {
                if let Some(tag) = open.pop() {
                    html.push_str(&format!("</{tag}>"));
                }
            }
            '&' => html.push_str("&amp;"),
            '<' => html.push_str("&lt;"),
            '>' => html.push_str("&gt;"),
            '"' => html.push_str("&quot;"),
            '\'' => html.push_str("&#39;"),
            c => html.push(c),
        }
    }
    for tag in open.into_iter().rev() {
        html.push_str(&format!("</{tag}>"));
    }
    html
}

/// The conversion, scripts that Unicode cannot show left between markers.
fn converted(s: &str) -> String {
    // Markers in the input itself are not markers: private-use characters
    // have no business in a title.
    let clean: String;
    let s = if s.contains([SUB_OPEN, SUP_OPEN, CLOSE]) {
        clean = s.chars().filter(|c| ![SUB_OPEN, SUP_OPEN, CLOSE].contains(c)).collect();
        &clean
    } else {
        s
    };
    let chars: Vec<char> = s.chars().collect();
    tidy(s, &Conv { c: &chars, i: 0, math: false, depth: 0 }.run())
}

/// Where a script Unicode cannot show begins (sub or sup) and ends.
const SUB_OPEN: char = '\u{E000}';
const SUP_OPEN: char = '\u{E001}';
const CLOSE: char = '\u{E002}';

/// The marked scripts as plain text, innermost first: `_JS`, `^(ab+c)`.
fn scripts_as_text(s: &str) -> String {
    let mut s = s.to_string();
    while let Some(close) = s.find(CLOSE) {
        let Some((open, mark)) = s[..close].char_indices().rev().find(|(_, c)| *c == SUB_OPEN || *c == SUP_OPEN) else {
            s.replace_range(close..close + CLOSE.len_utf8(), "");
            continue;
        };
        let body = &s[open + mark.len_utf8()..close];
        let sign = if mark == SUP_OPEN { '^' } else { '_' };
        let text = if body.chars().count() == 1
            || body.chars().all(|c| c.is_alphanumeric() || c == '.')
            || (body.starts_with('(') && body.ends_with(')'))
        {
            format!("{sign}{body}")
        } else {
            format!("{sign}({body})")
        };
        s.replace_range(open..close + CLOSE.len_utf8(), &text);
    }
    s.chars().filter(|c| *c != SUB_OPEN && *c != SUP_OPEN).collect()
}

/// Operator names shown as words (`\log n` → `log n`).
const FUNCTIONS: &str = "log ln lg exp sin cos tan sinh cosh tanh max min lim sup inf arg det dim ker gcd deg Pr argmax argmin \
    limsup liminf mod bmod";
/// Wrappers whose argument is shown as it is, read as text …
const TEXT_WRAPPERS: &str = "text textrm textbf textit texttt textsc textsf textsl textup textmd textnormal emph mbox hbox \
    underline uline footnote url";
/// … or as mathematics: a style plain text cannot show.
const MATH_WRAPPERS: &str = "mathrm mathbf mathit mathsf mathtt mathnormal boldsymbol bm pmb operatorname overbrace underbrace";
/// Switches and sizes that print nothing (`{\rm max}`, `\left(`, `\displaystyle`).
const SILENT: &str = "rm em bf it sf tt sc cal bfseries itshape displaystyle textstyle scriptstyle limits nolimits small large \
    Large tiny footnotesize normalsize huge boldmath noindent centering left right middle big Big bigg Bigg bigl bigr Bigl Bigr \
    biggl biggr";
/// Symbol commands and what they show, as `name value` pairs.
const SYMBOLS: &str = "alpha α beta β gamma γ delta δ epsilon ε varepsilon ε zeta ζ eta η theta θ vartheta ϑ iota ι kappa κ \
    lambda λ mu μ nu ν xi ξ pi π varpi ϖ rho ρ varrho ϱ sigma σ varsigma ς tau τ upsilon υ phi ϕ varphi φ chi χ psi ψ omega ω \
    Gamma Γ Delta Δ Theta Θ Lambda Λ Xi Ξ Pi Π Sigma Σ Upsilon Υ Phi Φ Psi Ψ Omega Ω ell ℓ hbar ℏ imath i i i j j \
    times × cdot · cdotp · pm ± mp ∓ leq ≤ le ≤ leqslant ≤ geq ≥ ge ≥ geqslant ≥ neq ≠ ne ≠ approx ≈ sim ∼ simeq ≃ cong ≅ \
    propto ∝ infty ∞ partial ∂ nabla ∇ sum ∑ prod ∏ int ∫ in ∈ notin ∉ ni ∋ subset ⊂ subseteq ⊆ supset ⊃ supseteq ⊇ cup ∪ \
    cap ∩ setminus ∖ emptyset ∅ varnothing ∅ to → rightarrow → leftarrow ← gets ← leftrightarrow ↔ Rightarrow ⇒ implies ⇒ \
    Leftarrow ⇐ Leftrightarrow ⇔ iff ⇔ mapsto ↦ uparrow ↑ downarrow ↓ ll ≪ gg ≫ lesssim ≲ gtrsim ≳ prec ≺ succ ≻ preceq ⪯ \
    succeq ⪰ equiv ≡ circ ∘ star ⋆ ast ∗ bullet • dots … ldots … dotsc … dotsb … cdots ⋯ prime ′ langle ⟨ rangle ⟩ mid | \
    vert | lvert | rvert | Vert ‖ lVert ‖ rVert ‖ forall ∀ exists ∃ neg ¬ lnot ¬ wedge ∧ land ∧ vee ∨ lor ∨ oplus ⊕ \
    otimes ⊗ ominus ⊖ odot ⊙ top ⊤ bot ⊥ perp ⊥ dagger † ddagger ‡ lfloor ⌊ rfloor ⌋ lceil ⌈ rceil ⌉ degree ° textdegree ° \
    checkmark ✓ colon : lt < gt > textbackslash \\ textasciitilde ~ textasciicircum ^ eg e.g. ie i.e. copyright © \
    textregistered ® textendash – textemdash — textbullet •";
/// Accents by their TeX symbol (`\'e`) or names (`\hat{x}`): the combining mark, and precomposed forms of common letters.
const ACCENTS: &[(&str, char, &str)] = &[
    ("' acute", '\u{301}', "aáeéiíoóuúyýcćnńsśzźAÁEÉIÍOÓUÚYÝCĆNŃSŚZŹ"),
    ("` grave", '\u{300}', "aàeèiìoòuùAÀEÈIÌOÒUÙ"),
    ("^ hat widehat Hat", '\u{302}', "aâeêiîoôuûAÂEÊIÎOÔUÛ"),
    ("\" ddot", '\u{308}', "aäeëiïoöuüyÿAÄEËIÏOÖUÜ"),
    ("~ tilde widetilde Tilde", '\u{303}', "aãnñoõAÃNÑOÕ"),
    ("c", '\u{327}', "cçsşCÇSŞ"),
    ("v check", '\u{30C}', "cčsšzžrřeěCČSŠZŽRŘ"),
    ("= bar Bar", '\u{304}', ""),
    (". dot", '\u{307}', ""),
    ("u breve", '\u{306}', ""),
    ("overline", '\u{305}', ""),
    ("vec overrightarrow", '\u{20D7}', ""),
];

fn listed(list: &str, name: &str) -> bool {
    list.split_whitespace().any(|w| w == name)
}

fn symbol(name: &str) -> Option<&'static str> {
    static MAP: OnceLock<HashMap<&str, &str>> = OnceLock::new();
    let map = MAP.get_or_init(|| SYMBOLS.split_whitespace().collect::<Vec<_>>().chunks_exact(2).map(|p| (p[0], p[1])).collect());
    map.get(name).copied()
}

/// A converter over one slice of the input, in text or math mode.
struct Conv<'a> {
    c: &'a [char],
    i: usize,
    math: bool,
    depth: usize,
}

impl Conv<'_> {
    fn peek(&self) -> Option<char> {
        self.c.get(self.i).copied()
    }

    fn run(mut self) -> String {
        let mut out = String::with_capacity(self.c.len());
        while self.i < self.c.len() {
            self.step(&mut out);
        }
        out
    }

    fn skip_space(&mut self) {
        while self.peek().is_some_and(char::is_whitespace) {
            self.i += 1;
        }
    }

    /// Converts one unit: a character, a command with its arguments, a group or a math span.
    fn step(&mut self, out: &mut String) {
        let ch = self.c[self.i];
        self.i += 1;
        match ch {
            '\\' => self.command(out),
            // In math braces only group; in text they are often literal (`a {class} photo`) unless a command opens them.
            '{' if self.math || self.peek() == Some('\\') => {
                self.i -= 1;
                out.push_str(&self.arg(self.math));
            }
            '}' if self.math => {}
            '$' if !self.math => match math_span(self.c, self.i - 1) {
                Some((a, b, next)) => {
                    out.push_str(&self.sub(a, b, true));
                    self.i = next;
                }
                None if self.peek() == Some('$') => {
                    self.i += 1;
                    out.push_str("$$");
                }
                None => out.push('$'),
            },
            '^' | '_' if self.math => out.push_str(&script(self.arg(true).trim(), ch == '^')),
            '~' if self.math => out.push(' '),
            '\'' if self.math => out.push('′'),
            _ => out.push(ch),
        }
    }

    /// Converts `c[a..b]` on its own, one level deeper.
    fn sub(&self, a: usize, b: usize, math: bool) -> String {
        if self.depth >= MAX_DEPTH {
            return self.c[a..b].iter().filter(|c| !matches!(c, '{' | '}')).collect();
        }
        Conv { c: &self.c[a..b], i: 0, math, depth: self.depth + 1 }.run()
    }

    /// One argument, converted: a `{...}` group (to its balancing brace, or the end) or else the next single unit.
    fn arg(&mut self, math: bool) -> String {
        self.skip_space();
        let start = self.i;
        match self.peek() {
            None => String::new(),
            Some('{') => {
                let end = closing(self.c, start, '{', '}').unwrap_or(self.c.len());
                self.i = (end + 1).min(self.c.len());
                self.sub(start + 1, end, math)
            }
            Some(c) if self.depth >= MAX_DEPTH => {
                self.i += 1;
                c.to_string()
            }
            Some(_) => {
                let saved = (self.math, self.depth);
                (self.math, self.depth) = (math, self.depth + 1);
                let mut out = String::new();
                self.step(&mut out);
                (self.math, self.depth) = saved;
                out
            }
        }
    }

    /// An optional `[...]` argument, converted.
    fn opt_arg(&mut self) -> Option<String> {
        self.skip_space();
        let start = self.i;
        let end = (self.peek() == Some('[')).then(|| closing(self.c, start, '[', ']')).flatten()?;
        self.i = end + 1;
        Some(self.sub(start + 1, end, self.math))
    }

    /// After a backslash.
    fn command(&mut self, out: &mut String) {
        let Some(ch) = self.peek() else { return out.push('\\') };
        self.i += 1;
        if !ch.is_ascii_alphabetic() {
            return self.control_symbol(ch, out);
        }
        let start = self.i - 1;
        while self.peek().is_some_and(|c| c.is_ascii_alphabetic()) {
            self.i += 1;
        }
        let name: String = self.c[start..self.i].iter().collect();
        self.i += usize::from(self.peek() == Some('*')); // `\operatorname*{argmax}`
        let (name_end, mark) = (self.i, out.len());
        self.word(&name, out);
        // TeX swallows the space after a control word (`a\times b` is `a×b`). Keep it where the source spaced the
        // command on the left too (`a \times b`) or where the output ends in a word (`\log n`, not `logn`).
        if self.math && self.i == name_end && self.peek().is_some_and(char::is_whitespace) {
            let spaced = start >= 2 && self.c[start - 2].is_whitespace();
            // (`get`, not indexing: a closing bracket may have taken back a space before `mark`.)
            if !spaced && !out.get(mark..).is_some_and(|t| t.ends_with(|c: char| c.is_ascii_alphanumeric())) {
                self.skip_space();
            }
        }
    }

    /// A backslash and one non-letter: spacing, an escaped special, an accent or `\(`.
    fn control_symbol(&mut self, ch: char, out: &mut String) {
        match ch {
            ',' | ';' | ':' | ' ' | '>' | '\\' => out.push(' '),
            '!' | '-' | '/' | '@' => {}
            '|' => out.push('‖'),
            '\'' | '`' | '^' | '"' | '~' | '=' | '.' => {
                let base = self.arg(false);
                out.extend(accent(&ch.to_string(), &base));
            }
            '(' if !self.math => match (self.i..self.c.len().saturating_sub(1)).take(MAX_SPAN).find(|&j| self.c[j..j + 2] == ['\\', ')']) {
                Some(end) => {
                    out.push_str(&self.sub(self.i, end, true));
                    self.i = end + 2;
                }
                None => out.push('('),
            },
            _ => out.push(ch), // \{ \} \% \& \# \_ \$ \[ \) and anything else: the character itself
        }
    }

    /// A control word and whatever arguments it takes.
    fn word(&mut self, name: &str, out: &mut String) {
        if let Some(s) = symbol(name) {
            // Brackets hug their contents: `\langle u \rangle` is `⟨u⟩`.
            if self.math && "⟩⌋⌉".contains(s) && out.ends_with(' ') {
                out.pop();
            }
            out.push_str(s);
            if self.math && "⟨⌊⌈".contains(s) {
                self.skip_space();
            }
            return;
        }
        match name {
            "deg" if !self.math => out.push('°'), // abstracts write `90{\deg}` for degrees
            "quad" | "qquad" | "enspace" | "thinspace" | "space" | "hfill" => out.push(' '),
            _ if listed(FUNCTIONS, name) => {
                if self.math && out.ends_with(|c: char| c.is_alphanumeric() || c == ')') {
                    out.push(' '); // `n\log n` is `n log n`
                }
                out.push_str(name);
            }
            _ if listed(TEXT_WRAPPERS, name) => out.push_str(&self.arg(false)),
            _ if listed(MATH_WRAPPERS, name) => out.push_str(&self.arg(true)),
            _ if listed(SILENT, name) => {
                self.skip_space();
                if matches!(name, "left" | "right" | "middle") && self.peek() == Some('.') {
                    self.i += 1; // `\left.` is an invisible delimiter
                }
            }
            "mathbb" | "mathds" | "mathbbm" | "mathcal" | "mathscr" | "mathfrak" => {
                out.extend(self.arg(true).chars().map(|c| styled(c, name)));
            }
            "frac" | "tfrac" | "dfrac" | "cfrac" | "binom" => {
                let (a, b) = (self.arg(true), self.arg(true));
                let (a, b) = (a.trim(), b.trim());
                out.push_str(&if name == "binom" { format!("C({a}, {b})") } else { format!("{}/{}", parens(a), parens(b)) });
            }
            "sqrt" => {
                let root = match self.opt_arg().as_deref().map(str::trim) {
                    Some("3") => "∛".to_string(),
                    Some("4") => "∜".to_string(),
                    Some(k) => script(k, true) + "√",
                    None => "√".to_string(),
                };
                out.push_str(&(root + &parens(self.arg(true).trim())));
            }
            _ if accent(name, "").is_some() => {
                let base = self.arg(self.math);
                out.extend(accent(name, &base));
            }
            "textsuperscript" | "textsubscript" => out.push_str(&script(self.arg(false).trim(), name == "textsuperscript")),
            "not" => out.extend([self.arg(true), "\u{338}".into()]), // `\not\equiv` is `≢`
            "pmod" => out.push_str(&format!(" (mod {})", self.arg(true).trim())),
            "href" | "textcolor" | "colorbox" | "hyperlink" => {
                self.arg(false); // the address or colour
                out.push_str(&self.arg(false));
            }
            "color" | "label" | "begin" | "end" | "vspace" | "hspace" => drop(self.arg(false)),
            "cite" | "citep" | "citet" | "citealp" => {
                self.opt_arg();
                out.push_str(&format!("[{}]", self.arg(false)));
            }
            "unicode" => {
                let arg = self.arg(false);
                let code = arg.strip_prefix(['x', 'X']).map_or_else(|| arg.parse().ok(), |hex| u32::from_str_radix(hex, 16).ok());
                out.extend(code.and_then(char::from_u32));
            }
            // Unknown: a macro of the paper's own (`\ours`, `\method{}`) reads best as its name, a formatting,
            // glossary or reference command as its argument (`\hl{good}`, `\gls{LLM}`, `\num{1617}`, `\ref{fig}`).
            _ => {
                let mut args = String::new();
                while self.peek() == Some('{') {
                    args.push_str(&self.arg(self.math));
                }
                out.push_str(if args.is_empty() { name } else { &args });
            }
        }
    }
}

/// `base` under the accent `name`: precomposed for a common letter, else followed by the combining mark.
fn accent(name: &str, base: &str) -> Option<String> {
    let (keys, mark, precomposed) = ACCENTS.iter().find(|(keys, ..)| keys.split(' ').any(|k| k == name))?;
    let base = base.trim();
    let mut chars = base.chars();
    Some(match (chars.next(), chars.next()) {
        (None, _) => keys.chars().next().filter(char::is_ascii_punctuation).map_or(String::new(), String::from), // `\~{}`
        (Some(b), None) => {
            let pairs: Vec<char> = precomposed.chars().collect();
            pairs.chunks(2).find(|p| p[0] == b).map_or_else(|| format!("{b}{mark}"), |p| p[1].to_string())
        }
        // Several letters (`\hat{xy}`, `\overline{AB}`): the mark goes over each.
        _ => base.chars().flat_map(|c| [Some(c), (!c.is_whitespace()).then_some(*mark)]).flatten().collect(),
    })
}

/// A script as Unicode super- or subscripts when every character has one and no two letters touch (a word such as
/// `max` reads better as `_max` than as `ₘₐₓ`); else a readable fallback: `x*`, `kth`, `_max`, `^(ab+c)`.
fn script(s: &str, sup: bool) -> String {
    const SUP: [&str; 2] = [
        "0123456789+-−=()abcdefghijklmnoprstuvwxyzABDEGHIJKLMNOPRTUVW⊤∘",
        "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁻⁼⁽⁾ᵃᵇᶜᵈᵉᶠᵍʰⁱʲᵏˡᵐⁿᵒᵖʳˢᵗᵘᵛʷˣʸᶻᴬᴮᴰᴱᴳᴴᴵᴶᴷᴸᴹᴺᴼᴾᴿᵀᵁⱽᵂᵀ°",
    ];
    const SUB: [&str; 2] = ["0123456789+-−=()aehijklmnoprstuvx", "₀₁₂₃₄₅₆₇₈₉₊₋₋₌₍₎ₐₑₕᵢⱼₖₗₘₙₒₚᵣₛₜᵤᵥₓ"];
    let [from, to] = if sup { SUP } else { SUB };
    let map = |c: char| from.chars().position(|f| f == c).and_then(|p| to.chars().nth(p));
    let touching = s.chars().zip(s.chars().skip(1)).any(|(a, b)| a.is_alphabetic() && b.is_alphabetic());
    match s.chars().filter(|c| !c.is_whitespace()).map(map).collect::<Option<String>>() {
        _ if s.is_empty() => String::new(),
        Some(m) if !touching => m,
        _ if sup && (s.chars().all(|c| "*′″†‡⋆∗".contains(c)) || matches!(s, "st" | "nd" | "rd" | "th")) => s.to_string(),
        // Marked, to be spelt `_max`, `^(ab+c)` as text or set as HTML.
        _ => format!("{}{s}{CLOSE}", if sup { SUP_OPEN } else { SUB_OPEN }),
    }
}

/// A fraction or root part that is more than one term, bracketed: `(a+b)/c`, `√(n+1)`.
fn parens(s: &str) -> String {
    if s.chars().count() > 1 && s.contains([' ', '+', '-', '−', '±', '∓', '*', '/', '=', '<', '>', ',', '×', '·', ':', '|']) {
        format!("({s})")
    } else {
        s.to_string()
    }
}

/// A letter in a `\mathbb`, `\mathcal` or `\mathfrak` alphabet; what the alphabet lacks stays as it is.
fn styled(c: char, font: &str) -> char {
    let (holes, upper, lower, digit) = match font {
        "mathbb" | "mathds" | "mathbbm" => ("CℂHℍNℕPℙQℚRℝZℤ", 0x1D538, 0x1D552, 0x1D7D8),
        "mathfrak" => ("CℭHℌIℑRℜZℨ", 0x1D504, 0x1D51E, 0),
        _ => ("BℬEℰFℱHℋIℐLℒMℳRℛeℯgℊoℴ", 0x1D49C, 0x1D4B6, 0),
    };
    if let Some(p) = holes.chars().collect::<Vec<_>>().chunks(2).find(|p| p[0] == c) {
        return p[1];
    }
    let code = match c {
        'A'..='Z' => upper + (c as u32 - 'A' as u32),
        'a'..='z' => lower + (c as u32 - 'a' as u32),
        '0'..='9' if digit > 0 => digit + (c as u32 - '0' as u32),
        _ => return c,
    };
    char::from_u32(code).unwrap_or(c)
}

/// The index of the bracket closing the one at `open`, skipping escaped brackets.
fn closing(c: &[char], open: usize, l: char, r: char) -> Option<usize> {
    let (mut depth, mut j) = (0usize, open);
    while j < c.len() {
        depth = (depth + usize::from(c[j] == l)).saturating_sub(usize::from(c[j] == r));
        if depth == 0 {
            return Some(j);
        }
        j += if c[j] == '\\' { 2 } else { 1 };
    }
    None
}

/// The math span opened by the `$` (or `$$`) at `i`: `(body start, body end, resume at)`, or `None` when the `$`
/// is better shown as a dollar. In the manner of pandoc: the body ends at the next unescaped `$`, and a pair is
/// refused when it looks like two amounts (`$5 to $10`, `$1.5M and $2M`) or like prose between two strays.
fn math_span(c: &[char], i: usize) -> Option<(usize, usize, usize)> {
    let open = if c.get(i + 1) == Some(&'$') { 2 } else { 1 };
    let a = i + open;
    let mut j = a;
    while j < c.len() && c[j] != '$' && j - a <= MAX_SPAN {
        j += if c[j] == '\\' { 2 } else { 1 };
    }
    if j >= c.len() || c[j] != '$' || j == a {
        return None;
    }
    if open == 2 {
        return (c.get(j + 1) == Some(&'$')).then_some((a, j, j + 2));
    }
    let body = &c[a..j];
    let edge_space = body[0].is_whitespace() || body[body.len() - 1].is_whitespace();
    let money = body.iter().find(|c| !c.is_whitespace()).is_some_and(char::is_ascii_digit)
        && !body.iter().any(|c| matches!(c, '\\' | '^' | '_' | '{'))
        && (edge_space || c.get(j + 1).is_some_and(char::is_ascii_digit));
    (!money && !looks_like_prose(body)).then_some((a, j, j + 1))
}

/// Two plain words in a row outside braces (`to emphasize`) are not mathematics.
fn looks_like_prose(body: &[char]) -> bool {
    let (mut depth, mut flat) = (0i32, String::new());
    for &c in body {
        depth = (depth + i32::from(c == '{') - i32::from(c == '}')).max(0);
        flat.push(if depth == 0 && c != '}' { c } else { ' ' });
    }
    let plain = |w: &str| {
        let w = w.trim_end_matches([',', '.', ';', ':']);
        w.len() > 1 && w.bytes().all(|b| b.is_ascii_alphabetic())
    };
    flat.split(' ').collect::<Vec<_>>().windows(2).any(|w| plain(w[0]) && plain(w[1]))
}

/// Folds the runs of spaces left where a command vanished, and trims the ends the input did not have.
fn tidy(src: &str, out: &str) -> String {
    let fold = !src.contains("  ");
    let mut s = String::with_capacity(out.len());
    for ch in out.chars() {
        if !(fold && ch == ' ' && s.ends_with(' ')) {
            s.push(ch);
        }
    }
    let s = if src.starts_with(char::is_whitespace) { &s[..] } else { s.trim_start() };
    (if src.ends_with(char::is_whitespace) { s } else { s.trim_end() }).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_script_unicode_cannot_show_is_set_as_html_and_spelt_as_text() {
        let s = "divergence $d_{\\text{JS}}$ and $x^{a_{ij}+1}$ <b>";
        assert_eq!(display(s), "divergence d_JS and x^(a_ij+1) <b>");
        assert_eq!(display_html(s), "divergence d<sub>JS</sub> and x<sup>a<sub>ij</sub>+1</sup> &lt;b&gt;");
        // Markers in the input are dropped, never read as markup.
        assert_eq!(display_html("a\u{E000}b\u{E002}<"), "ab&lt;");
        assert_eq!(display("$O(n^2)$"), "O(n²)");
    }

    #[test]
    fn converts_math_and_text() {
        let cases = [
            // From titles and abstracts in the corpus.
            ("Movie Facts and Fibs (MF$^2$): A Benchmark", "Movie Facts and Fibs (MF²): A Benchmark"),
            ("SR$^{2}$-Net and Geo$^\\textbf{2}$", "SR²-Net and Geo²"),
            ("$V_0$: A Generalist Value Model", "V₀: A Generalist Value Model"),
            ("IMTS is Worth Time $\\times$ Channel Patches", "IMTS is Worth Time × Channel Patches"),
            ("QwenLong-CPRS: Towards $\\infty$-LLMs", "QwenLong-CPRS: Towards ∞-LLMs"),
            ("exceed $100,000$ tokens", "exceed 100,000 tokens"),
            ("errors at the $10^{-5}$ level; a 93\\% reduction", "errors at the 10⁻⁵ level; a 93% reduction"),
            ("50.99 $F_{0.5}$ and 256$\\times$256 ImageNet", "50.99 F_0.5 and 256×256 ImageNet"),
            ("With only $\\sim$0.26M additional parameters", "With only ∼0.26M additional parameters"),
            ("we propose $\\textit{Diversity-aware Reward Adjustment}$ (DRA)", "we propose Diversity-aware Reward Adjustment (DRA)"),
            ("($r=0.83$) and ($μ+λ$) EAs", "(r=0.83) and (μ+λ) EAs"),
            ("including 360{\\deg} rotation", "including 360° rotation"),
            ("Radial Attention: $O(n\\log n)$ Sparse", "Radial Attention: O(n log n) Sparse"),
            ("$O(n^2 \\log\\log T + n^3)$", "O(n² log log T + n³)"),
            ("$p_i \\equiv 1 \\pmod{s}$", "pᵢ ≡ 1 (mod s)"),
            ("PHyCLIP: $\\ell_1$-Product", "PHyCLIP: ℓ₁-Product"),
            ("$(X,Y) \\in \\{0,1\\}^N$", "(X,Y) ∈ {0,1}ᴺ"),
            ("\\(X\\)-evolve", "X-evolve"),
            ("Accordingly, Abeill\\'e et al. and Schr\\\"odinger", "Accordingly, Abeillé et al. and Schrödinger"),
            ("\\textsc{LogicScore}: Fine-grained", "LogicScore: Fine-grained"),
            ("at \\href{https://github.com/x/y}{here}, \\url{https://a.b/c_d}", "at here, https://a.b/c_d"),
            ("a \\gls{LLM} with \\num{36000} tiles \\unicode{x2013} wow", "a LLM with 36000 tiles – wow"),
            // Scripts and their fallbacks.
            ("$x^2$ $x^{-1}$ $10^{12}$ $x_i$ $a_{1}$ $x_{t-1}$", "x² x⁻¹ 10¹² xᵢ a₁ xₜ₋₁"),
            ("$x^{ab+c}$ $x_{\\rm max}$ $r_{\\min}$ $k^{th}$ $x^*$", "x^(ab+c) x_max r_min kth x*"),
            ("$90^\\circ$ $W^\\top$ $A^T$ $f'(x)$", "90° Wᵀ Aᵀ f′(x)"),
            ("$\\sum_{i=1}^{n} x_i$", "∑ᵢ₌₁ⁿ xᵢ"),
            // Fonts, fractions, roots, accents, delimiters.
            ("$\\mathbb{R}^n$, $\\mathbb{E}[X]$, $\\mathcal{O}(1)$, $\\mathbf{x}$", "ℝⁿ, 𝔼[X], 𝒪(1), x"),
            ("$\\frac{a+b}{c}$ $\\frac{1}{2}$ $\\frac12$ $\\frac{1}{\\sqrt{d}}$", "(a+b)/c 1/2 1/2 1/√d"),
            ("$\\sqrt{n}$ $\\sqrt{n+1}$ $\\sqrt[3]{x}$", "√n √(n+1) ∛x"),
            ("$\\tilde{O}(d)$ $\\hat{x}$ $\\bar{xy}$", "Õ(d) x\u{302} x\u{304}y\u{304}"),
            ("$\\left(x\\right)$ $\\left. x \\right|$ $\\langle u \\rangle$", "(x) x | ⟨u⟩"),
            ("$\\mathrm{KL}(p\\,\\|\\,q)$ $\\alpha\\beta$ $a \\le b$", "KL(p ‖ q) αβ a ≤ b"),
            ("$\\operatorname*{argmax}_x f$ $\\binom{n}{k}$", "argmaxₓ f C(n, k)"),
            // Text-mode commands, braces, unknown macros.
            ("\\emph{new} and \\textbf{bold}, {\\em et al.} {\\bf x}", "new and bold, et al. x"),
            ("93\\% \\& \\#1 \\$5 \\_ \\{a\\}", "93% & #1 $5 _ {a}"),
            ("a {snowy} photo of a {class}\\%", "a {snowy} photo of a {class}%"),
            ("\\ours{} beats \\method\\ and \\foo", "ours beats method and foo"),
            ("see \\cite{smith} and \\label{x} Fig. \\ref{f1}", "see [smith] and Fig. f1"),
            // Dollars that are money, strays and pairs.
            ("costs $5 million and $10 more", "costs $5 million and $10 more"),
            ("from $0.398 to $0.228, a 28.4% gain", "from $0.398 to $0.228, a 28.4% gain"),
            ("under $1,000 with $\\alpha$ tuned", "under $1,000 with α tuned"),
            ("Modeling$ (WorldPM) to emphasize this, where $k$ grows", "Modeling$ (WorldPM) to emphasize this, where k grows"),
            ("less than US$0.50 per audit", "less than US$0.50 per audit"),
            ("$$x^2$$ and $2.16\\times$$\\sim$$2.50\\times$", "x² and 2.16×∼2.50×"),
            ("over $ 30\\times $ faster", "over 30× faster"),
            // Whitespace: nothing doubled, the ends as they came.
            ("a \\label{x} b \\\\ c", "a b c"),
            ("  two  spaces $x$ ", "  two  spaces x "),
            ("{\\bf x}", "x"),
        ];
        let wrong: Vec<String> = cases
            .iter()
            .filter(|(input, want)| display(input) != *want)
            .map(|(input, _)| format!("{input:?} → {:?}", display(input)))
            .collect();
        assert!(wrong.is_empty(), "{wrong:#?}");
    }

    #[test]
    fn borrows_when_there_is_nothing_to_do() {
        for s in ["plain x^2 and a_b {braces}", "", "costs $5", "a lone \\", "\\", "$$"] {
            assert!(matches!(display(s), Cow::Borrowed(_)), "{s:?}");
        }
        assert!(matches!(display("$x$"), Cow::Owned(_)));
    }

    #[test]
    fn never_panics() {
        let odd = "$ $$ $$$ $x x$ \\ x\\ { } $\\frac{ $x^ $x_{ $\\sqrt[ $\\sqrt[3 \\( \\) $^é$ $_é$ \\é \\' $\\'é$ \\\"{ $\\left \
            \\unicode{xFFFFFFFF} \\unicode{xD800} \\unicode{12x} $\\mathbb{😀}$";
        let n = 100_000;
        let long = [
            format!("${}x{}$ {}y", "{".repeat(n), "}".repeat(n), "{\\".repeat(n)),
            "\\sqrt".repeat(n / 10),
            format!("${}$", "x^".repeat(n)),
            "$1 ".repeat(n),
        ];
        for s in odd.split(' ').map(String::from).chain(long) {
            display(&s);
        }
        // Every sequence of four tokens from a set of troublemakers, inside and outside math.
        let tokens = ["$", "\\", "{", "}", "^", "_", " ", "é", "1x", "[", "\\(", "\\rangle", "\\sqrt", "\\'", "\\log", "\\mathbb"];
        for n in 0..tokens.len().pow(4) {
            let s: String = (0..4).map(|k| tokens[n / tokens.len().pow(k) % tokens.len()]).collect();
            display(&s);
            display(&format!("a ${s}$ b"));
        }
    }
}
