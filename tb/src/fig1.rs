//! Fig. 1(a)(b) of the PFT paper measured from the RTL: the injection rate of a Congested
//! block against its used credits `c`, beside equation (1) (docs/reproduction.md, "Fig. 1";
//! `cargo run --release -p pft-tb --example fig1` writes the CSV and the plots).
//!
//! Each curve is one register setting: FI with m = 0, n = 8..12, k = 0 (Fig. 1(a)) and RI
//! with n = 0, k = 0, m = 15..22 (Fig. 1(b)); FT detection with TH_ENTER = TH_ESCAPE = 0
//! (Congested from c = 1 on, never leaving), CREDIT_LIMIT = 65535. For each `c` point the
//! rust-hdl block (`RtlStepper`, with the reference model in lock step as a check) is driven
//! by a credit link that holds `c`:
//!
//! 1. with CTRL.enable = 0 (a plain credit counter) the source sends until `c` is the point;
//! 2. CTRL.enable = 1 is written, and from then on the link returns each credit in the cycle
//!    after its flit (a one-cycle credit loop), so `c` stays at the point or one above;
//! 3. after 64 cycles, the flits sent in the next N cycles over N is the rate;
//! 4. CTRL.enable = 0 is written again and the source fills up to the next point.
//!
//! Equation (1): FI sends one flit every 1 + f(c) cycles, RI sends with probability
//! P(r >= f(c)) = 1 - f(c) / 2^32 (r uniform on 1..2^32-1), f(c) = ((c << m) >> n) + k.

use anyhow::bail;
use pft_hdl::model::{level, Inputs, Outputs, PftModel, Regs};
use pft_hdl::regs::{self, addr};
use pft_hdl::stepper::{Engine, RtlStepper};

/// The curves of Fig. 1: (a) FI m = 0, n = 8..12, k = 0; (b) RI n = 0, k = 0, m = 15..22.
pub fn curves() -> Vec<Curve> {
    let fi = (8..=12).map(|n| Curve {
        fig: "1a",
        ri: false,
        m: 0,
        n,
        k: 0,
    });
    let ri = (15..=22).map(|m| Curve {
        fig: "1b",
        ri: true,
        m,
        n: 0,
        k: 0,
    });
    fi.chain(ri).collect()
}

/// One curve: a register setting.
#[derive(Clone, Copy, Debug)]
pub struct Curve {
    /// `1a` (FI) or `1b` (RI).
    pub fig: &'static str,
    /// RI (else FI).
    pub ri: bool,
    pub m: u8,
    pub n: u8,
    pub k: u16,
}

impl Curve {
    /// `FI m=0 n=8 k=0`.
    pub fn label(&self) -> String {
        if self.ri {
            format!("RI m={} n={} k={}", self.m, self.n, self.k)
        } else {
            format!("FI m={} n={} k={}", self.m, self.n, self.k)
        }
    }

    /// Equation (1)'s rate at `c`.
    pub fn eq1(&self, c: u16) -> f64 {
        let f = level(c, self.m, self.n, self.k) as f64;
        if self.ri {
            (1.0 - f / 4_294_967_296.0).max(0.0)
        } else {
            1.0 / (1.0 + f)
        }
    }

    /// The `c` points, 17 of them. FI: multiples of 4096 and 65520, where c and c + 1 (the
    /// loop holds one or the other) have the same f(c) for every n of Fig. 1(a) (8..12),
    /// so the interval is fixed. RI: from 0 to where the rate reaches 0 (at most 65520; CREDIT_LIMIT stops
    /// every flit).
    pub fn points(&self) -> Vec<u16> {
        if self.ri {
            let top = ((1u64 << 32) >> self.m).clamp(16, 65520);
            (0..=16).map(|i| (top * i / 16) as u16).collect()
        } else {
            (0..16).map(|i| i * 4096).chain([65520]).collect()
        }
    }

    fn regs(&self, enable: bool) -> Regs {
        let mut ctrl = 0;
        if enable {
            ctrl |= regs::CTRL_ENABLE;
        }
        if self.ri {
            ctrl |= regs::CTRL_THR_RI;
        }
        Regs {
            ctrl,
            credit_limit: 65535,
            th_enter: 0,
            th_escape: 0,
            m: self.m,
            n: self.n,
            k: self.k,
            ..Regs::reset()
        }
    }
}

/// The RTL block with the model in lock step: every output must agree.
struct Dut {
    rtl: RtlStepper,
    model: PftModel,
    cycle: u64,
}

impl Dut {
    fn step(&mut self, i: &Inputs) -> anyhow::Result<Outputs> {
        let a = self.rtl.step(i);
        let b = self.model.step(i);
        if a != b {
            bail!(
                "cycle {}: the RTL gave {a:?}, the model {b:?} (inputs {i:?})",
                self.cycle
            );
        }
        self.cycle += 1;
        Ok(a)
    }

    fn write_ctrl(&mut self, ctrl: u32, credit_return: u8) -> anyhow::Result<()> {
        self.step(&Inputs {
            csr_we: true,
            csr_addr: addr::CTRL,
            csr_wdata: ctrl,
            credit_return,
            ..Default::default()
        })?;
        Ok(())
    }
}

/// One measured point.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Point {
    pub c: u16,
    /// Flits sent over the measured cycles.
    pub rate: f64,
    /// Equation (1)'s rate at the `c` the block saw, averaged over the measured cycles (the
    /// point or one above: for FI the same f(c)).
    pub eq1: f64,
}

/// Measures `curve` at its points, `cycles` cycles each (module docs).
pub fn measure(curve: Curve, cycles: u64) -> anyhow::Result<Vec<Point>> {
    let mut dut = Dut {
        rtl: RtlStepper::new(),
        model: PftModel::new(),
        cycle: 0,
    };
    let off = curve.regs(false);
    for i in off.prelude() {
        dut.step(&i)?;
    }
    let on = curve.regs(true).ctrl;
    let send = Inputs {
        flit_valid: true,
        flit_head: true,
        ..Default::default()
    };
    let mut c: u16 = 0;
    let mut out = Vec::new();
    for target in curve.points() {
        // 1. fill with the block disabled (credits only), no returns
        while c < target {
            if !dut.step(&send)?.send {
                bail!("{}: a disabled block held a flit at c = {c}", curve.label());
            }
            c += 1;
        }
        // 2. enable; 3. hold c with a one-cycle credit loop, measure
        dut.write_ctrl(on, 0)?;
        let mut pending = 0u8;
        let mut sent = 0u64;
        let mut seen = 0.0;
        for t in 0..64 + cycles {
            let o = dut.step(&Inputs {
                credit_return: pending,
                ..send
            })?;
            if o.used_credits < target || o.used_credits as u32 > target as u32 + 1 {
                bail!(
                    "{}: c = {} left the point {target}",
                    curve.label(),
                    o.used_credits
                );
            }
            pending = o.send as u8;
            if t >= 64 {
                sent += o.send as u64;
                seen += curve.eq1(o.used_credits);
            }
        }
        // 4. disable, returning the last credit: c is back at the point
        dut.write_ctrl(off.ctrl, pending)?;
        c = target;
        out.push(Point {
            c: target,
            rate: sent as f64 / cycles as f64,
            eq1: seen / cycles as f64,
        });
    }
    Ok(out)
}
