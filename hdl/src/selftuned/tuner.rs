//! The self-tuned throttle's tuner: hill climbing of the threshold T once per tuning period,
//! with the drop rule, the local-maxima reset and the restart after r resets in a row.

use super::bw_rules::BwRules;
use super::model::{Params, BW_BITS, COUNT_BITS};
#[cfg(test)]
use super::SEED;
use rust_hdl::prelude::*;

// The model's widths are the ports' (Bits<16>, Bits<24>).
const _: () = assert!(
    COUNT_BITS == 16 && BW_BITS == 24,
    "the ports are 16 and 24 bits wide"
);

/// The tuner of one node. A tuning period is `periods` snapshots; the cycle the period's last
/// snapshot arrives, with `bw` the flits of its snapshots (`bw_acc + snap_flits`) and
/// `throttling` set if the gate inhibited in any cycle of the period (this one included):
/// 1. `bw > max_bw`: `max_bw = bw`, `n_max = snap_full`, `t_max = T`;
/// 2. a drop, `bw * 100 < drop_pct * bw_prev`: `T -= dec` (floor 0); else if throttling:
///    `T += inc` (ceiling `t_ceiling`);
/// 3. far below the best, `bw * 100 < reset_pct * max_bw`: `T = min(t_max, n_max)`, one more
///    reset in a row, and after `r` of them `max_bw = 0`; else the count clears;
/// 4. `bw_prev = bw`.
///
/// The percentages are compared in [`BwRules`] without a divider or multiplier (for 75 %:
/// `4 * bw < 3 * bw_prev`). `n_max` and `t_max` are only ever read as `min(t_max, n_max)`,
/// so one register keeps that minimum, `t_back = min(T, snap_full)`, loaded by rule 1 (16
/// flip-flops and a multiplexer fewer). Rule 3 compares with the old `max_bw` and loads the
/// old `t_back`: when rule 1 fires, `bw` is the new maximum and `bw * 100 < reset_pct * bw`
/// is false (`reset_pct <= 100`), so the register values are the ones the rule would read,
/// and no multiplexer sits in front of the compare.
///
/// `bw_acc`, `bw_prev` and `max_bw` are BW_BITS = 24 wide: the flits of one tuning period
/// must stay below 2^24 (the model does not wrap; see docs/hardware.md).
///
/// ```text
///                   +------------------------------------------+
///  snap_valid ----->|  in_period, bw_acc, throttling           |---> threshold[16]
///  snap_full[16] -->|  bw_prev, max_bw, t_back, resets         |---> threshold_next[16]
///  snap_flits[24]-->|  T; drop / reset rules (BwRules)         |
///  inhibit -------->|                                          |
///  clock, reset --->|                                          |
///                   +------------------------------------------+
/// ```
#[derive(LogicBlock)]
pub struct Tuner {
    /// Block clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: T = t_init, the period and the search start afresh.
    pub reset: Signal<In, Bit>,
    /// A snapshot arrives this cycle.
    pub snap_valid: Signal<In, Bit>,
    /// Its full-buffer count (`n_max` if the period is a new best).
    pub snap_full: Signal<In, Bits<16>>,
    /// Its flits delivered in the gather.
    pub snap_flits: Signal<In, Bits<24>>,
    /// The gate inhibits this cycle (the period is "throttling").
    pub inhibit: Signal<In, Bit>,
    /// The threshold T in force this cycle.
    pub threshold: Signal<Out, Bits<16>>,
    /// The threshold in force from the next cycle (the tuned value at a period's end).
    pub threshold_next: Signal<Out, Bits<16>>,
    /// The period's flits and the drop and reset rules.
    pub rules: BwRules,
    // Parameters (derived in new(): do not override).
    last_snap: Constant<Bits<8>>,
    r_last: Constant<Bits<8>>,
    t_init: Constant<Bits<16>>,
    inc: Constant<Bits<17>>,
    dec: Constant<Bits<17>>,
    ceiling: Constant<Bits<17>>,
    // State.
    t: DFF<Bits<16>>,
    in_period: DFF<Bits<8>>,
    bw_acc: DFF<Bits<24>>,
    throttling: DFF<Bit>,
    bw_prev: DFF<Bits<24>>,
    max_bw: DFF<Bits<24>>,
    t_back: DFF<Bits<16>>,
    resets: DFF<Bits<8>>,
    throttling_now: Signal<Local, Bit>,
    t_w: Signal<Local, Bits<17>>,
    t_minus: Signal<Local, Bits<17>>,
    t_plus: Signal<Local, Bits<17>>,
    t_step: Signal<Local, Bits<16>>,
    t_best: Signal<Local, Bits<16>>,
    t_tuned: Signal<Local, Bits<16>>,
}

/// What the tuner's registers hold (for the tests).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TunerState {
    pub t: u32,
    pub in_period: u32,
    pub bw_acc: u32,
    pub throttling: bool,
    pub bw_prev: u32,
    pub max_bw: u32,
    /// `min(t_max, n_max)`: the threshold rule 3 falls back to.
    pub t_back: u32,
    pub resets: u32,
}

/// A constant of N bits (the value fits: `Params::check` passed).
fn konst<const N: usize>(v: u32) -> Constant<Bits<N>> {
    Constant::new((v as u64).into())
}

impl Tuner {
    /// The tuner for `p`. Panics if `p` does not pass `Params::check`.
    pub fn new(p: &Params) -> Self {
        if let Err(e) = p.check() {
            panic!("Tuner: {e}");
        }
        Self {
            clock: Default::default(),
            reset: Default::default(),
            snap_valid: Default::default(),
            snap_full: Default::default(),
            snap_flits: Default::default(),
            inhibit: Default::default(),
            threshold: Default::default(),
            threshold_next: Default::default(),
            rules: BwRules::new(p),
            last_snap: konst(p.periods - 1),
            r_last: konst(p.r - 1),
            t_init: konst(p.t_init),
            inc: konst(p.inc),
            dec: konst(p.dec),
            ceiling: konst(p.t_ceiling),
            t: Default::default(),
            in_period: Default::default(),
            bw_acc: Default::default(),
            throttling: Default::default(),
            bw_prev: Default::default(),
            max_bw: Default::default(),
            t_back: Default::default(),
            resets: Default::default(),
            throttling_now: Default::default(),
            t_w: Default::default(),
            t_minus: Default::default(),
            t_plus: Default::default(),
            t_step: Default::default(),
            t_best: Default::default(),
            t_tuned: Default::default(),
        }
    }

    /// The registers now (between two clock edges).
    pub fn state(&self) -> TunerState {
        let v = |b: u64| b as u32;
        TunerState {
            t: v(self.t.q.val().index() as u64),
            in_period: v(self.in_period.q.val().index() as u64),
            bw_acc: v(self.bw_acc.q.val().index() as u64),
            throttling: self.throttling.q.val(),
            bw_prev: v(self.bw_prev.q.val().index() as u64),
            max_bw: v(self.max_bw.q.val().index() as u64),
            t_back: v(self.t_back.q.val().index() as u64),
            resets: v(self.resets.q.val().index() as u64),
        }
    }
}

impl Logic for Tuner {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, t, in_period, bw_acc, throttling, bw_prev, max_bw, t_back, resets);
        self.throttling_now.next = self.throttling.q.val() | self.inhibit.val();
        // The period's flits and the drop and reset rules.
        self.rules.bw_acc.next = self.bw_acc.q.val();
        self.rules.snap_flits.next = self.snap_flits.val();
        self.rules.bw_prev.next = self.bw_prev.q.val();
        self.rules.max_bw.next = self.max_bw.q.val();

        // T - dec (floor 0) and T + inc (ceiling t_ceiling) on 17 bits: bit 16 of the
        // difference is its borrow; the sum cannot wrap (both terms are below 2^16).
        self.t_w.next = bit_cast::<17, 16>(self.t.q.val());
        self.t_minus.next = self.t_w.val() - self.dec.val();
        self.t_plus.next = self.t_w.val() + self.inc.val();
        if self.rules.dropped.val() {
            if self.t_minus.val().get_bit(16) {
                self.t_step.next = 0.into();
            } else {
                self.t_step.next = bit_cast::<16, 17>(self.t_minus.val());
            }
        } else if self.throttling_now.val() {
            if self.t_plus.val() > self.ceiling.val() {
                self.t_step.next = bit_cast::<16, 17>(self.ceiling.val());
            } else {
                self.t_step.next = bit_cast::<16, 17>(self.t_plus.val());
            }
        } else {
            self.t_step.next = self.t.q.val();
        }
        // A new best period's fall-back threshold: min(T, n_max = snap_full).
        if self.snap_full.val() < self.t.q.val() {
            self.t_best.next = self.snap_full.val();
        } else {
            self.t_best.next = self.t.q.val();
        }
        if self.rules.far_below.val() {
            self.t_tuned.next = self.t_back.q.val();
        } else {
            self.t_tuned.next = self.t_step.val();
        }

        self.threshold_next.next = self.t.q.val();
        if !self.snap_valid.val() {
            self.throttling.d.next = self.throttling_now.val();
        } else if self.in_period.q.val() != self.last_snap.val() {
            // A snapshot inside the period: count it.
            self.in_period.d.next = self.in_period.q.val() + 1;
            self.bw_acc.d.next = self.rules.bw.val();
            self.throttling.d.next = self.throttling_now.val();
        } else {
            // The period's last snapshot: tune.
            self.threshold_next.next = self.t_tuned.val();
            self.t.d.next = self.t_tuned.val();
            self.in_period.d.next = 0.into();
            self.bw_acc.d.next = 0.into();
            self.throttling.d.next = false;
            if self.rules.bw.val() > self.max_bw.q.val() {
                self.max_bw.d.next = self.rules.bw.val();
                self.t_back.d.next = self.t_best.val();
            }
            if self.rules.far_below.val() {
                if self.resets.q.val() == self.r_last.val() {
                    // r resets in a row: forget the maximum, search again.
                    self.max_bw.d.next = 0.into();
                    self.resets.d.next = 0.into();
                } else {
                    self.resets.d.next = self.resets.q.val() + 1;
                }
            } else {
                self.resets.d.next = 0.into();
            }
            self.bw_prev.d.next = self.rules.bw.val();
        }
        if self.reset.val() {
            self.t.d.next = self.t_init.val();
            self.in_period.d.next = 0.into();
            self.bw_acc.d.next = 0.into();
            self.throttling.d.next = false;
            self.bw_prev.d.next = 0.into();
            self.max_bw.d.next = 0.into();
            self.t_back.d.next = 0.into();
            self.resets.d.next = 0.into();
        }
        self.threshold.next = self.t.q.val();
    }
}

#[test]
fn tuner_synthesizes() {
    let mut uut = Tuner::new(&SEED);
    uut.connect_all();
    yosys_validate("selftuned_tuner", &generate_verilog(&uut)).unwrap();
}

#[test]
#[should_panic(expected = "Tuner: drop_pct = 0")]
fn tuner_refuses_a_drop_rule_of_zero() {
    Tuner::new(&Params {
        drop_pct: 0,
        ..SEED
    });
}
