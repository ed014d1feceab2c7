//! Broadcast, the traffic of GPCNeT's `RMA_BCAST_CONGESTOR` (one to many): the root sends
//! `msg_bytes` to every other rank and waits until all are delivered; every other rank
//! posts a receive from the root and waits for it. Then each computes. (GPCNeT's ranks *get*
//! the data from the root; the bytes on the wire flow the same way, root to all. The small
//! get requests towards the root are left out.)

use super::Op;

pub(super) fn ops(ranks: u32, root: u32, rank: u32, bytes: u32, compute: u64, out: &mut Vec<Op>) {
    if rank == root {
        for peer in (0..ranks).filter(|&p| p != root) {
            out.push(Op::Send { peer, bytes });
        }
    } else {
        out.push(Op::Recv { peer: root, bytes });
    }
    out.push(Op::Wait);
    out.push(Op::Compute(compute));
}
