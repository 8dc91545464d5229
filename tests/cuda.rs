//! The GPU path's tests alone, for `--features cuda` builds: scripts/check-cuda
//! runs them on a machine without a GPU (they skip, saying why) and
//! scripts/gpu-proof carries this small binary to a lent GPU machine. The
//! same tests run inside `it` without the feature (tests/it/gpu.rs).

#[path = "common/mod.rs"]
mod common;
#[path = "it/gpu.rs"]
mod gpu;
