//! The rust-hdl RTL of MVCM's per-flow source state (`MvcmFlow`, and `MvcmFlows` of N flows)
//! against its reference model (`mvcm::model::Flow`), cycle by cycle under the cycle mapping
//! of `mvcm::stepper` (the ACK, then the fast reset, then the injection): every output
//! (`can_inject`, `dw`, `out`, the slots, the cycles until `next_ok`, the three error
//! flags) and the registers read from the blocks, compared after every cycle. (a) directed
//! cases: the window down to 1 and the slots up to the cap, recovery, the fast reset, the
//! interval's last cycle, the errors, the reset; (b) seeded random streams
//! (`pft_test_support::stimulus::mvcm`) on several parameter sets, one flow and N flows. Run in
//! --release.

use pft_hdl::mvcm::model::{Flow, Params};
use pft_hdl::mvcm::mvcm_flow::fits;
use pft_hdl::mvcm::stepper::{
    model_cycle, model_flows_cycle, Events, FlowsEvents, MvcmFlowsStepper, MvcmStepper, Outputs,
};
use pft_hdl::mvcm::PAPER;
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use mvcm_stimulus::{
    Coverage, Stream, NO_INCREASES, ODD_K_WINDOW_1, PAPER_SHORT_RTT, SMALL, WIDEST,
};
use pft_test_support::stimulus::mvcm as mvcm_stimulus;

/// One flow's RTL (at widths D, E, T) and model side by side.
struct Lockstep<const D: usize, const E: usize, const T: usize> {
    rtl: MvcmStepper<D, E, T>,
    model: Flow,
    p: Params,
    now: u64,
    tag: String,
}

impl<const D: usize, const E: usize, const T: usize> Lockstep<D, E, T> {
    fn new(p: Params, tag: &str) -> Self {
        let s = Lockstep {
            rtl: MvcmStepper::new(p),
            model: Flow::new(&p),
            p,
            now: 0,
            tag: tag.to_string(),
        };
        s.check_state();
        s
    }

    fn check_state(&self) {
        assert_eq!(
            self.rtl.registers(),
            Outputs::of_flow(&self.model, self.now),
            "{}: registers differ before cycle {}",
            self.tag,
            self.now
        );
    }

    /// One cycle on both; the outputs and then the registers must agree.
    fn step(&mut self, reset: bool, ev: Events) -> Outputs {
        let got = self.rtl.step(reset, ev);
        let want = model_cycle(&mut self.model, &self.p, self.now, reset, ev);
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

    fn inject(&mut self) -> Outputs {
        self.step(
            false,
            Events {
                inject: true,
                ..Default::default()
            },
        )
    }

    fn ack(&mut self, mb: bool, vb: bool) -> Outputs {
        self.step(
            false,
            Events {
                ack: Some((mb, vb)),
                ..Default::default()
            },
        )
    }

    /// Wait until the flow may inject, then inject (accepted).
    fn inject_when_allowed(&mut self) {
        while !self.rtl.outputs().can_inject {
            self.idle(1);
        }
        assert!(!self.inject().not_eligible);
    }

    /// Inject when allowed, and ACK the packet 3 cycles later.
    fn round(&mut self, mb: bool, vb: bool) {
        self.inject_when_allowed();
        self.idle(2);
        self.ack(mb, vb);
    }
}

type Paper = Lockstep<2, 3, 19>;
type Wide = Lockstep<8, 5, 32>;

// ---- (a) directed cases ----

#[test]
fn hot_acks_take_the_window_to_1_then_the_slots_to_k_pow_n_and_hold() {
    let mut ls = Paper::new(PAPER, "hot-to-cap");
    ls.round(true, true);
    assert_eq!((ls.model.dw, ls.model.ws_exp), (1, None));
    for e in 0..=5 {
        ls.round(true, true);
        assert_eq!(ls.model.ws_exp, Some(e));
    }
    // The cap: 4^5 slots, the longest interval (362,496 cycles, 19 bits).
    ls.round(true, true);
    assert_eq!(ls.model.ws_exp, Some(5));
    ls.inject_when_allowed();
    assert_eq!(ls.rtl.outputs().wait, 362_495);
    ls.ack(true, false); // warm: the ACK is back, only the interval holds the flow
    ls.idle(362_493);
    assert!(!ls.rtl.outputs().can_inject, "one cycle before next_ok");
    ls.idle(1);
    assert!(ls.rtl.outputs().can_inject, "at next_ok");
}

#[test]
fn a_packet_may_start_at_next_ok_and_is_refused_one_cycle_before() {
    let mut ls = Wide::new(SMALL, "next-ok");
    for _ in 0..3 {
        ls.round(true, true); // dw 4 -> 1
    }
    ls.round(true, true); // one slot
    ls.round(true, true); // two: W = 10
    assert_eq!(ls.model.ws_exp, Some(1));
    ls.inject_when_allowed();
    ls.ack(true, false); // warm: the interval stays
    while ls.rtl.outputs().wait > 1 {
        ls.idle(1);
    }
    assert!(ls.inject().not_eligible, "one cycle early");
    assert!(!ls.inject().not_eligible, "at next_ok");
}

#[test]
fn a_clean_ack_removes_the_slots_and_cancels_the_interval_then_opens_the_window() {
    for p in [SMALL, PAPER_SHORT_RTT] {
        let mut ls = Wide::new(p, "recovery");
        for _ in 0..(p.dw_max + p.ws_max_incs + 3) {
            ls.round(true, true);
        }
        assert_eq!(ls.model.ws_exp, Some(p.ws_max_incs as u8));
        ls.inject_when_allowed();
        assert!(ls.rtl.outputs().wait > 0);
        // The clean ACK and an injection in the same cycle: the interval is cancelled and
        // the packet goes (its own interval 0: no slots any more).
        let o = ls.step(
            false,
            Events {
                ack: Some((false, false)),
                fast_reset: false,
                inject: true,
            },
        );
        assert!(!o.not_eligible);
        assert_eq!((ls.model.ws_exp, ls.rtl.outputs().wait), (None, 0));
        ls.ack(false, false); // the packet's clean ACK: dw 1 -> 2
        while (ls.model.dw as u32) < p.dw_max {
            ls.round(false, false);
        }
        ls.round(false, false); // full rate: nothing changes
        assert_eq!(ls.model.dw as u32, p.dw_max);
    }
}

#[test]
fn the_fast_reset_restores_full_rate_keeps_out_and_wins_over_a_same_cycle_ack() {
    let mut ls = Wide::new(SMALL, "fast-reset");
    for _ in 0..8 {
        ls.round(true, true);
    }
    ls.inject_when_allowed();
    assert!(ls.rtl.outputs().wait > 0);
    // An imminent ACK and the fast reset in one cycle: the ACK first, then the reset.
    let o = ls.step(
        false,
        Events {
            ack: Some((true, true)),
            fast_reset: true,
            inject: true,
        },
    );
    assert!(!o.not_eligible);
    assert_eq!((ls.model.dw, ls.model.out, ls.model.ws_exp), (4, 1, None));
    for _ in 0..3 {
        assert!(!ls.inject().not_eligible);
    }
    assert!(ls.inject().not_eligible, "the window of 4 is full");
}

#[test]
fn stray_impossible_and_refused_events_are_flagged_and_change_only_what_the_model_does() {
    let mut ls = Wide::new(SMALL, "errors");
    let o = ls.ack(true, true);
    assert!(o.stray && !o.marks);
    let o = ls.ack(false, true);
    assert!(o.stray && !o.marks, "stray wins");
    ls.inject();
    let o = ls.ack(false, true);
    assert!(o.marks && !o.stray);
    assert_eq!(ls.model.out, 0);
    for _ in 0..4 {
        ls.inject();
    }
    assert!(ls.inject().not_eligible);
    // A reset ignores its cycle's events and restores Flow::new.
    let o = ls.step(
        true,
        Events {
            ack: Some((false, true)),
            fast_reset: true,
            inject: true,
        },
    );
    assert!(!o.stray && !o.marks && !o.not_eligible);
    assert_eq!(ls.model, Flow::new(&SMALL));
}

#[test]
fn warm_acks_never_touch_the_slots() {
    let mut ls = Paper::new(PAPER, "warm");
    ls.round(true, false);
    ls.round(true, true);
    ls.round(true, true);
    assert_eq!(ls.model.ws_exp, Some(1));
    for _ in 0..4 {
        ls.round(true, false);
        assert_eq!((ls.model.dw, ls.model.ws_exp), (1, Some(1)));
    }
}

// ---- (b) seeded random streams ----

/// `p`'s stream from `seed` on one flow for `cycles` cycles (at widths D, E, T).
fn random_run<const D: usize, const E: usize, const T: usize>(
    p: Params,
    seed: u64,
    cycles: u64,
) -> Coverage {
    let tag = format!("{p:?} seed {seed:#x}");
    let mut ls = Lockstep::<D, E, T>::new(p, &tag);
    let mut stream = Stream::new(p, 1, seed);
    let mut cov = Coverage::default();
    for t in 0..cycles {
        let before = [ls.model];
        let (reset, fev) = stream.cycle(t, &before);
        let ev = Events {
            ack: fev.ack.map(|(_, mb, vb)| (mb, vb)),
            fast_reset: fev.fast_reset.is_some(),
            inject: fev.inject.is_some(),
        };
        let o = ls.step(reset, ev);
        let fo = pft_hdl::mvcm::stepper::FlowsOutputs {
            can_inject: o.can_inject as u64,
            stray: o.stray,
            marks: o.marks,
            not_eligible: o.not_eligible,
        };
        stream.commit(t, reset, &fo);
        cov.count(t, &before, &[ls.model], reset, &fev, &fo, &p);
    }
    eprintln!("{tag}: {cov:?}");
    cov
}

const CYCLES: u64 = 100_000;

#[test]
fn random_small_window_4_k_2() {
    random_run::<8, 5, 32>(SMALL, 0x3C3_0001, CYCLES).check_the_rules_ran(&SMALL);
}

#[test]
fn random_paper_k_and_n_short_rtt_at_the_paper_widths() {
    assert!(fits(&PAPER_SHORT_RTT, 2, 3, 19));
    random_run::<2, 3, 19>(PAPER_SHORT_RTT, 0x3C3_0002, CYCLES)
        .check_the_rules_ran(&PAPER_SHORT_RTT);
}

#[test]
fn random_odd_k_window_1() {
    random_run::<8, 5, 32>(ODD_K_WINDOW_1, 0x3C3_0003, CYCLES).check_the_rules_ran(&ODD_K_WINDOW_1);
}

#[test]
fn random_no_increases() {
    random_run::<8, 5, 32>(NO_INCREASES, 0x3C3_0004, CYCLES).check_the_rules_ran(&NO_INCREASES);
}

#[test]
fn random_widest_window() {
    random_run::<8, 5, 32>(WIDEST, 0x3C3_0005, CYCLES).check_the_rules_ran(&WIDEST);
}

#[test]
fn random_paper_constants() {
    // rtt_min 354: the slots rarely reach the cap in this many cycles; every output and
    // register is still compared every cycle.
    random_run::<2, 3, 19>(PAPER, 0x3C3_0006, CYCLES);
}

#[test]
fn random_parameter_sets() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(0x3C3_0100);
    for i in 0..4u64 {
        let mut p = Params {
            dw_max: rng.gen_range(1..=12),
            k: rng.gen_range(2..=16),
            n: 12,
            rtt_min: rng.gen_range(1..=20),
            ws_max_incs: 0,
        };
        p.ws_max_incs = rng.gen_range(0..=p.ws_incs_limit().min(6));
        assert!(p.check().is_ok());
        random_run::<8, 5, 32>(p, 0x3C3_0200 + i, CYCLES / 2);
    }
}

/// N flows' RTL and models side by side for `cycles` cycles of `p`'s stream.
fn random_flows<const N: usize, const A: usize, const D: usize, const E: usize, const T: usize>(
    p: Params,
    seed: u64,
    cycles: u64,
) -> Coverage {
    let tag = format!("{N} flows {p:?} seed {seed:#x}");
    let mut rtl = MvcmFlowsStepper::<N, A, D, E, T>::new(p);
    let mut fs = vec![Flow::new(&p); N];
    let mut stream = Stream::new(p, N, seed);
    let mut cov = Coverage::default();
    for t in 0..cycles {
        for (i, f) in fs.iter().enumerate() {
            assert_eq!(
                rtl.registers(i),
                Outputs::of_flow(f, t),
                "{tag}: flow {i}'s registers differ before cycle {t}"
            );
        }
        let before = fs.clone();
        let (reset, ev) = stream.cycle(t, &fs);
        let got = rtl.step(reset, ev);
        let want = model_flows_cycle(&mut fs, &p, t, reset, ev);
        assert_eq!(
            got, want,
            "{tag}: outputs differ in cycle {t} (reset {reset}, {ev:?})"
        );
        stream.commit(t, reset, &want);
        cov.count(t, &before, &fs, reset, &ev, &want, &p);
    }
    eprintln!("{tag}: {cov:?}");
    cov
}

#[test]
fn random_four_flows_at_the_paper_widths() {
    random_flows::<4, 2, 2, 3, 19>(PAPER_SHORT_RTT, 0x3C3_0301, CYCLES / 2)
        .check_the_rules_ran(&PAPER_SHORT_RTT);
}

#[test]
fn random_three_flows_small() {
    // N not a power of two: flow number 3 names no flow (the stream never uses it).
    random_flows::<3, 2, 8, 5, 32>(SMALL, 0x3C3_0302, CYCLES / 2).check_the_rules_ran(&SMALL);
}

#[test]
fn random_one_flow_block() {
    random_flows::<1, 1, 8, 5, 32>(ODD_K_WINDOW_1, 0x3C3_0303, CYCLES / 4);
}

#[test]
fn the_flows_block_events_of_different_flows_in_one_cycle() {
    let p = SMALL;
    let mut rtl = MvcmFlowsStepper::<4, 2, 8, 5, 32>::new(p);
    let mut fs = vec![Flow::new(&p); 4];
    let evs = [
        FlowsEvents {
            inject: Some(0),
            ..Default::default()
        },
        FlowsEvents {
            ack: Some((0, true, true)),
            fast_reset: Some(1),
            inject: Some(2),
        },
        FlowsEvents {
            ack: Some((2, true, false)),
            fast_reset: Some(2),
            inject: Some(2),
        },
        FlowsEvents {
            ack: Some((3, false, false)),
            fast_reset: None,
            inject: Some(3),
        },
    ];
    for (t, ev) in evs.into_iter().enumerate() {
        let got = rtl.step(false, ev);
        let want = model_flows_cycle(&mut fs, &p, t as u64, false, ev);
        assert_eq!(got, want, "cycle {t}: {ev:?}");
    }
    assert_eq!(fs[0].dw, 3);
    assert!(!rtl.step(false, FlowsEvents::default()).stray);
}
