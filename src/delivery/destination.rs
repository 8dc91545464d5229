//! Where a member's webhook may be posted. A webhook is an address a
//! member typed, and the server posts to it from inside the lab's network:
//! left unchecked, it reaches the server's own ports, the cloud's metadata
//! service and every machine beside it. So the address is checked twice:
//! when it is saved (for a clear word on Settings) and, what holds, on each
//! address the name resolves to at every send ([`Destinations::agent`]
//! connects only to addresses that passed), so a name that resolves, or
//! later rebinds, to a private address is refused too. The administrator
//! names the internal hosts that may be reached (`serve
//! --allow-webhook-host`), such as a lab's own Mattermost.

use std::fmt;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr, ToSocketAddrs};
use std::sync::Arc;
use std::time::Duration;

/// Why an address is not posted to. Its text names the host and what the
/// address is, never the address's path (a webhook's path is its secret).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    /// Not an absolute http(s) URL with a host.
    NotAnAddress,
    /// `user:password@` in the address.
    Credentials,
    /// `http://` to a host the administrator did not allow.
    Plain { host: String },
    /// The host is, or resolves to, an address of this network.
    Internal { host: String, addr: IpAddr, what: &'static str },
    /// The name does not resolve.
    Unresolved { host: String },
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const RULE: &str = "this server posts only to public addresses, and to internal hosts its administrator allowed \
                            (serve --allow-webhook-host)";
        match self {
            Refusal::NotAnAddress => write!(f, "the address is not an https:// URL"),
            Refusal::Credentials => write!(f, "the address must not hold a user name or password"),
            Refusal::Plain { host } => {
                write!(f, "{host} is reached over plain http://, which only hosts the administrator allowed may be; use https://")
            }
            // An address the reader typed is theirs to hear named; what a
            // name resolves to inside the lab is not (it would map the
            // lab's network for them).
            Refusal::Internal { host, addr, what } if host.trim_matches(['[', ']']).parse::<IpAddr>().is_ok_and(|h| h == *addr) => {
                write!(f, "{host} is {what}: {RULE}")
            }
            Refusal::Internal { host, .. } => write!(f, "{host} resolves to an internal address: {RULE}"),
            Refusal::Unresolved { host } => write!(f, "{host} does not resolve to an address"),
        }
    }
}

impl Refusal {
    /// For the administrator's log: the address a name resolved to too.
    pub fn in_full(&self) -> String {
        match self {
            Refusal::Internal { host, addr, what } => format!("{host} ({addr}, {what})"),
            other => other.to_string(),
        }
    }
}

impl std::error::Error for Refusal {}

/// The destinations a server may post to: public addresses, and the hosts
/// its administrator named.
#[derive(Debug, Clone, Default)]
pub struct Destinations {
    /// Host names and address literals, lower case, without brackets, each
    /// with the one port it may be reached on (none: any).
    allowed: Vec<(String, Option<u16>)>,
    /// Unchecked: `daily --post` from the command line, where the user
    /// posts where they choose.
    open: bool,
    /// This machine's own addresses, beyond the ranges refused anyway.
    own: Vec<IpAddr>,
}

impl Destinations {
    /// A server's policy: `allowed` are `--allow-webhook-host` entries,
    /// `HOST` (any port) or `HOST:PORT` (that port alone).
    pub fn new(allowed: &[String]) -> Result<Destinations, String> {
        let own = if_addrs::get_if_addrs().map(|ifs| ifs.into_iter().map(|i| i.ip()).collect()).unwrap_or_default();
        let allowed = allowed.iter().map(|h| allowed_entry(h)).collect::<Result<_, _>>()?;
        Ok(Destinations { allowed, open: false, own })
    }

    /// No check: the command line's own `--post`.
    pub fn anywhere() -> Destinations {
        Destinations { open: true, ..Destinations::default() }
    }

    /// Whether the administrator named `host` on `port` (sent plain http,
    /// reached inside).
    pub fn allows(&self, host: &str, port: u16) -> bool {
        let host = bare_host(host);
        self.open || self.allowed.iter().any(|(h, p)| *h == host && p.is_none_or(|p| p == port))
    }

    /// The address's form: https (http to an allowed host), a host, no
    /// credentials; and an address literal that is not internal.
    pub fn check_form(&self, url: &str) -> Result<url::Url, Refusal> {
        let parsed = url::Url::parse(url.trim()).map_err(|_| Refusal::NotAnAddress)?;
        let host = parsed.host_str().filter(|h| !h.is_empty()).ok_or(Refusal::NotAnAddress)?.to_string();
        if !parsed.username().is_empty() || parsed.password().is_some() {
            return Err(Refusal::Credentials);
        }
        let port = parsed.port_or_known_default().unwrap_or(443);
        match parsed.scheme() {
            "https" => {}
            "http" if self.allows(&host, port) => {}
            "http" => return Err(Refusal::Plain { host }),
            _ => return Err(Refusal::NotAnAddress),
        }
        // The URL parser has already read "2130706433" and "0x7f.1" as
        // 127.0.0.1, and "[::ffff:7f00:1]" as an IPv6 address.
        let literal = match parsed.host() {
            Some(url::Host::Ipv4(a)) => Some(IpAddr::V4(a)),
            Some(url::Host::Ipv6(a)) => Some(IpAddr::V6(a)),
            _ => None,
        };
        if let Some(addr) = literal {
            self.check_addr(&host, port, addr)?;
        }
        Ok(parsed)
    }

    /// The address's form, and every address its name resolves to now:
    /// what Settings says when a webhook is saved.
    pub fn check(&self, url: &str) -> Result<url::Url, Refusal> {
        let parsed = self.check_form(url)?;
        let host = parsed.host_str().unwrap_or_default().to_string();
        let port = parsed.port_or_known_default().unwrap_or(443);
        self.resolve(&host, port)?;
        Ok(parsed)
    }

    fn check_addr(&self, host: &str, port: u16, addr: IpAddr) -> Result<(), Refusal> {
        if self.allows(host, port) {
            return Ok(());
        }
        if let Some(what) = internal(addr) {
            return Err(Refusal::Internal { host: host.to_string(), addr, what });
        }
        if self.own.iter().any(|o| o.to_canonical() == addr.to_canonical()) {
            return Err(Refusal::Internal { host: host.to_string(), addr, what: "one of this server's own addresses" });
        }
        Ok(())
    }

    /// The addresses of `host` that may be connected to; a refusal when
    /// one of them may not (a name that answers with a public and a
    /// private address is refused whole, not half used).
    fn resolve(&self, host: &str, port: u16) -> Result<Vec<SocketAddr>, Refusal> {
        let name = bare_host(host);
        let addrs: Vec<SocketAddr> = match name.parse::<IpAddr>() {
            Ok(ip) => vec![SocketAddr::new(ip, port)],
            Err(_) => (name.as_str(), port).to_socket_addrs().map(Iterator::collect).unwrap_or_default(),
        };
        if addrs.is_empty() {
            return Err(Refusal::Unresolved { host: host.to_string() });
        }
        for a in &addrs {
            self.check_addr(host, port, a.ip())?;
        }
        Ok(addrs)
    }

    /// An HTTP agent that connects only to addresses this policy allows,
    /// resolved at each request; it follows no redirect (a 3xx is an
    /// answer, not a delivery) and uses no proxy.
    pub fn agent(&self, connect: Duration, request: Duration) -> ureq::Agent {
        let policy = Arc::new(self.clone());
        ureq::AgentBuilder::new()
            .timeout_connect(connect)
            .timeout(request)
            .redirects(0)
            .try_proxy_from_env(false)
            .user_agent(crate::fetch::USER_AGENT)
            .resolver(move |netloc: &str| {
                let (host, port) = split_netloc(netloc).ok_or_else(|| std::io::Error::other(Refusal::NotAnAddress))?;
                policy.resolve(host, port).map_err(std::io::Error::other)
            })
            .build()
    }
}

/// The refusal inside a failed request's error, if the policy refused it.
pub fn refusal_in(e: &(dyn std::error::Error + 'static)) -> Option<Refusal> {
    let mut cause = Some(e);
    while let Some(c) = cause {
        if let Some(r) = c.downcast_ref::<Refusal>() {
            return Some(r.clone());
        }
        if let Some(io) = c.downcast_ref::<std::io::Error>() {
            if let Some(r) = io.get_ref().and_then(|inner| inner.downcast_ref::<Refusal>()) {
                return Some(r.clone());
            }
        }
        cause = c.source();
    }
    None
}

/// `host:port` as ureq hands it to a resolver (`[v6]:port` for IPv6).
fn split_netloc(netloc: &str) -> Option<(&str, u16)> {
    let (host, port) = netloc.rsplit_once(':')?;
    Some((host, port.parse().ok()?))
}

/// An `--allow-webhook-host` entry: `HOST`, `HOST:PORT`, `[V6]:PORT`.
fn allowed_entry(entry: &str) -> Result<(String, Option<u16>), String> {
    let e = entry.trim();
    let parsed =
        url::Url::parse(&format!("http://{e}/")).ok().filter(|u| u.path() == "/" && u.username().is_empty() && u.query().is_none());
    let Some(u) = parsed else { return Err(format!("--allow-webhook-host {e:?}: give a host, or HOST:PORT")) };
    let host = u.host_str().filter(|h| !h.is_empty()).ok_or_else(|| format!("--allow-webhook-host {e:?}: names no host"))?;
    // url drops a port that is the scheme's default; say 80 as written.
    let port = u.port().or_else(|| e.ends_with(":80").then_some(80));
    Ok((bare_host(host), port))
}

/// A host as compared: lower case, no brackets, no trailing dot.
fn bare_host(h: &str) -> String {
    h.trim().trim_start_matches('[').trim_end_matches(']').trim_end_matches('.').to_ascii_lowercase()
}

/// What an address is when it is not a public one: loopback, private,
/// link-local and the rest; IPv6 spellings of an IPv4 address (mapped,
/// compatible, 6to4, NAT64) are judged by the address they carry.
pub fn internal(addr: IpAddr) -> Option<&'static str> {
    match addr {
        IpAddr::V4(a) => internal_v4(a),
        IpAddr::V6(a) => internal_v6(a),
    }
}

fn internal_v4(a: Ipv4Addr) -> Option<&'static str> {
    let o = a.octets();
    let what = match o {
        [0, ..] => "an unspecified address (0.0.0.0/8)",
        [127, ..] => "a loopback address (127.0.0.0/8)",
        [10, ..] => "a private address (10.0.0.0/8)",
        [172, b, ..] if (16..32).contains(&b) => "a private address (172.16.0.0/12)",
        [192, 168, ..] => "a private address (192.168.0.0/16)",
        [169, 254, ..] => "a link-local address (169.254.0.0/16)",
        [100, b, ..] if (64..128).contains(&b) => "a shared (CGNAT) address (100.64.0.0/10)",
        [192, 0, 0, _] => "an IETF protocol address (192.0.0.0/24)",
        [192, 0, 2, _] | [198, 51, 100, _] | [203, 0, 113, _] => "a documentation address",
        [198, b, ..] if b == 18 || b == 19 => "a benchmarking address (198.18.0.0/15)",
        [192, 88, 99, _] => "a 6to4 relay address (192.88.99.0/24)",
        [a, ..] if (224..240).contains(&a) => "a multicast address (224.0.0.0/4)",
        [a, ..] if a >= 240 => "a reserved or broadcast address (240.0.0.0/4)",
        _ => return None,
    };
    Some(what)
}

fn internal_v6(a: Ipv6Addr) -> Option<&'static str> {
    let s = a.segments();
    if a.is_unspecified() {
        return Some("an unspecified address (::)");
    }
    if a.is_loopback() {
        return Some("a loopback address (::1)");
    }
    // ::ffff:a.b.c.d is the IPv4 address it carries; ::a.b.c.d, long
    // deprecated, reaches nothing public.
    if let Some(v4) = a.to_ipv4_mapped() {
        return internal_v4(v4);
    }
    if s[..6] == [0; 6] {
        return Some("an IPv4-compatible address (::/96)");
    }
    let embedded = |hi: u16, lo: u16| Ipv4Addr::from((u32::from(hi) << 16) | u32::from(lo));
    // ::ffff:0:a.b.c.d, the IPv4-translated form (SIIT).
    if s[..4] == [0; 4] && s[4] == 0xffff && s[5] == 0 {
        return internal_v4(embedded(s[6], s[7]));
    }
    match s[0] {
        // 6to4: 2002:AABB:CCDD::/48 carries AA.BB.CC.DD.
        0x2002 => return internal_v4(embedded(s[1], s[2])),
        // NAT64's well-known prefix carries the address in its last 32 bits;
        // its local-use prefix 64:ff9b:1::/48 leads into a local network.
        0x0064 if s[1] == 0xff9b && s[2..6] == [0, 0, 0, 0] => return internal_v4(embedded(s[6], s[7])),
        0x0064 if s[1] == 0xff9b && s[2] == 1 => return Some("a local-use NAT64 address (64:ff9b:1::/48)"),
        _ => {}
    }
    let what = match s[0] {
        x if x & 0xfe00 == 0xfc00 => "a unique-local address (fc00::/7)",
        x if x & 0xffc0 == 0xfe80 => "a link-local address (fe80::/10)",
        x if x & 0xffc0 == 0xfec0 => "a site-local address (fec0::/10)",
        x if x & 0xff00 == 0xff00 => "a multicast address (ff00::/8)",
        // Teredo hides the client's IPv4 address; nothing public needs it here.
        0x2001 if s[1] == 0 => "a Teredo address (2001::/32)",
        0x2001 if s[1] == 0x0db8 => "a documentation address (2001:db8::/32)",
        0x0100 if s[1..4] == [0, 0, 0] => "a discard address (100::/64)",
        _ => return None,
    };
    Some(what)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refused(p: &Destinations, url: &str) -> Refusal {
        p.check_form(url).expect_err(url)
    }

    #[test]
    fn every_spelling_of_an_internal_address_is_refused() {
        let p = Destinations::default();
        for url in [
            "https://127.0.0.1:8180/hook",
            "https://127.1.2.3/",
            "https://[::1]:9000/x",
            "https://169.254.169.254/latest/meta-data/",
            "https://2130706433:8180/x",
            "https://0x7f.0.0.1/x",
            "https://0177.0.0.1/x",
            "https://[::ffff:127.0.0.1]:8180/x",
            "https://[::ffff:7f00:1]/x",
            "https://[::127.0.0.1]/x",
            "https://[2002:7f00:1::]/x",
            "https://[2002:a00:1::5]/x",
            "https://[64:ff9b::a9fe:a9fe]/x",
            "https://[64:ff9b:1::5]/x",
            "https://10.1.2.3/x",
            "https://172.16.0.1/x",
            "https://172.31.255.255/x",
            "https://192.168.1.1/x",
            "https://100.64.0.1/x",
            "https://100.127.255.255/x",
            "https://[fe80::1]/x",
            "https://[fd00::1]/x",
            "https://[fc00::1]/x",
            "https://224.0.0.1/x",
            "https://[ff02::1]/x",
            "https://0.0.0.0/x",
            "https://[::]/x",
            "https://255.255.255.255/x",
            "https://[2001::1]/x",
            "https://[::ffff:0:7f00:1]/x",
        ] {
            assert!(matches!(refused(&p, url), Refusal::Internal { .. }), "{url}");
        }
        for public in [
            "https://93.184.215.14/x",
            "https://[2606:4700::1111]/x",
            "https://172.32.0.1/x",
            "https://100.128.0.1/x",
            "https://[2002:5db8:d70e::1]/x",
            "https://[64:ff9b::5db8:d70e]/x",
        ] {
            assert!(p.check_form(public).is_ok(), "{public}");
        }
    }

    #[test]
    fn plain_http_and_credentials_only_where_allowed() {
        let p = Destinations::new(&["Mattermost.lab.example".to_string(), "127.0.0.1".to_string(), "[::1]:8065".to_string()]).unwrap();
        assert!(matches!(refused(&p, "http://hooks.slack.com/services/x"), Refusal::Plain { .. }));
        assert!(p.check_form("http://mattermost.lab.example/hooks/x").is_ok());
        assert!(p.check_form("http://127.0.0.1:9/hooks/x").is_ok(), "an allowed address may be internal");
        assert!(matches!(refused(&p, "http://127.0.0.2:9/x"), Refusal::Plain { .. }));
        assert!(matches!(refused(&p, "https://127.0.0.2:9/x"), Refusal::Internal { .. }));
        // A port given with the host is the only one allowed.
        assert!(p.check_form("http://[::1]:8065/hooks/x").is_ok());
        assert!(matches!(refused(&p, "http://[::1]:8180/x"), Refusal::Plain { .. }));
        assert!(matches!(refused(&p, "https://[::1]:8180/x"), Refusal::Internal { .. }));
        assert!(Destinations::new(&["http://x/y".to_string()]).is_err());
        assert_eq!(refused(&p, "https://me:pw@hooks.slack.com/x"), Refusal::Credentials);
        assert_eq!(refused(&p, "ftp://hooks.slack.com/x"), Refusal::NotAnAddress);
        assert_eq!(refused(&p, "not a url"), Refusal::NotAnAddress);
    }

    #[test]
    fn a_name_is_judged_by_what_it_resolves_to() {
        let p = Destinations::default();
        // localhost resolves to loopback (the hosts file): refused, with the address said.
        let r = p.check("https://localhost:8180/hook").unwrap_err();
        assert!(matches!(r, Refusal::Internal { .. }), "{r:?}");
        let text = r.to_string();
        assert!(text.contains("localhost resolves to an internal address") && !text.contains("/hook"), "{text}");
        // The reader is not told where inside; the administrator's log is.
        assert!(!text.contains("127.0.0.1") && !text.contains("::1"), "{text}");
        assert!(r.in_full().contains("loopback"), "{}", r.in_full());
        // The agent's resolver holds at the connection itself: no connection is made.
        let agent = p.agent(Duration::from_secs(2), Duration::from_secs(2));
        let err = agent.post("http://localhost:9/x").send_string("{}").unwrap_err();
        let ureq::Error::Transport(t) = err else { panic!("refused before any answer") };
        assert!(matches!(refusal_in(&t), Some(Refusal::Internal { .. })), "{t}");
        let allowed = Destinations::new(&["localhost".to_string()]).unwrap();
        assert!(allowed.check("http://localhost:9/x").is_ok());
    }

    #[test]
    fn this_machines_own_addresses_are_refused() {
        let p = Destinations::new(&[]).unwrap();
        for own in &p.own {
            let host = match own {
                IpAddr::V4(a) => a.to_string(),
                IpAddr::V6(a) => format!("[{a}]"),
            };
            assert!(p.check_form(&format!("https://{host}/x")).is_err(), "{own}");
        }
    }
}
