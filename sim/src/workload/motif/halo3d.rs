//! Halo exchange, 3D 7-point stencil (Ember's `halo3d`): every iteration a rank computes,
//! then posts a receive from and a send to each of its face neighbours on the px*py*pz grid
//! (x-, x+, y-, y+, z-, z+), and waits for all of them. Without `periodic` a rank on a face
//! of the grid has no neighbour beyond it (Ember); with it the grid wraps around. A
//! dimension of one rank has no neighbours along it.

use super::Op;

/// The face neighbours of `rank` (x-, x+, y-, y+, z-, z+ where they exist; a neighbour is
/// listed once per face, so a dimension of two ranks with wrap-around lists it twice).
pub(super) fn neighbours(grid: &[u32], periodic: bool, rank: u32) -> Vec<u32> {
    let (px, py, pz) = (grid[0], grid[1], grid[2]);
    let (x, y, z) = (rank % px, (rank / px) % py, rank / (px * py));
    let at = |x: u32, y: u32, z: u32| x + px * (y + py * z);
    let mut v = Vec::with_capacity(6);
    for (d, p) in [(0usize, px), (1, py), (2, pz)] {
        if p < 2 {
            continue;
        }
        let c = [x, y, z][d];
        for up in [false, true] {
            let inside = if up { c + 1 < p } else { c > 0 };
            if !inside && !periodic {
                continue;
            }
            let mut q = [x, y, z];
            q[d] = (c + if up { 1 } else { p - 1 }) % p;
            v.push(at(q[0], q[1], q[2]));
        }
    }
    v
}

pub(super) fn ops(
    grid: &[u32],
    periodic: bool,
    rank: u32,
    bytes: u32,
    compute: u64,
    out: &mut Vec<Op>,
) {
    out.push(Op::Compute(compute));
    let nb = neighbours(grid, periodic, rank);
    for &peer in &nb {
        out.push(Op::Recv { peer, bytes });
    }
    for &peer in &nb {
        out.push(Op::Send { peer, bytes });
    }
    out.push(Op::Wait);
}
