//! Jain's fairness index.

/// `J(x) = (sum x)^2 / (n * sum x^2)`: 1 when all shares are equal, 1/n when one takes
/// everything. `None` for no values, all-zero values, or a negative / non-finite value.
pub fn jain_index(x: &[f64]) -> Option<f64> {
    if x.is_empty() || x.iter().any(|v| !v.is_finite() || *v < 0.0) {
        return None;
    }
    let s: f64 = x.iter().sum();
    let s2: f64 = x.iter().map(|v| v * v).sum();
    if s2 == 0.0 {
        return None;
    }
    Some(s * s / (x.len() as f64 * s2))
}
