//! All-to-all by pairwise exchange (Ember's `alltoall`, with MPICH's pairwise algorithm):
//! a rank computes, then in step s = 1..N-1 sends `msg_bytes` to rank + s and receives from
//! rank - s (mod N), waiting for both before the next step.

use super::Op;

/// Pairwise exchange among `members` (in rank order) by the member at index `me`.
pub(super) fn exchange(members: &[u32], me: usize, bytes: u32, out: &mut Vec<Op>) {
    let n = members.len();
    for s in 1..n {
        out.push(Op::Recv {
            peer: members[(me + n - s) % n],
            bytes,
        });
        out.push(Op::Send {
            peer: members[(me + s) % n],
            bytes,
        });
        out.push(Op::Wait);
    }
}

pub(super) fn ops(ranks: u32, rank: u32, bytes: u32, compute: u64, out: &mut Vec<Op>) {
    out.push(Op::Compute(compute));
    let all: Vec<u32> = (0..ranks).collect();
    exchange(&all, rank as usize, bytes, out);
}
