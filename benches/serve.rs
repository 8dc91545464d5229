//! `paperscout serve` on a large library: latency of a warm server's
//! `/api/like/ID` and `/`, then a bounded loopback load of concurrent
//! clients on mixed read endpoints plus some ratings, with the error count
//! and the latency per endpoint. The server's CPU time comes from /proc.
//!
//! Needs a library with seeds, e.g. the 74,728-paper corpus (titles-only
//! vectors are fine for timing; docs/benchmarks.md has the commands):
//!   PAPERSCOUT_BENCH_LIBRARY=target/corpus-lib cargo bench --bench serve
//! PAPERSCOUT_BENCH_CLIENTS (50) and PAPERSCOUT_BENCH_SECONDS (30) size the load,
//! PAPERSCOUT_BENCH_BURST (2000) the burst of digest pages at the end;
//! PAPERSCOUT_BENCH_BIN runs another binary (a previous build) instead.

use paperscout::library::Library;
use std::io::BufRead;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

fn env_or(name: &str, default: usize) -> usize {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

/// User + system CPU seconds of a process so far.
fn cpu_secs(pid: u32) -> f64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    let after = stat.rsplit_once(')').map(|(_, s)| s).unwrap_or("");
    let fields: Vec<&str> = after.split_whitespace().collect();
    let ticks = |i: usize| fields.get(i).and_then(|v| v.parse::<f64>().ok()).unwrap_or(0.0);
    // utime and stime are fields 14 and 15 of the whole line (11 and 12 after the name).
    (ticks(11) + ticks(12)) / 100.0
}

fn rss_mib(pid: u32) -> f64 {
    status_mib(pid, "VmRSS:")
}

/// A memory figure of /proc/PID/status (`VmRSS:`, `VmHWM:`), in MiB.
fn status_mib(pid: u32, field: &str) -> f64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find(|l| l.starts_with(field))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|kb| kb.parse::<f64>().ok())
        .map_or(0.0, |kb| kb / 1024.0)
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

fn timed(agent: &ureq::Agent, url: &str) -> (f64, bool) {
    let t = Instant::now();
    let ok = match agent.get(url).call() {
        Ok(r) => r.into_string().is_ok(),
        Err(_) => false,
    };
    (t.elapsed().as_secs_f64() * 1e3, ok)
}

fn summary(name: &str, ms: &mut [f64]) {
    ms.sort_by(f64::total_cmp);
    println!(
        "{name:<22} {:>7} {:>8.2} {:>8.2} {:>8.2} {:>8.2}",
        ms.len(),
        percentile(ms, 0.5),
        percentile(ms, 0.9),
        percentile(ms, 0.99),
        ms.last().copied().unwrap_or(f64::NAN)
    );
}

fn main() {
    let dir = PathBuf::from(std::env::var("PAPERSCOUT_BENCH_LIBRARY").unwrap_or_else(|_| "target/corpus-lib".into()));
    let Ok(lib) = Library::open_read(&dir) else {
        eprintln!("skipping: no library at {} (see the comment at the top of benches/serve.rs)", dir.display());
        return;
    };
    let ids: Vec<String> = {
        let all = lib.store.ids().expect("ids");
        let step = (all.len() / 1000).max(1);
        all.into_iter().step_by(step).collect()
    };
    drop(lib);

    let start = Instant::now();
    // PAPERSCOUT_BENCH_BIN: another build to compare, in the same conditions.
    let bin = std::env::var("PAPERSCOUT_BENCH_BIN").unwrap_or_else(|_| env!("CARGO_BIN_EXE_paperscout").to_string());
    let mut child = Command::new(&bin)
        .args(["serve", "--addr", "127.0.0.1:0", "--library"])
        .arg(&dir)
        .stdout(Stdio::piped())
        .spawn()
        .expect("start the server");
    let pid = child.id();
    let mut out = std::io::BufReader::new(child.stdout.take().expect("stdout"));
    let mut line = String::new();
    out.read_line(&mut line).expect("the URL line");
    let printed = line.split_whitespace().find(|w| w.starts_with("http://")).expect("a URL");
    // A server without accounts answers whoever shows the key it printed.
    let (url, key) = match printed.split_once("/?token=") {
        Some((u, k)) => (u.to_string(), Some(k.to_string())),
        None => (printed.trim_end_matches('/').to_string(), None),
    };
    let agent = owner_agent(&key);
    let (first_ms, first_ok) = timed(&agent, &format!("{url}/api/stats"));
    println!(
        "library {} ({} sampled ids); server answered {:.0} ms after start ({}), first request {first_ms:.1} ms",
        dir.display(),
        ids.len(),
        start.elapsed().as_secs_f64() * 1e3,
        if first_ok { "ok" } else { "error" }
    );
    // Warm: vectors mapped and in the page cache, the model loaded.
    for id in ids.iter().take(50) {
        timed(&agent, &format!("{url}/api/like/{id}?k=10"));
    }
    timed(&agent, &format!("{url}/"));
    for _ in 0..600 {
        let s = agent.get(&format!("{url}/api/stats")).call().ok().and_then(|r| r.into_string().ok()).unwrap_or_default();
        if s.contains("\"model_status\":\"ready\"") {
            break;
        }
        std::thread::sleep(Duration::from_millis(100));
    }

    println!("\nwarm server, one client (ms):");
    println!("{:<22} {:>7} {:>8} {:>8} {:>8} {:>8}", "endpoint", "n", "p50", "p90", "p99", "max");
    let cpu0 = cpu_secs(pid);
    let t0 = Instant::now();
    let mut like: Vec<f64> = ids.iter().take(500).map(|id| timed(&agent, &format!("{url}/api/like/{id}?k=10")).0).collect();
    summary("/api/like/ID?k=10", &mut like);
    let mut page: Vec<f64> = (0..100).map(|_| timed(&agent, &format!("{url}/")).0).collect();
    summary("/ (digest page)", &mut page);
    let mut daily: Vec<f64> = (0..100).map(|_| timed(&agent, &format!("{url}/api/daily")).0).collect();
    summary("/api/daily", &mut daily);
    let mut search: Vec<f64> = (0..50).map(|i| timed(&agent, &format!("{url}/api/search?q=distributed+training+{i}&k=10")).0).collect();
    summary("/api/search?q=…", &mut search);
    println!("server CPU {:.2} s over {:.2} s wall", cpu_secs(pid) - cpu0, t0.elapsed().as_secs_f64());

    let clients = env_or("PAPERSCOUT_BENCH_CLIENTS", 50);
    let seconds = env_or("PAPERSCOUT_BENCH_SECONDS", 30) as u64;
    let page_html = agent.get(&format!("{url}/")).call().ok().and_then(|r| r.into_string().ok()).unwrap_or_default();
    let token =
        page_html.find("name=\"csrf-token\" content=\"").map(|at| page_html[at + 27..at + 91].to_string()).expect("the page's CSRF token");
    let kinds = ["/api/like/ID", "/like/ID", "/", "/api/daily", "/paper/ID", "/api/search", "POST /api/ratings"];
    let lat: Arc<Vec<Mutex<Vec<f64>>>> = Arc::new(kinds.iter().map(|_| Mutex::new(Vec::new())).collect());
    let errors = Arc::new(AtomicUsize::new(0));
    let deadline = Instant::now() + Duration::from_secs(seconds);
    let cpu0 = cpu_secs(pid);
    let t0 = Instant::now();
    let ids = Arc::new(ids);
    let threads: Vec<_> = (0..clients)
        .map(|c| {
            let (url, token, ids, lat, errors, key) = (url.clone(), token.clone(), ids.clone(), lat.clone(), errors.clone(), key.clone());
            std::thread::spawn(move || {
                let agent = owner_agent(&key);
                let mut i = c * 7919;
                while Instant::now() < deadline {
                    i += 1;
                    let id = &ids[i % ids.len()];
                    // Mostly reads, like a morning of readers; one request in 20 rates.
                    let kind = match i % 20 {
                        0..=7 => 0,
                        8..=9 => 1,
                        10..=12 => 2,
                        13 => 3,
                        14..=16 => 4,
                        17..=18 => 5,
                        _ => 6,
                    };
                    let t = Instant::now();
                    let ok = match kind {
                        0 => agent.get(&format!("{url}/api/like/{id}?k=10")).call().map(|r| r.into_string().is_ok()),
                        1 => agent.get(&format!("{url}/like/{id}")).call().map(|r| r.into_string().is_ok()),
                        2 => agent.get(&format!("{url}/")).call().map(|r| r.into_string().is_ok()),
                        3 => agent.get(&format!("{url}/api/daily")).call().map(|r| r.into_string().is_ok()),
                        4 => agent.get(&format!("{url}/paper/{id}")).call().map(|r| r.into_string().is_ok()),
                        5 => agent.get(&format!("{url}/api/search?q=paper+{}&k=10", i % 97)).call().map(|r| r.into_string().is_ok()),
                        _ => agent
                            .post(&format!("{url}/api/ratings"))
                            .set("Content-Type", "application/json")
                            .set("X-CSRF-Token", &token)
                            .send_string(&format!(r#"{{"id": "{id}", "rating": {}, "profile": "load"}}"#, if i % 3 == 0 { -1 } else { 1 }))
                            .map(|r| r.into_string().is_ok()),
                    };
                    let ms = t.elapsed().as_secs_f64() * 1e3;
                    if !matches!(ok, Ok(true)) {
                        errors.fetch_add(1, Ordering::Relaxed);
                    }
                    if let Ok(mut v) = lat[kind].lock() {
                        v.push(ms);
                    }
                }
            })
        })
        .collect();
    for t in threads {
        let _ = t.join();
    }
    let wall = t0.elapsed().as_secs_f64();
    let cpu = cpu_secs(pid) - cpu0;
    let total: usize = lat.iter().map(|v| v.lock().map(|v| v.len()).unwrap_or(0)).sum();
    println!("\nload: {clients} clients for {seconds} s on loopback (ms):");
    println!("{:<22} {:>7} {:>8} {:>8} {:>8} {:>8}", "endpoint", "n", "p50", "p90", "p99", "max");
    for (k, name) in kinds.iter().enumerate() {
        if let Ok(mut v) = lat[k].lock() {
            summary(name, &mut v);
        }
    }
    println!(
        "{total} requests in {wall:.1} s = {:.0} req/s; errors {}; server CPU {cpu:.1} s ({:.2} cores); RSS {:.0} MiB",
        total as f64 / wall,
        errors.load(Ordering::Relaxed),
        cpu / wall,
        rss_mib(pid)
    );
    burst(&url, &key, pid, &dir);
    let _ = child.kill();
    let _ = child.wait();
}

fn peak_rss_mib(pid: u32) -> f64 {
    status_mib(pid, "VmHWM:")
}

/// Descriptors the server holds on files under the library.
fn library_fds(pid: u32, dir: &std::path::Path) -> usize {
    let dir = dir.canonicalize().unwrap_or_else(|_| dir.to_path_buf());
    std::fs::read_dir(format!("/proc/{pid}/fd"))
        .map(|d| d.flatten().filter(|e| std::fs::read_link(e.path()).is_ok_and(|t| t.starts_with(&dir))).count())
        .unwrap_or(0)
}

/// PAPERSCOUT_BENCH_BURST (2000) digest pages asked for at once, every
/// request written before any answer is read: how long until all are
/// answered, the server's peak memory, and the descriptors left open on
/// the library's files.
fn burst(url: &str, key: &Option<String>, pid: u32, dir: &std::path::Path) {
    use std::io::{Read, Write};
    let n = env_or("PAPERSCOUT_BENCH_BURST", 2000);
    let addr = url.trim_start_matches("http://").to_string();
    let auth = key.as_ref().map_or_else(String::new, |k| format!("Authorization: Bearer {k}\r\n"));
    let before = peak_rss_mib(pid);
    let t0 = Instant::now();
    let cpu0 = cpu_secs(pid);
    let mut conns: Vec<std::net::TcpStream> = (0..n)
        .filter_map(|_| {
            let mut c = std::net::TcpStream::connect(&addr).ok()?;
            c.write_all(format!("GET / HTTP/1.1\r\nHost: {addr}\r\n{auth}Connection: close\r\n\r\n").as_bytes()).ok()?;
            Some(c)
        })
        .collect();
    let mut statuses = std::collections::BTreeMap::new();
    for c in &mut conns {
        let _ = c.set_read_timeout(Some(Duration::from_secs(300)));
        let mut head = Vec::new();
        let _ = c.read_to_end(&mut head);
        let status = String::from_utf8_lossy(&head[..head.len().min(16)]).split_whitespace().nth(1).unwrap_or("none").to_string();
        *statuses.entry(status).or_insert(0usize) += 1;
    }
    drop(conns);
    println!(
        "\nburst: {n} digest pages at once: all answered in {:.1} s, server CPU {:.1} s; statuses {statuses:?}; \
         peak RSS {:.0} MiB (before the burst {before:.0}); {} descriptors open on library files after",
        t0.elapsed().as_secs_f64(),
        cpu_secs(pid) - cpu0,
        peak_rss_mib(pid),
        library_fds(pid, dir)
    );
}

/// A client that shows the server's launch key (if it printed one) with
/// every request, as a script would. (ureq's middleware returns ureq's
/// large error type; it is not ours to shrink.)
#[allow(clippy::result_large_err)]
fn owner_agent(key: &Option<String>) -> ureq::Agent {
    let auth = key.as_ref().map(|k| format!("Bearer {k}"));
    ureq::AgentBuilder::new()
        .timeout(Duration::from_secs(60))
        .middleware(move |req: ureq::Request, next: ureq::MiddlewareNext| match &auth {
            Some(a) => next.handle(req.set("Authorization", a)),
            None => next.handle(req),
        })
        .build()
}
