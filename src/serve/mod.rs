//! `paperscout serve`: the digest, search and seeds in the browser, with
//! ratings that feed the ranking. One more front door, not a second
//! product: handlers parse the request, call the same stages the commands
//! call (digest, neighbours, profile, library) and render a template.

mod api;
mod failure;
mod guard;
mod hashing;
mod listen;
mod login;
mod pages;
mod read;
mod schedule;
mod session;
mod settings;
mod state;
mod throttle;
mod upload;
mod view;
mod work;

pub use listen::{tls_config, Limits};
pub use schedule::{summary as morning_summary, Plan as MorningPlan};

use crate::embed::ModelArgs;
use crate::library::Library;
use anyhow::{Context, Result};
use axum::extract::DefaultBodyLimit;
use axum::http::{header, HeaderName, HeaderValue, StatusCode};
use axum::middleware::{from_fn_with_state, map_response_with_state};
use axum::routing::{get, post};
use axum::Router;
use state::State;
use std::io::Write;
use std::net::{SocketAddr, ToSocketAddrs};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;
use tower_http::map_request_body::MapRequestBodyLayer;
use tower_http::timeout::{RequestBodyTimeoutLayer, TimeoutLayer};

/// Request bodies are small JSON objects; anything larger is refused.
const BODY_LIMIT: usize = 16 * 1024;
/// The most a request may take, waiting for its turn included.
const REQUEST_TIMEOUT: Duration = Duration::from_secs(60);

pub struct Options {
    pub dir: PathBuf,
    pub addr: String,
    pub profile: String,
    pub model: ModelArgs,
    pub allow_hosts: Vec<String>,
    pub login: bool,
    pub no_token: bool,
    /// Where the launch key is kept across restarts.
    pub token_file: Option<PathBuf>,
    /// Where readers' webhooks may go.
    pub destinations: crate::delivery::Destinations,
    pub tls: Option<Arc<tokio_rustls::rustls::ServerConfig>>,
    pub limits: Limits,
    /// Deliver each reader's digest every morning.
    pub morning: Option<MorningPlan>,
}

/// Where a started server answers: what the front door tells its user.
pub struct Listening {
    pub dir: std::path::PathBuf,
    /// The page's address, with the launch key when there is one.
    pub url: String,
    /// Who may use it, when sign-in is required.
    pub accounts: Option<usize>,
}

impl std::fmt::Display for Listening {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let who = self.accounts.map_or_else(String::new, |n| format!(" for {n} account(s), sign-in required"));
        write!(f, "paperscout: serving {} at {}{who} (Ctrl-C stops)", self.dir.display(), self.url)
    }
}

/// Serves until Ctrl-C; `listening` is told where once the socket is bound.
pub fn run(opts: Options, listening: impl FnOnce(&Listening) -> Result<()>) -> Result<()> {
    let addr: SocketAddr = opts
        .addr
        .to_socket_addrs()
        .ok()
        .and_then(|mut a| a.next())
        .with_context(|| format!("{:?} is not an address like 127.0.0.1:8180", opts.addr))?;
    // Fails with the usual message when there is no library yet. Opening it
    // for writing creates the account tables in a library made before them;
    // while an ingest holds it, a library without them has no accounts.
    let lib = if opts.dir.join("library.sqlite").is_file() {
        Library::open_write_within(&opts.dir, std::time::Duration::from_secs(2)).or_else(|_| Library::open_read(&opts.dir))?
    } else {
        Library::open_read(&opts.dir)?
    };
    let users = crate::accounts::names(lib.store.db())?;
    // Where each account signed in from, so that the sign-in throttle keeps
    // their room across this restart.
    let signed_in = crate::accounts::session_networks(lib.store.db(), chrono::Utc::now().timestamp())?;
    drop(lib);
    if let Some(first) = crate::library::private::exposed(&opts.dir)?.first() {
        crate::messages::warning(format_args!(
            "other users of this machine can read this library ({first}): its password hashes, sessions and ratings; \
             `paperscout doctor --fix --library {}` makes it private",
            opts.dir.display()
        ));
    }
    let login = opts.login || !users.is_empty();
    let add = format!("paperscout user add NAME --library {}", opts.dir.display());
    if users.is_empty() && !addr.ip().is_loopback() {
        anyhow::bail!(
            "serving on {addr} would let anyone who reaches this machine read and change this library; \
             add an account first (`{add}`) and users sign in"
        );
    }
    if users.is_empty() && login {
        anyhow::bail!("--login needs an account to sign in with: add one with `{add}`");
    }
    if !addr.ip().is_loopback() && opts.tls.is_none() {
        crate::messages::warning(format_args!(
            "serving on {addr} without --tls-cert: passwords and cookies cross the network in clear unless a TLS proxy stands in front"
        ));
    }
    if let Some(plan) = opts.morning.clone() {
        crate::messages::note(format_args!(
            "delivering each reader's digest every day at {} (this machine's time)",
            plan.at.format("%H:%M")
        ));
        schedule::start(plan, opts.dir.clone(), opts.model.clone());
    }
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().context("cannot start the server's runtime")?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind(addr).await.with_context(|| format!("cannot listen on {addr}"))?;
        let local = listener.local_addr()?;
        let hosts = guard::HostPolicy::new(local, opts.tls.is_some(), &opts.allow_hosts);
        let mut state = State::new(opts.dir.clone(), opts.profile.clone(), hosts, login)?;
        state.destinations = opts.destinations.clone();
        for (user, network) in &signed_in {
            state.throttle.remember(user, network);
        }
        state.morning = opts.morning.clone();
        // Without accounts, another user of this machine reaches loopback
        // too: only a browser that was given this launch's key is answered.
        if !login && !opts.no_token {
            state.owner = Some(launch_key(opts.token_file.as_deref())?);
        }
        if !login && opts.no_token {
            crate::messages::warning(format_args!(
                "--no-token: every user of this machine can read and change this library through the server"
            ));
        }
        let state = Arc::new(state);
        state::load_model_in_background(state.clone(), opts.model.clone());
        let scheme = if opts.tls.is_some() { "https" } else { "http" };
        let key = state.owner.as_ref().map_or_else(String::new, |k| format!("?token={k}"));
        listening(&Listening { dir: opts.dir.clone(), url: format!("{scheme}://{local}/{key}"), accounts: login.then_some(users.len()) })?;
        let shutdown = async {
            let _ = tokio::signal::ctrl_c().await;
        };
        listen::serve(listener, router(state, opts.limits.header_timeout), opts.limits, opts.tls, shutdown)
            .await
            .context("the server stopped")
    })
}

pub fn router(state: Arc<State>, body_timeout: Duration) -> Router {
    Router::new()
        .route("/login", get(login::form).post(login::sign_in))
        .route("/logout", post(login::sign_out))
        .route("/", get(pages::today))
        .route("/day/{date}", get(pages::day))
        .route("/like/{*id}", get(pages::like))
        .route("/search", get(pages::search))
        .route("/paper/{*id}", get(pages::paper))
        .route("/seeds", get(pages::seeds))
        .route("/feed-key", post(pages::new_feed_key))
        .route("/stats", get(pages::stats))
        .route("/settings", get(settings::settings))
        .route("/api/settings", post(settings::save))
        .route("/api/settings/confirm", post(settings::confirm))
        .route("/api/settings/test", post(settings::test))
        .route("/favicon.ico", get(favicon))
        .route("/api/daily", get(api::daily))
        .route("/feed.atom", get(api::feed))
        .route("/api/like/{*id}", get(api::like))
        .route("/api/search", get(api::search))
        .route("/api/paper/{*id}", get(api::paper))
        .route("/api/seeds", get(api::seeds))
        .route("/api/ratings", get(api::ratings).post(api::rate))
        .route("/api/filters", get(api::filters).post(api::change_filter))
        .route("/api/bar", post(api::set_bar))
        .route("/api/seen", post(api::seen))
        .route("/api/seeds/add", post(api::add_seed))
        .route("/api/seeds/upload", post(upload::upload_seeds).layer(DefaultBodyLimit::max(upload::UPLOAD_LIMIT)))
        .route("/api/seeds/zotero", post(upload::sync_zotero))
        .route("/api/token", get(upload::token))
        .route("/api/seeds/remove", post(api::remove_seed))
        .route("/api/seeds/weight", post(api::weigh_seed))
        .route("/api/seeds/move", post(api::move_seed))
        .route("/api/stats", get(api::stats))
        .fallback(pages::not_found)
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
        // Innermost first: who the request acts for, after the name and
        // origin checks; a body must keep arriving, and no request lasts.
        .layer(from_fn_with_state(state.clone(), session::require))
        .layer(from_fn_with_state(Arc::new(state.hosts.clone()), guard::check))
        .layer(MapRequestBodyLayer::new(axum::body::Body::new))
        .layer(RequestBodyTimeoutLayer::new(body_timeout))
        .layer(TimeoutLayer::with_status_code(StatusCode::SERVICE_UNAVAILABLE, REQUEST_TIMEOUT))
        .layer(map_response_with_state(state.clone(), security_headers))
        .with_state(state)
}

/// The tab's icon: a magnifier over a page, in the pages' accent colour. SVG
/// under the name browsers ask for by themselves (Chromium and Firefox read
/// it by its type); the pages also name it with `rel=icon`.
const FAVICON: &str = "<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 32 32'>\
<rect x='5' y='3' width='18' height='24' rx='2' fill='#fff' stroke='#1a4d8f' stroke-width='2'/>\
<path d='M9 9h10M9 13h10M9 17h6' stroke='#1a4d8f' stroke-width='2'/>\
<circle cx='21' cy='20' r='5' fill='#fff' stroke='#1a4d8f' stroke-width='2.5'/>\
<path d='M24.5 23.5l4 4' stroke='#1a4d8f' stroke-width='3' stroke-linecap='round'/></svg>";

async fn favicon() -> impl axum::response::IntoResponse {
    ([(header::CONTENT_TYPE, "image/svg+xml"), (header::CACHE_CONTROL, "public, max-age=86400")], FAVICON)
}

/// Pages are self-contained: nothing may be loaded from elsewhere, no
/// framing, and links out to arXiv carry no referrer of a local URL. Under
/// TLS, browsers are told to come back only over TLS (a year).
async fn security_headers(
    axum::extract::State(st): axum::extract::State<Arc<State>>,
    mut res: axum::response::Response,
) -> axum::response::Response {
    let h = res.headers_mut();
    if st.hosts.https() {
        h.insert(header::STRICT_TRANSPORT_SECURITY, HeaderValue::from_static("max-age=31536000"));
    }
    h.insert(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    h.insert(header::REFERRER_POLICY, HeaderValue::from_static("no-referrer"));
    h.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    // A page of another origin that opened this one keeps no handle on it.
    h.insert(HeaderName::from_static("cross-origin-opener-policy"), HeaderValue::from_static("same-origin"));
    if !h.contains_key(header::CONTENT_SECURITY_POLICY) {
        h.insert(header::CONTENT_SECURITY_POLICY, HeaderValue::from_static("default-src 'none'; frame-ancestors 'none'"));
    }
    res
}

/// This launch's key: a new one, or the one kept in `file` (made when
/// missing, readable by its owner alone).
fn launch_key(file: Option<&std::path::Path>) -> Result<String> {
    use std::io::ErrorKind;
    use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
    let Some(path) = file else { return crate::accounts::random_hex(32) };
    match std::fs::read_to_string(path) {
        Ok(text) => {
            let key = text.trim();
            if key.len() < 32 || key.len() > 128 || !key.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_') {
                anyhow::bail!(
                    "--token-file {}: not a key (32 to 128 letters and digits); remove the file and a new key is made",
                    path.display()
                );
            }
            let mode = std::fs::metadata(path).with_context(|| format!("--token-file {}", path.display()))?.permissions().mode();
            if mode & 0o077 != 0 {
                anyhow::bail!(
                    "--token-file {}: other users of this machine can read it (mode {:o}); `chmod 600` it",
                    path.display(),
                    mode & 0o777
                );
            }
            Ok(key.to_string())
        }
        Err(e) if e.kind() == ErrorKind::NotFound => {
            let key = crate::accounts::random_hex(32)?;
            let mut f = std::fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .mode(0o600)
                .open(path)
                .with_context(|| format!("cannot make --token-file {}", path.display()))?;
            writeln!(f, "{key}").with_context(|| format!("cannot write --token-file {}", path.display()))?;
            Ok(key)
        }
        Err(e) => Err(e).with_context(|| format!("cannot read --token-file {}", path.display())),
    }
}
