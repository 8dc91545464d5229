//! The GPU path (built with `--features cuda`). Where no device answers the
//! `cuda_*` tests skip, saying so on stderr, unless `PAPERSCOUT_REQUIRE_GPU`
//! is set. Compiled twice: into `it` without the feature (the CPU fallback's
//! one line), and alone as the `cuda` test binary (tests/cuda.rs) that
//! scripts/check-cuda runs and scripts/gpu-proof carries to a GPU machine.
//! The GPU tests are not behind the feature: they compile in both builds
//! (and skip in the plain one), so a change to what they call breaks
//! scripts/test rather than only CI's CUDA build.

use crate::common::parity::{args, check_padding, check_parity, check_parity_at, model_dir, no_cuda_device, paperscout};
use paperscout::embed::{self, BackendChoice, Embedder, ModelArgs, Precision};
use std::process::Stdio;

#[cfg(not(feature = "cuda"))]
#[test]
fn cuda_without_the_feature_is_a_clear_error() {
    let a = ModelArgs { device: paperscout::embed::DeviceChoice::Cuda, ..args(BackendChoice::Auto) };
    let err = match embed::load(&a) {
        Ok(_) => panic!("loaded on CUDA without the cuda feature"),
        Err(e) => format!("{e:#}"),
    };
    assert!(err.contains("--features cuda"), "{err}");
}

/// Whether a CUDA device answers; without one the GPU tests skip, saying so
/// loudly, unless `PAPERSCOUT_REQUIRE_GPU` is set, which makes it a failure.
fn cuda_answers(test: &str) -> bool {
    let Some(why) = no_cuda_device() else {
        return true;
    };
    assert!(std::env::var_os("PAPERSCOUT_REQUIRE_GPU").is_none(), "{test}: PAPERSCOUT_REQUIRE_GPU is set, but {why}");
    eprintln!("SKIPPED {test}: {why} (set PAPERSCOUT_REQUIRE_GPU=1 to fail instead)");
    false
}

fn cuda_args(precision: Precision) -> ModelArgs {
    ModelArgs { device: paperscout::embed::DeviceChoice::Cuda, precision: Some(precision), ..args(BackendChoice::Auto) }
}

/// The GPU's default: f16 weights and activations, cosine >= 0.999.
#[test]
fn cuda_fp16_parity() {
    if !cuda_answers("cuda_fp16_parity") {
        return;
    }
    let e = embed::open(&cuda_args(Precision::Fp16)).unwrap();
    assert!(e.model_id().ends_with(":fp16"), "{}", e.model_id());
    assert!(e.summary().contains("on CUDA in F16"), "{}", e.summary());
    check_parity_at(&e, "CUDA fp16", false, 0.999);
    check_padding(&e, 0.999, 1e-2);
}

#[test]
fn cuda_fp32_parity() {
    if !cuda_answers("cuda_fp32_parity") {
        return;
    }
    let e = embed::open(&cuda_args(Precision::Fp32)).unwrap();
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
        let expected = if cfg!(feature = "cuda") { "no CUDA device answered" } else { "this build has no CUDA support" };
        assert!(why[0].contains(expected), "{stderr}");
        assert!(stderr.contains("native CPU forward"), "{stderr}");
    }
}
