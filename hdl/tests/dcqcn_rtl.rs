//! The rust-hdl RTL of DCQCN's reaction point (`DcqcnFlow`, and `DcqcnFlows` of N flows)
//! against its fixed-point reference model (`dcqcn::model`), cycle by cycle under the cycle
//! mapping of `dcqcn::stepper` (the alpha timer, the CNP, the rate timer, then the packet
//! start): every output (the rates, alpha, eligible, limited, the early-start flag) and
//! every flow's registers read from the blocks (counts, byte counter, the limiter's debt),
//! compared after every cycle. (a) directed cases: a CNP's cut, the three increases, the
//! return to the line rate, the limiter's spacing, a CNP and both timers in the cycle of a
//! start, the reset; (b) seeded random streams (`pft_test_support::stimulus::dcqcn`) on
//! several parameter sets, one flow and N flows; (c) broken copies of the model, which the
//! comparison must catch. Run in --release.

use pft_hdl::dcqcn::dcqcn_slot::SlotState;
use pft_hdl::dcqcn::model::{Params, LINE};
use pft_hdl::dcqcn::stepper::{slot_state, DcqcnFlowStepper, DcqcnFlowsStepper, Events, Port};

use dcqcn_stimulus::{paper_short, quick, steep, widest, Coverage, Stream};
use pft_test_support::stimulus::dcqcn as dcqcn_stimulus;

/// A change made to the model after each of its cycles (a broken copy of a rule).
type Mutant = fn(&Port, &mut Port, &Events);

/// The RTL (one flow, or N) and the model side by side. The RTL's first cycle is a reset
/// (not compared); the model starts in the cycle after it.
trait Rtl {
    fn step(&mut self, reset: bool, ev: Events) -> pft_hdl::dcqcn::stepper::Outputs;
    fn registers(&self) -> Vec<SlotState>;
}

impl Rtl for DcqcnFlowStepper {
    fn step(&mut self, reset: bool, ev: Events) -> pft_hdl::dcqcn::stepper::Outputs {
        DcqcnFlowStepper::step(self, reset, ev)
    }
    fn registers(&self) -> Vec<SlotState> {
        vec![DcqcnFlowStepper::registers(self)]
    }
}

impl<const N: usize, const A: usize> Rtl for DcqcnFlowsStepper<N, A> {
    fn step(&mut self, reset: bool, ev: Events) -> pft_hdl::dcqcn::stepper::Outputs {
        DcqcnFlowsStepper::step(self, reset, ev)
    }
    fn registers(&self) -> Vec<SlotState> {
        DcqcnFlowsStepper::registers(self)
    }
}

struct Lockstep<R: Rtl> {
    rtl: R,
    port: Port,
    now: u64,
    tag: String,
    mutant: Option<Mutant>,
}

impl<R: Rtl> Lockstep<R> {
    fn new(mut rtl: R, p: Params, n: usize, tag: &str) -> Self {
        rtl.step(true, Events::default());
        let s = Lockstep {
            rtl,
            port: Port::new(p, n),
            now: 0,
            tag: tag.to_string(),
            mutant: None,
        };
        s.check().unwrap();
        s
    }

    /// The registers of every flow against the model's.
    fn check(&self) -> Result<(), String> {
        let want: Vec<SlotState> = self.port.flows.iter().map(slot_state).collect();
        let got = self.rtl.registers();
        if got != want {
            return Err(format!(
                "{}: registers differ before cycle {}:\n  rtl   {got:?}\n  model {want:?}",
                self.tag, self.now
            ));
        }
        Ok(())
    }

    /// One cycle; the first difference as an error.
    fn try_step(&mut self, reset: bool, ev: Events) -> Result<(), String> {
        let got = self.rtl.step(reset, ev);
        let before = self.port.clone();
        let want = self.port.cycle(self.now, reset, ev);
        if let Some(m) = self.mutant {
            m(&before, &mut self.port, &ev);
        }
        if got != want {
            return Err(format!(
                "{}: outputs differ in cycle {} (reset {reset}, {ev:?}):\n  rtl   {got:?}\n  model {want:?}",
                self.tag, self.now
            ));
        }
        self.now += 1;
        self.check()
    }

    fn step(&mut self, reset: bool, ev: Events) {
        self.try_step(reset, ev).unwrap();
    }

    fn idle(&mut self, cycles: u64) {
        for _ in 0..cycles {
            self.step(false, Events::default());
        }
    }

    fn cnp(&mut self) {
        self.step(
            false,
            Events {
                cnp: Some(0),
                start: None,
            },
        );
    }

    fn start(&mut self, flits: u32) {
        self.step(
            false,
            Events {
                cnp: None,
                start: Some((0, flits)),
            },
        );
    }

    fn flow(&self) -> &pft_hdl::dcqcn::model::Flow {
        &self.port.flows[0]
    }
}

fn one(p: Params, tag: &str) -> Lockstep<DcqcnFlowStepper> {
    Lockstep::new(DcqcnFlowStepper::new(&p), p, 1, tag)
}

// ---- (a) directed cases ----

#[test]
fn cnps_cut_down_to_the_floor_and_the_timers_bring_the_rate_back() {
    let mut ls = one(quick(), "cut-recover");
    ls.cnp();
    assert_eq!(
        (ls.flow().rc, ls.flow().rt),
        (LINE / 2, LINE),
        "alpha 1: halved"
    );
    for _ in 0..30 {
        ls.cnp();
    }
    assert_eq!(ls.flow().rc, quick().min_rate, "floor");
    // fast recovery, additive, then hyper with the byte counter, back to the line
    let mut cycles = 0;
    while ls.flow().limited {
        ls.start(127);
        ls.idle(20);
        cycles += 21;
        assert!(cycles < 200_000, "never recovers");
    }
    assert_eq!((ls.flow().rc, ls.flow().rt), (LINE, LINE));
    assert!(
        ls.flow().bc > quick().f && ls.flow().t > quick().f,
        "hyper ran"
    );
}

#[test]
fn the_limiter_spaces_starts_by_the_rate() {
    // timers longer than the test: the rate stays where the CNP puts it
    let p = Params {
        rate_timer: 10_000,
        alpha_timer: 10_000,
        ..quick()
    };
    let mut ls = one(p, "limiter");
    ls.start(64);
    ls.idle(62);
    assert!(!ls.rtl.uut.eligible.val(), "line rate: 64 cycles");
    ls.idle(1);
    assert!(ls.rtl.uut.eligible.val());
    ls.cnp(); // half the line
    ls.start(64);
    ls.idle(126);
    assert!(!ls.rtl.uut.eligible.val(), "half: 128 cycles");
    ls.idle(1);
    assert!(ls.rtl.uut.eligible.val());
}

#[test]
fn a_cnp_and_both_timers_in_the_cycle_of_a_start() {
    let p = quick();
    let mut ls = one(p, "same-cycle");
    ls.cnp();
    // the rate timer at 37, alpha's at 23 cycles after the CNP: run to a cycle where both
    // are due at once (37 * 23 = 851 cycles after it), and start a packet with a CNP there
    ls.idle(850);
    ls.step(
        false,
        Events {
            cnp: Some(0),
            start: Some((0, 127)),
        },
    );
    ls.idle(36);
    // one cycle before the rate timer: a start that ends a byte-counter period with it
    ls.start(127);
    ls.start(127);
    ls.step(
        false,
        Events {
            cnp: None,
            start: Some((0, 127)),
        },
    );
    assert!(ls.flow().bc > 0 || ls.flow().t > 0);
}

#[test]
fn an_early_start_is_flagged_and_taken_and_a_reset_starts_afresh() {
    let mut ls = one(steep(), "early-reset");
    ls.cnp();
    ls.start(100);
    let o = ls.rtl.step(
        false,
        Events {
            cnp: None,
            start: Some((0, 5)),
        },
    );
    let want = ls.port.cycle(
        ls.now,
        false,
        Events {
            cnp: None,
            start: Some((0, 5)),
        },
    );
    assert!(o.early && want.early);
    assert_eq!(o, want);
    ls.now += 1;
    ls.step(
        true,
        Events {
            cnp: Some(0),
            start: Some((0, 5)),
        },
    );
    ls.idle(10);
    assert_eq!(ls.port.flows[0], pft_hdl::dcqcn::model::Flow::default());
}

// ---- (b) seeded random streams ----

/// The stream from `seed` on `n` flows of `p` for `cycles` cycles, RTL against the model.
fn run<R: Rtl>(
    mut ls: Lockstep<R>,
    max_flits: u32,
    seed: u64,
    cycles: u64,
) -> Result<Coverage, String> {
    let mut stream = Stream::new(max_flits, seed);
    let mut cov = Coverage::default();
    for t in 0..cycles {
        let before = ls.port.clone();
        let (reset, ev) = stream.cycle(t, &before);
        ls.try_step(reset, ev)?;
        let o = before.clone().cycle(t, reset, ev);
        cov.count(t, &before, &ls.port, reset, &ev, &o);
    }
    eprintln!("{}: {cov:?}", ls.tag);
    Ok(cov)
}

const CYCLES: u64 = 100_000;

fn one_flow(p: Params, max_flits: u32, seed: u64, cycles: u64) -> Coverage {
    let tag = format!("one flow {p:?} seed {seed:#x}");
    run(one(p, &tag), max_flits, seed, cycles).unwrap()
}

fn flows<const N: usize, const A: usize>(
    p: Params,
    max_flits: u32,
    seed: u64,
    cycles: u64,
) -> Coverage {
    let tag = format!("{N} flows {p:?} seed {seed:#x}");
    let ls = Lockstep::new(DcqcnFlowsStepper::<N, A>::new(&p), p, N, &tag);
    run(ls, max_flits, seed, cycles).unwrap()
}

#[test]
fn random_quick_rules() {
    one_flow(quick(), 64, 0xDC9C_0001, CYCLES).check_the_rules_ran(true);
}

#[test]
fn random_paper_rounding_short_timers() {
    // Deep cuts to the paper's floor (0.1 % of the line) and slow recovery: few starts, so
    // only the rules that still run often are required.
    let c = one_flow(paper_short(), 64, 0xDC9C_0002, CYCLES);
    assert!(c.cnps > 1000 && c.at_floor > 100 && c.decays > 100, "{c:?}");
    assert!(c.fast > 50 && c.additive > 50 && c.early > 10, "{c:?}");
}

#[test]
fn random_steep_extremes() {
    one_flow(steep(), 127, 0xDC9C_0003, CYCLES).check_the_rules_ran(true);
}

#[test]
fn the_longest_timers_wrap_with_the_counter() {
    // 2^14 - 1-cycle timers: the deadlines pass the 14-bit counter's wrap. The floor at the
    // line rate: a CNP only arms the timers; the first rate-timer event ends the limit.
    let mut ls = one(widest(), "widest");
    ls.idle(5000);
    ls.cnp();
    assert!(ls.flow().limited);
    ls.idle(16382);
    assert!(ls.flow().limited, "one cycle before the rate timer");
    ls.idle(1);
    assert!(
        !ls.flow().limited,
        "the rate timer's event: back at the line"
    );
    assert_eq!(ls.flow().alpha, pft_hdl::dcqcn::model::ONE - 1, "one decay");
    ls.idle(16383 * 3);
    assert_eq!(
        ls.flow().alpha,
        pft_hdl::dcqcn::model::ONE - 4,
        "g = 2^-15: each period takes round(alpha / 2^15) = 1 unit off"
    );
    let c = one_flow(widest(), 127, 0xDC9C_0004, CYCLES / 2);
    assert!(c.cnps > 10, "{c:?}");
}

#[test]
fn random_four_flows() {
    flows::<4, 2>(quick(), 64, 0xDC9C_0101, CYCLES / 2).check_the_rules_ran(true);
}

#[test]
fn random_three_flows_steep() {
    flows::<3, 2>(steep(), 127, 0xDC9C_0102, CYCLES / 4);
}

#[test]
fn random_one_flow_block() {
    flows::<1, 1>(paper_short(), 64, 0xDC9C_0103, CYCLES / 4);
}

// ---- (c) broken copies of the model ----

/// The model broken after its cycle: each must make the comparison fail.
const MUTANTS: [(&str, Mutant); 4] = [
    // the cut rounds the other way (one unit lower)
    ("cut-rounds-down", |b, a, ev| {
        if let Some(i) = ev.cnp {
            if a.flows[i].rc > a.p.min_rate && b.flows[i].rc > a.flows[i].rc {
                a.flows[i].rc -= 1;
            }
        }
    }),
    // a CNP leaves the byte-counter events as they were
    ("cnp-keeps-bc", |b, a, ev| {
        if let Some(i) = ev.cnp {
            a.flows[i].bc = b.flows[i].bc;
        }
    }),
    // alpha's decay skipped
    ("no-decay", |b, a, ev| {
        for (i, (x, y)) in b.flows.iter().zip(a.flows.iter_mut()).enumerate() {
            if ev.cnp != Some(i) && y.alpha_at != x.alpha_at {
                y.alpha = x.alpha;
            }
        }
    }),
    // the limiter pays one unit more each cycle
    ("limiter-off-by-one", |_, a, _| {
        for f in &mut a.flows {
            f.deficit = f.deficit.saturating_sub(1);
        }
    }),
];

#[test]
fn broken_models_are_caught() {
    for (name, m) in MUTANTS {
        let mut ls = one(quick(), name);
        ls.mutant = Some(m);
        let r = run(ls, 64, 0xDC9C_0001, CYCLES / 3);
        let e = r.expect_err(&format!(
            "mutant {name} survived: the comparison is blind to it"
        ));
        eprintln!("mutant {name}: {}", e.lines().next().unwrap_or(""));
    }
}
