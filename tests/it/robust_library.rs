//! The library when things go wrong (issue 13): processes racing on derived
//! files, damaged files and models, read-only libraries, empty inputs.
//! Every case runs the binary with the real default model.

use crate::common;

use crate::common::{command as ps, output, page};
use std::path::{Path, PathBuf};
use std::process::{Output, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

fn ok(lib: &Path, args: &[&str]) -> String {
    common::ok(lib, args)
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let target = to.join(e.file_name());
        if e.file_type().unwrap().is_dir() {
            copy_dir(&e.path(), &target);
        } else {
            std::fs::copy(e.path(), &target).unwrap();
        }
    }
}

/// A library of one listing page (embedded once per test binary), copied
/// into `dir/lib` so each test may damage its own.
fn library(dir: &Path) -> PathBuf {
    static TEMPLATE: OnceLock<tempfile::TempDir> = OnceLock::new();
    let template = TEMPLATE.get_or_init(|| {
        let t = tempfile::tempdir().unwrap();
        ok(&t.path().join("lib"), &["ingest", &page("cs.DC-2026-03-02.txt")]);
        t
    });
    let lib = dir.join("lib");
    copy_dir(&template.path().join("lib"), &lib);
    lib
}

/// Any paper id of the library.
fn some_id(lib: &Path) -> String {
    let flags = rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY;
    let conn = rusqlite::Connection::open_with_flags(lib.join("library.sqlite"), flags).unwrap();
    conn.query_row("SELECT id FROM papers ORDER BY rowid LIMIT 1", [], |r| r.get(0)).unwrap()
}

fn papers(lib: &Path) -> i64 {
    let flags = rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY;
    let conn = rusqlite::Connection::open_with_flags(lib.join("library.sqlite"), flags).unwrap();
    conn.query_row("SELECT count(*) FROM papers", [], |r| r.get(0)).unwrap()
}

/// A copy of the default model (links, but for the weights) whose weights
/// `damage` rewrites past the safetensors header.
fn model_copy(dir: &Path, damage: impl Fn(&mut [u8])) -> PathBuf {
    let src = common::model_dir();
    let dst = dir.join("model");
    link_tree(&src, &dst);
    let weights = dst.join("model.safetensors");
    std::fs::remove_file(&weights).unwrap();
    let mut bytes = std::fs::read(src.join("model.safetensors")).unwrap();
    let header = 8 + u64::from_le_bytes(bytes[..8].try_into().unwrap()) as usize;
    damage(&mut bytes[header..]);
    std::fs::write(&weights, &bytes).unwrap();
    dst
}

fn link_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let target = to.join(e.file_name());
        if e.path().is_dir() {
            link_tree(&e.path(), &target);
        } else {
            std::os::unix::fs::symlink(e.path(), &target).unwrap();
        }
    }
}

/// Readers (`like`, `like --approx`, `doctor`) running while `ingest`
/// changes the library keep rebuilding the derived files at once; none of
/// them may fail for it.
#[test]
fn readers_never_fail_while_ingest_and_each_other_rebuild() {
    let dir = tempfile::tempdir().unwrap();
    let lib = library(dir.path());
    let id = some_id(&lib);
    let titles = dir.path().join("titles.jsonl");
    let mut lines = String::new();
    for i in 0..600 {
        lines.push_str(&format!("{{\"id\": \"2611.{:05}\", \"title\": \"Scheduling study number {i}\", \"abstract\": \"\"}}\n", i + 1));
    }
    std::fs::write(&titles, lines).unwrap();

    let done = std::sync::atomic::AtomicBool::new(false);
    let deadline = Instant::now() + Duration::from_secs(240);
    let failures = std::sync::Mutex::new(Vec::new());
    let runs = std::sync::atomic::AtomicUsize::new(0);
    let readers: [Vec<&str>; 5] = [
        vec!["like", &id, "-k", "3", "--json"],
        vec!["like", &id, "-k", "3", "--json"],
        vec!["like", &id, "-k", "3", "--json", "--approx"],
        vec!["doctor"],
        vec!["doctor"],
    ];
    std::thread::scope(|s| {
        s.spawn(|| {
            for input in [page("cs.DC-2026-03-03.txt"), titles.to_string_lossy().into_owned(), page("cs.DC-2025-07-11.txt")] {
                ok(&lib, &["ingest", &input]);
            }
            done.store(true, std::sync::atomic::Ordering::SeqCst);
        });
        for args in &readers {
            let args = args.as_slice();
            let (lib, done, failures, runs) = (&lib, &done, &failures, &runs);
            s.spawn(move || {
                // Until the ingests are done: bounded in count and time.
                for _ in 0..400 {
                    if done.load(std::sync::atomic::Ordering::SeqCst) || Instant::now() > deadline {
                        break;
                    }
                    let out = output(lib, args);
                    runs.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                    let json_ok = args[0] != "like"
                        || String::from_utf8_lossy(&out.stdout).lines().all(|l| serde_json::from_str::<serde_json::Value>(l).is_ok());
                    if !out.status.success() || !json_ok || stderr(&out).contains("panicked") {
                        failures.lock().unwrap().push(format!("{args:?}: {}", stderr(&out)));
                    }
                }
            });
        }
    });
    let failures = failures.into_inner().unwrap();
    let runs = runs.into_inner();
    assert!(failures.is_empty(), "{} of {runs} reader runs failed:\n{}", failures.len(), failures.join("\n"));
    assert!(runs >= 5, "only {runs} reader runs");
    eprintln!("{runs} reader runs, none failed");
    // And the files they left are whole (the index `like --approx` built, if any).
    ok(&lib, &["doctor"]);
    let doctor = ok(&lib, &["doctor"]);
    assert!(doctor.contains("vectors ok") && (doctor.contains("index ok") || doctor.contains("no index needed")), "{doctor}");
}

/// Derived files damaged in place, size and all, are found by `doctor`
/// and rebuilt; a damaged or missing index never leaks the engine's output
/// into `like --json` or a backtrace onto stderr.
#[test]
fn doctor_finds_damaged_derived_files_and_like_stays_clean() {
    let dir = tempfile::tempdir().unwrap();
    let lib = library(dir.path());
    let id = some_id(&lib);
    let exact = ok(&lib, &["like", &id, "-k", "5", "--json"]);
    ok(&lib, &["doctor"]);
    let derived = std::fs::read_dir(lib.join("derived")).unwrap().next().unwrap().unwrap().path();

    // Scrambled vectors: same size, same header.
    let flat = derived.join("vectors.bin");
    let mut bytes = std::fs::read(&flat).unwrap();
    let n = bytes.len();
    bytes[n - 4096..].reverse();
    std::fs::write(&flat, &bytes).unwrap();
    let report = ok(&lib, &["doctor"]);
    assert!(report.contains("vectors rebuilt (damaged") && report.contains("differs from the database"), "{report}");
    assert_eq!(ok(&lib, &["like", &id, "-k", "5", "--json"]), exact);
    assert!(ok(&lib, &["doctor"]).contains("vectors ok"));

    // An index (built on request: this library is small), then flipped bytes in it.
    assert_eq!(ok(&lib, &["like", &id, "-k", "5", "--json", "--approx"]), exact);
    let graph = std::fs::read_dir(derived.join("index"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.to_string_lossy().ends_with(".usearch"))
        .unwrap();
    let mut bytes = std::fs::read(&graph).unwrap();
    let n = bytes.len();
    for b in &mut bytes[n / 3..n / 3 + 64] {
        *b ^= 0xa5;
    }
    std::fs::write(&graph, &bytes).unwrap();
    let report = ok(&lib, &["doctor"]);
    assert!(report.contains("index rebuilt (damaged"), "{report}");

    // Index files gone or garbage: `like --approx --json` prints JSON only.
    for garbage in [false, true] {
        for f in std::fs::read_dir(derived.join("index")).unwrap() {
            let f = f.unwrap().path();
            if f.to_string_lossy().ends_with(".usearch") {
                if garbage {
                    std::fs::write(&f, b"garbage").unwrap();
                } else {
                    std::fs::remove_file(&f).unwrap();
                }
            }
        }
        let out = output(&lib, &["like", &id, "-k", "5", "--json", "--approx"]);
        assert!(out.status.success(), "{}", stderr(&out));
        assert_eq!(String::from_utf8_lossy(&out.stdout), exact);
        let err = stderr(&out);
        assert!(!err.contains("panicked") && !err.contains("backtrace") && !err.contains("assert"), "{err}");
    }
}

/// Weights that load but are damaged give NaN: refused before the library
/// is touched, naming the model's directory.
#[test]
fn a_damaged_model_leaves_the_library_as_it_was() {
    let dir = tempfile::tempdir().unwrap();
    let lib = library(dir.path());
    let before = papers(&lib);
    let model = model_copy(dir.path(), |w| w.fill(0xff));
    let fresh = dir.path().join("fresh");
    for target in [&lib, &fresh] {
        let out = ps(target, &["ingest", &page("cs.DC-2026-03-03.txt"), "--model", model.to_str().unwrap()]).output().unwrap();
        assert!(!out.status.success());
        let err = stderr(&out);
        assert!(err.contains("non-finite") && err.contains(model.to_str().unwrap()), "{err}");
        assert_eq!(err.lines().count(), 1, "{err}");
    }
    assert_eq!(papers(&lib), before);
    assert!(!fresh.join("library.sqlite").exists() || papers(&fresh) == 0);
    let out = ps(&lib, &["like", "--text", "graph scheduling", "--model", model.to_str().unwrap()]).output().unwrap();
    assert!(!out.status.success() && stderr(&out).contains("non-finite"), "{}", stderr(&out));

    // NaN vectors stored by an earlier paperscout are pointed out by doctor.
    let conn = rusqlite::Connection::open(lib.join("library.sqlite")).unwrap();
    let nan: Vec<u8> = f32::NAN.to_le_bytes().repeat(384);
    conn.execute("UPDATE vectors SET vec = ?1 WHERE text_hash IN (SELECT text_hash FROM vectors LIMIT 2)", [nan]).unwrap();
    drop(conn);
    let report = ok(&lib, &["doctor"]);
    assert!(report.contains("2 vector(s) hold NaN"), "{report}");
}

/// A library embedded with one model is not re-embedded by another.
#[test]
fn another_model_is_refused_with_both_ids() {
    let dir = tempfile::tempdir().unwrap();
    let lib = library(dir.path());
    let before = papers(&lib);
    // One weight's lowest bit: another model id, still a working model.
    let model = model_copy(dir.path(), |w| w[0] ^= 1);
    let out = ps(&lib, &["ingest", &page("cs.DC-2026-03-03.txt"), "--model", model.to_str().unwrap()]).output().unwrap();
    assert!(!out.status.success());
    let err = stderr(&out);
    // The copy's id is named after its directory, "model".
    assert!(err.contains("all-MiniLM-L6-v2:") && err.contains("model:"), "{err}");
    assert!(err.contains("--model") && err.contains("--library"), "{err}");
    assert_eq!(papers(&lib), before, "papers were stored");
    let stats = ok(&lib, &["stats"]);
    assert_eq!(stats.matches("vectors   ").count(), 1, "{stats}");
}

/// A model that cannot be loaded stops the ingest before it stores papers.
#[test]
fn a_model_that_fails_to_load_stores_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let lib = library(dir.path());
    let before = papers(&lib);
    let missing = dir.path().join("no-such-model");
    let out = ps(&lib, &["ingest", &page("cs.DC-2026-03-03.txt"), "--model", missing.to_str().unwrap()]).output().unwrap();
    assert!(!out.status.success());
    assert_eq!(papers(&lib), before);
    // A seed is stored before its model is needed: the error says so.
    let out = ps(&lib, &["seed", "add", "--text", "serverless cold starts"]).env("PAPERSCOUT_MODEL", &missing).output().unwrap();
    assert!(!out.status.success());
    assert!(stderr(&out).contains("stored") && stderr(&out).contains("not embedded"), "{}", stderr(&out));
}

#[test]
fn empty_query_and_seed_texts_are_errors() {
    let dir = tempfile::tempdir().unwrap();
    let lib = library(dir.path());
    let empty = dir.path().join("empty.txt");
    std::fs::write(&empty, " \n").unwrap();
    for args in [vec!["like", "--text", ""], vec!["like", "--file", empty.to_str().unwrap()], vec!["seed", "add", "--text", "  "]] {
        let out = output(&lib, &args);
        assert!(!out.status.success(), "{args:?} succeeded");
        assert!(stderr(&out).contains("empty"), "{args:?}: {}", stderr(&out));
    }
    assert!(stderr(&output(&lib, &["like", "--file", empty.to_str().unwrap()])).contains("empty.txt"));
}

#[test]
fn seeds_need_an_existing_library() {
    let dir = tempfile::tempdir().unwrap();
    let typo = dir.path().join("libary");
    for args in [vec!["seed", "add", "--text", "serverless cold starts"], vec!["seed", "rm", "2507.07400"]] {
        let out = output(&typo, &args);
        assert!(!out.status.success(), "{args:?} succeeded");
        assert!(stderr(&out).contains("no library at"), "{}", stderr(&out));
        assert!(!typo.exists(), "{args:?} created a library");
    }
}

/// Readers need no write access: a library they cannot write (and whose
/// derived files are gone) still answers.
#[test]
fn a_read_only_library_serves_readers() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let lib = library(dir.path());
    let id = some_id(&lib);
    let expected = ok(&lib, &["like", &id, "-k", "3", "--json"]);
    std::fs::remove_dir_all(lib.join("derived")).unwrap();
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    std::fs::set_permissions(lib.join("library.sqlite"), std::fs::Permissions::from_mode(0o444)).unwrap();
    std::fs::set_permissions(&lib, std::fs::Permissions::from_mode(0o555)).unwrap();
    // root writes anyway: run as nobody where we can.
    let probe = lib.join("probe");
    let as_other = std::fs::write(&probe, b"").is_ok();
    if as_other && !Path::new("/usr/bin/setpriv").exists() {
        eprintln!("skipping: running as root without setpriv");
        return;
    }
    let run = |args: &[&str]| {
        let mut c = if as_other {
            let mut c = std::process::Command::new("/usr/bin/setpriv");
            c.args(["--reuid=65534", "--regid=65534", "--clear-groups", "--"]).arg(common::BIN);
            c
        } else {
            std::process::Command::new(common::BIN)
        };
        c.args(args).arg("--library").arg(&lib).env("PAPERSCOUT_MODEL", common::model_dir());
        c.stdin(Stdio::null()).output().unwrap()
    };
    for args in [
        vec!["like", id.as_str(), "-k", "3", "--json"],
        vec!["like", id.as_str(), "-k", "3", "--json", "--approx"],
        vec!["stats"],
        vec!["seed", "list"],
    ] {
        let out = run(&args);
        assert!(out.status.success(), "{args:?}: {}", stderr(&out));
        if args[0] == "like" {
            assert_eq!(String::from_utf8_lossy(&out.stdout), expected);
            assert!(stderr(&out).is_empty(), "{}", stderr(&out));
        }
    }
    std::fs::set_permissions(&lib, std::fs::Permissions::from_mode(0o755)).unwrap();
    let _ = std::fs::remove_file(&probe);
}

/// A damaged database is named, with the command that checks it.
#[test]
fn damaged_database_errors_name_the_file_and_doctor() {
    let dir = tempfile::tempdir().unwrap();
    let lib = library(dir.path());
    let db = lib.join("library.sqlite");
    let mut bytes = std::fs::read(&db).unwrap();
    // Past the header the pages are damaged; the header says it is SQLite.
    let n = bytes.len();
    for b in &mut bytes[4096..n] {
        *b = b.wrapping_mul(7).wrapping_add(13);
    }
    std::fs::write(&db, &bytes).unwrap();
    let damaged = output(&lib, &["stats"]);
    // doctor, which cannot rebuild the source of truth, says what can be done.
    let doctor = output(&lib, &["doctor"]);
    assert!(!doctor.status.success());
    assert!(stderr(&doctor).contains("library.sqlite") && stderr(&doctor).contains("--library"), "{}", stderr(&doctor));
    bytes[..16].copy_from_slice(b"not a database!!");
    std::fs::write(&db, &bytes).unwrap();
    let not_db = output(&lib, &["like", "2603.00001"]);
    for out in [damaged, not_db] {
        assert!(!out.status.success());
        let err = stderr(&out);
        assert!(err.contains("library.sqlite") && err.contains("doctor"), "{err}");
        assert_eq!(err.lines().count(), 1, "{err}");
    }
}
