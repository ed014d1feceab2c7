//! Plain-Rust reference model of InfiniBand CC's reaction state at a source NIC (IBA 1.2.1
//! Annex A10, as seed 002 and docs/cc/ibcc.md describe it): one CCTI per flow, raised by a
//! BECN and lowered by the CCTI timer, and the injection rate delay (IRD) read from the
//! congestion control table (CCT) that spaces the flow's packet starts. No clock and no
//! rust-hdl types: the simulator's IB CC (`sim/src/cc/ibcc/nic.rs`) runs these functions,
//! and the RTL (`ibcc::ibcc_flow`, `ibcc::ibcc_flows`) is tested against them.
//!
//! # Rules
//!
//! - **BECN** ([`Params::becn`]; a CNP's arrival at the source): `CCTI += ccti_increase`,
//!   at most `ccti_limit`.
//! - **CCTI timer** ([`Timer`]; one per NIC port, the spec's per-SL timer with one SL): it
//!   expires first in cycle `first` (1..=period: each NIC starts at its own phase) and then
//!   every `period` cycles; at an expiry every flow with `CCTI > ccti_min` loses one
//!   ([`Params::timer`]).
//! - **IRD** ([`Params::ird`]): a packet of L flits started at t makes the flow's next
//!   packet wait until `next_ok = t + L + IRD` ([`Params::next_ok`]), with
//!   `IRD = (L * multiplier) >> shift` of the CCT entry `CCT[CCTI]` (shift in bits 15:14,
//!   multiplier in 13:0) and no delay at `CCTI = 0`. The flow may start a packet in cycle
//!   `now` iff `now >= next_ok` ([`Flow::eligible`]).
//!
//! # Cycle order
//!
//! In the network a NIC's cycle reads its arrivals first (a BECN; one flit per cycle, so at
//! most one BECN per NIC), then ticks the timer, then starts a packet (docs/network.md,
//! phases 1 and 2). So a packet started in a cycle uses the CCTI after that cycle's BECN
//! and expiry. `ibcc::stepper` maps this onto the RTL's cycles.
//!
//! # Ranges
//!
//! [`Params::check`] holds the ranges of `sim::cc::ibcc::IbccConfig`: `ccti_increase`
//! 0..=255, `ccti_limit` 0..=16383 (the 14-bit CCTI), `ccti_min` 0..=min(255, limit), a CCT
//! of `ccti_limit + 1` entries. CCTI + increase stays below 2^16, so the BECN's
//! `saturating_add` never saturates.

use std::fmt;

/// Largest CCT index (the IB spec's 14-bit CCTI).
pub const MAX_CCTI: u16 = 16383;

/// The constants of a NIC port's IB CC (the RTL's parameters).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Params {
    /// CCTI step per BECN (0..=255).
    pub increase: u16,
    /// Largest CCTI (0..=16383).
    pub limit: u16,
    /// Smallest CCTI the timer lowers to (0..=min(255, limit)).
    pub min: u16,
    /// The CCT: `limit + 1` entries, shift in bits 15:14, multiplier in 13:0.
    pub cct: Vec<u16>,
}

/// The IRD of a packet of `flits` for CCT entry `entry`: `(flits * multiplier) >> shift`.
#[inline]
pub fn ird(entry: u16, flits: u32) -> u64 {
    let shift = (entry >> 14) as u64;
    let mult = (entry & 0x3FFF) as u64;
    (flits as u64 * mult) >> shift
}

/// The linear CCT of docs/cc/ibcc.md: entry i = multiplier i, shift 0 (`limit + 1`
/// entries).
pub fn linear_cct(limit: u16) -> Vec<u16> {
    (0..=limit).collect()
}

impl Params {
    /// Seed 002's Table I: increase 1, limit 127, min 0, the linear CCT.
    pub fn table1() -> Params {
        Params {
            increase: 1,
            limit: 127,
            min: 0,
            cct: linear_cct(127),
        }
    }

    /// Why these constants are out of range, if they are.
    pub fn check(&self) -> Result<(), String> {
        if self.increase > 255 {
            return Err(format!("increase = {}: allowed 0..=255", self.increase));
        }
        if self.limit > MAX_CCTI {
            return Err(format!("limit = {}: allowed 0..={MAX_CCTI}", self.limit));
        }
        let min_max = self.limit.min(255);
        if self.min > min_max {
            return Err(format!("min = {}: allowed 0..={min_max}", self.min));
        }
        if self.cct.len() != self.limit as usize + 1 {
            return Err(format!(
                "the CCT has {} entries: must have limit + 1 = {}",
                self.cct.len(),
                self.limit as usize + 1
            ));
        }
        Ok(())
    }

    /// The CCTI after a BECN: `ccti + increase`, at most `limit`.
    #[inline]
    pub fn becn(&self, ccti: u16) -> u16 {
        ccti.saturating_add(self.increase).min(self.limit)
    }

    /// The CCTI after a timer expiry: one less above `min`, else unchanged.
    #[inline]
    pub fn timer(&self, ccti: u16) -> u16 {
        if ccti > self.min {
            ccti - 1
        } else {
            ccti
        }
    }

    /// The IRD of a packet of `flits` at `ccti`: 0 at CCTI 0, else `ird(CCT[ccti], flits)`.
    #[inline]
    pub fn ird(&self, ccti: u16, flits: u32) -> u64 {
        if ccti == 0 {
            0
        } else {
            ird(self.cct[ccti as usize], flits)
        }
    }

    /// The first cycle a flow at `ccti` that starts a packet of `flits` at `now` may start
    /// its next one: `now + flits + IRD`.
    #[inline]
    pub fn next_ok(&self, ccti: u16, flits: u32, now: u64) -> u64 {
        now + flits as u64 + self.ird(ccti, flits)
    }

    /// The longest `flits + IRD` over every CCTI, for packets of at most `max_flits`: the
    /// range of the RTL's per-flow timer.
    pub fn max_spacing(&self, max_flits: u32) -> u64 {
        (0..=self.limit)
            .map(|c| max_flits as u64 + self.ird(c, max_flits))
            .max()
            .unwrap_or(max_flits as u64)
    }
}

/// The CCTI timer of a NIC port: expiries in cycle `at`, then every `period` cycles.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Timer {
    /// Cycles between two expiries (at least 1).
    pub period: u64,
    /// The next expiry.
    pub at: u64,
}

impl Timer {
    /// A timer of `period` cycles whose first expiry is in cycle `first`.
    pub fn new(period: u64, first: u64) -> Timer {
        Timer {
            period: period.max(1),
            at: first,
        }
    }

    /// Cycle `now` (called every cycle, or at least once by `at`): whether the timer
    /// expires, and if so the next expiry is `now + period`.
    #[inline]
    pub fn expired(&mut self, now: u64) -> bool {
        if now < self.at {
            return false;
        }
        self.at = now + self.period;
        true
    }
}

/// One flow's IB CC state (what the simulator keeps in two arrays, `ccti` and `next_ok`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Flow {
    /// Index into the CCT.
    pub ccti: u16,
    /// First cycle in which the flow's next packet may start.
    pub next_ok: u64,
}

/// A packet started while the flow was not eligible (the network never does this; the RTL
/// reports it and, as the model, starts the packet anyway).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Early;

impl fmt::Display for Early {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("packet started before the flow's IRD had passed")
    }
}

impl std::error::Error for Early {}

impl Flow {
    /// A BECN of the flow.
    pub fn becn(&mut self, p: &Params) {
        self.ccti = p.becn(self.ccti);
    }

    /// A timer expiry; whether the CCTI went down.
    pub fn timer(&mut self, p: &Params) -> bool {
        let c = p.timer(self.ccti);
        let lowered = c != self.ccti;
        self.ccti = c;
        lowered
    }

    /// The flow may start a packet in cycle `now`.
    pub fn eligible(&self, now: u64) -> bool {
        self.next_ok <= now
    }

    /// A packet of `flits` starts at `now`: `next_ok = now + flits + IRD`, as the network
    /// does whether or not the flow was eligible ([`Early`] if it was not).
    pub fn start(&mut self, p: &Params, flits: u32, now: u64) -> Result<(), Early> {
        let early = !self.eligible(now);
        self.next_ok = p.next_ok(self.ccti, flits, now);
        if early {
            Err(Early)
        } else {
            Ok(())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn becn_raises_ccti_up_to_the_limit_and_the_timer_lowers_it_down_to_min() {
        let p = Params {
            increase: 5,
            limit: 12,
            min: 2,
            cct: linear_cct(12),
        };
        let mut f = Flow::default();
        f.becn(&p);
        assert_eq!(f.ccti, 5);
        f.becn(&p);
        f.becn(&p);
        assert_eq!(f.ccti, 12, "capped at the limit");
        for want in (2..12).rev() {
            assert!(f.timer(&p));
            assert_eq!(f.ccti, want);
        }
        assert!(!f.timer(&p), "floor: min");
        assert_eq!(f.ccti, 2);
        // Below min (a CCTI under a raised floor) the timer does nothing either.
        let mut g = Flow {
            ccti: 1,
            next_ok: 0,
        };
        assert!(!g.timer(&p));
        assert_eq!(g.ccti, 1);
    }

    #[test]
    fn the_largest_increase_at_the_largest_limit_does_not_overflow() {
        let p = Params {
            increase: 255,
            limit: MAX_CCTI,
            min: 255,
            cct: linear_cct(MAX_CCTI),
        };
        assert!(p.check().is_ok());
        assert_eq!(p.becn(MAX_CCTI - 1), MAX_CCTI);
        assert_eq!(p.becn(MAX_CCTI), MAX_CCTI);
    }

    #[test]
    fn the_ird_spaces_packet_starts_by_the_cct() {
        let p = Params::table1();
        let mut f = Flow::default();
        f.start(&p, 32, 100).unwrap();
        assert_eq!(f.next_ok, 132, "CCTI 0: only the packet's own time");
        assert!(!f.eligible(131) && f.eligible(132));
        for _ in 0..4 {
            f.becn(&p);
        }
        f.start(&p, 32, 200).unwrap();
        assert_eq!(
            f.next_ok,
            200 + 32 + 4 * 32,
            "linear table: CCTI packet times"
        );
        assert_eq!(f.start(&p, 32, 201), Err(Early));
        assert_eq!(f.next_ok, 201 + 32 + 4 * 32, "started anyway");
        // An explicit entry: shift 2, multiplier 10 -> (32 * 10) >> 2 = 80.
        let p = Params {
            increase: 1,
            limit: 1,
            min: 0,
            cct: vec![0, (2 << 14) | 10],
        };
        let mut f = Flow::default();
        f.becn(&p);
        f.start(&p, 32, 0).unwrap();
        assert_eq!(f.next_ok, 32 + 80);
        // CCTI 0 ignores the table's entry 0.
        let p = Params {
            increase: 1,
            limit: 1,
            min: 0,
            cct: vec![7, 7],
        };
        assert_eq!(p.next_ok(0, 10, 0), 10);
        assert_eq!(p.next_ok(1, 10, 0), 80);
    }

    #[test]
    fn the_timer_expires_at_first_then_every_period() {
        let mut t = Timer::new(5, 3);
        let hits: Vec<u64> = (0..20).filter(|&now| t.expired(now)).collect();
        assert_eq!(hits, [3, 8, 13, 18]);
    }

    #[test]
    fn max_spacing_is_the_timers_range() {
        let p = Params::table1();
        assert_eq!(p.max_spacing(63), 63 + 63 * 127);
        assert_eq!(p.max_spacing(32), 32 + 32 * 127);
    }

    #[test]
    fn check_names_the_field_and_its_range() {
        let ok = Params::table1();
        assert!(ok.check().is_ok());
        for (p, want) in [
            (
                Params {
                    increase: 256,
                    ..ok.clone()
                },
                "increase = 256: allowed 0..=255",
            ),
            (
                Params {
                    limit: 16384,
                    ..ok.clone()
                },
                "limit = 16384: allowed 0..=16383",
            ),
            (
                Params {
                    min: 128,
                    ..ok.clone()
                },
                "min = 128: allowed 0..=127",
            ),
            (
                Params {
                    cct: vec![0; 5],
                    ..ok.clone()
                },
                "the CCT has 5 entries: must have limit + 1 = 128",
            ),
        ] {
            assert_eq!(p.check(), Err(want.to_string()));
        }
    }
}
