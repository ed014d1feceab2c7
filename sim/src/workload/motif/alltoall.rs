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

/// Operation `pc` of `ops(ranks, rank, bytes, compute)`, made without the list (which holds
/// 3 (N - 1) operations for each of the N ranks: 805 MB at 4,096 NICs); None past its end.
pub(super) fn op_at(ranks: u32, rank: u32, bytes: u32, compute: u64, pc: usize) -> Option<Op> {
    if pc == 0 {
        return Some(Op::Compute(compute));
    }
    let (n, me) = (ranks as usize, rank as usize);
    let (s, j) = ((pc - 1) / 3 + 1, (pc - 1) % 3);
    if s >= n {
        return None;
    }
    Some(match j {
        0 => Op::Recv {
            peer: ((me + n - s) % n) as u32,
            bytes,
        },
        1 => Op::Send {
            peer: ((me + s) % n) as u32,
            bytes,
        },
        _ => Op::Wait,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `op_at` is `ops`, operation by operation, and ends where it ends.
    #[test]
    fn op_at_is_ops() {
        for n in [1, 2, 3, 4, 7, 16] {
            for rank in 0..n {
                let mut list = Vec::new();
                ops(n, rank, 4096, 17, &mut list);
                let made: Vec<Op> = (0..).map_while(|pc| op_at(n, rank, 4096, 17, pc)).collect();
                assert_eq!(made, list, "n = {n}, rank {rank}");
            }
        }
    }
}
