//! The accept loop: hyper's HTTP/1 connections with their timeouts, a cap
//! on open connections, TLS when asked, and no failure from running out of
//! file descriptors. What a request may cost once read is bounded in
//! `router` (body size, time) and `work::blocking` (work in flight).

use anyhow::{Context, Result};
use axum::Router;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use std::net::SocketAddr;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;
use tokio::net::TcpListener;
use tokio::sync::Semaphore;
use tokio_rustls::rustls;

/// Limits of the connections themselves.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// A request's head (and the TLS handshake) must arrive within this;
    /// it is also how long a kept-alive connection may sit idle.
    pub header_timeout: Duration,
    /// Connections open at once; further clients wait in the kernel's
    /// backlog until one closes.
    pub max_connections: usize,
}

const FIRST_BACKOFF: Duration = Duration::from_millis(10);

/// The peer's address, for throttling sign-in attempts.
#[derive(Debug, Clone, Copy)]
pub struct Peer(pub SocketAddr);

/// A TLS server configuration from PEM files.
pub fn tls_config(cert: &Path, key: &Path) -> Result<Arc<rustls::ServerConfig>> {
    use rustls_pki_types::pem::PemObject;
    use rustls_pki_types::{CertificateDer, PrivateKeyDer};
    let certs = CertificateDer::pem_file_iter(cert)
        .and_then(|it| it.collect::<std::result::Result<Vec<_>, _>>())
        .map_err(|e| anyhow::anyhow!("{}: not a PEM certificate chain: {e}", cert.display()))?;
    if certs.is_empty() {
        anyhow::bail!("{}: no certificate in it", cert.display());
    }
    let key = PrivateKeyDer::from_pem_file(key).map_err(|e| anyhow::anyhow!("{}: not a PEM private key: {e}", key.display()))?;
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let config = rustls::ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .context("no TLS versions")?
        .with_no_client_auth()
        .with_single_cert(certs, key)
        .context("the certificate and key do not go together")?;
    Ok(Arc::new(config))
}

/// Serves `app` on `listener` until `shutdown` resolves, then lets open
/// requests finish (for a while).
pub async fn serve(
    listener: TcpListener,
    app: Router,
    limits: Limits,
    tls: Option<Arc<rustls::ServerConfig>>,
    shutdown: impl std::future::Future<Output = ()>,
) -> Result<()> {
    let slots = Arc::new(Semaphore::new(limits.max_connections));
    let graceful = GracefulShutdown::new();
    let acceptor = tls.map(tokio_rustls::TlsAcceptor::from);
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new()).header_read_timeout(limits.header_timeout).max_buf_size(64 * 1024);
    let http = Arc::new(http);
    let mut backoff = FIRST_BACKOFF;
    tokio::pin!(shutdown);
    loop {
        // Wait for a free slot before accepting: a flood then waits in the
        // backlog instead of taking every descriptor the process has.
        let permit = tokio::select! {
            p = slots.clone().acquire_owned() => p.context("connection slots closed")?,
            _ = &mut shutdown => break,
        };
        let (stream, peer) = tokio::select! {
            r = listener.accept() => match r {
                Ok(c) => c,
                Err(e) if is_per_connection(&e) => continue,
                Err(e) => {
                    // Out of descriptors (EMFILE/ENFILE) or memory: wait for
                    // connections to close rather than spin or stop. Said
                    // once per spell, not once per try.
                    if backoff == FIRST_BACKOFF {
                        crate::messages::warning(format_args!("cannot accept connections ({e}); waiting for open ones to close"));
                    }
                    tokio::time::sleep(backoff).await;
                    backoff = (backoff * 2).min(Duration::from_secs(1));
                    continue;
                }
            },
            _ = &mut shutdown => break,
        };
        backoff = FIRST_BACKOFF;
        let _ = stream.set_nodelay(true);
        let (app, http, acceptor, watcher) = (app.clone(), http.clone(), acceptor.clone(), graceful.watcher());
        let handshake = limits.header_timeout;
        tokio::spawn(async move {
            let _permit = permit;
            let service = hyper::service::service_fn(move |mut req: hyper::Request<Incoming>| {
                req.extensions_mut().insert(Peer(peer));
                tower::ServiceExt::oneshot(app.clone(), req)
            });
            match acceptor {
                None => {
                    let _ = watcher.watch(http.serve_connection(TokioIo::new(stream), service)).await;
                }
                Some(acceptor) => {
                    // A handshake that never finishes is dropped like a slow head.
                    if let Ok(Ok(tls)) = tokio::time::timeout(handshake, acceptor.accept(stream)).await {
                        let _ = watcher.watch(http.serve_connection(TokioIo::new(tls), service)).await;
                    }
                }
            }
        });
    }
    drop(listener);
    // Requests in flight may finish; idle connections close at once.
    let _ = tokio::time::timeout(Duration::from_secs(10), graceful.shutdown()).await;
    Ok(())
}

/// Errors that concern one connection only: take the next one.
fn is_per_connection(e: &std::io::Error) -> bool {
    matches!(e.kind(), std::io::ErrorKind::ConnectionRefused | std::io::ErrorKind::ConnectionAborted | std::io::ErrorKind::ConnectionReset)
}
