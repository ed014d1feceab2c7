//! Wavefront sweep (Ember's `sweep3d`, a KBA sweep on a px*py grid of ranks): each
//! iteration runs `corners` sweeps, from the corners (0,0), (px-1,0), (0,py-1), (px-1,py-1)
//! in turn. A sweep is `blocks` pipelined blocks: for each, a rank waits for the block from
//! its upstream neighbours in x and in y (those between it and the sweep's corner), computes
//! `compute_cycles`, and sends the block downstream in x and in y. Messages per iteration:
//! corners * blocks * ((px-1) py + px (py-1)).

use super::Op;

pub(super) fn ops(
    grid: &[u32],
    corners: u32,
    blocks: u32,
    rank: u32,
    bytes: u32,
    compute: u64,
    out: &mut Vec<Op>,
) {
    let (px, py) = (grid[0] as i64, grid[1] as i64);
    let (x, y) = (rank as i64 % px, rank as i64 / px);
    let at = |x: i64, y: i64| -> Option<u32> {
        ((0..px).contains(&x) && (0..py).contains(&y)).then_some((x + px * y) as u32)
    };
    for c in 0..corners {
        let dx = if c % 2 == 0 { 1 } else { -1 };
        let dy = if c < 2 { 1 } else { -1 };
        let up = [at(x - dx, y), at(x, y - dy)];
        let down = [at(x + dx, y), at(x, y + dy)];
        for _ in 0..blocks {
            for peer in up.into_iter().flatten() {
                out.push(Op::Recv { peer, bytes });
            }
            out.push(Op::Wait);
            out.push(Op::Compute(compute));
            for peer in down.into_iter().flatten() {
                out.push(Op::Send { peer, bytes });
            }
        }
    }
    out.push(Op::Wait);
}
