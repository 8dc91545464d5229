//! Arithmetic on embedding vectors, below every stage that holds them:
//! embed makes unit vectors, library scans them, rank and eval score them.

/// Dot product in 8 independent lanes so the compiler vectorises it.
pub fn dot(a: &[f32], b: &[f32]) -> f32 {
    let mut acc = [0f32; 8];
    let (ca, cb) = (a.chunks_exact(8), b.chunks_exact(8));
    let (ra, rb) = (ca.remainder(), cb.remainder());
    for (x, y) in ca.zip(cb) {
        for j in 0..8 {
            acc[j] += x[j] * y[j];
        }
    }
    let tail: f32 = ra.iter().zip(rb).map(|(x, y)| x * y).sum();
    acc.iter().sum::<f32>() + tail
}

/// Scales `v` to unit length (torch's `F.normalize`: divide by max(‖v‖, 1e-12)).
pub fn normalize(v: &mut [f32]) {
    let norm = v.iter().map(|&x| (x as f64) * (x as f64)).sum::<f64>().sqrt().max(1e-12);
    for x in v {
        *x = (*x as f64 / norm) as f32;
    }
}
