//! Embedding tests with the real model: parity with sentence-transformers'
//! reference vectors, padding never leaking across a batch, sentence-
//! transformers semantics read from the model directory, clear errors for
//! broken model directories, and the `paperscout embed` command.
//!
//! The model is provisioned the way the README says: `models/fetch` (run once
//! per test binary; the script itself locks against other processes), then
//! found in `models/all-MiniLM-L6-v2`.
//!
//! The `cuda_*` tests are the GPU path's (built with `--features cuda`).
//! Where no device answers they skip, saying so on stderr, unless
//! `PAPERSCOUT_REQUIRE_GPU` is set. On a GPU machine without the source tree
//! (scripts/gpu-proof) `PAPERSCOUT_MODEL`, `PAPERSCOUT_REFERENCE` and
//! `PAPERSCOUT_BIN` say where the model, the reference vectors and the
//! binary are.

use paperscout::embed::{self, Embedder, SentenceEmbedder};
use paperscout::embed::{BackendChoice, ModelArgs, Precision};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::{Once, OnceLock};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// `$PAPERSCOUT_MODEL`, else `models/all-MiniLM-L6-v2`, fetched by
/// `models/fetch` when missing.
fn model_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os(embed::ENV_VAR) {
        return PathBuf::from(dir);
    }
    static FETCH: Once = Once::new();
    FETCH.call_once(|| {
        let status = Command::new("bash")
            .arg(root().join("models/fetch"))
            .arg("-q")
            .status()
            .expect("cannot run models/fetch");
        assert!(status.success(), "models/fetch failed");
    });
    root().join("models").join(embed::DEFAULT_NAME)
}

/// fp32 unless a test says otherwise: the exact path, 1e-12 from the reference.
fn args(backend: BackendChoice) -> ModelArgs {
    ModelArgs {
        model: Some(model_dir()),
        backend,
        precision: Some(Precision::Fp32),
        ..ModelArgs::default()
    }
}

/// The native fp32 embedder, loaded once per test binary.
fn native() -> &'static SentenceEmbedder {
    static E: OnceLock<SentenceEmbedder> = OnceLock::new();
    E.get_or_init(|| embed::open(&args(BackendChoice::Auto), false).expect("load model"))
}

struct Reference {
    text: String,
    embedding: Vec<f32>,
}

fn reference() -> Vec<Reference> {
    let path = std::env::var_os("PAPERSCOUT_REFERENCE").map_or_else(
        || root().join("../shared/reference/all-MiniLM-L6-v2/embeddings.jsonl"),
        PathBuf::from,
    );
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            Reference {
                text: v["text"].as_str().unwrap().to_string(),
                embedding: v["embedding"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|x| x.as_f64().unwrap() as f32)
                    .collect(),
            }
        })
        .collect()
}

fn cosine(a: &[f32], b: &[f32]) -> f64 {
    assert_eq!(a.len(), b.len());
    let dot: f64 = a.iter().zip(b).map(|(&x, &y)| x as f64 * y as f64).sum();
    let na: f64 = a.iter().map(|&x| (x as f64).powi(2)).sum::<f64>().sqrt();
    let nb: f64 = b.iter().map(|&x| (x as f64).powi(2)).sum::<f64>().sqrt();
    dot / (na * nb).max(1e-30)
}

/// Asserts cosine >= 0.9999 with the reference for every text, or with
/// `sample` for every 4th text plus all short ones and the longest (the edge
/// cases), to keep the slower configurations quick.
fn check_parity(e: &dyn Embedder, label: &str, sample: bool) {
    check_parity_at(e, label, sample, 0.9999);
}

/// [`check_parity`] with cosine >= `min` (half precision earns 0.999).
fn check_parity_at(e: &dyn Embedder, label: &str, sample: bool, min: f64) {
    let mut refs = reference();
    assert_eq!(refs.len(), 126, "reference set changed");
    if sample {
        let longest = refs.iter().map(|r| r.text.len()).max().unwrap();
        let mut i = 0;
        refs.retain(|r| {
            i += 1;
            i % 4 == 1 || r.text.len() < 80 || r.text.len() == longest
        });
    }
    let texts: Vec<&str> = refs.iter().map(|r| r.text.as_str()).collect();
    let got = e.embed(&texts, &|_| {}).unwrap();
    assert_eq!(got.len(), refs.len());
    let mut worst = (f64::MAX, String::new());
    let mut max_diff = 0f32;
    for (r, v) in refs.iter().zip(&got) {
        let c = cosine(v, &r.embedding);
        max_diff = v
            .iter()
            .zip(&r.embedding)
            .map(|(a, b)| (a - b).abs())
            .fold(max_diff, f32::max);
        let norm: f64 = v.iter().map(|&x| (x as f64).powi(2)).sum::<f64>().sqrt();
        assert!(
            (norm - 1.0).abs() < 1e-4,
            "{label}: not unit length ({norm}) for {:?}",
            r.text
        );
        if c < worst.0 {
            worst = (c, r.text.chars().take(60).collect());
        }
    }
    eprintln!(
        "{label}: min cosine {:.9} (1 - cos = {:.1e}) over {} texts, worst {:?}; max |difference| {max_diff:.1e}",
        worst.0,
        1.0 - worst.0,
        refs.len(),
        worst.1
    );
    assert!(
        worst.0 >= min,
        "{label}: cosine {} < {min} for {:?}",
        worst.0,
        worst.1
    );
}

#[test]
fn parity_with_sentence_transformers() {
    let e = native();
    assert_eq!(e.dim(), 384);
    check_parity(e, "native", false);
}

/// What a user gets without flags: bf16 on CPUs with AVX-512 BF16, else
/// fp32; parity either way.
#[test]
fn parity_with_the_default_precision() {
    let a = ModelArgs {
        model: Some(model_dir()),
        ..ModelArgs::default()
    };
    let e = embed::open(&a, false).unwrap();
    assert_eq!(e.model_id().ends_with(":bf16"), paperscout::embed::bf16_native());
    check_parity(&e, "default precision", false);
}

#[test]
fn parity_with_candle_ops_backend() {
    let e = embed::open(&args(BackendChoice::Candle), false).unwrap();
    check_parity(&e, "candle ops", true);
}

#[test]
fn parity_with_tiny_batches_and_one_thread() {
    let a = ModelArgs {
        batch_tokens: Some(300),
        threads: Some(1),
        ..args(BackendChoice::Auto)
    };
    let e = embed::open(&a, false).unwrap();
    check_parity(&e, "batch-tokens 300, 1 thread", true);
}

/// `--precision bf16`: every vector still at cosine >= 0.9999 to the
/// reference, and every text's 10 nearest neighbours among the reference
/// texts the same as the reference's, except for neighbours the reference
/// itself scores within 1e-3 of its 10th (near ties any rounding can flip).
#[test]
fn bf16_products_keep_parity_and_nearest_neighbours() {
    let a = ModelArgs {
        precision: Some(Precision::Bf16),
        ..args(BackendChoice::Auto)
    };
    let e = embed::open(&a, false).unwrap();
    assert!(e.model_id().ends_with(":bf16"), "{}", e.model_id());
    assert_ne!(e.model_id(), native().model_id());
    check_parity(&e, "bf16", false);

    let refs = reference();
    let texts: Vec<&str> = refs.iter().map(|r| r.text.as_str()).collect();
    let got = e.embed(&texts, &|_| {}).unwrap();
    let reference_vs: Vec<&[f32]> = refs.iter().map(|r| r.embedding.as_slice()).collect();
    let got_vs: Vec<&[f32]> = got.iter().map(Vec::as_slice).collect();
    let top10 = |vs: &[&[f32]], i: usize| {
        let mut s: Vec<(f64, usize)> = (0..vs.len())
            .filter(|&j| j != i)
            .map(|j| (cosine(vs[i], vs[j]), j))
            .collect();
        s.sort_by(|a, b| b.0.total_cmp(&a.0));
        s.truncate(10);
        s
    };
    let mut identical = 0;
    for i in 0..refs.len() {
        let want = top10(&reference_vs, i);
        let have = top10(&got_vs, i);
        let tenth = want[9].0;
        let mut same = true;
        for &(_, j) in &have {
            if want.iter().all(|&(_, w)| w != j) {
                same = false;
                let score = cosine(&refs[i].embedding, &refs[j].embedding);
                assert!(
                    tenth - score <= 1e-3,
                    "bf16 puts {:?} among the neighbours of {:?}: reference {score:.4} vs 10th {tenth:.4}",
                    refs[j].text,
                    refs[i].text
                );
            }
        }
        identical += same as usize;
    }
    eprintln!("bf16: top-10 neighbour sets identical for {identical} of {} texts", refs.len());
    assert!(identical >= 118, "only {identical} identical top-10 sets");
}

#[test]
fn bf16_needs_the_native_cpu_forward() {
    let a = ModelArgs {
        precision: Some(Precision::Bf16),
        ..args(BackendChoice::Candle)
    };
    let err = embed::open(&a, false).err().expect("bf16 with candle ops must fail");
    assert!(format!("{err:#}").contains("--precision bf16 needs the native CPU forward"), "{err:#}");
}

/// Three threads: each batch is cut into three shares of unequal sizes
/// that run the whole forward on their own; the vectors must not change.
#[test]
fn parity_with_batches_shared_by_three_threads() {
    let a = ModelArgs {
        threads: Some(3),
        batch_tokens: Some(2000),
        ..args(BackendChoice::Auto)
    };
    let e = embed::open(&a, false).unwrap();
    check_parity(&e, "3 threads, batch-tokens 2000", true);
}

#[test]
fn model_id_names_the_weights() {
    let id = native().model_id();
    let (name, hash) = id.split_once(':').unwrap();
    assert_eq!(name, "all-MiniLM-L6-v2");
    // sha256 of model.safetensors as pinned in models/all-MiniLM-L6-v2.sha256.
    assert_eq!(hash, "53aa51172d14");
}

#[test]
fn padding_does_not_leak_across_a_batch() {
    check_padding(native(), 0.999_999, 1e-5);
}

/// A text's vector is the same alone and in a batch with longer, shorter
/// and empty texts (to `min_cosine` and `max_diff`), and the output follows
/// the input order.
fn check_padding(e: &dyn Embedder, min_cosine: f64, max_diff: f32) {
    let target = "Scalable consensus for geo-distributed databases";
    let long = "Large language models are trained on many accelerators. ".repeat(40);
    let alone = e.embed(&[target], &|_| {}).unwrap().remove(0);
    let mixed = [
        "a",
        long.as_str(),
        target,
        "",
        "Byzantine fault tolerance in practice",
        target,
    ];
    let got = e.embed(&mixed, &|_| {}).unwrap();
    for i in [2, 5] {
        let c = cosine(&alone, &got[i]);
        assert!(c > min_cosine, "cosine {c} between alone and batched");
        let diff = alone
            .iter()
            .zip(&got[i])
            .map(|(a, b)| (a - b).abs())
            .fold(0f32, f32::max);
        assert!(diff < max_diff, "max difference {diff}");
    }
    // And the order of the output follows the input.
    let single: Vec<Vec<f32>> = mixed
        .iter()
        .map(|t| e.embed(&[t], &|_| {}).unwrap().remove(0))
        .collect();
    for (a, b) in single.iter().zip(&got) {
        assert!(cosine(a, b) > min_cosine);
    }
}

#[test]
fn progress_counts_up_to_all_texts() {
    let e = embed::open(
        &ModelArgs {
            batch_tokens: Some(64),
            ..args(BackendChoice::Auto)
        },
        false,
    )
    .unwrap();
    let texts: Vec<String> = (0..20)
        .map(|i| format!("paper number {i} about {}", "graphs ".repeat(i)))
        .collect();
    let refs: Vec<&str> = texts.iter().map(String::as_str).collect();
    let seen = std::cell::RefCell::new(Vec::new());
    let out = e.embed(&refs, &|n| seen.borrow_mut().push(n)).unwrap();
    assert_eq!(out.len(), 20);
    let seen = seen.into_inner();
    assert!(seen.len() > 1, "several batches expected: {seen:?}");
    assert!(seen.windows(2).all(|w| w[0] < w[1]));
    assert_eq!(*seen.last().unwrap(), 20);
    assert!(e
        .embed(&[], &|_| panic!("no progress for nothing"))
        .unwrap()
        .is_empty());
}

#[test]
fn truncates_at_max_seq_length_not_the_tokenizer_default() {
    let e = native();
    let long = "distributed consensus protocol ".repeat(200);
    let counts = e.token_counts(&[long.as_str(), "", "a b"]).unwrap();
    assert_eq!(counts, vec![256, 2, 4]);
}

/// A copy of the model directory with some files replaced; the weights are
/// linked, not copied.
fn model_variant(edit: impl FnOnce(&Path)) -> tempfile::TempDir {
    let src = model_dir();
    let tmp = tempfile::tempdir().unwrap();
    for f in [
        "config.json",
        "tokenizer.json",
        "modules.json",
        "sentence_bert_config.json",
        "1_Pooling/config.json",
    ] {
        let to = tmp.path().join(f);
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        std::fs::copy(src.join(f), to).unwrap();
    }
    std::os::unix::fs::symlink(
        src.join("model.safetensors"),
        tmp.path().join("model.safetensors"),
    )
    .unwrap();
    edit(tmp.path());
    tmp
}

fn open_dir(dir: &Path) -> anyhow::Result<SentenceEmbedder> {
    embed::open(
        &ModelArgs {
            model: Some(dir.to_path_buf()),
            ..ModelArgs::default()
        },
        false,
    )
}

#[test]
fn pooling_and_normalisation_come_from_the_model_dir() {
    let texts = [
        "Graph neural networks for scheduling",
        "Quantum error correction",
    ];
    let mean = native().embed(&texts, &|_| {}).unwrap();

    // CLS pooling, no Normalize module (the bge-small-en-v1.5 pooling).
    let cls = model_variant(|d| {
        std::fs::write(
            d.join("1_Pooling/config.json"),
            r#"{"pooling_mode_cls_token": true}"#,
        )
        .unwrap();
        let modules = std::fs::read_to_string(d.join("modules.json")).unwrap();
        let v: Vec<serde_json::Value> = serde_json::from_str(&modules).unwrap();
        let kept: Vec<_> = v
            .into_iter()
            .filter(|m| !m["type"].as_str().unwrap().ends_with("Normalize"))
            .collect();
        std::fs::write(
            d.join("modules.json"),
            serde_json::to_string(&kept).unwrap(),
        )
        .unwrap();
    });
    let e = open_dir(cls.path()).unwrap();
    let got = e.embed(&texts, &|_| {}).unwrap();
    for (c, m) in got.iter().zip(&mean) {
        let norm: f32 = c.iter().map(|x| x * x).sum::<f32>().sqrt();
        assert!(
            (norm - 1.0).abs() > 1e-3,
            "CLS vector without Normalize should not be unit length"
        );
        assert!(
            cosine(c, m) < 0.999,
            "CLS pooling gave the mean-pooled vector"
        );
    }

    // Shorter max_seq_length is honoured.
    let short = model_variant(|d| {
        std::fs::write(
            d.join("sentence_bert_config.json"),
            r#"{"max_seq_length": 8, "do_lower_case": false}"#,
        )
        .unwrap();
    });
    let e = open_dir(short.path()).unwrap();
    assert_eq!(
        e.token_counts(&["one two three four five six seven eight nine ten"])
            .unwrap(),
        vec![8]
    );
}

fn one_line_error(dir: &Path) -> String {
    let err = match open_dir(dir) {
        Ok(_) => panic!("{} loaded", dir.display()),
        Err(e) => format!("{e:#}"),
    };
    assert!(!err.contains('\n'), "error spans several lines: {err}");
    err
}

#[test]
fn broken_model_dirs_are_one_clear_error() {
    let empty = tempfile::tempdir().unwrap();
    let e = one_line_error(empty.path());
    assert!(e.contains("config.json"), "{e}");

    let missing = Path::new("/nonexistent/model");
    let e = one_line_error(missing);
    assert!(e.contains("no such directory"), "{e}");

    let bad_weights = model_variant(|d| {
        std::fs::remove_file(d.join("model.safetensors")).unwrap();
        std::fs::write(
            d.join("model.safetensors"),
            b"\x08\x00\x00\x00\x00\x00\x00\x00not json",
        )
        .unwrap();
    });
    let e = one_line_error(bad_weights.path());
    assert!(e.contains("safetensors"), "{e}");

    let truncated = model_variant(|d| {
        let full = std::fs::read(model_dir().join("model.safetensors")).unwrap();
        std::fs::remove_file(d.join("model.safetensors")).unwrap();
        std::fs::write(d.join("model.safetensors"), &full[..full.len() / 2]).unwrap();
    });
    let e = one_line_error(truncated.path());
    assert!(e.contains("safetensors"), "{e}");

    let bad_tokenizer =
        model_variant(|d| std::fs::write(d.join("tokenizer.json"), "{\"version\": 1").unwrap());
    let e = one_line_error(bad_tokenizer.path());
    assert!(e.contains("tokenizer"), "{e}");

    // A tokenizer whose ids do not fit the embedding table.
    let wrong_tokenizer = model_variant(|d| {
        let cfg = std::fs::read_to_string(d.join("config.json")).unwrap();
        std::fs::write(
            d.join("config.json"),
            cfg.replace("\"vocab_size\": 30522", "\"vocab_size\": 1000"),
        )
        .unwrap();
    });
    let e = one_line_error(wrong_tokenizer.path());
    assert!(
        e.contains("vocab_size") || e.contains("does not match"),
        "{e}"
    );

    let bad_config = model_variant(|d| std::fs::write(d.join("config.json"), "{}").unwrap());
    let e = one_line_error(bad_config.path());
    assert!(e.contains("config.json"), "{e}");
}

fn paperscout() -> Command {
    Command::new(std::env::var_os("PAPERSCOUT_BIN").unwrap_or_else(|| env!("CARGO_BIN_EXE_paperscout").into()))
}

#[test]
fn embed_command_adds_vectors_in_input_order() {
    let refs = reference();
    let picked: Vec<&Reference> = refs.iter().step_by(25).collect();
    let mut input = String::new();
    for (i, r) in picked.iter().enumerate() {
        input.push_str(
            &serde_json::json!({"n": i, "text": r.text, "keep": {"x": [1, 2]}}).to_string(),
        );
        input.push('\n');
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("in.jsonl");
    std::fs::write(&path, &input).unwrap();
    let out = paperscout()
        .args([
            "--verbose",
            "embed",
            "--device",
            "cpu",
            "--batch-tokens",
            "512",
            "--model",
        ])
        .arg(model_dir())
        .arg(&path)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(
        stderr.contains(&model_dir().display().to_string()),
        "verbose names the model path: {stderr}"
    );
    let stdout = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), picked.len());
    for (i, (line, r)) in lines.iter().zip(&picked).enumerate() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        assert_eq!(v["n"], i);
        assert_eq!(v["keep"]["x"][1], 2);
        assert_eq!(v["text"], r.text.as_str());
        let e: Vec<f32> = v["embedding"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_f64().unwrap() as f32)
            .collect();
        assert!(cosine(&e, &r.embedding) >= 0.9999);
    }
}

#[test]
fn embed_command_reads_stdin_and_finds_the_model_by_env() {
    let mut child = paperscout()
        .args(["--verbose", "embed", "-"])
        .env(embed::ENV_VAR, model_dir())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    {
        use std::io::Write;
        let mut stdin = child.stdin.take().unwrap();
        stdin
            .write_all(b"{\"text\": \"hello world\"}\n\n{\"text\": \"\"}\n")
            .unwrap();
    }
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(stderr.contains("$PAPERSCOUT_MODEL"), "{stderr}");
    assert_eq!(String::from_utf8(out.stdout).unwrap().lines().count(), 2);
}

#[test]
fn embed_command_errors_are_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("in.jsonl");
    std::fs::write(&path, "{\"text\": \"ok\"}\n{\"title\": \"no text\"}\n").unwrap();
    let out = paperscout()
        .arg("embed")
        .arg("--model")
        .arg(model_dir())
        .arg(&path)
        .output()
        .unwrap();
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("line 2"), "{stderr}");
    assert_eq!(stderr.trim().lines().count(), 1, "{stderr}");

    std::fs::write(&path, "{\"text\": \"ok\"}\n").unwrap();
    let out = paperscout()
        .args(["embed", "--model", "/nonexistent/dir"])
        .arg(&path)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        !out.status.success() && stderr.contains("/nonexistent/dir"),
        "{stderr}"
    );
    assert_eq!(stderr.trim().lines().count(), 1, "{stderr}");
}

#[cfg(not(feature = "cuda"))]
#[test]
fn cuda_without_the_feature_is_a_clear_error() {
    let a = ModelArgs {
        device: paperscout::embed::DeviceChoice::Cuda,
        ..args(BackendChoice::Auto)
    };
    let err = match embed::load(&a, false) {
        Ok(_) => panic!("loaded on CUDA without the cuda feature"),
        Err(e) => format!("{e:#}"),
    };
    assert!(err.contains("--features cuda"), "{err}");
}

/// `--precision fp16` runs the candle forward in half precision (on the CPU
/// too, so a library embedded on a GPU can be searched anywhere): parity at
/// cosine >= 0.999 and a model id of its own.
#[test]
fn fp16_keeps_parity_on_the_cpu() {
    let a = ModelArgs {
        precision: Some(Precision::Fp16),
        ..args(BackendChoice::Auto)
    };
    let e = embed::open(&a, false).unwrap();
    assert!(e.model_id().ends_with(":fp16"), "{}", e.model_id());
    assert!(e.summary().contains("F16"), "{}", e.summary());
    check_parity_at(&e, "fp16 on the CPU", true, 0.999);
    check_padding(&e, 0.999, 1e-2);
    let a = ModelArgs {
        precision: Some(Precision::Fp16),
        ..args(BackendChoice::Native)
    };
    let err = embed::open(&a, false).err().expect("fp16 with the native forward must fail");
    assert!(format!("{err:#}").contains("--precision fp16 runs on candle tensor ops"), "{err:#}");
}

/// The candle forward pools and normalises on its device: every pooling
/// mode, with and without the Normalize module, gives the native forward's
/// (CPU) vectors.
#[test]
fn candle_pooling_matches_the_cpu_for_every_mode() {
    let texts = [
        "Graph neural networks for scheduling",
        "Quantum error correction with surface codes on superconducting qubits",
        "a",
    ];
    for normalize in [true, false] {
        let dir = model_variant(|d| {
            std::fs::write(
                d.join("1_Pooling/config.json"),
                r#"{"pooling_mode_cls_token": true, "pooling_mode_max_tokens": true,
                    "pooling_mode_mean_tokens": true, "pooling_mode_mean_sqrt_len_tokens": true}"#,
            )
            .unwrap();
            if !normalize {
                let modules = std::fs::read_to_string(d.join("modules.json")).unwrap();
                let v: Vec<serde_json::Value> = serde_json::from_str(&modules).unwrap();
                let kept: Vec<_> = v
                    .into_iter()
                    .filter(|m| !m["type"].as_str().unwrap().ends_with("Normalize"))
                    .collect();
                std::fs::write(d.join("modules.json"), serde_json::to_string(&kept).unwrap()).unwrap();
            }
        });
        let open = |backend| {
            embed::open(
                &ModelArgs {
                    model: Some(dir.path().to_path_buf()),
                    backend,
                    precision: Some(Precision::Fp32),
                    ..ModelArgs::default()
                },
                false,
            )
            .unwrap()
        };
        let (cpu, candle) = (open(BackendChoice::Native), open(BackendChoice::Candle));
        assert_eq!(candle.dim(), 4 * 384);
        let want = cpu.embed(&texts, &|_| {}).unwrap();
        let got = candle.embed(&texts, &|_| {}).unwrap();
        for (w, g) in want.iter().zip(&got) {
            let scale = w.iter().fold(0f32, |m, x| m.max(x.abs()));
            let diff = w.iter().zip(g).map(|(a, b)| (a - b).abs()).fold(0f32, f32::max);
            assert!(diff <= 1e-4 * scale.max(1.0), "normalize {normalize}: max difference {diff}");
        }
    }
}

/// Why no CUDA device can run the GPU tests, if none can.
fn no_cuda_device() -> Option<String> {
    match candle_core::Device::new_cuda(0) {
        Ok(_) => None,
        // The first line: with RUST_BACKTRACE set, candle appends a backtrace.
        Err(e) if cfg!(feature = "cuda") => Some(format!(
            "this build has CUDA but no device answered: {}",
            e.to_string().lines().next().unwrap_or_default()
        )),
        Err(_) => Some("this build has no CUDA support (--features cuda)".to_string()),
    }
}

/// Whether a CUDA device answers; without one the GPU tests skip, saying so
/// loudly, unless `PAPERSCOUT_REQUIRE_GPU` is set, which makes it a failure.
#[cfg(feature = "cuda")]
fn cuda_answers(test: &str) -> bool {
    let Some(why) = no_cuda_device() else {
        return true;
    };
    assert!(
        std::env::var_os("PAPERSCOUT_REQUIRE_GPU").is_none(),
        "{test}: PAPERSCOUT_REQUIRE_GPU is set, but {why}"
    );
    eprintln!("SKIPPED {test}: {why} (set PAPERSCOUT_REQUIRE_GPU=1 to fail instead)");
    false
}

#[cfg(feature = "cuda")]
fn cuda_args(precision: Precision) -> ModelArgs {
    ModelArgs {
        device: paperscout::embed::DeviceChoice::Cuda,
        precision: Some(precision),
        ..args(BackendChoice::Auto)
    }
}

/// The GPU's default: f16 weights and activations, cosine >= 0.999.
#[cfg(feature = "cuda")]
#[test]
fn cuda_fp16_parity() {
    if !cuda_answers("cuda_fp16_parity") {
        return;
    }
    let e = embed::open(&cuda_args(Precision::Fp16), true).unwrap();
    assert!(e.model_id().ends_with(":fp16"), "{}", e.model_id());
    assert!(e.summary().contains("on CUDA in F16"), "{}", e.summary());
    check_parity_at(&e, "CUDA fp16", false, 0.999);
    check_padding(&e, 0.999, 1e-2);
}

#[cfg(feature = "cuda")]
#[test]
fn cuda_fp32_parity() {
    if !cuda_answers("cuda_fp32_parity") {
        return;
    }
    let e = embed::open(&cuda_args(Precision::Fp32), true).unwrap();
    assert!(e.summary().contains("on CUDA in F32"), "{}", e.summary());
    check_parity(&e, "CUDA fp32", false);
    check_padding(&e, 0.999_99, 1e-4);
}

/// `--device auto` (the default) never fails for want of a GPU: CUDA when
/// the build has it and a device answers, else the CPU, with one line on
/// stderr under `--verbose` that says why.
#[test]
fn cuda_or_one_line_saying_why_not() {
    let gpu = no_cuda_device().is_none();
    assert!(
        gpu || std::env::var_os("PAPERSCOUT_REQUIRE_GPU").is_none(),
        "PAPERSCOUT_REQUIRE_GPU is set, but {}",
        no_cuda_device().unwrap_or_default()
    );
    let mut child = paperscout()
        .args(["--verbose", "embed", "-"])
        .env(embed::ENV_VAR, model_dir())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    {
        use std::io::Write;
        child.stdin.take().unwrap().write_all(b"{\"text\": \"hello world\"}\n").unwrap();
    }
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert_eq!(String::from_utf8_lossy(&out.stdout).lines().count(), 1);
    let why: Vec<&str> = stderr.lines().filter(|l| l.starts_with("device:")).collect();
    if gpu {
        assert!(why.is_empty(), "{stderr}");
        assert!(stderr.contains("candle tensor ops on CUDA in F16"), "{stderr}");
    } else {
        assert_eq!(why.len(), 1, "{stderr}");
        let expected = if cfg!(feature = "cuda") {
            "no CUDA device answered"
        } else {
            "this build has no CUDA support"
        };
        assert!(why[0].contains(expected), "{stderr}");
        assert!(stderr.contains("native CPU forward"), "{stderr}");
    }
}
