//! Embedding tests with the real model: parity with sentence-transformers'
//! reference vectors, padding never leaking across a batch, sentence-
//! transformers semantics read from the model directory, clear errors for
//! broken model directories, and the `paperscout embed` command. The GPU's
//! own tests are in `gpu`.

use crate::common::parity::{args, check_padding, check_parity, check_parity_at, cosine, model_dir, paperscout, reference, Reference};
use paperscout::embed::{self, Embedder, SentenceEmbedder};
use paperscout::embed::{BackendChoice, MaxTokens, ModelArgs, Precision};
use std::path::Path;
use std::process::Stdio;
use std::sync::OnceLock;

/// The native fp32 embedder, loaded once per test binary.
fn native() -> &'static SentenceEmbedder {
    static E: OnceLock<SentenceEmbedder> = OnceLock::new();
    E.get_or_init(|| embed::open(&args(BackendChoice::Auto)).expect("load model"))
}

#[test]
fn parity_with_sentence_transformers() {
    let e = native();
    assert_eq!(e.dim(), 384);
    check_parity(e, "native", false);
}

/// What a user gets without flags: the precision a trial on this CPU found
/// fastest (bf16 only where the CPU has AVX-512 BF16); parity either way.
#[test]
fn parity_with_the_default_precision() {
    let a = ModelArgs { model: Some(model_dir()), ..ModelArgs::default() };
    let e = embed::open(&a).unwrap();
    assert!(!e.model_id().ends_with(":bf16") || paperscout::embed::bf16_native(), "{}", e.model_id());
    check_parity(&e, "default precision", false);
}

/// The default CPU precision is measured once, kept, said by `-v`, and
/// measured again by `doctor --measure-precision`.
#[test]
fn the_default_precision_is_chosen_by_a_trial_and_kept() {
    let dir = tempfile::tempdir().unwrap();
    let cache = dir.path().join("cache");
    let lib = dir.path().join("lib");
    let input = dir.path().join("in.jsonl");
    std::fs::write(&input, "{\"id\": \"2601.00001\", \"title\": \"KV cache\", \"abstract\": \"Prefetching keys and values.\"}\n").unwrap();
    let run = |args: &[&str]| {
        let out = paperscout().args(args).env("PAPERSCOUT_MODEL", model_dir()).env("PAPERSCOUT_CACHE", &cache).output().unwrap();
        assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
        format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr))
    };
    let first = run(&["ingest", input.to_str().unwrap(), "--library", lib.to_str().unwrap(), "-v"]);
    if !paperscout::embed::bf16_native() {
        // One path: nothing timed, nothing kept, and -v says so.
        assert!(first.contains("precision fp32: the only CPU path"), "{first}");
        return;
    }
    let line = first.lines().find(|l| l.contains("chosen by a trial")).unwrap_or_else(|| panic!("-v says which and why: {first}"));
    assert!(line.contains("fp32") && line.contains("texts/s"), "{line}");
    let kept: serde_json::Value = serde_json::from_slice(&std::fs::read(cache.join("precision.json")).unwrap()).unwrap();
    let choice = kept[0]["precision"].as_str().unwrap().to_string();
    assert!(line.contains(&format!("precision {choice} chosen")), "{line}");
    if paperscout::embed::bf16_native() {
        assert_eq!(kept[0]["measured"].as_array().unwrap().len(), 2, "fp32 and bf16 both timed: {kept}");
    }
    // The library's vectors are of the precision chosen.
    let conn = rusqlite::Connection::open(lib.join("library.sqlite")).unwrap();
    let model: String = conn.query_row("SELECT model FROM vectors LIMIT 1", [], |r| r.get(0)).unwrap();
    assert_eq!(model.ends_with(":bf16"), choice == "bf16", "{model}");
    // Kept: the next run measures nothing.
    let before = std::fs::metadata(cache.join("precision.json")).unwrap().modified().unwrap();
    std::thread::sleep(std::time::Duration::from_millis(20));
    run(&["embed", "-v", input.to_str().unwrap()]);
    assert_eq!(std::fs::metadata(cache.join("precision.json")).unwrap().modified().unwrap(), before);
    // doctor measures again.
    let again = run(&["doctor", "--measure-precision", "--library", lib.to_str().unwrap()]);
    assert!(again.contains("chosen by a trial"), "{again}");
    assert_ne!(std::fs::metadata(cache.join("precision.json")).unwrap().modified().unwrap(), before);
}

#[test]
fn parity_with_candle_ops_backend() {
    let e = embed::open(&args(BackendChoice::Candle)).unwrap();
    check_parity(&e, "candle ops", true);
}

#[test]
fn parity_with_tiny_batches_and_one_thread() {
    let a = ModelArgs { batch_tokens: Some(300), threads: Some(1), ..args(BackendChoice::Auto) };
    let e = embed::open(&a).unwrap();
    check_parity(&e, "batch-tokens 300, 1 thread", true);
}

/// `--precision bf16`: every vector still at cosine >= 0.9999 to the
/// reference, and every text's 10 nearest neighbours among the reference
/// texts the same as the reference's, except for neighbours the reference
/// itself scores within 1e-3 of its 10th (near ties any rounding can flip).
#[test]
fn bf16_products_keep_parity_and_nearest_neighbours() {
    let a = ModelArgs { precision: Some(Precision::Bf16), ..args(BackendChoice::Auto) };
    let e = embed::open(&a).unwrap();
    assert!(e.model_id().ends_with(":bf16"), "{}", e.model_id());
    assert_ne!(e.model_id(), native().model_id());
    check_parity(&e, "bf16", false);

    let refs = reference();
    let texts: Vec<&str> = refs.iter().map(|r| r.text.as_str()).collect();
    let got = e.embed(&texts, &|_| {}).unwrap();
    let reference_vs: Vec<&[f32]> = refs.iter().map(|r| r.embedding.as_slice()).collect();
    let got_vs: Vec<&[f32]> = got.iter().map(Vec::as_slice).collect();
    let top10 = |vs: &[&[f32]], i: usize| {
        let mut s: Vec<(f64, usize)> = (0..vs.len()).filter(|&j| j != i).map(|j| (cosine(vs[i], vs[j]), j)).collect();
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
    let a = ModelArgs { precision: Some(Precision::Bf16), ..args(BackendChoice::Candle) };
    let err = embed::open(&a).err().expect("bf16 with candle ops must fail");
    assert!(format!("{err:#}").contains("--precision bf16 needs the native CPU forward"), "{err:#}");
}

/// Three threads: each batch is cut into three shares of unequal sizes
/// that run the whole forward on their own; the vectors must not change.
#[test]
fn parity_with_batches_shared_by_three_threads() {
    let a = ModelArgs { threads: Some(3), batch_tokens: Some(2000), ..args(BackendChoice::Auto) };
    let e = embed::open(&a).unwrap();
    check_parity(&e, "3 threads, batch-tokens 2000", true);
}

/// A library embedded with `--max-tokens 512` goes on reading 512 tokens
/// unless told otherwise, so its vectors stay of one kind; another length
/// is refused with the flag that matches the library.
#[test]
fn a_library_keeps_the_length_it_was_embedded_at() {
    let dir = tempfile::tempdir().unwrap();
    let lib = dir.path().join("lib");
    let long = "Speculative decoding drafts tokens with a small model and verifies them in one pass. ".repeat(20);
    let input = |name: &str, id: &str| {
        let path = dir.path().join(name);
        std::fs::write(&path, format!("{{\"id\": \"{id}\", \"title\": \"Drafts\", \"abstract\": \"{long}\"}}\n")).unwrap();
        path.to_str().unwrap().to_string()
    };
    let run = |args: &[&str]| paperscout().args(args).arg("--library").arg(&lib).env("PAPERSCOUT_MODEL", model_dir()).output().unwrap();
    let first = run(&["ingest", "--precision", "fp32", "--max-tokens", "512", &input("a.jsonl", "2601.00001")]);
    assert!(first.status.success(), "{}", String::from_utf8_lossy(&first.stderr));
    let second = run(&["ingest", "--precision", "fp32", &input("b.jsonl", "2601.00002")]);
    assert!(second.status.success(), "{}", String::from_utf8_lossy(&second.stderr));
    let conn = rusqlite::Connection::open(lib.join("library.sqlite")).unwrap();
    let models: Vec<String> =
        conn.prepare("SELECT DISTINCT model FROM vectors").unwrap().query_map([], |r| r.get(0)).unwrap().map(Result::unwrap).collect();
    assert_eq!(models.len(), 1, "{models:?}");
    assert!(models[0].ends_with(":512tok"), "{models:?}");
    drop(conn);
    let refused = run(&["ingest", "--precision", "fp32", "--max-tokens", "st", &input("c.jsonl", "2601.00003")]);
    let err = String::from_utf8_lossy(&refused.stderr);
    assert!(!refused.status.success() && err.contains("pass --max-tokens 512,"), "{err}");
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

#[test]
fn progress_counts_up_to_all_texts() {
    let e = embed::open(&ModelArgs { batch_tokens: Some(64), ..args(BackendChoice::Auto) }).unwrap();
    let texts: Vec<String> = (0..20).map(|i| format!("paper number {i} about {}", "graphs ".repeat(i))).collect();
    let refs: Vec<&str> = texts.iter().map(String::as_str).collect();
    let seen = std::cell::RefCell::new(Vec::new());
    let out = e.embed(&refs, &|n| seen.borrow_mut().push(n)).unwrap();
    assert_eq!(out.len(), 20);
    let seen = seen.into_inner();
    assert!(seen.len() > 1, "several batches expected: {seen:?}");
    assert!(seen.windows(2).all(|w| w[0] < w[1]));
    assert_eq!(*seen.last().unwrap(), 20);
    assert!(e.embed(&[], &|_| panic!("no progress for nothing")).unwrap().is_empty());
}

#[test]
fn reads_what_sentence_transformers_reads_or_as_many_tokens_as_asked() {
    let long = "distributed consensus protocol ".repeat(200);
    let texts = [long.as_str(), "", "a b"];
    // sentence-transformers' max_seq_length, not the bundled tokenizer's 128.
    let st = native();
    assert_eq!(st.token_counts(&texts).unwrap(), vec![256, 2, 4]);
    let whole = embed::open(&ModelArgs { max_tokens: Some(MaxTokens::Tokens(512)), ..args(BackendChoice::Auto) }).unwrap();
    assert_eq!(whole.token_counts(&texts).unwrap(), vec![512, 2, 4]);
    // Vectors of another length are stored apart; sentence-transformers' keep the id they always had.
    assert_eq!(whole.model_id(), format!("{}:512tok", st.model_id()));
    let named = embed::open(&ModelArgs { max_tokens: Some(MaxTokens::Tokens(256)), ..args(BackendChoice::Auto) }).unwrap();
    assert_eq!(named.model_id(), st.model_id());
    // A text the shorter read takes whole has one vector either way; a longer one's tail counts.
    let short = "Speculative decoding drafts tokens with a small model and verifies them in one pass.";
    let abstract_ = format!("{short} ").repeat(18) + "The tail is about protein folding and weather forecasting instead.";
    assert!(whole.token_counts(&[&abstract_]).unwrap()[0] > 300);
    let (a, b) = (st.embed(&[short, &abstract_], &|_| {}).unwrap(), whole.embed(&[short, &abstract_], &|_| {}).unwrap());
    assert!(cosine(&a[0], &b[0]) > 0.99999, "{}", cosine(&a[0], &b[0]));
    assert!(cosine(&a[1], &b[1]) < 0.999, "the tail past 256 tokens was not read: {}", cosine(&a[1], &b[1]));
    let err = embed::open(&ModelArgs { max_tokens: Some(MaxTokens::Tokens(513)), ..args(BackendChoice::Auto) }).err().unwrap();
    assert!(format!("{err:#}").contains("cannot read 513 tokens of a text (--max-tokens): the model has 512 positions"), "{err:#}");
}

/// A copy of the model directory with some files replaced; the weights are
/// linked, not copied.
fn model_variant(edit: impl FnOnce(&Path)) -> tempfile::TempDir {
    let src = model_dir();
    let tmp = tempfile::tempdir().unwrap();
    for f in ["config.json", "tokenizer.json", "modules.json", "sentence_bert_config.json", "1_Pooling/config.json"] {
        let to = tmp.path().join(f);
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        std::fs::copy(src.join(f), to).unwrap();
    }
    std::os::unix::fs::symlink(src.join("model.safetensors"), tmp.path().join("model.safetensors")).unwrap();
    edit(tmp.path());
    tmp
}

fn open_dir(dir: &Path) -> anyhow::Result<SentenceEmbedder> {
    embed::open(&ModelArgs { model: Some(dir.to_path_buf()), ..ModelArgs::default() })
}

#[test]
fn pooling_and_normalisation_come_from_the_model_dir() {
    let texts = ["Graph neural networks for scheduling", "Quantum error correction"];
    let mean = native().embed(&texts, &|_| {}).unwrap();

    // CLS pooling, no Normalize module (the bge-small-en-v1.5 pooling).
    let cls = model_variant(|d| {
        std::fs::write(d.join("1_Pooling/config.json"), r#"{"pooling_mode_cls_token": true}"#).unwrap();
        let modules = std::fs::read_to_string(d.join("modules.json")).unwrap();
        let v: Vec<serde_json::Value> = serde_json::from_str(&modules).unwrap();
        let kept: Vec<_> = v.into_iter().filter(|m| !m["type"].as_str().unwrap().ends_with("Normalize")).collect();
        std::fs::write(d.join("modules.json"), serde_json::to_string(&kept).unwrap()).unwrap();
    });
    let e = open_dir(cls.path()).unwrap();
    let got = e.embed(&texts, &|_| {}).unwrap();
    for (c, m) in got.iter().zip(&mean) {
        let norm: f32 = c.iter().map(|x| x * x).sum::<f32>().sqrt();
        assert!((norm - 1.0).abs() > 1e-3, "CLS vector without Normalize should not be unit length");
        assert!(cosine(c, m) < 0.999, "CLS pooling gave the mean-pooled vector");
    }

    // Shorter max_seq_length is honoured.
    let short = model_variant(|d| {
        std::fs::write(d.join("sentence_bert_config.json"), r#"{"max_seq_length": 8, "do_lower_case": false}"#).unwrap();
    });
    let e = open_dir(short.path()).unwrap();
    assert_eq!(e.token_counts(&["one two three four five six seven eight nine ten"]).unwrap(), vec![8]);
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
        std::fs::write(d.join("model.safetensors"), b"\x08\x00\x00\x00\x00\x00\x00\x00not json").unwrap();
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

    let bad_tokenizer = model_variant(|d| std::fs::write(d.join("tokenizer.json"), "{\"version\": 1").unwrap());
    let e = one_line_error(bad_tokenizer.path());
    assert!(e.contains("tokenizer"), "{e}");

    // A tokenizer whose ids do not fit the embedding table.
    let wrong_tokenizer = model_variant(|d| {
        let cfg = std::fs::read_to_string(d.join("config.json")).unwrap();
        std::fs::write(d.join("config.json"), cfg.replace("\"vocab_size\": 30522", "\"vocab_size\": 1000")).unwrap();
    });
    let e = one_line_error(wrong_tokenizer.path());
    assert!(e.contains("vocab_size") || e.contains("does not match"), "{e}");

    let bad_config = model_variant(|d| std::fs::write(d.join("config.json"), "{}").unwrap());
    let e = one_line_error(bad_config.path());
    assert!(e.contains("config.json"), "{e}");
}

#[test]
fn embed_command_adds_vectors_in_input_order() {
    let refs = reference();
    let picked: Vec<&Reference> = refs.iter().step_by(25).collect();
    let mut input = String::new();
    for (i, r) in picked.iter().enumerate() {
        input.push_str(&serde_json::json!({"n": i, "text": r.text, "keep": {"x": [1, 2]}}).to_string());
        input.push('\n');
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("in.jsonl");
    std::fs::write(&path, &input).unwrap();
    let out = paperscout()
        .args(["--verbose", "embed", "--device", "cpu", "--batch-tokens", "512", "--model"])
        .arg(model_dir())
        .arg(&path)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(stderr.contains(&model_dir().display().to_string()), "verbose names the model path: {stderr}");
    let stdout = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), picked.len());
    for (i, (line, r)) in lines.iter().zip(&picked).enumerate() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        assert_eq!(v["n"], i);
        assert_eq!(v["keep"]["x"][1], 2);
        assert_eq!(v["text"], r.text.as_str());
        let e: Vec<f32> = v["embedding"].as_array().unwrap().iter().map(|x| x.as_f64().unwrap() as f32).collect();
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
        stdin.write_all(b"{\"text\": \"hello world\"}\n\n{\"text\": \"\"}\n").unwrap();
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
    let out = paperscout().arg("embed").arg("--model").arg(model_dir()).arg(&path).output().unwrap();
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("line 2"), "{stderr}");
    assert_eq!(stderr.trim().lines().count(), 1, "{stderr}");

    std::fs::write(&path, "{\"text\": \"ok\"}\n").unwrap();
    let out = paperscout().args(["embed", "--model", "/nonexistent/dir"]).arg(&path).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && stderr.contains("/nonexistent/dir"), "{stderr}");
    assert_eq!(stderr.trim().lines().count(), 1, "{stderr}");
}

/// `--precision fp16` runs the candle forward in half precision (on the CPU
/// too, so a library embedded on a GPU can be searched anywhere): parity at
/// cosine >= 0.999 and a model id of its own.
#[test]
fn fp16_keeps_parity_on_the_cpu() {
    let a = ModelArgs { precision: Some(Precision::Fp16), ..args(BackendChoice::Auto) };
    let e = embed::open(&a).unwrap();
    assert!(e.model_id().ends_with(":fp16"), "{}", e.model_id());
    assert!(e.summary().contains("F16"), "{}", e.summary());
    check_parity_at(&e, "fp16 on the CPU", true, 0.999);
    check_padding(&e, 0.999, 1e-2);
    let a = ModelArgs { precision: Some(Precision::Fp16), ..args(BackendChoice::Native) };
    let err = embed::open(&a).err().expect("fp16 with the native forward must fail");
    assert!(format!("{err:#}").contains("--precision fp16 runs on candle tensor ops"), "{err:#}");
}

/// The candle forward pools and normalises on its device: every pooling
/// mode, with and without the Normalize module, gives the native forward's
/// (CPU) vectors.
#[test]
fn candle_pooling_matches_the_cpu_for_every_mode() {
    let texts = ["Graph neural networks for scheduling", "Quantum error correction with surface codes on superconducting qubits", "a"];
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
                let kept: Vec<_> = v.into_iter().filter(|m| !m["type"].as_str().unwrap().ends_with("Normalize")).collect();
                std::fs::write(d.join("modules.json"), serde_json::to_string(&kept).unwrap()).unwrap();
            }
        });
        let open = |backend| {
            embed::open(&ModelArgs {
                model: Some(dir.path().to_path_buf()),
                backend,
                precision: Some(Precision::Fp32),
                ..ModelArgs::default()
            })
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
