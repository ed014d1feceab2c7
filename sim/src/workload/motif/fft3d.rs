//! FFT transposes (Ember's `fft3d`, a pencil decomposition on a px*py grid of ranks): a rank
//! computes, runs a pairwise all-to-all within its row (the px ranks of its y), computes
//! again and runs a pairwise all-to-all within its column (the py ranks of its x).

use super::alltoall::exchange;
use super::Op;

pub(super) fn ops(grid: &[u32], rank: u32, bytes: u32, compute: u64, out: &mut Vec<Op>) {
    let (px, py) = (grid[0], grid[1]);
    let (x, y) = (rank % px, rank / px);
    let row: Vec<u32> = (0..px).map(|i| i + px * y).collect();
    let col: Vec<u32> = (0..py).map(|j| x + px * j).collect();
    out.push(Op::Compute(compute));
    exchange(&row, x as usize, bytes, out);
    out.push(Op::Compute(compute));
    exchange(&col, y as usize, bytes, out);
}
