//! The rust-hdl RTL of IB CC's per-flow source state (`IbccFlow`, and `IbccFlows` of N
//! flows) against its reference model (`ibcc::model`, the functions the simulator's IB CC
//! runs), cycle by cycle under the cycle mapping of `ibcc::stepper` (the BECN, then the
//! CCTI timer, then the packet start): every output (CCTI, eligible, the cycles until
//! `next_ok`, the timer's expiry, the early-start flag) and the registers read from the
//! blocks, compared after every cycle. (a) directed cases: the CCTI up to the limit and
//! down to the floor, the IRD's spacing from the CCT, a BECN and an expiry in the cycle of
//! a start, the reset; (b) seeded random streams (`pft_test_support::stimulus::ibcc`) on several
//! parameter sets, one flow and N flows. Run in --release.

use pft_hdl::ibcc::model::Params;
use pft_hdl::ibcc::stepper::{Events, IbccFlowsStepper, IbccStepper, Outputs, Port};
use pft_hdl::ibcc::TABLE1_PERIOD;

use ibcc_stimulus::{
    floor_at_limit, limit_zero, steep, table1_random, table1_short, widest, Coverage, Stream,
};
use pft_test_support::stimulus::ibcc as ibcc_stimulus;

/// One flow's RTL (at widths C, L, T, P) and model side by side. The RTL's first cycle is
/// a reset (not compared); the model starts in the cycle after it.
struct Lockstep<const C: usize, const L: usize, const T: usize, const P: usize> {
    rtl: IbccStepper<C, L, T, P>,
    port: Port,
    now: u64,
    tag: String,
}

impl<const C: usize, const L: usize, const T: usize, const P: usize> Lockstep<C, L, T, P> {
    fn new(p: Params, period: u64, first: u64, tag: &str) -> Self {
        let mut rtl = IbccStepper::new(&p, period, first);
        rtl.step(true, Events::default());
        let s = Lockstep {
            rtl,
            port: Port::new(p, period, first, 1),
            now: 0,
            tag: tag.to_string(),
        };
        s.check_state();
        s
    }

    fn check_state(&self) {
        let f = &self.port.flows[0];
        assert_eq!(
            self.rtl.registers(),
            (f.ccti, f.next_ok.saturating_sub(self.now)),
            "{}: registers differ before cycle {}",
            self.tag,
            self.now
        );
    }

    fn step(&mut self, reset: bool, ev: Events) -> Outputs {
        let got = self.rtl.step(reset, ev);
        let want = self.port.cycle(self.now, reset, ev);
        assert_eq!(
            got, want,
            "{}: outputs differ in cycle {} (reset {reset}, {ev:?})",
            self.tag, self.now
        );
        self.now += 1;
        self.check_state();
        got
    }

    fn idle(&mut self, cycles: u64) {
        for _ in 0..cycles {
            self.step(false, Events::default());
        }
    }

    fn becn(&mut self) -> Outputs {
        self.step(
            false,
            Events {
                becn: Some(0),
                start: None,
            },
        )
    }

    fn start(&mut self, flits: u32) -> Outputs {
        self.step(
            false,
            Events {
                becn: None,
                start: Some((0, flits)),
            },
        )
    }
}

type Table1 = Lockstep<7, 6, 13, 13>;
type Wide = Lockstep<8, 8, 22, 16>;

// ---- (a) directed cases ----

#[test]
fn becns_raise_the_ccti_to_the_limit_and_the_timer_lowers_it_to_the_floor() {
    let p = Params {
        increase: 7,
        limit: 30,
        min: 4,
        cct: pft_hdl::ibcc::model::linear_cct(30),
    };
    let mut ls = Wide::new(p, 10, 10, "limit-floor");
    for _ in 0..5 {
        ls.becn();
    }
    assert_eq!(ls.port.flows[0].ccti, 30, "capped");
    ls.idle(400);
    assert_eq!(ls.port.flows[0].ccti, 4, "floor");
}

#[test]
fn table1_spaces_starts_by_ccti_packet_times() {
    let mut ls = Table1::new(Params::table1(), TABLE1_PERIOD, 6000, "table1");
    ls.start(32);
    assert_eq!(
        ls.rtl.registers().1,
        31,
        "CCTI 0: only the packet's own time"
    );
    ls.idle(30);
    assert_eq!(ls.port.flows[0].next_ok, 32);
    for _ in 0..10 {
        ls.becn();
    }
    assert!(ls.rtl.uut.eligible.val());
    ls.start(32);
    // 32 + 10 * 32 cycles from the start; the last cycle before next_ok is not eligible.
    ls.idle(32 + 320 - 2);
    assert!(!ls.rtl.uut.eligible.val());
    ls.idle(1);
    assert!(ls.rtl.uut.eligible.val());
    // The 63-flit packet at the limit: the 13-bit timer's top.
    for _ in 0..120 {
        ls.becn();
    }
    assert_eq!(ls.port.flows[0].ccti, 127);
    ls.start(63);
    assert_eq!(ls.rtl.registers().1, 63 + 63 * 127 - 1);
}

#[test]
fn a_becn_and_an_expiry_in_the_cycle_of_a_start_are_applied_before_it() {
    // Period 4, first expiry in cycle 4.
    let mut ls = Wide::new(steep().0, 4, 4, "same-cycle");
    ls.becn();
    ls.becn(); // CCTI 10
    ls.idle(2); // cycles 2 and 3
    let o = ls.step(
        false,
        Events {
            becn: Some(0),
            start: Some((0, 7)),
        },
    ); // cycle 4: BECN to 15, expiry to 14, start at 14
    assert!(o.tick);
    assert_eq!(ls.port.flows[0].ccti, 14);
    let entry = ls.port.p.cct[14];
    let want = 7 + ((7 * (entry & 0x3FFF) as u64) >> (entry >> 14)) - 1;
    assert_eq!(ls.rtl.registers().1, want);
}

#[test]
fn an_early_start_is_flagged_and_taken_and_a_reset_starts_afresh() {
    let mut ls = Wide::new(steep().0, 23, 5, "early-reset");
    ls.becn();
    ls.start(9);
    let o = ls.start(2);
    assert!(o.early);
    assert!(ls.port.flows[0].next_ok > 2);
    let o = ls.step(
        true,
        Events {
            becn: Some(0),
            start: Some((0, 5)),
        },
    );
    assert!(!o.early && !o.tick);
    ls.idle(40);
    assert_eq!(ls.port.flows[0].ccti, 0);
}

// ---- (b) seeded random streams ----

/// `(p, period)`'s stream from `seed` on one flow for `cycles` cycles (at widths C, L, T,
/// P), packets of up to `max_flits`.
fn random_run<const C: usize, const L: usize, const T: usize, const P: usize>(
    (p, period): (Params, u64),
    max_flits: u32,
    seed: u64,
    cycles: u64,
) -> Coverage {
    let first = 1 + seed % period;
    let tag = format!("{p:?} period {period} seed {seed:#x}");
    let mut ls = Lockstep::<C, L, T, P>::new(p, period, first, &tag);
    let mut stream = Stream::new(max_flits, seed);
    let mut cov = Coverage::default();
    for t in 0..cycles {
        let before = ls.port.clone();
        let (reset, ev) = stream.cycle(t, &before);
        let o = ls.step(reset, ev);
        cov.count(t, &before, &ls.port, reset, &ev, &o);
    }
    eprintln!("{tag}: {cov:?}");
    cov
}

const CYCLES: u64 = 100_000;

#[test]
fn random_table1_rules_short_timer_at_table1_widths() {
    let c = random_run::<7, 6, 13, 13>(table1_short(), 32, 0x1BCC_0001, CYCLES);
    c.check_the_rules_ran(&table1_short().0);
}

#[test]
fn random_steep_steps_every_shift() {
    let c = random_run::<8, 8, 22, 16>(steep(), 20, 0x1BCC_0002, CYCLES);
    c.check_the_rules_ran(&steep().0);
}

#[test]
fn random_widest_steps() {
    let c = random_run::<8, 8, 22, 16>(widest(), 8, 0x1BCC_0003, CYCLES);
    c.check_the_rules_ran(&widest().0);
}

#[test]
fn random_floor_at_the_limit_and_limit_zero() {
    let c = random_run::<8, 8, 22, 16>(floor_at_limit(), 16, 0x1BCC_0004, CYCLES / 2);
    c.check_the_rules_ran(&floor_at_limit().0);
    let c = random_run::<8, 8, 22, 16>(limit_zero(), 16, 0x1BCC_0005, CYCLES / 2);
    c.check_the_rules_ran(&limit_zero().0);
}

#[test]
fn random_table1_with_the_random_cct() {
    // Long waits (multipliers up to 16,383): outputs and registers are still compared every
    // cycle; resets and early starts end them.
    random_run::<7, 6, 20, 13>(table1_random(), 2, 0x1BCC_0006, CYCLES / 2);
}

/// N flows' RTL and model side by side for `cycles` cycles.
fn random_flows<
    const N: usize,
    const A: usize,
    const C: usize,
    const L: usize,
    const T: usize,
    const P: usize,
>(
    (p, period): (Params, u64),
    max_flits: u32,
    seed: u64,
    cycles: u64,
) -> Coverage {
    let first = 1 + seed % period;
    let tag = format!("{N} flows {p:?} period {period} seed {seed:#x}");
    let mut rtl = IbccFlowsStepper::<N, A, C, L, T, P>::new(&p, period, first);
    rtl.step(true, Events::default());
    let mut port = Port::new(p, period, first, N);
    let mut stream = Stream::new(max_flits, seed);
    let mut cov = Coverage::default();
    for t in 0..cycles {
        let before = port.clone();
        let (reset, ev) = stream.cycle(t, &before);
        let got = rtl.step(reset, ev);
        let want = port.cycle(t, reset, ev);
        assert_eq!(
            got, want,
            "{tag}: outputs or registers differ in cycle {t} (reset {reset}, {ev:?})"
        );
        cov.count(t, &before, &port, reset, &ev, &want);
    }
    eprintln!("{tag}: {cov:?}");
    cov
}

#[test]
fn random_four_flows_table1_widths() {
    random_flows::<4, 2, 7, 6, 13, 13>(table1_short(), 32, 0x1BCC_0101, CYCLES / 2)
        .check_the_rules_ran(&table1_short().0);
}

#[test]
fn random_three_flows_steep() {
    random_flows::<3, 2, 8, 8, 22, 16>(steep(), 20, 0x1BCC_0102, CYCLES / 2)
        .check_the_rules_ran(&steep().0);
}

#[test]
fn random_one_flow_block() {
    random_flows::<1, 1, 7, 6, 13, 13>(table1_short(), 32, 0x1BCC_0103, CYCLES / 4);
}
