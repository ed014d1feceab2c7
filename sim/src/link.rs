//! `CreditLink`: the NIC-to-switch link with credit flow control, seen from the NIC port.
//!
//! ```text
//!        send(t)  +----------------------+  arrives t+L   +--------------+
//!  NIC ---------->| flit Channel, L      |--------------->| switch input |--> drained with
//!   ^             +----------------------+                | buffer (FIFO)|    prob. P(t')
//!   | credit_return(t'+L)  +-------------------------+    +--------------+       |
//!   +----------------------| credit Channel, L       |<--------------------------+
//!                          +-------------------------+   one credit per drained flit, t'
//! ```
//!
//! Clock contract (BookSim-like): in cycle t the NIC reads `credit_return()` (the head of the
//! credit channel, a registered value), decides `send(t)`, and then `step(send)` evaluates
//! the switch and commits both channels. Timing, for a flit sent in cycle t:
//! - it enters the switch buffer in cycle t+L and may leave in that same cycle;
//! - leaving in cycle d >= t+L, its credit is `credit_return` at the NIC in cycle d+L;
//! - the NIC's registered `c` drops in cycle d+L+1, so the credit can carry a new flit in
//!   cycle d+L+1 at the earliest: the minimum credit round trip is 2L+1 cycles.
//!
//! The switch gets a service opportunity each cycle with probability P(t) (one uniform draw
//! per cycle, whether or not the buffer holds a flit, so the same seed gives the same service
//! opportunities whatever the NIC does). The buffer holds at most `capacity_flits` flits; a
//! sender that respects its credits can never exceed it, and `step` checks it every cycle.

use crate::channel::Channel;
use crate::schedule::DrainSchedule;
use rand::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use thiserror::Error;

/// Longest link latency accepted, in cycles (keeps the channels' memory bounded).
pub const MAX_LINK_LATENCY_CYCLES: u32 = 1 << 20;

/// Parameters of a `CreditLink`.
#[derive(Clone, Debug, PartialEq)]
pub struct LinkConfig {
    /// One-way latency L of the flit channel and of the credit channel, cycles (>= 1).
    pub latency_cycles: u32,
    /// Switch input buffer size, flits: the NIC's CREDIT_LIMIT.
    pub capacity_flits: u32,
    /// Drain probability per cycle.
    pub drain: DrainSchedule,
    /// Seed of the switch's service draws.
    pub seed: u64,
}

/// The link's invariant broke: the sender used a credit it did not have.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum LinkError {
    #[error(
        "switch buffer overflow in cycle {cycle}: {occupancy_flits} flits > capacity {capacity_flits} (the sender ignored its credits)"
    )]
    Overflow {
        cycle: u64,
        occupancy_flits: u32,
        capacity_flits: u32,
    },
}

/// What happened on the link in one cycle.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LinkCycle {
    /// A flit entered the switch buffer this cycle.
    pub arrived: bool,
    /// Buffer occupancy after this cycle's arrival, before its departure (the cycle's peak).
    pub occupancy_flits: u32,
    /// The head flit left the buffer this cycle (its credit is on the way back).
    pub drained: bool,
}

/// A credit link from one NIC port to one switch input buffer.
#[derive(Clone, Debug)]
pub struct CreditLink {
    flits: Channel<bool>,
    credits: Channel<u8>,
    buffer_flits: u32,
    capacity_flits: u32,
    drain: DrainSchedule,
    rng: Xoshiro256PlusPlus,
    cycle: u64,
}

impl CreditLink {
    /// An idle link: empty channels, empty buffer, cycle 0.
    pub fn new(cfg: &LinkConfig) -> Self {
        assert!(
            (1..=MAX_LINK_LATENCY_CYCLES).contains(&cfg.latency_cycles),
            "link latency {} not in 1..={MAX_LINK_LATENCY_CYCLES}",
            cfg.latency_cycles
        );
        CreditLink {
            flits: Channel::new(cfg.latency_cycles),
            credits: Channel::new(cfg.latency_cycles),
            buffer_flits: 0,
            capacity_flits: cfg.capacity_flits,
            drain: cfg.drain.clone(),
            rng: Xoshiro256PlusPlus::seed_from_u64(cfg.seed),
            cycle: 0,
        }
    }

    /// Read phase: the credits the NIC receives in this cycle (its `credit_return` input).
    #[inline]
    pub fn credit_return(&self) -> u8 {
        self.credits.head()
    }

    /// The cycle `step` will evaluate next.
    pub fn cycle(&self) -> u64 {
        self.cycle
    }

    /// Flits in the switch buffer now (between cycles).
    pub fn buffer_flits(&self) -> u32 {
        self.buffer_flits
    }

    /// Evaluate and commit one cycle, given the NIC's `send` of this cycle.
    pub fn step(&mut self, send: bool) -> Result<LinkCycle, LinkError> {
        // Evaluate: the flit sent L cycles ago enters the buffer.
        let arrived = self.flits.head();
        let occupancy_flits = self.buffer_flits + arrived as u32;
        if occupancy_flits > self.capacity_flits {
            return Err(LinkError::Overflow {
                cycle: self.cycle,
                occupancy_flits,
                capacity_flits: self.capacity_flits,
            });
        }
        // One service draw per cycle: uniform u in [0, 1) with 53 bits; served iff u < P.
        let u = (self.rng.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64);
        let served = u < self.drain.at(self.cycle);
        let drained = served && occupancy_flits > 0;
        // Commit.
        self.buffer_flits = occupancy_flits - drained as u32;
        self.flits.commit(send);
        self.credits.commit(drained as u8);
        self.cycle += 1;
        Ok(LinkCycle {
            arrived,
            occupancy_flits,
            drained,
        })
    }

    /// Flits in flight towards the switch plus credits in flight back (for invariants:
    /// buffer + this = the sender's used credits).
    pub fn in_flight(&self) -> u32 {
        let f = self.flits.in_flight().filter(|&&v| v).count() as u32;
        let c: u32 = self.credits.in_flight().map(|&v| v as u32).sum();
        f + c
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn link(l: u32, cap: u32, p: f64) -> CreditLink {
        CreditLink::new(&LinkConfig {
            latency_cycles: l,
            capacity_flits: cap,
            drain: DrainSchedule::constant(p),
            seed: 1,
        })
    }

    /// A credit-respecting sender, always with a flit: returns (sent, used credits per cycle).
    fn run(l: u32, cap: u32, p: f64, cycles: u64) -> (u64, Vec<u32>) {
        let mut lk = link(l, cap, p);
        let mut c = 0u32;
        let mut sent = 0;
        let mut cs = Vec::new();
        for _ in 0..cycles {
            cs.push(c);
            let ret = lk.credit_return() as u32;
            let send = c < cap;
            lk.step(send).unwrap();
            c = c + send as u32 - ret;
            sent += send as u64;
            assert_eq!(lk.buffer_flits() + lk.in_flight(), c);
        }
        (sent, cs)
    }

    #[test]
    fn round_trip_is_2l_plus_1() {
        for l in 1..6u32 {
            // Full rate needs 2L+1 credits; c settles at 2L.
            let (sent, cs) = run(l, 2 * l + 1, 1.0, 200);
            assert_eq!(sent, 200);
            assert_eq!(*cs.last().unwrap(), 2 * l);
            // One credit: one flit per round trip.
            let (sent, _) = run(l, 1, 1.0, 100 * (2 * l as u64 + 1));
            assert_eq!(sent, 100);
        }
    }

    #[test]
    fn never_overflows_and_detects_cheating() {
        run(3, 5, 0.3, 10_000);
        let mut lk = link(1, 2, 0.0);
        assert!(lk.step(true).is_ok());
        assert!(lk.step(true).is_ok());
        assert!(lk.step(true).is_ok());
        assert_eq!(
            lk.step(true),
            Err(LinkError::Overflow {
                cycle: 3,
                occupancy_flits: 3,
                capacity_flits: 2
            })
        );
    }
}
