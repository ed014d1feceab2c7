//! Random ring (GPCNeT's and Ember's random-ring pattern): each iteration the ranks form a
//! new ring in a random order (one permutation for all, drawn from the run's seed and the
//! iteration's number); each rank receives from and sends `msg_bytes` to both of its ring
//! neighbours, waits, and computes.

use super::Op;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

/// The rings, one per iteration, computed on demand (the last one kept).
#[derive(Clone, Debug)]
pub(super) struct Rings {
    ranks: u32,
    seed: u64,
    /// (iteration, position of each rank, rank at each position).
    last: Option<(u32, Vec<u32>, Vec<u32>)>,
}

impl Rings {
    pub(super) fn new(ranks: u32, seed: u64) -> Rings {
        Rings {
            ranks,
            seed,
            last: None,
        }
    }

    /// The ring of iteration `iter`: (position of each rank, rank at each position).
    pub(super) fn of(&mut self, iter: u32) -> (&[u32], &[u32]) {
        if self.last.as_ref().map(|l| l.0) != Some(iter) {
            let s = self.seed
                ^ 0x5bd1_e995_8a4c_1e37
                ^ (iter as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(s);
            let mut order: Vec<u32> = (0..self.ranks).collect();
            order.shuffle(&mut rng);
            let mut pos = vec![0u32; self.ranks as usize];
            for (i, &r) in order.iter().enumerate() {
                pos[r as usize] = i as u32;
            }
            self.last = Some((iter, pos, order));
        }
        let l = self.last.as_ref().expect("just set");
        (&l.1, &l.2)
    }
}

pub(super) fn ops(ring: (&[u32], &[u32]), rank: u32, bytes: u32, compute: u64, out: &mut Vec<Op>) {
    let (pos, order) = ring;
    let n = order.len();
    let i = pos[rank as usize] as usize;
    let right = order[(i + 1) % n];
    let left = order[(i + n - 1) % n];
    let peers: &[u32] = if left == right {
        &[right]
    } else {
        &[left, right]
    };
    for &peer in peers {
        out.push(Op::Recv { peer, bytes });
    }
    for &peer in peers {
        out.push(Op::Send { peer, bytes });
    }
    out.push(Op::Wait);
    out.push(Op::Compute(compute));
}
