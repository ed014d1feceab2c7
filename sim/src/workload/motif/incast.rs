//! Incast (Ember's `incast`-like many to one): every rank but the root sends `msg_bytes` to
//! the root and waits until it is delivered; the root posts a receive from every other rank
//! and waits for all. Then each computes.

use super::Op;

pub(super) fn ops(ranks: u32, root: u32, rank: u32, bytes: u32, compute: u64, out: &mut Vec<Op>) {
    if rank == root {
        for peer in (0..ranks).filter(|&p| p != root) {
            out.push(Op::Recv { peer, bytes });
        }
    } else {
        out.push(Op::Send { peer: root, bytes });
    }
    out.push(Op::Wait);
    out.push(Op::Compute(compute));
}
