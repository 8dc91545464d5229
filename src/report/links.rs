//! Links a digest carries besides arXiv's: with the address of the
//! reader's paperscout server (`daily --link-base`), each pick gets 👍 and
//! 👎 links to its page there, where one more click applies the rating (a
//! GET never writes).

use crate::paper::Paper;

/// What a digest may link to beyond arXiv; the default links nowhere else.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Links {
    /// The server's address, absolute http(s), no trailing slash, no query.
    pub rate_base: Option<String>,
}

/// A paper's two rating links.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rate {
    pub up: String,
    pub down: String,
}

impl Links {
    /// Links to the server at `base`, checked: an absolute http(s) URL with
    /// a host, without credentials, query or fragment. A trailing slash is
    /// dropped. The error says what is wrong, not which option gave it.
    pub fn to_server(base: &str) -> Result<Links, String> {
        let url = url::Url::parse(base.trim()).map_err(|e| format!("not an absolute URL ({e}); give one like http://HOST:8080"))?;
        if !matches!(url.scheme(), "http" | "https") {
            return Err(format!("the scheme is {:?}; give an http:// or https:// URL", url.scheme()));
        }
        if url.host_str().is_none_or(str::is_empty) {
            return Err("names no host".into());
        }
        if !url.username().is_empty() || url.password().is_some() {
            return Err("must not hold a user name or password (the links are sent to readers)".into());
        }
        if url.query().is_some() || url.fragment().is_some() {
            return Err("must not have a query (?…) or fragment (#…); the links add their own".into());
        }
        // Parsing escaped the rest; a parenthesis would end a Markdown link.
        let base = url.as_str().trim_end_matches('/').replace('(', "%28").replace(')', "%29");
        Ok(Links { rate_base: Some(base) })
    }

    /// The 👍 and 👎 links of `p` for `profile`: none without a server or
    /// when the paper's id is not of arXiv's grammar (a library entry is not
    /// trusted to make a link).
    pub fn rate(&self, p: &Paper, profile: &str) -> Option<Rate> {
        let base = self.rate_base.as_deref()?;
        if !p.has_arxiv_id() {
            return None;
        }
        // An old-style id's slash stays a slash, as the server's own links have it.
        let id: Vec<String> = p.id.split('/').map(encode).collect();
        // A member's profile is stored as USER/NAME (a name holds no '/'):
        // the server knows it by its name, for the account signed in, and
        // the link says which account it was made for.
        let page = match profile.split_once('/') {
            Some((user, name)) => format!("{base}/paper/{}?profile={}&for={}", id.join("/"), encode(name), encode(user)),
            None => format!("{base}/paper/{}?profile={}", id.join("/"), encode(profile)),
        };
        Some(Rate { up: format!("{page}&rate=up"), down: format!("{page}&rate=down") })
    }
}

/// `s` percent-encoded but for letters, digits, `-`, `_` and `.`: safe in a
/// path segment, a query value and a URN alike.
pub fn encode(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::paper::{ArxivId, Kind};

    fn paper(id: &str) -> Paper {
        let mut p = Paper::new(ArxivId::parse("2501.01234").unwrap(), Kind::New, "test");
        p.id = id.to_string();
        p
    }

    #[test]
    fn only_a_plain_http_base_is_taken() {
        let base = |s: &str| Links::to_server(s).map(|l| l.rate_base.unwrap());
        assert_eq!(base("http://lab.example:8080/").unwrap(), "http://lab.example:8080");
        assert_eq!(base("https://Lab.Example/scout//").unwrap(), "https://lab.example/scout");
        assert_eq!(base("http://h/a(b)").unwrap(), "http://h/a%28b%29");
        for bad in ["ftp://x", "not a url", "http://h/?q=1", "http://h/?", "http://h/#top", "https://me:pw@h/", "file:///tmp/x", "/paper"] {
            assert!(Links::to_server(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn links_carry_the_id_and_the_profile_encoded() {
        let links = Links::to_server("http://lab.example:8080/").unwrap();
        let r = links.rate(&paper("2501.01234"), "default").unwrap();
        assert_eq!(r.up, "http://lab.example:8080/paper/2501.01234?profile=default&rate=up");
        assert_eq!(r.down, "http://lab.example:8080/paper/2501.01234?profile=default&rate=down");
        let r = links.rate(&paper("hep-th/9901001"), "my lab&co é").unwrap();
        assert_eq!(r.up, "http://lab.example:8080/paper/hep-th/9901001?profile=my%20lab%26co%20%C3%A9&rate=up");
        // A member's profile: its name, and the account it was made for.
        let r = links.rate(&paper("2501.01234"), "alice/default").unwrap();
        assert_eq!(r.up, "http://lab.example:8080/paper/2501.01234?profile=default&for=alice&rate=up");
        assert!(links.rate(&paper("javascript:alert(1)"), "default").is_none());
        assert!(Links::default().rate(&paper("2501.01234"), "default").is_none());
    }
}
