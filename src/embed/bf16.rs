//! bf16 linear layers for `--precision bf16`: weights and activations
//! rounded to bfloat16 (8-bit mantissa), products summed in f32. Three
//! kernels compute them ([`Kernel`]): AMX tiles where the CPU has them
//! (`super::amx`), AVX-512 BF16 (`vdpbf16ps`: 32 multiply-adds an
//! instruction against 16 for an fp32 FMA), and otherwise the same rounded
//! values through the fp32 GEMM, so results agree on every CPU.

use super::amx;
use std::sync::OnceLock;

/// Output channels per packed panel: one 512-bit vector of f32 sums.
const PANEL: usize = 16;
/// Rows of activations one micro-kernel call covers.
const MR: usize = 6;
/// Panels one micro-kernel call covers (MR × NV accumulators, 24 of 32 zmm).
const NV: usize = 4;

/// `x` rounded to the nearest bfloat16 (ties to even), as its 16 bits.
pub fn to_bf16(x: f32) -> u16 {
    let b = x.to_bits();
    if x.is_nan() {
        return ((b >> 16) | 0x40) as u16;
    }
    ((b + 0x7fff + ((b >> 16) & 1)) >> 16) as u16
}

pub fn from_bf16(h: u16) -> f32 {
    f32::from_bits((h as u32) << 16)
}

/// Whether this CPU runs the bf16 products natively.
pub fn native() -> bool {
    static HAS: OnceLock<bool> = OnceLock::new();
    *HAS.get_or_init(|| {
        #[cfg(target_arch = "x86_64")]
        {
            is_x86_feature_detected!("avx512f") && is_x86_feature_detected!("avx512bf16")
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            false
        }
    })
}

/// Which instructions multiply the bf16 values. All three give the same
/// sums up to the order of additions; the precision trial times those this
/// CPU has (`super::trial`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kernel {
    /// AMX tiles (Intel Xeons since Sapphire Rapids).
    Amx,
    /// AVX-512 BF16 dot products.
    Avx512,
    /// The bf16-rounded values through the fp32 GEMM.
    Rounded,
}

impl Kernel {
    /// The fastest this CPU has, by instruction width: what `--precision
    /// bf16` runs on when no trial chose.
    pub fn best() -> Kernel {
        Kernel::native().first().copied().unwrap_or(Kernel::Rounded)
    }

    /// The kernels that run bf16 natively here, widest first: the ones worth
    /// timing against fp32 (the rounded one never beats it).
    pub fn native() -> Vec<Kernel> {
        let mut k = Vec::new();
        if amx::available() {
            k.push(Kernel::Amx);
        }
        if native() {
            k.push(Kernel::Avx512);
        }
        k
    }

    /// How `embed -v` names it.
    pub fn describe(self) -> &'static str {
        match self {
            Kernel::Amx => "bf16 products on AMX tiles",
            Kernel::Avx512 => "bf16 products on AVX-512 BF16",
            Kernel::Rounded => "bf16-rounded products on fp32 kernels (no AVX-512 BF16)",
        }
    }
}

/// A PyTorch linear weight `[n, k]` in bf16.
pub struct Bf16Linear {
    n: usize,
    k: usize,
    /// `k` rounded up to a tile row (32; one f32 lane takes a pair).
    kp: usize,
    kernel: Kernel,
    /// Panels of 16 channels, rounded up to an even count (AMX takes two at
    /// a time); inside a panel, for each pair of `k`, the 16 channels' two
    /// values one after the other (64 bytes = one load, or one tile row).
    packed: Vec<u16>,
    /// The rounded weight as f32 `[n, k]`, for CPUs without AVX-512 BF16.
    rounded: Vec<f32>,
}

/// Reusable per-thread buffer for the rounded activations.
#[derive(Default)]
pub struct Scratch {
    a: Vec<u16>,
    f: Vec<f32>,
}

impl Bf16Linear {
    /// Packed for `kernel`, or for the best this CPU has where it lacks it
    /// (the rounded fallback runs anywhere).
    pub fn new(w: &[f32], n: usize, k: usize, kernel: Kernel) -> Bf16Linear {
        assert_eq!(w.len(), n * k);
        let kernel = if kernel == Kernel::Rounded || Kernel::native().contains(&kernel) { kernel } else { Kernel::best() };
        let kp = k.next_multiple_of(amx::K_BLOCK);
        if kernel == Kernel::Rounded {
            let rounded = w.iter().map(|&v| from_bf16(to_bf16(v))).collect();
            return Bf16Linear { n, k, kp, kernel, packed: Vec::new(), rounded };
        }
        let mut packed = vec![0u16; n.next_multiple_of(amx::BLOCK) * kp];
        for c in 0..n {
            let (p, lane) = (c / PANEL, c % PANEL);
            for (j, &v) in w[c * k..(c + 1) * k].iter().enumerate() {
                packed[p * PANEL * kp + (j / 2) * PANEL * 2 + lane * 2 + j % 2] = to_bf16(v);
            }
        }
        Bf16Linear { n, k, kp, kernel, packed, rounded: Vec::new() }
    }

    pub fn kernel(&self) -> Kernel {
        self.kernel
    }

    /// `out[t, n] = x[t, k] · wᵀ`, bias left out, like the fp32 `linear`;
    /// `fp32` runs a product of that shape on f32 slices.
    pub fn forward(&self, x: &[f32], t: usize, out: &mut [f32], scratch: &mut Scratch, fp32: impl FnOnce(&[f32], &[f32], &mut [f32])) {
        let (n, k, kp) = (self.n, self.k, self.kp);
        assert!(x.len() >= t * k && out.len() >= t * n);
        #[cfg(target_arch = "x86_64")]
        if self.kernel != Kernel::Rounded {
            // AMX reads whole blocks of 32 rows; the rows past `t` are zero.
            let rows = if self.kernel == Kernel::Amx { t.next_multiple_of(amx::BLOCK) } else { t };
            // Every element is written below, so the buffer is only grown.
            if scratch.a.len() < rows * kp {
                scratch.a.resize(rows * kp, 0);
            }
            let a = &mut scratch.a[..rows * kp];
            let vector_rounding = native();
            for (row, dst) in x[..t * k].chunks_exact(k).zip(a.chunks_exact_mut(kp)) {
                if vector_rounding {
                    // SAFETY: `native()` saw AVX-512 F and BF16.
                    unsafe { avx512::round_row(row, &mut dst[..k]) };
                } else {
                    dst[..k].iter_mut().zip(row).for_each(|(d, &v)| *d = to_bf16(v));
                }
                dst[k..].fill(0);
            }
            a[t * kp..].fill(0);
            if self.kernel == Kernel::Amx {
                if let Some(mut tiles) = amx::Hardware::new() {
                    amx::gemm(&mut tiles, a, t, kp, &self.packed, n, out);
                    return;
                }
            }
            assert!(native(), "bf16 weights packed for a kernel this CPU lacks");
            // SAFETY: `native()` saw AVX-512 F and BF16; the asserts and the
            // packed layout bound every access the kernel makes.
            unsafe { avx512::gemm(self, a, t, out) };
            return;
        }
        scratch.f.clear();
        scratch.f.extend(x[..t * k].iter().map(|&v| from_bf16(to_bf16(v))));
        fp32(&scratch.f, &self.rounded, &mut out[..t * n]);
    }
}

#[cfg(target_arch = "x86_64")]
mod avx512 {
    use super::{Bf16Linear, MR, NV, PANEL};
    use std::arch::x86_64::*;

    /// Rounds a row of f32 to bf16 (ties to even, like [`super::to_bf16`]).
    #[target_feature(enable = "avx512f,avx512bf16,avx512vl")]
    pub unsafe fn round_row(x: &[f32], out: &mut [u16]) {
        let n = x.len();
        let mut j = 0;
        while j + 16 <= n {
            let v = _mm512_cvtneps_pbh(_mm512_loadu_ps(x.as_ptr().add(j)));
            _mm256_storeu_si256(out.as_mut_ptr().add(j) as *mut __m256i, std::mem::transmute::<__m256bh, __m256i>(v));
            j += 16;
        }
        for (o, &v) in out[j..].iter_mut().zip(&x[j..]) {
            *o = super::to_bf16(v);
        }
    }

    #[target_feature(enable = "avx512f,avx512bf16")]
    pub unsafe fn gemm(w: &Bf16Linear, a: &[u16], t: usize, out: &mut [f32]) {
        let panels = w.n.div_ceil(PANEL);
        let mut p = 0;
        while p < panels {
            let nv = NV.min(panels - p);
            let mut r = 0;
            while r < t {
                let mr = MR.min(t - r);
                // SAFETY (all calls): rows r..r+mr < t and panels p..p+nv <
                // panels, which `a`, `packed` and `out` hold.
                unsafe {
                    if mr == MR && nv == NV {
                        tile::<MR, NV>(w, a, r, p, out);
                    } else {
                        for rr in r..r + mr {
                            for pp in p..p + nv {
                                tile::<1, 1>(w, a, rr, pp, out);
                            }
                        }
                    }
                }
                r += mr;
            }
            p += nv;
        }
    }

    /// `M` rows × `V` panels of 16 channels over the whole of k.
    #[target_feature(enable = "avx512f,avx512bf16")]
    #[inline]
    unsafe fn tile<const M: usize, const V: usize>(w: &Bf16Linear, a: &[u16], r0: usize, p0: usize, out: &mut [f32]) {
        let kp = w.kp;
        let mut acc = [[_mm512_setzero_ps(); V]; M];
        let arow = a.as_ptr().add(r0 * kp);
        let wp = w.packed.as_ptr().add(p0 * PANEL * kp);
        for g in 0..kp / 2 {
            let mut wv = [_mm512_setzero_si512(); V];
            for (v, slot) in wv.iter_mut().enumerate() {
                *slot = _mm512_loadu_si512(wp.add(v * PANEL * kp + g * PANEL * 2) as *const _);
            }
            for (m, row) in acc.iter_mut().enumerate() {
                let pair = (arow.add(m * kp + g * 2) as *const i32).read_unaligned();
                let av: __m512bh = std::mem::transmute(_mm512_set1_epi32(pair));
                for v in 0..V {
                    row[v] = _mm512_dpbf16_ps(row[v], av, std::mem::transmute::<__m512i, __m512bh>(wv[v]));
                }
            }
        }
        for (m, row) in acc.iter().enumerate() {
            let r = r0 + m;
            for (v, sums) in row.iter().enumerate() {
                let c0 = (p0 + v) * PANEL;
                let lanes = PANEL.min(w.n - c0);
                let mask: __mmask16 = if lanes == PANEL { !0 } else { (1u16 << lanes) - 1 };
                _mm512_mask_storeu_ps(out.as_mut_ptr().add(r * w.n + c0), mask, *sums);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::embed::amx::values;

    /// The reference: both sides rounded to bf16, products summed in f64.
    fn expected(x: &[f32], w: &[f32], t: usize, k: usize, n: usize) -> Vec<f32> {
        let r = |v: f32| from_bf16(to_bf16(v)) as f64;
        let mut out = vec![0.0; t * n];
        for i in 0..t {
            for c in 0..n {
                out[i * n + c] = (0..k).map(|j| r(x[i * k + j]) * r(w[c * k + j])).sum::<f64>() as f32;
            }
        }
        out
    }

    #[test]
    fn rounding_is_to_nearest_even() {
        assert_eq!(to_bf16(1.0), 0x3f80);
        assert_eq!(from_bf16(to_bf16(-2.5)), -2.5);
        // 1 + 2^-8 is halfway between 1 and 1 + 2^-7: ties to even (1).
        assert_eq!(from_bf16(to_bf16(1.0 + 1.0 / 256.0)), 1.0);
        assert_eq!(from_bf16(to_bf16(1.0 + 3.0 / 256.0)), 1.0 + 4.0 / 256.0);
        assert!(from_bf16(to_bf16(f32::NAN)).is_nan());
        assert_eq!(from_bf16(to_bf16(f32::INFINITY)), f32::INFINITY);
    }

    #[test]
    fn products_match_rounded_inputs_at_every_edge() {
        // Odd k, n not a multiple of 16, t not a multiple of the row tile.
        for (t, k, n) in [(13, 37, 45), (6, 384, 64), (1, 3, 1), (20, 96, 130), (7, 1536, 17)] {
            let x = values(t * k, 1);
            let w = values(n * k, 2);
            let want = expected(&x, &w, t, k, n);
            // Each kernel this CPU has, and always the fallback.
            for kernel in Kernel::native().into_iter().chain([Kernel::Rounded]) {
                let lin = Bf16Linear::new(&w, n, k, kernel);
                assert_eq!(lin.kernel(), kernel);
                let mut out = vec![f32::NAN; t * n];
                lin.forward(&x, t, &mut out, &mut Scratch::default(), |a, b, o| {
                    for i in 0..t {
                        for c in 0..n {
                            o[i * n + c] = (0..k).map(|j| a[i * k + j] * b[c * k + j]).sum();
                        }
                    }
                });
                for (i, (g, e)) in out.iter().zip(&want).enumerate() {
                    let tol = 1e-5 * (k as f32).sqrt();
                    assert!((g - e).abs() <= tol, "{t}x{k}x{n} {kernel:?} [{i}]: {g} vs {e}");
                }
            }
        }
    }
}
