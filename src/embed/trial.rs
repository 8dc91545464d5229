//! The CPU precision chosen by measurement. bf16 on AVX-512 BF16 is
//! 1.5–2× faster than fp32 on an AMD Zen 4 and 0.6× on the Intel Xeons this
//! project also meets (their bf16 dot products are no faster than fp32
//! FMA); those Xeons also have AMX tiles (`super::amx`). No flag or CPU
//! feature can say which path is fastest: a short trial of each (fp32,
//! bf16 on AVX-512, bf16 on AMX, where the CPU has them) does, once per
//! CPU model, binary and model, and the answer is kept in the user's cache
//! directory. `doctor` measures again.
//!
//! Where the CPU runs two hardware threads per core, the trial also times
//! one worker per core against one per hardware thread: two threads
//! sharing a core's AVX-512 units can be slower than one.
//!
//! Only the default is chosen here: `--precision` overrides it, and a
//! library keeps the precision its vectors were made with (the model id
//! names it), whichever CPU it is opened on. One choice serves every
//! `--max-tokens`: the trial times abstract-length texts, and which path
//! is fastest is the CPU's matter, not the length's.

use super::bf16::Kernel;
use super::pipeline::{RunOptions, SentenceEmbedder};
use super::resolve::ResolvedModel;
use super::{Embedder, Precision};
use anyhow::Result;
use serde::{Deserialize, Serialize};
use std::path::PathBuf;
use std::time::Instant;

/// Parity a faster path must keep: the lowest cosine of its vectors to
/// fp32's over the trial's texts.
pub const PARITY: f32 = 0.9999;
/// Texts timed per path (abstract-length; two batches' worth on two cores),
/// or two per worker where there are more (the forward splits a batch by
/// whole texts: fewer texts than workers would time idle workers).
const TEXTS: usize = 24;
/// Timed runs per path; the best counts (the first run also warms caches).
const RUNS: usize = 2;

/// One path's trial.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Measured {
    pub precision: String,
    /// Worker threads it ran with (0 in trials kept before threads were timed).
    #[serde(default)]
    pub threads: usize,
    pub texts_per_s: f64,
    /// Lowest cosine to fp32 over the texts (1 for fp32 itself).
    pub parity: f32,
}

/// What a trial chose, and for what.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Choice {
    pub cpu: String,
    pub binary: String,
    pub model: String,
    pub threads: usize,
    pub precision: String,
    /// The worker threads the trial chose when none were asked for (0: the
    /// pool's default, one per hardware thread).
    #[serde(default)]
    pub run_threads: usize,
    pub measured: Vec<Measured>,
}

impl Choice {
    pub fn precision(&self) -> Precision {
        self.bf16_kernel().map_or(Precision::Fp32, |_| Precision::Bf16)
    }

    /// The bf16 kernel chosen (`None` for fp32).
    pub fn bf16_kernel(&self) -> Option<Kernel> {
        Path::ALL.iter().find(|p| p.name == self.precision).and_then(|p| p.kernel)
    }

    /// One line for `embed -v` and `doctor`: which, and why.
    pub fn why(&self) -> String {
        if self.measured.len() < 2 {
            return format!("precision {}: the only CPU path on {} (no AVX-512 BF16), nothing to time", self.precision, self.cpu);
        }
        let counts = self.measured.iter().map(|m| m.threads).collect::<std::collections::BTreeSet<_>>();
        let runs: Vec<String> = self
            .measured
            .iter()
            .map(|m| {
                let threads = if counts.len() > 1 { format!(" on {} thread(s)", m.threads) } else { String::new() };
                format!("{}{threads} {:.1} texts/s (parity {:.5})", m.precision, m.texts_per_s, m.parity)
            })
            .collect();
        if counts.len() > 1 {
            return format!(
                "precision {} on {} thread(s) chosen by a trial on {}: {}",
                self.precision,
                self.threads_used(),
                self.cpu,
                runs.join(", ")
            );
        }
        format!("precision {} chosen by a trial on {} with {} thread(s): {}", self.precision, self.cpu, self.threads, runs.join(", "))
    }

    /// The worker threads to run with: the trial's choice, or the count it
    /// was asked for.
    pub fn threads_used(&self) -> usize {
        if self.run_threads > 0 {
            self.run_threads
        } else {
            self.threads
        }
    }
}

/// One way to run the forward on the CPU, as the trial names it.
struct Path {
    name: &'static str,
    /// The bf16 kernel (`None`: fp32 products).
    kernel: Option<Kernel>,
}

impl Path {
    const ALL: [Path; 3] = [
        Path { name: "fp32", kernel: None },
        Path { name: "bf16", kernel: Some(Kernel::Avx512) },
        Path { name: "bf16-amx", kernel: Some(Kernel::Amx) },
    ];

    /// fp32 first (the others' parity is measured against it), then each
    /// bf16 kernel this CPU runs natively: emulated bf16 is never faster.
    fn here() -> Vec<&'static Path> {
        let native = Kernel::native();
        Path::ALL.iter().filter(|p| p.kernel.is_none_or(|k| native.contains(&k))).collect()
    }

    fn precision(&self) -> Precision {
        self.kernel.map_or(Precision::Fp32, |_| Precision::Bf16)
    }
}

/// The CPU's model name as the kernel reports it.
pub fn cpu_model() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|s| s.lines().find(|l| l.starts_with("model name")).and_then(|l| l.split_once(':')).map(|(_, v)| v.trim().to_string()))
        .unwrap_or_else(|| std::env::consts::ARCH.to_string())
}

/// The worker counts a trial times: the one asked for; else one per
/// hardware thread (the pool's default) and, where cores run two threads
/// each, one per core.
fn thread_counts(asked: Option<usize>) -> Vec<usize> {
    if let Some(n) = asked {
        return vec![n];
    }
    let logical = rayon::current_num_threads();
    let mut counts = vec![logical];
    if let Some(cores) = physical_cores().filter(|&c| c > 0 && c < logical) {
        counts.push(cores);
    }
    counts
}

/// Cores among the CPUs this process may run on, by their place in the
/// kernel's topology (`None` where it cannot be read).
fn physical_cores() -> Option<usize> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let allowed = status.lines().find_map(|l| l.strip_prefix("Cpus_allowed_list:"))?;
    cores_of(allowed, |cpu| {
        let at = |f: &str| std::fs::read_to_string(format!("/sys/devices/system/cpu/cpu{cpu}/topology/{f}")).ok();
        Some((at("physical_package_id")?.trim().to_string(), at("core_id")?.trim().to_string()))
    })
}

/// The distinct (package, core) pairs of the CPUs in a list such as
/// "0-3,8,10-11", given each CPU's pair.
fn cores_of(list: &str, topology: impl Fn(usize) -> Option<(String, String)>) -> Option<usize> {
    let mut cores = std::collections::BTreeSet::new();
    for part in list.trim().split(',').filter(|p| !p.is_empty()) {
        let (a, b) = part.split_once('-').unwrap_or((part, part));
        let (a, b): (usize, usize) = (a.trim().parse().ok()?, b.trim().parse().ok()?);
        if b < a || b - a > 4096 {
            return None;
        }
        // A CPU named but offline has no topology: it runs nothing either.
        cores.extend((a..=b).filter_map(&topology));
    }
    (!cores.is_empty()).then_some(cores.len())
}

/// This binary, as the cache knows it: its version, size and build time,
/// so that a rebuild measures again.
fn binary() -> String {
    let meta = std::env::current_exe().and_then(std::fs::metadata).ok();
    let stamp =
        meta.as_ref().and_then(|m| m.modified().ok()).and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok()).map_or(0, |d| d.as_secs());
    format!("{} {} {}", env!("CARGO_PKG_VERSION"), meta.map_or(0, |m| m.len()), stamp)
}

/// Where trials are kept: $PAPERSCOUT_CACHE, else $XDG_CACHE_HOME or
/// ~/.cache, under paperscout/.
fn cache_file() -> Option<PathBuf> {
    let dir = std::env::var_os("PAPERSCOUT_CACHE").map(PathBuf::from).or_else(|| {
        std::env::var_os("XDG_CACHE_HOME")
            .map(PathBuf::from)
            .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache")))
            .map(|d| d.join("paperscout"))
    })?;
    Some(dir.join("precision.json"))
}

fn cached() -> Vec<Choice> {
    cache_file().and_then(|f| std::fs::read(f).ok()).and_then(|b| serde_json::from_slice(&b).ok()).unwrap_or_default()
}

/// Trials the cache keeps, the newest measured: each rebuild or new model
/// directory adds one (the test suite a few a run), and a file read on
/// every embedding start must not grow without end; a binary and model
/// measured before that many others measures again, a few seconds.
const KEPT_TRIALS: usize = 32;

/// Keeps `choice` beside the others (other CPUs, models, thread counts).
/// A cache that cannot be written costs a trial next time, nothing else.
fn keep(choice: &Choice) {
    let Some(file) = cache_file() else { return };
    let all = with(cached(), choice);
    let written = file.parent().map_or(Ok(()), std::fs::create_dir_all).and_then(|()| {
        let tmp = file.with_extension(format!("tmp{}", std::process::id()));
        std::fs::write(&tmp, serde_json::to_vec_pretty(&all).unwrap_or_default())?;
        std::fs::rename(&tmp, &file)
    });
    if let Err(e) = written {
        crate::messages::note(format_args!("cannot keep the precision trial in {}: {e}", file.display()));
    }
}

/// The kept trials with `choice` as the newest, in place of its own older
/// one, and the oldest beyond [`KEPT_TRIALS`] gone.
fn with(mut all: Vec<Choice>, choice: &Choice) -> Vec<Choice> {
    all.retain(|c| !same(c, choice));
    all.push(choice.clone());
    let over = all.len().saturating_sub(KEPT_TRIALS);
    all.drain(..over);
    all
}

fn same(a: &Choice, b: &Choice) -> bool {
    a.cpu == b.cpu && a.binary == b.binary && a.model == b.model && a.threads == b.threads
}

/// `n` texts of an abstract's length and vocabulary, different from each other.
fn texts(n: usize) -> Vec<String> {
    const WORDS: &[&str] = &[
        "We",
        "propose",
        "a",
        "method",
        "for",
        "efficient",
        "inference",
        "of",
        "large",
        "language",
        "models",
        "that",
        "reduces",
        "the",
        "memory",
        "traffic",
        "of",
        "attention",
        "by",
        "caching",
        "keys",
        "and",
        "values",
        "across",
        "requests;",
        "experiments",
        "on",
        "three",
        "benchmarks",
        "show",
        "speedups",
        "of",
        "up",
        "to",
        "2.3x",
        "with",
        "no",
        "loss",
        "in",
        "accuracy,",
        "while",
        "graph",
        "neural",
        "networks",
        "learn",
        "protein",
        "structure",
        "from",
        "sparse",
        "measurements",
        "in",
        "robotics",
        "and",
    ];
    (0..n)
        .map(|i| {
            let n = 150 + (i * 37) % 90;
            (0..n).map(|k| WORDS[(k * (i + 3) + i * 7) % WORDS.len()]).collect::<Vec<_>>().join(" ")
        })
        .collect()
}

fn time(embedder: &SentenceEmbedder, texts: &[&str]) -> Result<(f64, Vec<Vec<f32>>)> {
    let mut best = f64::INFINITY;
    let mut out = Vec::new();
    for _ in 0..RUNS {
        let start = Instant::now();
        out = embedder.embed(texts, &|_| {})?;
        best = best.min(start.elapsed().as_secs_f64());
    }
    Ok((texts.len() as f64 / best.max(1e-9), out))
}

fn lowest_cosine(a: &[Vec<f32>], b: &[Vec<f32>]) -> f32 {
    a.iter()
        .zip(b)
        .map(|(x, y)| {
            let (xy, xx, yy) = x.iter().zip(y).fold((0.0, 0.0, 0.0), |(s, p, q), (u, v)| (s + u * v, p + u * u, q + v * v));
            xy / (xx * yy).sqrt().max(1e-12)
        })
        .fold(1.0, f32::min)
}

/// Times every CPU path this machine has, at each worker count worth
/// trying, on the same texts, and picks the fastest that keeps parity.
fn measure(model: &ResolvedModel, opts: &RunOptions) -> Result<Choice> {
    let counts = thread_counts(opts.threads);
    let owned = texts(TEXTS.max(2 * counts.iter().max().copied().unwrap_or(1)));
    let texts: Vec<&str> = owned.iter().map(String::as_str).collect();
    let mut reference: Option<Vec<Vec<f32>>> = None;
    let mut measured = Vec::new();
    for &threads in &counts {
        for path in Path::here() {
            let run = RunOptions { precision: path.precision(), bf16_kernel: path.kernel, threads: Some(threads), ..opts.clone() };
            let embedder = SentenceEmbedder::open(model, &run)?;
            let (rate, vectors) = time(&embedder, &texts)?;
            let parity = reference.as_ref().map_or(1.0, |r| lowest_cosine(r, &vectors));
            if path.kernel.is_none() && reference.is_none() {
                reference = Some(vectors);
            }
            measured.push(Measured { precision: path.name.into(), threads, texts_per_s: rate, parity });
        }
    }
    let best = measured.iter().filter(|m| m.parity >= PARITY).max_by(|a, b| a.texts_per_s.total_cmp(&b.texts_per_s));
    let (precision, threads) = best.map_or(("fp32".to_string(), counts[0]), |m| (m.precision.clone(), m.threads));
    // The pool's default needs no setting; a count the trial chose does.
    let run_threads = if opts.threads.is_none() && threads != counts[0] { threads } else { 0 };
    Ok(Choice { precision, run_threads, measured, ..key(model, opts) })
}

/// What a trial holds for: this CPU, binary, model (its weights file's
/// place and size) and thread count.
fn key(model: &ResolvedModel, opts: &RunOptions) -> Choice {
    let weights = std::fs::metadata(model.dir.join("model.safetensors")).map_or(0, |m| m.len());
    Choice {
        cpu: cpu_model(),
        binary: binary(),
        model: format!("{} {} {weights}", model.name, model.dir.display()),
        threads: opts.threads.unwrap_or_else(rayon::current_num_threads),
        precision: String::new(),
        run_threads: 0,
        measured: Vec::new(),
    }
}

/// The default CPU precision for `model` with `opts`' threads: the kept
/// trial's, else a trial now (a few seconds, once). `fresh` measures
/// again whatever is kept (`doctor`).
pub fn choose(model: &ResolvedModel, opts: &RunOptions, fresh: bool) -> Result<Choice> {
    let key = key(model, opts);
    if Path::here().len() == 1 && thread_counts(opts.threads).len() == 1 {
        // One path: nothing to measure.
        return Ok(Choice { precision: "fp32".into(), ..key });
    }
    let find = || cached().into_iter().find(|c| same(c, &key));
    if !fresh {
        if let Some(c) = find() {
            return Ok(c);
        }
    }
    // One trial at a time: processes started together (a test suite, a
    // cron line beside a server) wait for the first one's answer rather
    // than time each other.
    let _lock = cache_file().and_then(|f| {
        let dir = f.parent()?;
        std::fs::create_dir_all(dir).ok()?;
        let lock = std::fs::File::create(dir.join("precision.lock")).ok()?;
        lock.lock().ok()?;
        Some(lock)
    });
    if !fresh {
        if let Some(c) = find() {
            return Ok(c);
        }
    }
    let choice = measure(model, opts)?;
    keep(&choice);
    Ok(choice)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trial_texts_differ_and_are_abstract_length() {
        let t = texts(TEXTS);
        assert_eq!(t.len(), TEXTS);
        assert_eq!(texts(64).len(), 64);
        assert!(t.iter().all(|x| (150..240).contains(&x.split(' ').count())));
        let mut unique = t.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), t.len());
    }

    #[test]
    fn cores_are_counted_by_their_place_not_by_their_threads() {
        // Two cores of two threads each (CPUs 0-1 and 2-3 share a core), as
        // Linux numbers them on a Xeon: 0 and 2 are one core.
        let smt = |cpu: usize| Some(("0".to_string(), (cpu % 2).to_string()));
        assert_eq!(cores_of("0-3", smt), Some(2));
        assert_eq!(cores_of("0,2", smt), Some(1));
        let flat = |cpu: usize| Some(("0".to_string(), cpu.to_string()));
        assert_eq!(cores_of("0-1", flat), Some(2));
        assert_eq!(cores_of("0-2,5,7-8", flat), Some(6));
        assert_eq!(cores_of("3-1", flat), None);
        assert_eq!(cores_of("x", flat), None);
        assert_eq!(cores_of("0-1", |_| None), None);
        // CPU 1 is named but offline (no topology): the others still count.
        assert_eq!(cores_of("0-3", |cpu| (cpu != 1).then(|| ("0".to_string(), cpu.to_string()))), Some(3));
    }

    #[test]
    fn a_count_asked_for_is_the_only_one_timed() {
        assert_eq!(thread_counts(Some(3)), vec![3]);
        let auto = thread_counts(None);
        assert_eq!(auto[0], rayon::current_num_threads());
        assert!(auto.len() <= 2 && auto.iter().all(|&n| n >= 1));
    }

    #[test]
    fn every_path_is_timed_where_the_cpu_has_it_and_read_back_by_name() {
        let here: Vec<&str> = Path::here().iter().map(|p| p.name).collect();
        assert_eq!(here[0], "fp32");
        assert_eq!(here.contains(&"bf16"), crate::embed::bf16_native());
        assert_eq!(here.contains(&"bf16-amx"), crate::embed::amx::available());
        let chose = |name: &str| Choice { precision: name.into(), ..Choice::default() };
        assert_eq!((chose("fp32").precision(), chose("fp32").bf16_kernel()), (Precision::Fp32, None));
        assert_eq!((chose("bf16").precision(), chose("bf16").bf16_kernel()), (Precision::Bf16, Some(Kernel::Avx512)));
        assert_eq!((chose("bf16-amx").precision(), chose("bf16-amx").bf16_kernel()), (Precision::Bf16, Some(Kernel::Amx)));
    }

    #[test]
    fn the_cache_keeps_one_trial_per_binary_and_model_and_only_the_newest() {
        let choice = |binary: usize, model: &str| Choice {
            cpu: "cpu".into(),
            binary: binary.to_string(),
            model: model.into(),
            threads: 2,
            precision: "fp32".into(),
            ..Choice::default()
        };
        let mut all = Vec::new();
        for b in 0..KEPT_TRIALS + 5 {
            all = with(all, &choice(b, "m"));
        }
        assert_eq!(all.len(), KEPT_TRIALS);
        assert_eq!(all[0].binary, "5", "the oldest go first");
        assert_eq!(all[KEPT_TRIALS - 1].binary, (KEPT_TRIALS + 4).to_string());
        let again = with(all, &Choice { precision: "bf16".into(), ..choice(10, "m") });
        assert_eq!(again.len(), KEPT_TRIALS, "a trial measured again replaces its own");
        assert_eq!((again[KEPT_TRIALS - 1].binary.as_str(), again[KEPT_TRIALS - 1].precision.as_str()), ("10", "bf16"));
        assert_eq!(again.iter().filter(|c| c.binary == "10").count(), 1);
    }

    #[test]
    fn the_cosine_of_a_vector_to_itself_is_one() {
        let v = vec![vec![0.6f32, 0.8], vec![1.0, 0.0]];
        assert!((lowest_cosine(&v, &v) - 1.0).abs() < 1e-6);
        assert!(lowest_cosine(&v, &[vec![0.6, 0.8], vec![0.0, 1.0]]).abs() < 1e-6);
    }
}
