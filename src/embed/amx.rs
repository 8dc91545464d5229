//! AMX tiles for the bf16 linear layers: on Intel Xeons since Sapphire
//! Rapids one `tdpbf16ps` multiplies a 16×32 bf16 tile by a 32×16 one into
//! 16×16 f32 sums — 8,192 multiply-adds an instruction, against 32 for
//! AVX-512 BF16's `vdpbf16ps`. Those Xeons' `vdpbf16ps` runs no faster than
//! their fp32 FMA, which is why bf16 without tiles was 0.6× fp32 there.
//!
//! Rust's AMX intrinsics are nightly-only, so each tile instruction is one
//! line of stable inline assembly behind the [`Tiles`] trait, which
//! [`Emulated`] also implements from the instructions' definitions in
//! Intel's manual. The kernel, [`gemm`], is generic over the two: every CPU
//! tests its blocking, addressing and edges through the emulation, and a
//! CPU with AMX checks the hardware against it once per process before
//! any product is trusted to it ([`available`]).
//!
//! Layouts, shared with the AVX-512 kernel (`super::bf16`): activations
//! row-major bf16 with `kp` values a row (`kp` a multiple of 32, rows
//! rounded up to 32 with zeros); weights in panels of 16 output channels,
//! each panel `kp / 2` rows of 16 channels × a pair of k (the VNNI layout a
//! tile's right operand takes), panels rounded up to an even count.

#[cfg(target_arch = "x86_64")]
use std::sync::OnceLock;

/// Values of k a tile row holds (64 bytes of bf16).
pub const K_BLOCK: usize = 32;
/// Rows of activations (and output channels) one pass of the kernel covers:
/// two tiles of 16 each way, four accumulators.
pub const BLOCK: usize = 32;
const ROWS: usize = 16;
const LANES: usize = 16;

/// One tile instruction each; tiles 0–3 hold sums, 4–5 activations, 6–7
/// weights, all 16 rows of 64 bytes. Offsets and strides count elements of
/// the slice given; a call outside it panics.
pub trait Tiles {
    /// Sets every tile's shape; once per thread before the others.
    fn configure(&mut self);
    fn zero<const T: u8>(&mut self);
    /// 16 rows of 32 bf16 from `src`, row `r` at `at + r·stride`.
    fn load<const T: u8>(&mut self, src: &[u16], at: usize, stride: usize);
    /// Sums `C` += `A` · `B` (`B` in pairs of k per output channel).
    fn dot<const C: u8, const A: u8, const B: u8>(&mut self);
    /// 16 rows of 16 f32 sums into `dst`, row `r` at `at + r·stride`.
    fn store<const T: u8>(&mut self, dst: &mut [f32], at: usize, stride: usize);
    /// Gives the tile state back to the OS (smaller context switches).
    fn release(&mut self);
}

fn check_load(len: usize, at: usize, stride: usize) {
    assert!(stride >= K_BLOCK && at + (ROWS - 1) * stride + K_BLOCK <= len, "tile load outside its slice");
}

fn check_store(len: usize, at: usize, stride: usize) {
    assert!(stride >= LANES && at + (ROWS - 1) * stride + LANES <= len, "tile store outside its slice");
}

/// `out[t, n]` (row stride `n`) = `a` · `packed`ᵀ over `kp` values of k.
/// `a` holds `t` rounded up to [`BLOCK`] rows of `kp`, the extra rows zero;
/// `packed` holds `n` rounded up to [`BLOCK`] channels in panels of 16.
pub fn gemm<U: Tiles>(u: &mut U, a: &[u16], t: usize, kp: usize, packed: &[u16], n: usize, out: &mut [f32]) {
    assert!(kp.is_multiple_of(K_BLOCK) && a.len() >= t.next_multiple_of(BLOCK) * kp);
    assert!(packed.len() >= n.next_multiple_of(BLOCK) * kp && out.len() >= t * n);
    let panel = LANES * kp;
    // Sums of a block that sticks out past `t` or `n`, cut to fit after.
    let mut edge = [0f32; BLOCK * BLOCK];
    u.configure();
    // The 32 rows of activations stay in cache while the weights stream.
    for r0 in (0..t).step_by(BLOCK) {
        for c0 in (0..n).step_by(BLOCK) {
            let p = c0 / LANES;
            u.zero::<0>();
            u.zero::<1>();
            u.zero::<2>();
            u.zero::<3>();
            for kb in (0..kp).step_by(K_BLOCK) {
                u.load::<4>(a, r0 * kp + kb, kp);
                u.load::<5>(a, (r0 + ROWS) * kp + kb, kp);
                // A panel's rows are pairs of k: this block's 16 start at kb / 2.
                u.load::<6>(packed, p * panel + kb / 2 * 2 * LANES, 2 * LANES);
                u.load::<7>(packed, (p + 1) * panel + kb / 2 * 2 * LANES, 2 * LANES);
                u.dot::<0, 4, 6>();
                u.dot::<1, 4, 7>();
                u.dot::<2, 5, 6>();
                u.dot::<3, 5, 7>();
            }
            if r0 + BLOCK <= t && c0 + BLOCK <= n {
                u.store::<0>(out, r0 * n + c0, n);
                u.store::<1>(out, r0 * n + c0 + LANES, n);
                u.store::<2>(out, (r0 + ROWS) * n + c0, n);
                u.store::<3>(out, (r0 + ROWS) * n + c0 + LANES, n);
            } else {
                u.store::<0>(&mut edge, 0, BLOCK);
                u.store::<1>(&mut edge, LANES, BLOCK);
                u.store::<2>(&mut edge, ROWS * BLOCK, BLOCK);
                u.store::<3>(&mut edge, ROWS * BLOCK + LANES, BLOCK);
                let cols = BLOCK.min(n - c0);
                for r in 0..BLOCK.min(t - r0) {
                    out[(r0 + r) * n + c0..][..cols].copy_from_slice(&edge[r * BLOCK..][..cols]);
                }
            }
        }
    }
    u.release();
}

/// The tile instructions computed as Intel's manual defines them, in
/// plain Rust, up to the order of the f32 additions inside one `tdpbf16ps`
/// (the hardware's differs; on the kernel's tests and self-check that is
/// under a twentieth of their tolerance): the kernel's reference on every
/// CPU.
pub struct Emulated {
    /// Each tile's 16 rows of 16 four-byte words: two bf16 (the lower
    /// address in the low half) or one f32.
    tiles: [[u32; ROWS * LANES]; 8],
    configured: bool,
}

impl Default for Emulated {
    fn default() -> Self {
        Emulated { tiles: [[0; ROWS * LANES]; 8], configured: false }
    }
}

/// `n` values in [-1, 1) from `seed` (a linear congruential generator):
/// the self-check's and the tests' data, the same on every run.
#[cfg(any(test, target_arch = "x86_64"))]
pub(super) fn values(n: usize, seed: u64) -> Vec<f32> {
    let mut s = seed;
    (0..n)
        .map(|_| {
            s = s.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            ((s >> 40) as f32 / (1u64 << 24) as f32) * 2.0 - 1.0
        })
        .collect()
}

/// `x` cut to bfloat16 (rounding is `super::bf16`'s business; test data
/// needs only some bf16 value).
#[cfg(any(test, target_arch = "x86_64"))]
fn truncate(x: f32) -> u16 {
    (x.to_bits() >> 16) as u16
}

#[cfg(test)]
fn widen(h: u16) -> f32 {
    f32::from_bits(u32::from(h) << 16)
}

fn bf16_lo(w: u32) -> f32 {
    f32::from_bits(w << 16)
}

fn bf16_hi(w: u32) -> f32 {
    f32::from_bits(w & 0xffff_0000)
}

impl Tiles for Emulated {
    fn configure(&mut self) {
        self.configured = true;
    }

    fn zero<const T: u8>(&mut self) {
        assert!(self.configured, "tiles used before configure");
        self.tiles[T as usize] = [0; ROWS * LANES];
    }

    fn load<const T: u8>(&mut self, src: &[u16], at: usize, stride: usize) {
        assert!(self.configured, "tiles used before configure");
        check_load(src.len(), at, stride);
        for r in 0..ROWS {
            for c in 0..LANES {
                let i = at + r * stride + 2 * c;
                self.tiles[T as usize][r * LANES + c] = u32::from(src[i]) | u32::from(src[i + 1]) << 16;
            }
        }
    }

    fn dot<const C: u8, const A: u8, const B: u8>(&mut self) {
        assert!(self.configured, "tiles used before configure");
        let (a, b) = (self.tiles[A as usize], self.tiles[B as usize]);
        let c = &mut self.tiles[C as usize];
        for m in 0..ROWS {
            for n in 0..LANES {
                let mut sum = f32::from_bits(c[m * LANES + n]);
                for q in 0..LANES {
                    let (x, y) = (a[m * LANES + q], b[q * LANES + n]);
                    sum += bf16_lo(x) * bf16_lo(y) + bf16_hi(x) * bf16_hi(y);
                }
                c[m * LANES + n] = sum.to_bits();
            }
        }
    }

    fn store<const T: u8>(&mut self, dst: &mut [f32], at: usize, stride: usize) {
        assert!(self.configured, "tiles used before configure");
        check_store(dst.len(), at, stride);
        for r in 0..ROWS {
            for c in 0..LANES {
                dst[at + r * stride + c] = f32::from_bits(self.tiles[T as usize][r * LANES + c]);
            }
        }
    }

    fn release(&mut self) {
        self.configured = false;
    }
}

/// Whether this process may use AMX tiles: the CPU has them, Linux lets
/// this process use them, and the hardware's products agree with
/// [`Emulated`]'s. Asked once; the answer says why not.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// The CPU has no AMX-TILE and AMX-BF16 (or this is not x86-64).
    NoCpu,
    /// The kernel refused the tile state (Linux before 5.16, or a VM
    /// without it).
    NoPermission,
    /// The self-check's products differed from the emulation's.
    WrongProducts,
    Ready,
}

#[cfg(target_arch = "x86_64")]
pub fn status() -> Status {
    static STATUS: OnceLock<Status> = OnceLock::new();
    *STATUS.get_or_init(|| {
        let s = hardware::probe();
        if s == Status::WrongProducts {
            crate::messages::warning(
                "this CPU's AMX tiles gave other products than their definition in a self-check; bf16 runs on AVX-512 instead",
            );
        }
        s
    })
}

#[cfg(not(target_arch = "x86_64"))]
pub fn status() -> Status {
    Status::NoCpu
}

pub fn available() -> bool {
    status() == Status::Ready
}

/// The hardware's tiles, for a process [`available`] said yes to.
#[cfg(target_arch = "x86_64")]
pub use hardware::Hardware;

#[cfg(target_arch = "x86_64")]
mod hardware {
    use super::{check_load, check_store, gemm, Emulated, Status, Tiles, K_BLOCK, ROWS};
    use std::arch::asm;

    /// Tile shapes in the layout `ldtilecfg` reads (palette 1): bytes
    /// 16–47 each tile's bytes a row, 48–63 its rows.
    #[repr(C, align(64))]
    struct Config([u8; 64]);

    impl Config {
        fn all_full() -> Config {
            let mut c = [0u8; 64];
            c[0] = 1;
            for t in 0..8 {
                c[16 + 2 * t..18 + 2 * t].copy_from_slice(&64u16.to_le_bytes());
                c[48 + t] = ROWS as u8;
            }
            Config(c)
        }
    }

    /// Proof that this process may run tile instructions; zero-sized.
    pub struct Hardware(());

    impl Hardware {
        pub fn new() -> Option<Hardware> {
            super::available().then_some(Hardware(()))
        }
    }

    fn cpu_has_amx() -> bool {
        // Leaf 7 means something where the highest leaf (leaf 0's EAX) is 7
        // or more. CPUID is on every x86-64 CPU; std's intrinsics for it are
        // safe functions only in recent releases, hence the block the older
        // compilers the README allows need.
        #[allow(unused_unsafe)]
        // SAFETY: as above.
        let (max, leaf7) = unsafe { (std::arch::x86_64::__cpuid(0).eax, std::arch::x86_64::__cpuid_count(7, 0)) };
        // EDX bit 24: AMX-TILE; bit 22: AMX-BF16.
        max >= 7 && leaf7.edx & (1 << 24) != 0 && leaf7.edx & (1 << 22) != 0
    }

    /// Linux hands out the tiles' 8 KiB of register state only to a
    /// process that asks (`arch_prctl(ARCH_REQ_XCOMP_PERM, XTILEDATA)`);
    /// without it the first tile instruction is a SIGILL.
    #[cfg(target_os = "linux")]
    fn permission() -> bool {
        const ARCH_REQ_XCOMP_PERM: libc::c_long = 0x1023;
        const XFEATURE_XTILEDATA: libc::c_long = 18;
        // SAFETY: a system call with two integer arguments and no memory.
        unsafe { libc::syscall(libc::SYS_arch_prctl, ARCH_REQ_XCOMP_PERM, XFEATURE_XTILEDATA) == 0 }
    }

    /// Elsewhere no tile state is known to be handed out.
    #[cfg(not(target_os = "linux"))]
    fn permission() -> bool {
        false
    }

    pub(super) fn probe() -> Status {
        if !cpu_has_amx() {
            return Status::NoCpu;
        }
        if !permission() {
            return Status::NoPermission;
        }
        let hw = &mut Hardware(());
        if self_check(hw) {
            Status::Ready
        } else {
            Status::WrongProducts
        }
    }

    /// A product with every edge (rows and channels past a block, two
    /// k blocks) through the hardware and the emulation: the same sums up
    /// to the order of additions.
    fn self_check(hw: &mut Hardware) -> bool {
        let (t, kp, n): (usize, usize, usize) = (40, 2 * K_BLOCK, 48);
        // Values cut to bf16: exact in both.
        let bf16 = |n: usize, seed: u64| -> Vec<u16> { super::values(n, seed).into_iter().map(super::truncate).collect() };
        let mut a = bf16(t.next_multiple_of(super::BLOCK) * kp, 3);
        a[t * kp..].fill(0);
        let packed = bf16(n.next_multiple_of(super::BLOCK) * kp, 4);
        let (mut got, mut want) = (vec![f32::NAN; t * n], vec![f32::NAN; t * n]);
        gemm(hw, &a, t, kp, &packed, n, &mut got);
        gemm(&mut Emulated::default(), &a, t, kp, &packed, n, &mut want);
        got.iter().zip(&want).all(|(g, w)| (g - w).abs() <= 1e-3)
    }

    impl Tiles for Hardware {
        #[inline(always)]
        fn configure(&mut self) {
            let c = Config::all_full();
            // SAFETY: `self` exists only where the CPU and OS allow tiles;
            // the config is 64 aligned bytes that live across the call.
            unsafe { asm!("ldtilecfg [{}]", in(reg) c.0.as_ptr(), options(nostack, readonly, preserves_flags)) };
        }

        #[inline(always)]
        fn zero<const T: u8>(&mut self) {
            // SAFETY: tiles allowed (see `configure`); registers only.
            unsafe { asm!("tilezero tmm{t}", t = const T, options(nostack, nomem, preserves_flags)) };
        }

        #[inline(always)]
        fn load<const T: u8>(&mut self, src: &[u16], at: usize, stride: usize) {
            check_load(src.len(), at, stride);
            // SAFETY: the check keeps all 16 rows of 64 bytes inside `src`.
            unsafe {
                asm!(
                    "tileloadd tmm{t}, [{p} + {s}*1]",
                    t = const T,
                    p = in(reg) src.as_ptr().add(at),
                    s = in(reg) stride * 2,
                    options(nostack, readonly, preserves_flags)
                )
            };
        }

        #[inline(always)]
        fn dot<const C: u8, const A: u8, const B: u8>(&mut self) {
            // SAFETY: tiles allowed; registers only.
            unsafe {
                asm!("tdpbf16ps tmm{c}, tmm{a}, tmm{b}", c = const C, a = const A, b = const B, options(nostack, nomem, preserves_flags))
            };
        }

        #[inline(always)]
        fn store<const T: u8>(&mut self, dst: &mut [f32], at: usize, stride: usize) {
            check_store(dst.len(), at, stride);
            // SAFETY: the check keeps all 16 rows of 64 bytes inside `dst`.
            unsafe {
                asm!(
                    "tilestored [{p} + {s}*1], tmm{t}",
                    t = const T,
                    p = in(reg) dst.as_mut_ptr().add(at),
                    s = in(reg) stride * 4,
                    options(nostack, preserves_flags)
                )
            };
        }

        #[inline(always)]
        fn release(&mut self) {
            // SAFETY: tiles allowed; registers only.
            unsafe { asm!("tilerelease", options(nostack, nomem, preserves_flags)) };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Activations and weights in the kernel's layouts, and the product of
    /// their bf16 values summed in f64.
    fn problem(t: usize, k: usize, n: usize) -> (Vec<u16>, Vec<u16>, usize, Vec<f32>) {
        let kp = k.next_multiple_of(K_BLOCK);
        let (x, w) = (values(t * k, 1), values(n * k, 2));
        let mut a = vec![0u16; t.next_multiple_of(BLOCK) * kp];
        for i in 0..t {
            for j in 0..k {
                a[i * kp + j] = truncate(x[i * k + j]);
            }
        }
        let mut packed = vec![0u16; n.next_multiple_of(BLOCK) * kp];
        for c in 0..n {
            for j in 0..k {
                packed[(c / LANES) * LANES * kp + (j / 2) * LANES * 2 + (c % LANES) * 2 + j % 2] = truncate(w[c * k + j]);
            }
        }
        let r = |v: f32| widen(truncate(v)) as f64;
        let want = (0..t * n).map(|i| (0..k).map(|j| r(x[i / n * k + j]) * r(w[i % n * k + j])).sum::<f64>() as f32).collect();
        (a, packed, kp, want)
    }

    fn run<U: Tiles>(u: &mut U, t: usize, k: usize, n: usize) {
        let (a, packed, kp, want) = problem(t, k, n);
        let mut out = vec![f32::NAN; t * n];
        gemm(u, &a, t, kp, &packed, n, &mut out);
        for (i, (g, e)) in out.iter().zip(&want).enumerate() {
            assert!((g - e).abs() <= 1e-5 * (k as f32).sqrt(), "{t}x{k}x{n} [{i}]: {g} vs {e}");
        }
    }

    /// Edges of every kind: rows and channels past a block, k short of a
    /// tile row, one row, the model's own shapes.
    const SHAPES: [(usize, usize, usize); 6] = [(1, 3, 1), (13, 37, 45), (32, 32, 32), (33, 64, 17), (70, 384, 96), (5, 1536, 40)];

    #[test]
    fn the_tiled_kernel_multiplies_in_the_emulation_at_every_edge() {
        for (t, k, n) in SHAPES {
            run(&mut Emulated::default(), t, k, n);
        }
    }

    #[test]
    #[should_panic(expected = "outside its slice")]
    fn a_tile_load_past_its_slice_panics() {
        let mut u = Emulated::default();
        u.configure();
        u.load::<4>(&[0u16; 16 * 32], 1, 32);
    }

    #[cfg(target_arch = "x86_64")]
    #[test]
    fn amx_tiles_match_the_emulation_where_the_cpu_has_them() {
        match status() {
            Status::NoCpu | Status::NoPermission => {
                eprintln!("skipped: no AMX tiles here ({:?})", status());
            }
            Status::WrongProducts => panic!("the AMX self-check failed: the tiles' products differ from their definition"),
            Status::Ready => {
                for (t, k, n) in SHAPES {
                    run(&mut Hardware::new().expect("ready"), t, k, n);
                }
            }
        }
    }
}
