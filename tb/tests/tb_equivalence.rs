//! rust-hdl RTL against the reference model, in lockstep, every output every cycle.
//! Run in --release: 1,000,000 random cycles per mode for the default build, 250,000 for the
//! pipelined build (with its own model; its rust-hdl simulation costs 2.4 times as much per
//! cycle, and CI runs it on every change).

use pft_hdl::model::{Inputs, Outputs, PftModel};
use pft_hdl::model_pipelined::PftModelPipelined;
use pft_hdl::stepper::{Engine, RtlStepper, RtlStepperPipelined};
use pft_tb::stimulus::{FeatureCoverage, Mode, RandomStimulus};

const CYCLES: u64 = 1_000_000;
const CYCLES_PIPELINED: u64 = 250_000;

/// Coverage of one run, to show the stimulus really exercised what it claims.
#[derive(Default, Debug)]
struct Coverage {
    sent: u64,
    throttled: u64,
    congested: u64,
    enters: u64,
    leaves: u64,
    full: u64,
    writes: u64,
    resets: u64,
    underflows: u64,
    enter_below_escape: u64,
    enter_at_or_above_escape: u64,
    /// Pipelined build: Congested cycles whose verdict differs from the default build's
    /// verdict for the same state (the pipeline's delay is visible).
    verdict_differs: u64,
    features: FeatureCoverage,
}

/// The default block inside a model (itself, or the base of the pipelined model), and the
/// verdict that block would give this cycle in the default build.
trait Block: Engine + Copy {
    fn block(&self) -> &PftModel;
    fn verdict(&self) -> bool;
}
impl Block for PftModel {
    fn block(&self) -> &PftModel {
        self
    }
    fn verdict(&self) -> bool {
        self.throttle_ok()
    }
}
impl Block for PftModelPipelined {
    fn block(&self) -> &PftModel {
        &self.base
    }
    fn verdict(&self) -> bool {
        self.throttle_ok()
    }
}

fn lockstep(mode: Mode, seed: u64, cycles: u64) -> Coverage {
    lockstep_with(RtlStepper::new(), PftModel::new(), mode, seed, cycles)
}

fn lockstep_with<R: Engine, M: Block>(
    mut rtl: R,
    mut model: M,
    mode: Mode,
    seed: u64,
    cycles: u64,
) -> Coverage {
    let mut stim = RandomStimulus::new(mode, seed);
    let mut prev = Outputs::default();
    let mut cov = Coverage::default();
    let mut history: Vec<(Inputs, Outputs)> = Vec::with_capacity(16);
    for t in 0..cycles {
        let i = stim.next(&prev);
        let before = model;
        let o_rtl = rtl.step(&i);
        let o_model = model.step(&i);
        if o_rtl != o_model || rtl.probe() != model.probe() {
            for (k, (hi, ho)) in history.iter().enumerate() {
                eprintln!("t-{}: {:?} -> {:?}", history.len() - k, hi, ho);
            }
            panic!(
                "{} seed {seed}: mismatch at cycle {t}\n inputs {i:?}\n rtl   {o_rtl:?}\n model {o_model:?}\n rtl probe   {:?}\n model probe {:?}",
                mode.name(),
                rtl.probe(),
                model.probe()
            );
        }
        if history.len() == 16 {
            history.remove(0);
        }
        history.push((i, o_rtl));
        cov.sent += o_rtl.send as u64;
        cov.throttled += o_rtl.throttled as u64;
        cov.congested += o_rtl.congested as u64;
        cov.enters += (!prev.congested && o_rtl.congested) as u64;
        cov.leaves += (prev.congested && !o_rtl.congested) as u64;
        cov.full += (i.flit_valid && !o_rtl.send && !o_rtl.throttled && !i.reset) as u64;
        cov.features.count(before.block(), &i, &o_model);
        cov.verdict_differs +=
            (before.block().congested() && before.verdict() != before.block().throttle_ok()) as u64;
        cov.writes += i.csr_we as u64;
        cov.resets += i.reset as u64;
        cov.underflows +=
            (i.credit_return as u32 > o_rtl.used_credits as u32 + o_rtl.send as u32) as u64;
        if model.block().regs.th_enter < model.block().regs.th_escape {
            cov.enter_below_escape += 1;
        } else {
            cov.enter_at_or_above_escape += 1;
        }
        prev = o_rtl;
    }
    eprintln!(
        "{} seed {seed}: {cycles} cycles equal; {cov:?}",
        mode.name()
    );
    cov
}

fn check(mode: Mode) {
    let cov = lockstep(mode, 0x5EED_0000 + mode as u64, CYCLES);
    check_coverage(&cov, mode, CYCLES);
}

/// The stimulus must have exercised every path, or equality proves little. The bounds are
/// per 1,000,000 cycles, scaled to `cycles`.
fn check_coverage(cov: &Coverage, mode: Mode, cycles: u64) {
    let per = |n: u64| n * cycles / 1_000_000;
    assert!(cov.enters > per(100) && cov.leaves > per(100), "{cov:?}");
    assert!(
        cov.throttled > per(10_000) && cov.sent > per(10_000) && cov.full > per(10_000),
        "{cov:?}"
    );
    assert!(
        cov.writes > per(300) && cov.resets >= 2 && cov.underflows > per(10),
        "{cov:?}"
    );
    assert!(
        cov.enter_below_escape > per(100_000) && cov.enter_at_or_above_escape > per(100_000),
        "{cov:?}"
    );
    cov.features.check(mode).unwrap();
}

#[test]
fn rtl_equals_model_ft_fi() {
    check(Mode::FtFi);
}
#[test]
fn rtl_equals_model_ft_ri() {
    check(Mode::FtRi);
}
#[test]
fn rtl_equals_model_at_fi() {
    check(Mode::AtFi);
}
#[test]
fn rtl_equals_model_at_ri() {
    check(Mode::AtRi);
}

/// The pipelined build against its own model; the delay must show (verdicts that differ
/// from the default build's for the same state), or the test would not tell the builds apart.
fn check_pipelined(mode: Mode) {
    let seed = 0x91BE_0000 + mode as u64;
    let cov = lockstep_with(
        RtlStepperPipelined::new(),
        PftModelPipelined::new(),
        mode,
        seed,
        CYCLES_PIPELINED,
    );
    check_coverage(&cov, mode, CYCLES_PIPELINED);
    // more than 200 per 1,000,000 cycles
    assert!(
        cov.verdict_differs > 200 * CYCLES_PIPELINED / 1_000_000,
        "{cov:?}"
    );
}

#[test]
fn pipelined_rtl_equals_model_ft_fi() {
    check_pipelined(Mode::FtFi);
}
#[test]
fn pipelined_rtl_equals_model_ft_ri() {
    check_pipelined(Mode::FtRi);
}
#[test]
fn pipelined_rtl_equals_model_at_fi() {
    check_pipelined(Mode::AtFi);
}
#[test]
fn pipelined_rtl_equals_model_at_ri() {
    check_pipelined(Mode::AtRi);
}
