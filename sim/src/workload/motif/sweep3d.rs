//! Wavefront sweep (Ember's `sweep3d`, a KBA sweep on a px*py grid of ranks): each
//! iteration runs `corners` sweeps, from the corners (0,0), (px-1,0), (px-1,py-1), (0,py-1)
//! in turn (Ember's order, `embersweep3d.cc` cases 0-3: around the grid, each corner
//! beside the last). A sweep is `blocks` pipelined blocks: for each, a rank waits for the block from
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
        // corners 0..4: (0,0), (px-1,0), (px-1,py-1), (0,py-1)
        let dx = if c == 0 || c == 3 { 1 } else { -1 };
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Rank 0 of a 2 x 2 grid, one block a sweep: its receives and sends show which corner
    /// each sweep starts from, in Ember's order (0,0), (1,0), (1,1), (0,1).
    #[test]
    fn corners_go_around_the_grid_as_embers_do() {
        let mut got = Vec::new();
        ops(&[2, 2], 4, 1, 0, 8, 5, &mut got);
        let (r, s) = (
            |peer| Op::Recv { peer, bytes: 8 },
            |peer| Op::Send { peer, bytes: 8 },
        );
        let c = Op::Compute(5);
        let want = vec![
            // from (0,0): rank 0 starts, sends in x and y
            Op::Wait,
            c,
            s(1),
            s(2),
            // from (1,0): from rank 1, to rank 2
            r(1),
            Op::Wait,
            c,
            s(2),
            // from (1,1): rank 0 is last, from ranks 1 and 2
            r(1),
            r(2),
            Op::Wait,
            c,
            // from (0,1): from rank 2, to rank 1
            r(2),
            Op::Wait,
            c,
            s(1),
            Op::Wait,
        ];
        assert_eq!(got, want);
    }
}
