//! `paperscout serve`: the digest, search and seeds in the browser, with
//! ratings that feed the ranking. One more front door, not a second
//! product: handlers parse the request, call the same stages the commands
//! call (digest, neighbours, profile, library) and render a template.

mod api;
mod failure;
mod pages;
mod state;
mod view;

use crate::cli::ModelArgs;
use crate::library::Library;
use anyhow::{Context, Result};
use axum::extract::DefaultBodyLimit;
use axum::http::{header, HeaderValue};
use axum::routing::{get, post};
use axum::Router;
use state::State;
use std::io::Write;
use std::net::{SocketAddr, ToSocketAddrs};
use std::path::PathBuf;
use std::sync::Arc;

/// Request bodies are small JSON objects; anything larger is refused.
const BODY_LIMIT: usize = 16 * 1024;

pub struct Options {
    pub dir: PathBuf,
    pub addr: String,
    pub profile: String,
    pub model: ModelArgs,
    pub verbose: bool,
}

pub fn run(opts: Options) -> Result<()> {
    // Fails with the usual message when there is no library yet.
    drop(Library::open_read(&opts.dir)?);
    let addr: SocketAddr = opts
        .addr
        .to_socket_addrs()
        .ok()
        .and_then(|mut a| a.next())
        .with_context(|| format!("{:?} is not an address like 127.0.0.1:8180", opts.addr))?;
    if !addr.ip().is_loopback() {
        eprintln!(
            "warning: listening on {addr}: anyone who can reach this machine can read this library and rate papers in it"
        );
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("cannot start the server's runtime")?;
    runtime.block_on(async move {
        let listener =
            tokio::net::TcpListener::bind(addr).await.with_context(|| format!("cannot listen on {addr}"))?;
        let local = listener.local_addr()?;
        let state = Arc::new(State::new(opts.dir.clone(), opts.profile.clone())?);
        state::load_model_in_background(state.clone(), opts.model.clone(), opts.verbose);
        println!("paperscout: serving {} at http://{local}/ (Ctrl-C stops)", opts.dir.display());
        std::io::stdout().flush()?;
        axum::serve(listener, router(state))
            .with_graceful_shutdown(async {
                let _ = tokio::signal::ctrl_c().await;
            })
            .await
            .context("the server stopped")?;
        Ok(())
    })
}

pub fn router(state: Arc<State>) -> Router {
    Router::new()
        .route("/", get(pages::today))
        .route("/day/{date}", get(pages::day))
        .route("/like/{*id}", get(pages::like))
        .route("/search", get(pages::search))
        .route("/paper/{*id}", get(pages::paper))
        .route("/seeds", get(pages::seeds))
        .route("/stats", get(pages::stats))
        .route("/api/daily", get(api::daily))
        .route("/feed.atom", get(api::feed))
        .route("/api/like/{*id}", get(api::like))
        .route("/api/search", get(api::search))
        .route("/api/paper/{*id}", get(api::paper))
        .route("/api/seeds", get(api::seeds))
        .route("/api/ratings", get(api::ratings).post(api::rate))
        .route("/api/filters", get(api::filters).post(api::change_filter))
        .route("/api/seen", post(api::seen))
        .route("/api/seeds/remove", post(api::remove_seed))
        .route("/api/seeds/weight", post(api::weigh_seed))
        .route("/api/seeds/move", post(api::move_seed))
        .route("/api/stats", get(api::stats))
        .fallback(pages::not_found)
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
        .layer(axum::middleware::map_response(security_headers))
        .with_state(state)
}

/// Pages are self-contained: nothing may be loaded from elsewhere, no
/// framing, and links out to arXiv carry no referrer of a local URL.
async fn security_headers(mut res: axum::response::Response) -> axum::response::Response {
    let h = res.headers_mut();
    h.insert(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    h.insert(header::REFERRER_POLICY, HeaderValue::from_static("no-referrer"));
    h.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    if !h.contains_key(header::CONTENT_SECURITY_POLICY) {
        h.insert(header::CONTENT_SECURITY_POLICY, HeaderValue::from_static("default-src 'none'; frame-ancestors 'none'"));
    }
    res
}
