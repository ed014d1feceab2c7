//! Allreduce (Ember's `allreduce`): a rank computes, then reduces `msg_bytes` with every
//! other rank.
//!
//! - `recursive_doubling` (MPICH's algorithm for short vectors): with pof2 the largest power
//!   of two <= N and rem = N - pof2, each even rank below 2 rem first sends its vector to the
//!   odd rank above it and sits out; the pof2 remaining ranks exchange the whole vector with
//!   the partner at distance 1, 2, 4, ... (log2 pof2 steps); then each odd rank below 2 rem
//!   sends the result back to its even partner. Messages per iteration:
//!   pof2 log2(pof2) + 2 rem.
//! - `ring`: a reduce-scatter then an allgather around the ring 0, 1, ..., N-1: 2(N-1)
//!   steps, in each of which a rank receives a chunk of `ceil(msg_bytes / N)` bytes from its
//!   left neighbour and sends one to its right. Messages per iteration: 2N(N-1).

use super::{Algorithm, Op};

pub(super) fn ops(alg: Algorithm, n: u32, rank: u32, bytes: u32, compute: u64, out: &mut Vec<Op>) {
    out.push(Op::Compute(compute));
    match alg {
        Algorithm::RecursiveDoubling => recursive_doubling(n, rank, bytes, out),
        Algorithm::Ring => {
            let chunk = bytes.div_ceil(n).max(1);
            let (left, right) = ((rank + n - 1) % n, (rank + 1) % n);
            for _ in 0..2 * (n - 1) {
                out.push(Op::Recv {
                    peer: left,
                    bytes: chunk,
                });
                out.push(Op::Send {
                    peer: right,
                    bytes: chunk,
                });
                out.push(Op::Wait);
            }
        }
    }
}

fn recursive_doubling(n: u32, rank: u32, bytes: u32, out: &mut Vec<Op>) {
    let pof2 = 1u32 << (31 - n.leading_zeros());
    let rem = n - pof2;
    let newrank = if rank < 2 * rem {
        if rank.is_multiple_of(2) {
            out.push(Op::Send {
                peer: rank + 1,
                bytes,
            });
            out.push(Op::Wait);
            None
        } else {
            out.push(Op::Recv {
                peer: rank - 1,
                bytes,
            });
            out.push(Op::Wait);
            Some(rank / 2)
        }
    } else {
        Some(rank - rem)
    };
    if let Some(nr) = newrank {
        let mut mask = 1;
        while mask < pof2 {
            let nd = nr ^ mask;
            let peer = if nd < rem { nd * 2 + 1 } else { nd + rem };
            out.push(Op::Recv { peer, bytes });
            out.push(Op::Send { peer, bytes });
            out.push(Op::Wait);
            mask <<= 1;
        }
    }
    if rank < 2 * rem {
        if rank % 2 == 1 {
            out.push(Op::Send {
                peer: rank - 1,
                bytes,
            });
        } else {
            out.push(Op::Recv {
                peer: rank + 1,
                bytes,
            });
        }
        out.push(Op::Wait);
    }
}
