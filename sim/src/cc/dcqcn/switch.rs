//! DCQCN's congestion point (CP) in the switches: RED-style ECN marking by the occupancy of
//! an output's queue.
//!
//! - **Queue of an output**: the flits in the switch that are bound for that output: held
//!   in any of its input buffers (the VOQ switch has no egress queue; this is the egress
//!   queue the paper's shared-buffer switch would hold, spread over the inputs) and, in the
//!   CIOQ switch, in its output queue. Counted when a flit enters an input buffer, uncounted
//!   when it leaves through the output: the count IB CC keeps (docs/cc/dcqcn.md).
//! - **Marking** (the paper's Fig. 5): a data packet whose head leaves an output with `q`
//!   flits queued (the departing packet included) is marked with probability 0 for
//!   `q <= Kmin`, `pmax * (q - Kmin) / (Kmax - Kmin)` for `Kmin < q <= Kmax`, 1 above Kmax.
//!   Each switch draws from its own random source (seeded from the run seed), so the order
//!   in which switches are evaluated changes nothing.
//!
//! CNPs are never marked.

use super::config::Derived;
use rand::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// The marking probability at a queue of `q` flits, as a threshold on a uniform u32 draw
/// (`draw < threshold` marks; `u64` so that 1 is 2^32, always).
#[inline]
pub fn threshold(q: u32, kmin: u32, kmax: u32, pmax: f64) -> u64 {
    if q <= kmin {
        0
    } else if q > kmax {
        1 << 32
    } else {
        let p = pmax * (q - kmin) as f64 / (kmax - kmin) as f64;
        (p * 4_294_967_296.0) as u64
    }
}

/// The CP state of every switch output (indexed by global port id).
pub struct DcqcnSwitches {
    kmin: u32,
    kmax: u32,
    pmax: f64,
    queued: Vec<u32>,
    /// Per switch, its random source.
    rng: Vec<Xoshiro256PlusPlus>,
    /// ECN marks, per output.
    pub marked: Vec<u64>,
}

impl DcqcnSwitches {
    /// `ports` global ports; `seeds[s]` seeds switch s's random source.
    pub fn new(d: &Derived, ports: usize, seeds: impl Iterator<Item = u64>) -> Self {
        DcqcnSwitches {
            kmin: d.kmin,
            kmax: d.kmax,
            pmax: d.pmax,
            queued: vec![0; ports],
            rng: seeds.map(Xoshiro256PlusPlus::seed_from_u64).collect(),
            marked: vec![0; ports],
        }
    }

    /// Flits queued for global output `gp` now.
    pub fn queued(&self, gp: usize) -> u32 {
        self.queued[gp]
    }

    /// The largest queue of any output now, flits.
    pub fn max_queued(&self) -> u32 {
        self.queued.iter().copied().max().unwrap_or(0)
    }

    /// A flit for global output `gp` entered an input buffer.
    #[inline]
    pub fn arrive(&mut self, gp: usize) {
        self.queued[gp] += 1;
    }

    /// A flit counted for global output `gp` will leave through another output.
    #[inline]
    pub fn leave(&mut self, gp: usize) {
        self.queued[gp] -= 1;
    }

    /// A flit leaves through global output `gp` of switch `s`; for a data packet's head,
    /// whether to mark it.
    #[inline]
    pub fn depart(&mut self, s: usize, gp: usize, head: bool, data: bool) -> bool {
        let q = self.queued[gp];
        self.queued[gp] = q - 1;
        if !(head && data) || q <= self.kmin {
            return false;
        }
        let t = threshold(q, self.kmin, self.kmax, self.pmax);
        let mark = (self.rng[s].next_u32() as u64) < t;
        self.marked[gp] += mark as u64;
        mark
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn red_ramp_between_kmin_and_kmax() {
        assert_eq!(threshold(80, 80, 1024, 0.01), 0, "at Kmin: never");
        assert_eq!(
            threshold(1025, 80, 1024, 0.01),
            1 << 32,
            "above Kmax: always"
        );
        let half = threshold(552, 80, 1024, 0.01) as f64 / 4_294_967_296.0;
        assert!(
            (half - 0.005).abs() < 1e-9,
            "half way: pmax / 2, got {half}"
        );
        assert_eq!(threshold(1024, 80, 1024, 1.0), 1 << 32, "at Kmax: pmax");
    }

    fn d() -> Derived {
        Derived {
            kmin: 10,
            kmax: 20,
            pmax: 0.5,
            cnp_interval: 0,
            alpha_timer: 1,
            rate_timer: 1,
            byte_counter: 1,
            f: 5,
            g: 0.0,
            rai: 0.0,
            rhai: 0.0,
            min_rate: 0.0,
        }
    }

    #[test]
    fn marks_heads_of_data_by_the_queue() {
        let mut s = DcqcnSwitches::new(&d(), 2, [7u64].into_iter());
        for _ in 0..10 {
            s.arrive(0);
        }
        assert!(!s.depart(0, 0, true, true), "10 queued = Kmin: no mark");
        for _ in 0..40 {
            s.arrive(1);
        }
        assert_eq!(s.queued(1), 40);
        let marks = (0..19).filter(|_| s.depart(0, 1, true, true)).count();
        assert_eq!(marks, 19, "over Kmax every head is marked");
        assert_eq!(s.queued(1), 21);
        assert!(!s.depart(0, 1, false, true), "only heads");
        assert!(!s.depart(0, 1, true, false), "CNPs never");
        // on the ramp about pmax * (q - Kmin) / (Kmax - Kmin) of the heads
        let mut m = 0;
        for _ in 0..20_000 {
            s.arrive(1);
            m += s.depart(0, 1, true, true) as u32; // q = 20 = Kmax: p = pmax
        }
        let p = m as f64 / 20_000.0;
        assert!((p - 0.5).abs() < 0.02, "ramp: {p}");
    }
}
