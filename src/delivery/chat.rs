//! The digest as chat messages: Slack (incoming webhook, Block Kit),
//! Discord (webhook, embeds), Matrix (`m.room.message` with HTML) and ntfy
//! (JSON publish, Markdown). Each platform's limits are kept by splitting
//! the picks over as many messages as they need, never by dropping one;
//! a field too long for its box is cut with an ellipsis. Listing text is
//! escaped for each platform's markup, so no title makes a link, a
//! mention or a formatting run.

use crate::paper::Paper;
use crate::report::digest::{arxiv_links, reason_text};
use crate::report::links::Links;
use crate::workflow::digest::{Digest, Pick};
use serde::Serialize;

/// Where a digest is posted, and so how it is shaped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Platform {
    Slack,
    Discord,
    Matrix,
    Ntfy,
}

impl Platform {
    pub fn name(self) -> &'static str {
        match self {
            Platform::Slack => "slack",
            Platform::Discord => "discord",
            Platform::Matrix => "matrix",
            Platform::Ntfy => "ntfy",
        }
    }
}

/// Slack: at most 50 blocks a message, 3,000 characters a section's text,
/// 150 a header's.
const SLACK_BLOCKS: usize = 50;
const SLACK_SECTION: usize = 3000;
const SLACK_HEADER: usize = 150;
/// Discord: at most 10 embeds a message and 6,000 characters over all of
/// them; a title holds 256, a description 4,096, the content 2,000.
const DISCORD_EMBEDS: usize = 10;
const DISCORD_TOTAL: usize = 6000;
const DISCORD_TITLE: usize = 256;
const DISCORD_DESCRIPTION: usize = 4096;
/// Matrix homeservers refuse events over 65,536 bytes; both bodies are in
/// one, grouped up to `MATRIX_BYTES` (an item is bounded by the caps
/// below), and an event still over `MATRIX_EVENT` goes as text alone.
const MATRIX_BYTES: usize = 24_000;
const MATRIX_EVENT: usize = 60_000;
/// A pick's fields in every chat: a title of 60 kB is an attack, not a paper.
const TITLE_CHARS: usize = 500;
const AUTHORS_CHARS: usize = 300;
const REASON_CHARS: usize = 600;
const GIST_CHARS: usize = 400;
/// ntfy keeps a message of up to 4,096 bytes as text (more becomes an attachment).
const NTFY_BYTES: usize = 4000;

/// One message's JSON body, in its platform's documented shape.
#[derive(Debug, Clone, Serialize)]
#[serde(untagged)]
pub enum Message {
    Slack(SlackMessage),
    Discord(DiscordMessage),
    Matrix(MatrixEvent),
    Ntfy(NtfyPublish),
}

impl Message {
    /// The body as it is posted.
    pub fn body(&self) -> String {
        // A tree of strings, numbers and lists: serde_json cannot fail on it.
        serde_json::to_string(self).unwrap_or_default()
    }
}

/// A Slack incoming-webhook message: `text` is the notification's, `blocks`
/// what the channel shows.
#[derive(Debug, Clone, Serialize)]
pub struct SlackMessage {
    pub text: String,
    pub blocks: Vec<SlackBlock>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unfurl_links: Option<bool>,
}

/// The Block Kit blocks a digest uses.
#[derive(Debug, Clone, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum SlackBlock {
    Header { text: SlackText },
    Context { elements: Vec<SlackText> },
    Section { text: SlackText },
}

/// A Block Kit text object.
#[derive(Debug, Clone, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum SlackText {
    PlainText {
        text: String,
    },
    /// `verbatim`: Slack takes it as written, no mention or channel name
    /// turned into a link or a notification.
    Mrkdwn {
        text: String,
        verbatim: bool,
    },
}

/// A Discord webhook message.
#[derive(Debug, Clone, Serialize)]
pub struct DiscordMessage {
    pub content: String,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub embeds: Vec<DiscordEmbed>,
    pub allowed_mentions: AllowedMentions,
}

#[derive(Debug, Clone, Serialize)]
pub struct DiscordEmbed {
    pub title: String,
    pub description: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
}

/// Which mentions Discord may turn into pings: none.
#[derive(Debug, Clone, Default, Serialize)]
pub struct AllowedMentions {
    pub parse: Vec<String>,
}

/// A Matrix `m.room.message` event's content.
#[derive(Debug, Clone, Serialize)]
pub struct MatrixEvent {
    /// `m.text` for a digest, `m.notice` for the server's own note.
    pub msgtype: &'static str,
    pub body: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub format: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub formatted_body: Option<String>,
    /// Empty: "@room" in a title notifies no one.
    #[serde(rename = "m.mentions")]
    pub mentions: MatrixMentions,
}

#[derive(Debug, Clone, Default, Serialize)]
pub struct MatrixMentions {}

/// An ntfy JSON publish.
#[derive(Debug, Clone, Serialize)]
pub struct NtfyPublish {
    pub topic: String,
    pub title: String,
    pub message: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub markdown: Option<bool>,
    pub tags: Vec<&'static str>,
}

/// The messages that carry `d` to `platform`, in order.
/// `topic` is ntfy's (the last segment of the URL it is posted to).
pub fn messages(platform: Platform, d: &Digest, links: &Links, topic: &str) -> Vec<Message> {
    match platform {
        Platform::Slack => slack(d, links).into_iter().map(Message::Slack).collect(),
        Platform::Discord => discord(d, links).into_iter().map(Message::Discord).collect(),
        Platform::Matrix => matrix(d, links).into_iter().map(Message::Matrix).collect(),
        Platform::Ntfy => ntfy(d, links, topic).into_iter().map(Message::Ntfy).collect(),
    }
}

fn heading(d: &Digest) -> String {
    format!("arXiv digest for {}", d.span())
}

fn summary(d: &Digest) -> String {
    if d.picks.is_empty() {
        return format!("no entries for {} (profile {}, method {})", d.span(), d.profile, d.method);
    }
    let mut s = format!("{} of {} entries · profile {} · method {}", d.picks.len(), d.candidates, d.profile, d.method);
    if !d.cold {
        s.push_str(&format!(" · bar {}", d.bar.name()));
    }
    if let Some(more) = crate::report::digest::more_text(d, "") {
        s.push_str(&format!(" · {more}"));
    }
    s
}

/// "First, Second, Third et al.": three names at most.
fn first_authors(p: &Paper) -> String {
    let shown: Vec<&str> = p.authors.iter().take(3).map(String::as_str).collect();
    let mut s = shown.join(", ");
    if p.authors.len() > 3 {
        s.push_str(" et al.");
    }
    s
}

/// `s` at most `max` characters, cut with an ellipsis.
fn cut(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        return s.to_string();
    }
    let mut t: String = s.chars().take(max.saturating_sub(1)).collect();
    t.push('…');
    t
}

/// `s` at most `max` bytes, cut at a character boundary with an ellipsis.
fn cut_bytes(s: &str, max: usize) -> String {
    if s.len() <= max {
        return s.to_string();
    }
    let mut end = max.saturating_sub('…'.len_utf8());
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}…", &s[..end])
}

/// No controls, and no bidirectional controls, which could show a title's
/// words in another order than they are read.
fn plain(s: &str) -> String {
    s.chars().filter(|c| !crate::listing::text::is_bidi_control(*c)).map(|c| if c.is_control() { ' ' } else { c }).collect()
}

/// A pick's text as every platform shows it: TeX as text, no controls.
struct Item {
    rank: usize,
    title: String,
    authors: String,
    /// What the paper does ([`crate::gist`]); empty when it has no gist.
    gist: String,
    reason: String,
    abs: Option<String>,
    pdf: Option<String>,
    up: Option<String>,
    down: Option<String>,
}

fn item(p: &Pick, d: &Digest, links: &Links) -> Item {
    let (abs, pdf) = arxiv_links(&p.paper).map_or((None, None), |(a, f)| (Some(a), Some(f)));
    let rate = links.rate(&p.paper, &d.profile);
    Item {
        rank: p.rank,
        title: cut(&plain(&crate::report::math::display(&p.paper.title)), TITLE_CHARS),
        authors: cut(&plain(&first_authors(&p.paper)), AUTHORS_CHARS),
        gist: p.gist.as_deref().map(|g| cut(&plain(&crate::report::math::display(g)), GIST_CHARS)).unwrap_or_default(),
        reason: cut(&plain(&reason_text(p)), REASON_CHARS),
        abs,
        pdf,
        up: rate.as_ref().map(|r| r.up.clone()),
        down: rate.map(|r| r.down),
    }
}

// ---- Slack ----

/// Slack's mrkdwn: `&`, `<` and `>` are its only escapes; `*`, `_`, `~` and
/// `` ` `` are set apart with a zero-width space so they format nothing,
/// and so is `@`, so that no "@here" in a title notifies a channel (the
/// sections are also `verbatim`; the notification's `text` cannot be).
fn slack_text(s: &str) -> String {
    let mut o = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => o.push_str("&amp;"),
            '<' => o.push_str("&lt;"),
            '>' => o.push_str("&gt;"),
            '*' | '_' | '~' | '`' | '@' => {
                o.push(c);
                o.push('\u{200B}');
            }
            c => o.push(c),
        }
    }
    o
}

/// A mrkdwn text object that Slack takes as written: no mention, channel
/// name or address is turned into a link or a notification.
fn slack_mrkdwn(text: String) -> SlackText {
    SlackText::Mrkdwn { text, verbatim: true }
}

/// A link's label may not hold `|`, which ends it.
fn slack_link(url: &str, label: &str) -> String {
    format!("<{url}|{}>", slack_text(label).replace('|', "¦"))
}

fn slack_section(it: &Item) -> SlackBlock {
    let title = match &it.abs {
        Some(url) => slack_link(url, &cut(&it.title, 300)),
        None => slack_text(&cut(&it.title, 300)),
    };
    let mut links = Vec::new();
    if let Some(pdf) = &it.pdf {
        links.push(format!("<{pdf}|PDF>"));
    }
    if let (Some(up), Some(down)) = (&it.up, &it.down) {
        links.push(format!("<{up}|👍> <{down}|👎>"));
    }
    let mut head = format!("*{}.* {title}\n{}", it.rank, slack_text(&cut(&it.authors, 300)));
    if !it.gist.is_empty() {
        head.push_str(&format!("\n≡ {}", slack_text(&it.gist)));
    }
    let tail = if links.is_empty() { String::new() } else { format!("\n{}", links.join(" · ")) };
    // The reason gives way first: the title, the names and the links stay whole.
    let room = SLACK_SECTION.saturating_sub(head.chars().count() + tail.chars().count() + 4);
    let reason = cut(&slack_text(&it.reason), room);
    let text = format!("{head}\n_{reason}_{tail}");
    SlackBlock::Section { text: slack_mrkdwn(cut(&text, SLACK_SECTION)) }
}

fn slack(d: &Digest, links: &Links) -> Vec<SlackMessage> {
    let items: Vec<Item> = d.picks.iter().map(|p| item(p, d, links)).collect();
    // The header and the summary take two of a message's blocks.
    let groups = runs(&vec![0; items.len()], 0, SLACK_BLOCKS - 2);
    let parts = groups.len();
    groups
        .into_iter()
        .enumerate()
        .map(|(i, range)| {
            let title = format!("{}{}", heading(d), part_label(i, parts));
            let mut blocks = vec![
                SlackBlock::Header { text: SlackText::PlainText { text: cut(&title, SLACK_HEADER) } },
                SlackBlock::Context { elements: vec![slack_mrkdwn(slack_text(&summary(d)))] },
            ];
            blocks.extend(items[range].iter().map(slack_section));
            SlackMessage { text: slack_text(&format!("{}: {}", heading(d), summary(d))), blocks, unfurl_links: Some(false) }
        })
        .collect()
}

// ---- Discord ----

/// Discord's Markdown, escaped with backslashes; mentions are also refused
/// by `allowed_mentions`, so "@everyone" in a title pings no one.
fn discord_text(s: &str) -> String {
    let mut o = String::with_capacity(s.len());
    // A heading or a list starts a line; the rest format anywhere.
    if s.starts_with(['#', '-']) {
        o.push('\\');
    }
    for c in s.chars() {
        if matches!(c, '\\' | '*' | '_' | '~' | '`' | '|' | '>' | '[' | ']' | '@') {
            o.push('\\');
        }
        o.push(c);
    }
    o
}

fn discord_embed(it: &Item) -> DiscordEmbed {
    let mut lines = vec![discord_text(&cut(&it.authors, 300))];
    if !it.gist.is_empty() {
        lines[0].push_str(&format!("\n≡ {}", discord_text(&it.gist)));
    }
    let mut links = Vec::new();
    if let Some(pdf) = &it.pdf {
        links.push(format!("[PDF]({pdf})"));
    }
    if let (Some(up), Some(down)) = (&it.up, &it.down) {
        links.push(format!("[👍 like]({up}) · [👎 not interested]({down})"));
    }
    let tail = links.join(" · ");
    let room = DISCORD_DESCRIPTION.saturating_sub(lines[0].chars().count() + tail.chars().count() + 8);
    lines.push(format!("*{}*", cut(&discord_text(&it.reason), room.min(900))));
    if !tail.is_empty() {
        lines.push(tail);
    }
    DiscordEmbed {
        title: cut(&format!("{}. {}", it.rank, discord_text(&it.title)), DISCORD_TITLE),
        description: cut(&lines.join("\n"), DISCORD_DESCRIPTION),
        url: it.abs.clone(),
    }
}

/// What Discord counts toward a message's 6,000 characters.
fn embed_size(e: &DiscordEmbed) -> usize {
    e.title.chars().count() + e.description.chars().count()
}

fn discord(d: &Digest, links: &Links) -> Vec<DiscordMessage> {
    let embeds: Vec<DiscordEmbed> = d.picks.iter().map(|p| discord_embed(&item(p, d, links))).collect();
    let sizes: Vec<usize> = embeds.iter().map(embed_size).collect();
    let groups = runs(&sizes, DISCORD_TOTAL, DISCORD_EMBEDS);
    let parts = groups.len();
    groups
        .into_iter()
        .enumerate()
        .map(|(i, range)| {
            let part = part_label(i, parts);
            let content = cut(&format!("**{}**{part} · {}", discord_text(&heading(d)), discord_text(&summary(d))), 2000);
            DiscordMessage { content, embeds: embeds[range].to_vec(), allowed_mentions: AllowedMentions::default() }
        })
        .collect()
}

// ---- Matrix ----

fn html(s: &str) -> String {
    crate::report::digest::esc(s)
}

fn matrix_item(it: &Item) -> (String, String) {
    let gist = if it.gist.is_empty() { String::new() } else { format!("\n   ≡ {}", it.gist) };
    let mut text = format!("{}. {}\n   {}{gist}\n   {}", it.rank, it.title, it.authors, it.reason);
    let title = match &it.abs {
        Some(url) => format!("<a href=\"{}\">{}</a>", html(url), html(&it.title)),
        None => html(&it.title),
    };
    let mut links = Vec::new();
    if let Some(abs) = &it.abs {
        text.push_str(&format!("\n   {abs}"));
    }
    if let Some(pdf) = &it.pdf {
        links.push(format!("<a href=\"{}\">PDF</a>", html(pdf)));
    }
    if let (Some(up), Some(down)) = (&it.up, &it.down) {
        links.push(format!("<a href=\"{}\">👍 like</a> · <a href=\"{}\">👎 not interested</a>", html(up), html(down)));
        text.push_str(&format!("\n   👍 {up}\n   👎 {down}"));
    }
    let gist = if it.gist.is_empty() { String::new() } else { format!("<br>≡ {}", html(&it.gist)) };
    let mut h = format!("<li><b>{title}</b><br>{}{gist}<br><i>{}</i>", html(&it.authors), html(&it.reason));
    if !links.is_empty() {
        h.push_str(&format!("<br>{}", links.join(" · ")));
    }
    h.push_str("</li>");
    (text, h)
}

/// " (2/3)" after the heading of the second of three messages; nothing for one.
fn part_label(i: usize, parts: usize) -> String {
    if parts > 1 {
        format!(" ({}/{parts})", i + 1)
    } else {
        String::new()
    }
}

/// Splits `sizes` into runs of at most `most` items whose sum stays within
/// `max` (a run holds one item at least): each message's picks. No picks
/// still make one (empty) run: the message that says so.
fn runs(sizes: &[usize], max: usize, most: usize) -> Vec<std::ops::Range<usize>> {
    let mut out = Vec::new();
    let (mut start, mut size) = (0, 0);
    for (i, &n) in sizes.iter().enumerate() {
        if i > start && (size + n > max || i - start >= most) {
            out.push(start..i);
            (start, size) = (i, 0);
        }
        size += n;
    }
    out.push(start..sizes.len());
    out
}

fn matrix(d: &Digest, links: &Links) -> Vec<MatrixEvent> {
    let items: Vec<(String, String)> = d.picks.iter().map(|p| matrix_item(&item(p, d, links))).collect();
    let sizes: Vec<usize> = items.iter().map(|(t, h)| t.len() + h.len()).collect();
    let groups = runs(&sizes, MATRIX_BYTES, usize::MAX);
    let parts = groups.len();
    groups
        .into_iter()
        .enumerate()
        .map(|(i, range)| {
            let part = part_label(i, parts);
            let g = &items[range.clone()];
            let body =
                format!("{}{part}\n{}\n\n{}", heading(d), summary(d), g.iter().map(|(t, _)| t.as_str()).collect::<Vec<_>>().join("\n\n"));
            let formatted = format!(
                "<h3>{}{}</h3><p>{}</p><ol start=\"{}\">{}</ol>",
                html(&heading(d)),
                html(&part),
                html(&summary(d)),
                range.start + 1,
                g.iter().map(|(_, h)| h.as_str()).collect::<String>()
            );
            matrix_event(&body, &formatted)
        })
        .collect()
}

/// An `m.room.message` with both bodies, within a homeserver's event
/// limit, that notifies no one: `m.mentions` empty, so "@room" in a title
/// is only text.
fn matrix_event(body: &str, formatted: &str) -> MatrixEvent {
    let event = MatrixEvent {
        msgtype: "m.text",
        body: cut_bytes(body, MATRIX_BYTES),
        format: Some("org.matrix.custom.html"),
        formatted_body: Some(formatted.to_string()),
        mentions: MatrixMentions {},
    };
    if serde_json::to_vec(&event).is_ok_and(|b| b.len() <= MATRIX_EVENT) {
        return event;
    }
    MatrixEvent { format: None, formatted_body: None, ..event }
}

/// A short message of the server's own (a test of a reader's chat), in
/// `platform`'s shape; `text` is plain and shown as such.
pub fn note(platform: Platform, text: &str, topic: &str) -> Message {
    let text = plain(text);
    match platform {
        Platform::Slack => Message::Slack(SlackMessage {
            text: slack_text(&text),
            blocks: vec![SlackBlock::Section { text: slack_mrkdwn(slack_text(&text)) }],
            unfurl_links: None,
        }),
        Platform::Discord => Message::Discord(DiscordMessage {
            content: cut(&discord_text(&text), 2000),
            embeds: Vec::new(),
            allowed_mentions: AllowedMentions::default(),
        }),
        Platform::Matrix => Message::Matrix(MatrixEvent {
            msgtype: "m.notice",
            body: cut_bytes(&text, MATRIX_BYTES),
            format: None,
            formatted_body: None,
            mentions: MatrixMentions {},
        }),
        Platform::Ntfy => Message::Ntfy(NtfyPublish {
            topic: topic.to_string(),
            title: "paperscout".into(),
            message: cut_bytes(&text, NTFY_BYTES),
            markdown: None,
            tags: vec!["books"],
        }),
    }
}

// ---- ntfy ----

fn ntfy_item(it: &Item) -> String {
    let title = crate::report::digest::md(&it.title);
    let title = match &it.abs {
        Some(url) => format!("[{title}]({url})"),
        None => title,
    };
    let gist = if it.gist.is_empty() { String::new() } else { format!("≡ {}  \n", crate::report::digest::md(&it.gist)) };
    let mut s = format!(
        "**{}.** {title}  \n{}  \n{gist}_{}_",
        it.rank,
        crate::report::digest::md(&it.authors),
        crate::report::digest::md(&it.reason)
    );
    let mut links = Vec::new();
    if let Some(pdf) = &it.pdf {
        links.push(format!("[PDF]({pdf})"));
    }
    if let (Some(up), Some(down)) = (&it.up, &it.down) {
        links.push(format!("[👍]({up}) [👎]({down})"));
    }
    if !links.is_empty() {
        s.push_str(&format!("  \n{}", links.join(" · ")));
    }
    cut_bytes(&s, NTFY_BYTES - 200)
}

fn ntfy(d: &Digest, links: &Links, topic: &str) -> Vec<NtfyPublish> {
    let items: Vec<String> = d.picks.iter().map(|p| ntfy_item(&item(p, d, links))).collect();
    let sizes: Vec<usize> = items.iter().map(|s| s.len() + 2).collect();
    let groups = runs(&sizes, NTFY_BYTES - summary(d).len() - 2, usize::MAX);
    let parts = groups.len();
    groups
        .into_iter()
        .enumerate()
        .map(|(i, range)| {
            let part = part_label(i, parts);
            let message = format!("{}\n\n{}", summary(d), items[range].join("\n\n"));
            NtfyPublish {
                topic: topic.to_string(),
                title: format!("{}{part}", heading(d)),
                message,
                markdown: Some(true),
                tags: vec!["books"],
            }
        })
        .collect()
}
