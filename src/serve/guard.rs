//! Which requests reach the pages at all. A web page the user visits can
//! point a name it controls at 127.0.0.1 (DNS rebinding) and read what the
//! server answers, so a request must name this server in `Host`; and a
//! write must come from this server's own pages, whatever token it carries.

use axum::extract::{Request, State as Shared};
use axum::http::{header, HeaderMap, Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::sync::Arc;

/// The names this server answers to.
#[derive(Debug, Clone)]
pub struct HostPolicy {
    local: SocketAddr,
    https: bool,
    /// `--allow-host` names, lower case: the administrator's own names
    /// (behind a proxy, any port).
    names: Vec<String>,
}

impl HostPolicy {
    pub fn new(local: SocketAddr, https: bool, names: &[String]) -> HostPolicy {
        let names = names.iter().map(|n| n.trim_end_matches('.').to_ascii_lowercase()).collect();
        HostPolicy { local, https, names }
    }

    pub fn https(&self) -> bool {
        self.https
    }

    pub fn port(&self) -> u16 {
        self.local.port()
    }

    /// Whether `host` (a `Host` header, or an origin's host and port) is this server.
    pub fn allows(&self, host: &str) -> bool {
        let Some((name, port)) = split_host(host) else { return false };
        if self.names.contains(&name) {
            return true;
        }
        let port = port.unwrap_or(if self.https { 443 } else { 80 });
        if port != self.local.port() {
            return false;
        }
        if name == "localhost" {
            return true;
        }
        let Ok(ip) = name.trim_start_matches('[').trim_end_matches(']').parse::<IpAddr>() else {
            return false;
        };
        // An address cannot be rebound; a server bound to all addresses
        // answers to each of the machine's own.
        ip == self.local.ip()
            || ip == IpAddr::V4(Ipv4Addr::LOCALHOST)
            || ip == IpAddr::V6(Ipv6Addr::LOCALHOST)
            || self.local.ip().is_unspecified()
    }
}

/// `name[:port]` → (lower-case name, port); IPv6 literals keep their brackets.
fn split_host(host: &str) -> Option<(String, Option<u16>)> {
    let host = host.trim();
    if host.is_empty() || host.len() > 255 || host.bytes().any(|b| b <= b' ' || b == b'/' || b == b'@') {
        return None;
    }
    let (name, port) = if host.starts_with('[') {
        let end = host.find(']')?;
        let rest = &host[end + 1..];
        (&host[..=end], if rest.is_empty() { None } else { Some(rest.strip_prefix(':')?) })
    } else {
        match host.rsplit_once(':') {
            Some((n, p)) => (n, Some(p)),
            None => (host, None),
        }
    };
    let port = match port {
        Some(p) => Some(p.parse::<u16>().ok()?),
        None => None,
    };
    Some((name.trim_end_matches('.').to_ascii_lowercase(), port))
}

fn refuse(status: StatusCode, message: &str) -> Response {
    (status, [(header::CONTENT_TYPE, "text/plain; charset=utf-8")], message.to_string()).into_response()
}

/// Refuses a foreign `Host` (421) and a write from a foreign page (403).
/// A request line in absolute form (`GET http://name/ HTTP/1.1`, which
/// browsers send only to proxies) names its host there, and that name
/// must be this server's too.
pub async fn check(Shared(hosts): Shared<Arc<HostPolicy>>, req: Request, next: Next) -> Response {
    let host = req.headers().get(header::HOST).and_then(|h| h.to_str().ok()).unwrap_or("");
    let target = req.uri().authority().map(|a| a.as_str());
    if !hosts.allows(host) || target.is_some_and(|t| !hosts.allows(t)) {
        return refuse(
            StatusCode::MISDIRECTED_REQUEST,
            "421 this server does not answer to that name; its administrator can add one with `serve --allow-host NAME`\n",
        );
    }
    let writes = !matches!(*req.method(), Method::GET | Method::HEAD | Method::OPTIONS);
    if writes && !same_origin(req.headers(), host, hosts.https()) {
        return refuse(StatusCode::FORBIDDEN, "403 a write must come from this server's own pages\n");
    }
    next.run(req).await
}

/// Whether a write was sent by a page of this very origin. Browsers send
/// `Origin` with every POST and `Sec-Fetch-Site` with every request; a
/// client that sends neither is not a browser page, and is left to the
/// token and the session.
fn same_origin(headers: &HeaderMap, host: &str, https: bool) -> bool {
    if let Some(origin) = headers.get(header::ORIGIN) {
        let Ok(origin) = origin.to_str() else { return false };
        let scheme = if https { "https://" } else { "http://" };
        let Some(rest) = origin.strip_prefix(scheme) else { return false };
        let default = if https { 443 } else { 80 };
        return match (split_host(rest), split_host(host)) {
            (Some((a, pa)), Some((b, pb))) => a == b && pa.unwrap_or(default) == pb.unwrap_or(default),
            _ => false,
        };
    }
    match headers.get("sec-fetch-site").and_then(|v| v.to_str().ok()) {
        // `same-site` is another port or subdomain: another site, here.
        Some(site) => matches!(site, "same-origin" | "none"),
        None => true,
    }
}

/// Compared in constant time: the token stands between another site and
/// the user's library.
pub fn same_token(sent: &str, expected: &str) -> bool {
    !expected.is_empty() && sent.len() == expected.len() && sent.bytes().zip(expected.bytes()).fold(0u8, |acc, (a, b)| acc | (a ^ b)) == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn policy(addr: &str, names: &[&str]) -> HostPolicy {
        HostPolicy::new(addr.parse().unwrap(), false, &names.iter().map(|s| s.to_string()).collect::<Vec<_>>())
    }

    #[test]
    fn hosts_of_this_server_only() {
        let p = policy("127.0.0.1:8180", &["paperscout.lab.example"]);
        for ok in
            ["127.0.0.1:8180", "localhost:8180", "LOCALHOST:8180", "[::1]:8180", "paperscout.lab.example", "paperscout.lab.example:443"]
        {
            assert!(p.allows(ok), "{ok}");
        }
        for bad in [
            "evil.example:8180",
            "127.0.0.1:8181",
            "localhost",
            "",
            "127.0.0.1:8180/x",
            "user@127.0.0.1:8180",
            "10.0.0.5:8180",
            "localhost.evil.example:8180",
            "[::1]x:8180",
        ] {
            assert!(!p.allows(bad), "{bad}");
        }
        let any = policy("0.0.0.0:8180", &[]);
        assert!(any.allows("192.168.1.20:8180") && !any.allows("lab-box:8180"));
    }

    #[test]
    fn writes_from_this_origin_only() {
        let h = |pairs: &[(&str, &str)]| {
            let mut m = HeaderMap::new();
            for (k, v) in pairs {
                m.insert(axum::http::HeaderName::from_bytes(k.as_bytes()).unwrap(), v.parse().unwrap());
            }
            m
        };
        assert!(same_origin(&h(&[("origin", "http://127.0.0.1:8180")]), "127.0.0.1:8180", false));
        assert!(!same_origin(&h(&[("origin", "http://evil.example")]), "127.0.0.1:8180", false));
        assert!(!same_origin(&h(&[("origin", "null")]), "127.0.0.1:8180", false));
        assert!(!same_origin(&h(&[("origin", "https://127.0.0.1:8180")]), "127.0.0.1:8180", false));
        assert!(!same_origin(&h(&[("sec-fetch-site", "cross-site")]), "127.0.0.1:8180", false));
        assert!(!same_origin(&h(&[("sec-fetch-site", "same-site")]), "127.0.0.1:8180", false));
        assert!(same_origin(&h(&[("sec-fetch-site", "same-origin")]), "127.0.0.1:8180", false));
        assert!(same_origin(&h(&[]), "127.0.0.1:8180", false));
    }
}
