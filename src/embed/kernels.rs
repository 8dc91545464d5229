//! Element-wise CPU kernels of the native BERT forward: bias+activation,
//! bias+residual+LayerNorm, softmax. Written as plain loops that the compiler
//! vectorises, compiled three times (AVX-512, AVX2+FMA, baseline) and picked
//! at run time, so one binary is fast on new CPUs and still runs on old ones.
//!
//! `exp` and `erf` are polynomial approximations (Cephes `expf`, about 1 ulp;
//! Abramowitz–Stegun 7.1.26 for erf, absolute error below 1.5e-7) because the
//! libm calls do not vectorise and dominate the run time otherwise.

use super::bert::Activation;

#[cfg(target_arch = "x86_64")]
fn simd_level() -> u8 {
    use std::sync::atomic::{AtomicU8, Ordering};
    static LEVEL: AtomicU8 = AtomicU8::new(0);
    match LEVEL.load(Ordering::Relaxed) {
        0 => {
            let level = if is_x86_feature_detected!("avx512f")
                && is_x86_feature_detected!("avx512bw")
                && is_x86_feature_detected!("avx512vl")
                && is_x86_feature_detected!("fma")
            {
                4
            } else if is_x86_feature_detected!("avx2") && is_x86_feature_detected!("fma") {
                3
            } else {
                1
            };
            LEVEL.store(level, Ordering::Relaxed);
            level
        }
        l => l,
    }
}

/// Name of the instruction set the kernels run with, for `--verbose`.
pub fn simd_name() -> &'static str {
    #[cfg(target_arch = "x86_64")]
    {
        match simd_level() {
            4 => "avx512",
            3 => "avx2",
            _ => "sse2",
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        "generic"
    }
}

/// Defines `pub fn $name(args)` that runs `$body` compiled for the best
/// instruction set this CPU has.
macro_rules! multiversion {
    ($(#[$meta:meta])* pub fn $name:ident($($arg:ident: $ty:ty),* $(,)?) $body:block) => {
        $(#[$meta])*
        pub fn $name($($arg: $ty),*) {
            #[inline(always)]
            fn imp($($arg: $ty),*) $body
            #[cfg(target_arch = "x86_64")]
            {
                #[target_feature(enable = "avx512f,avx512bw,avx512vl,avx2,fma")]
                unsafe fn v4($($arg: $ty),*) { imp($($arg),*) }
                #[target_feature(enable = "avx2,fma")]
                unsafe fn v3($($arg: $ty),*) { imp($($arg),*) }
                match simd_level() {
                    // SAFETY: the CPU has the features these were compiled for.
                    4 => return unsafe { v4($($arg),*) },
                    3 => return unsafe { v3($($arg),*) },
                    _ => {}
                }
            }
            imp($($arg),*)
        }
    };
}

const LANES: usize = 16;

#[inline(always)]
fn sum(xs: &[f32]) -> f32 {
    let mut acc = [0f32; LANES];
    let chunks = xs.chunks_exact(LANES);
    let rest = chunks.remainder();
    for c in chunks {
        for i in 0..LANES {
            acc[i] += c[i];
        }
    }
    acc.iter().sum::<f32>() + rest.iter().sum::<f32>()
}

#[inline(always)]
fn sum_sq_diff(xs: &[f32], m: f32) -> f32 {
    let mut acc = [0f32; LANES];
    let chunks = xs.chunks_exact(LANES);
    let rest = chunks.remainder();
    for c in chunks {
        for i in 0..LANES {
            let d = c[i] - m;
            acc[i] += d * d;
        }
    }
    acc.iter().sum::<f32>() + rest.iter().map(|&x| (x - m) * (x - m)).sum::<f32>()
}

#[inline(always)]
fn max(xs: &[f32]) -> f32 {
    let mut acc = [f32::NEG_INFINITY; LANES];
    let chunks = xs.chunks_exact(LANES);
    let rest = chunks.remainder();
    for c in chunks {
        for i in 0..LANES {
            acc[i] = if c[i] > acc[i] { c[i] } else { acc[i] };
        }
    }
    let mut m = f32::NEG_INFINITY;
    for &v in acc.iter().chain(rest) {
        m = if v > m { v } else { m };
    }
    m
}

/// e^x, Cephes-style: x = n ln2 + r, e^r by a degree-6 polynomial, 2^n by
/// building the exponent bits.
#[inline(always)]
pub(crate) fn exp(x: f32) -> f32 {
    const LOG2E: f32 = std::f32::consts::LOG2_E;
    const ROUND: f32 = 12_582_912.0; // 1.5 * 2^23: adding it rounds to an integer
    let x = x.clamp(-87.0, 88.0);
    let t = x * LOG2E + ROUND;
    let n = t - ROUND;
    // n as an integer, read from t's mantissa (a saturating `as i32` would
    // not vectorise).
    let ni = (t.to_bits() as i32).wrapping_sub(ROUND.to_bits() as i32);
    let r = x - n * 0.693_359_4 + n * 2.121_944_4e-4;
    let p = ((((1.987_569_1e-4 * r + 1.398_2e-3) * r + 8.333_452e-3) * r + 4.166_579_6e-2) * r + 1.666_666_5e-1) * r + 0.5;
    let y = p * r * r + r + 1.0;
    let bits = (ni.wrapping_add(127) as u32) << 23;
    y * f32::from_bits(bits)
}

#[inline(always)]
pub(crate) fn erf(x: f32) -> f32 {
    let a = x.abs();
    let t = 1.0 / (1.0 + 0.327_591_1 * a);
    let poly = ((((1.061_405_4 * t - 1.453_152_1) * t + 1.421_413_8) * t - 0.284_496_74) * t + 0.254_829_6) * t;
    (1.0 - poly * exp(-a * a)).copysign(x)
}

#[inline(always)]
fn gelu(x: f32) -> f32 {
    0.5 * x * (1.0 + erf(x * std::f32::consts::FRAC_1_SQRT_2))
}

#[inline(always)]
fn gelu_tanh(x: f32) -> f32 {
    const C: f32 = 0.797_884_6; // sqrt(2 / pi)
    let z = C * (x + 0.044_715 * x * x * x);
    // tanh(z) = 1 - 2 / (e^{2z} + 1)
    let tanh = 1.0 - 2.0 / (exp(2.0 * z) + 1.0);
    0.5 * x * (1.0 + tanh)
}

multiversion! {
    /// `rows[r][j] += bias[j]` for every row of width `bias.len()`.
    pub fn add_bias(rows: &mut [f32], bias: &[f32]) {
        for row in rows.chunks_exact_mut(bias.len()) {
            for (v, &b) in row.iter_mut().zip(bias) {
                *v += b;
            }
        }
    }
}

multiversion! {
    /// `rows[r][j] = act(rows[r][j] + bias[j])`.
    pub fn add_bias_act(rows: &mut [f32], bias: &[f32], act: Activation) {
        for row in rows.chunks_exact_mut(bias.len()) {
            match act {
                Activation::Gelu => {
                    for (v, &b) in row.iter_mut().zip(bias) {
                        *v = gelu(*v + b);
                    }
                }
                Activation::GeluTanh => {
                    for (v, &b) in row.iter_mut().zip(bias) {
                        *v = gelu_tanh(*v + b);
                    }
                }
                Activation::Relu => {
                    for (v, &b) in row.iter_mut().zip(bias) {
                        let s = *v + b;
                        *v = if s > 0.0 { s } else { 0.0 };
                    }
                }
            }
        }
    }
}

multiversion! {
    /// `x = LayerNorm(x + y + bias)` row by row, rows of width `gamma.len()`.
    pub fn add_residual_layer_norm(
        x: &mut [f32],
        y: &[f32],
        bias: &[f32],
        gamma: &[f32],
        beta: &[f32],
        eps: f32,
    ) {
        let w = gamma.len();
        for (xr, yr) in x.chunks_exact_mut(w).zip(y.chunks_exact(w)) {
            for ((v, &a), &b) in xr.iter_mut().zip(yr).zip(bias) {
                *v += a + b;
            }
            normalize_row(xr, gamma, beta, eps);
        }
    }
}

multiversion! {
    /// `x = LayerNorm(x)` row by row.
    pub fn layer_norm(x: &mut [f32], gamma: &[f32], beta: &[f32], eps: f32) {
        for xr in x.chunks_exact_mut(gamma.len()) {
            normalize_row(xr, gamma, beta, eps);
        }
    }
}

#[inline(always)]
fn normalize_row(xr: &mut [f32], gamma: &[f32], beta: &[f32], eps: f32) {
    let n = xr.len() as f32;
    let mean = sum(xr) / n;
    let var = sum_sq_diff(xr, mean) / n;
    let inv = 1.0 / (var + eps).sqrt();
    for ((v, &g), &b) in xr.iter_mut().zip(gamma).zip(beta) {
        *v = (*v - mean) * inv * g + b;
    }
}

multiversion! {
    /// Softmax of each row of width `width`, in place.
    pub fn softmax_rows(x: &mut [f32], width: usize) {
        for row in x.chunks_exact_mut(width) {
            let m = max(row);
            for v in row.iter_mut() {
                *v = exp(*v - m);
            }
            let inv = 1.0 / sum(row);
            for v in row.iter_mut() {
                *v *= inv;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exp_is_accurate() {
        let mut x = -87.0f32;
        while x < 88.0 {
            let (got, want) = (exp(x), x.exp());
            assert!(((got - want) / want).abs() < 4e-7, "exp({x}) = {got}, want {want}");
            x += 0.0137;
        }
        assert_eq!(exp(0.0), 1.0);
    }

    #[test]
    fn erf_and_gelu_are_accurate() {
        let mut x = -8.0f32;
        while x < 8.0 {
            let want = libm_erf(x as f64);
            // Abramowitz-Stegun 7.1.26 is within 1.5e-7; f32 rounding adds a few ulps.
            assert!((erf(x) as f64 - want).abs() < 5e-7, "erf({x}) = {}, want {want}", erf(x));
            let g = gelu(x) as f64;
            let gw = 0.5 * x as f64 * (1.0 + libm_erf(x as f64 / std::f64::consts::SQRT_2));
            assert!((g - gw).abs() < 1e-6 * (1.0 + gw.abs()), "gelu({x}) = {g}, want {gw}");
            x += 0.003;
        }
    }

    /// erf in f64 by Simpson's rule on 2/sqrt(pi) * exp(-t^2) (error < 1e-12).
    fn libm_erf(x: f64) -> f64 {
        let n = 4000;
        let h = x / n as f64;
        let f = |t: f64| (-t * t).exp();
        let mut s = f(0.0) + f(x);
        for i in 1..n {
            s += f(i as f64 * h) * if i % 2 == 1 { 4.0 } else { 2.0 };
        }
        s * h / 3.0 * 2.0 / std::f64::consts::PI.sqrt()
    }

    #[test]
    fn row_kernels() {
        let mut rows = vec![1.0, 2.0, 3.0, 4.0];
        add_bias(&mut rows, &[1.0, -1.0]);
        assert_eq!(rows, vec![2.0, 1.0, 4.0, 3.0]);

        let mut s = vec![0.0, 0.0, 1000.0, 1000.0, 1.0, 2.0];
        softmax_rows(&mut s, 2);
        assert_eq!(&s[..4], &[0.5, 0.5, 0.5, 0.5]);
        let e = 1.0f32.exp();
        assert!((s[4] - 1.0 / (1.0 + e)).abs() < 1e-6);

        let mut x = vec![1.0, 3.0];
        layer_norm(&mut x, &[1.0, 1.0], &[0.0, 0.5], 0.0);
        assert_eq!(x, vec![-1.0, 1.5]);

        let mut x = vec![1.0, 1.0];
        add_residual_layer_norm(&mut x, &[0.0, 1.0], &[0.0, 1.0], &[2.0, 2.0], &[0.0, 0.0], 0.0);
        assert_eq!(x, vec![-2.0, 2.0]);

        let mut r = vec![-1.0, 1.0];
        add_bias_act(&mut r, &[0.0, 0.0], Activation::Relu);
        assert_eq!(r, vec![0.0, 1.0]);
    }
}
