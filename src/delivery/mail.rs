//! Sending the digest by e-mail: one multipart message (plain text and
//! HTML) through an SMTP server, over TLS or STARTTLS. The password comes
//! from the environment or a file, never from the command line, where any
//! user of the machine could read it in the process list.

use anyhow::{bail, Context, Result};
use lettre::message::{Mailbox, MultiPart};
use lettre::transport::smtp::authentication::Credentials;
use lettre::{Message, SmtpTransport, Transport};
use std::time::Duration;

/// Where and to whom, as `daily --mail-to/--smtp/--mail-from` give it.
pub struct Delivery<'a> {
    pub smtp: Option<&'a str>,
    pub from: Option<&'a str>,
    pub to: &'a [String],
}

/// The digest in its two forms, under one subject.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct Letter {
    pub subject: String,
    pub text: String,
    pub html: String,
}

impl Letter {
    /// A digest as mail: Markdown reads well as plain text, and the HTML
    /// page is the rich part.
    pub fn of(digest: &crate::workflow::digest::Digest, links: &crate::report::Links) -> Result<Letter> {
        use super::{render, DigestFormat};
        let n = digest.picks.len();
        let mut subject = format!("paperscout: {n} paper{} for {}", if n == 1 { "" } else { "s" }, digest.span());
        if digest.profile != "default" {
            subject.push_str(&format!(" ({})", digest.profile));
        }
        let text = String::from_utf8(render(DigestFormat::Markdown, digest, links)?)?;
        let html = String::from_utf8(render(DigestFormat::Html, digest, links)?)?;
        Ok(Letter { subject, text, html })
    }
}

/// User name and password from PAPERSCOUT_SMTP_USER with
/// PAPERSCOUT_SMTP_PASSWORD or PAPERSCOUT_SMTP_PASSWORD_FILE; none when no
/// user is set (a server that takes mail without logging in).
fn credentials() -> Result<Option<Credentials>> {
    let user = std::env::var("PAPERSCOUT_SMTP_USER").ok().filter(|u| !u.is_empty());
    let password = match (std::env::var("PAPERSCOUT_SMTP_PASSWORD").ok(), std::env::var_os("PAPERSCOUT_SMTP_PASSWORD_FILE")) {
        (Some(p), _) => Some(p),
        (None, Some(file)) => {
            let text = std::fs::read_to_string(&file)
                .with_context(|| format!("cannot read the SMTP password file {}", std::path::Path::new(&file).display()))?;
            Some(crate::profile::seed_files::strip_bom(&text).trim_end_matches(['\r', '\n']).to_string())
        }
        (None, None) => None,
    };
    match (user, password) {
        (Some(u), Some(p)) => Ok(Some(Credentials::new(u, p))),
        (None, None) => Ok(None),
        (Some(_), None) => bail!("PAPERSCOUT_SMTP_USER is set but neither PAPERSCOUT_SMTP_PASSWORD nor PAPERSCOUT_SMTP_PASSWORD_FILE"),
        (None, Some(_)) => bail!("an SMTP password is set but PAPERSCOUT_SMTP_USER is not"),
    }
}

fn is_loopback(host: &url::Host<&str>) -> bool {
    match host {
        // smtp: is not a scheme the URL standard knows, so an address comes as a name.
        url::Host::Domain(d) => {
            d.eq_ignore_ascii_case("localhost")
                || d.trim_start_matches('[').trim_end_matches(']').parse::<std::net::IpAddr>().is_ok_and(|a| a.is_loopback())
        }
        url::Host::Ipv4(a) => a.is_loopback(),
        url::Host::Ipv6(a) => a.is_loopback(),
    }
}

/// Checks the server URL: credentials never in it, and plain SMTP (no TLS)
/// only to this machine.
fn check_url(smtp: &str) -> Result<()> {
    let url = url::Url::parse(smtp)
        .with_context(|| format!("--smtp {smtp:?} is not a URL like smtps://HOST:465 or smtp://HOST:587?tls=required"))?;
    if !url.username().is_empty() || url.password().is_some() {
        bail!("--smtp must not hold a user name or password; set PAPERSCOUT_SMTP_USER and PAPERSCOUT_SMTP_PASSWORD (or PAPERSCOUT_SMTP_PASSWORD_FILE)");
    }
    let host = url.host().context("--smtp names no host")?;
    let tls = url.query_pairs().find(|(k, _)| k == "tls").map(|(_, v)| v.into_owned());
    match (url.scheme(), tls.as_deref()) {
        ("smtps", _) | ("smtp", Some("required")) => Ok(()),
        ("smtp", None | Some("opportunistic")) if is_loopback(&host) => Ok(()),
        ("smtp", _) => bail!("--smtp {smtp}: without TLS the digest and the password would cross the network in the clear; use smtps://HOST or smtp://HOST:587?tls=required"),
        (scheme, _) => bail!("--smtp {smtp}: unknown scheme {scheme:?}; use smtps:// or smtp://"),
    }
}

fn mailbox(addr: &str, what: &str) -> Result<Mailbox> {
    addr.parse().with_context(|| format!("{what} {:?} is not an e-mail address", crate::listing::text::excerpt(addr)))
}

/// Sends a letter to one reader through the server's mail settings
/// (`PAPERSCOUT_SMTP`, `PAPERSCOUT_MAIL_FROM` and the login beside them).
pub fn send_to_reader(to: &str, letter: Letter, within: Duration) -> Result<()> {
    let smtp = std::env::var("PAPERSCOUT_SMTP").ok().filter(|s| !s.is_empty());
    let from = std::env::var("PAPERSCOUT_MAIL_FROM").ok().filter(|s| !s.is_empty());
    let to = [to.to_string()];
    send_within(&Delivery { smtp: smtp.as_deref(), from: from.as_deref(), to: &to }, letter, within)
}

/// Whether this server can send mail at all (`PAPERSCOUT_SMTP` is set).
pub fn configured() -> bool {
    std::env::var("PAPERSCOUT_SMTP").is_ok_and(|s| !s.is_empty())
}

/// Sends the letter; any failure is one error naming the server.
pub fn send(d: &Delivery, letter: Letter) -> Result<()> {
    send_within(d, letter, Duration::from_secs(60))
}

/// [`send`], each step of the conversation with the server within `within`.
fn send_within(d: &Delivery, letter: Letter, within: Duration) -> Result<()> {
    let smtp = d.smtp.context("--mail-to needs an SMTP server: give --smtp URL or set PAPERSCOUT_SMTP")?;
    check_url(smtp)?;
    let creds = credentials()?;
    // A login that is an address is the natural sender.
    let user = std::env::var("PAPERSCOUT_SMTP_USER").ok().filter(|u| u.contains('@'));
    let from = match (d.from, user) {
        (Some(f), _) => mailbox(f, "--mail-from")?,
        (None, Some(u)) => mailbox(&u, "PAPERSCOUT_SMTP_USER")?,
        (None, None) => mailbox("paperscout@localhost", "the sender")?,
    };
    let mut message = Message::builder().from(from).subject(letter.subject);
    for to in d.to {
        message = message.to(mailbox(to, "--mail-to")?);
    }
    let message = message.multipart(MultiPart::alternative_plain_html(letter.text, letter.html)).context("cannot build the e-mail")?;
    let mut transport = SmtpTransport::from_url(smtp).with_context(|| format!("--smtp {smtp}"))?.timeout(Some(within));
    if let Some(c) = creds {
        transport = transport.credentials(c);
    }
    transport.build().send(&message).with_context(|| format!("cannot send the digest through {smtp}"))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_safe_server_urls() {
        assert!(check_url("smtps://mail.example.org").is_ok());
        assert!(check_url("smtp://mail.example.org:587?tls=required").is_ok());
        assert!(check_url("smtp://127.0.0.1:2525").is_ok());
        assert!(check_url("smtp://localhost:2525").is_ok());
        let clear = check_url("smtp://mail.example.org:25").unwrap_err().to_string();
        assert!(clear.contains("in the clear"), "{clear}");
        let secret = check_url("smtps://me:hunter2@mail.example.org").unwrap_err().to_string();
        assert!(secret.contains("PAPERSCOUT_SMTP_PASSWORD") && !secret.contains("hunter2"), "{secret}");
        assert!(check_url("http://mail.example.org").is_err());
        assert!(check_url("not a url").is_err());
    }
}
