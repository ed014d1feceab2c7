//! `pft_axis` (rust-hdl, `hdl/src/axis/`) against its reference model (`axis::model`, which
//! steps PFT's own model), every output every cycle, on seeded random streams
//! (`pft_test_support::stimulus::axis`): random frame sizes, gaps and back-pressure, a credit link
//! with latency, pause episodes, random register reads and writes with random strobes, and
//! resets in the middle of frames. A scoreboard checks end to end on the same run: every
//! beat out is the beat in (data, keep, last, user, order), `m_axis` is held while stalled,
//! no beat inside a packet is held back by the throttle, no packet starts under pause, one
//! response per request. Directed cases check the register block (header, SLVERR,
//! strobes, CTRL.gating). Run in --release.

use pft_hdl::axis::model::{AxisModel, Inputs, Outputs, OKAY, SLVERR};
use pft_hdl::axis::stepper::AxisStepper;
use pft_hdl::regs::{addr, axil, CTRL_GATING};

use axis_stimulus::{Knobs, Scoreboard, Stream, DEFAULT};
use pft_test_support::stimulus::axis as axis_stimulus;

fn lockstep<const D: usize, const K: usize, const U: usize>(
    seed: u64,
    k: Knobs,
    cycles: u64,
) -> Scoreboard {
    let mut rtl = AxisStepper::<D, K, U>::default();
    let mut model = AxisModel::new();
    let mut s = Stream::new(seed, k);
    let mut sb = Scoreboard::default();
    for t in 0..cycles {
        let i = s.next();
        let in_packet = model.in_packet;
        let want = model.step(&i);
        let got = rtl.step(&i);
        assert_eq!(got, want, "seed {seed}: outputs differ in cycle {t}: {i:?}");
        sb.check(t, &i, &want, in_packet);
        s.observe(&want);
    }
    sb
}

fn report(tag: &str, sb: &Scoreboard) {
    eprintln!(
        "{tag}: beats {} in / {} out, frames out {}, throttled cycles {}, paused heads {}, \
         B {} (SLVERR {}), R {}, resets {}",
        sb.beats_in,
        sb.beats_out,
        sb.frames_out,
        sb.throttled,
        sb.paused_heads,
        sb.bresps,
        sb.slverr,
        sb.rresps,
        sb.resets
    );
}

#[test]
fn rtl_matches_model_64_bits() {
    for seed in [1u64, 2] {
        let sb = lockstep::<64, 8, 1>(seed, DEFAULT, 100_000);
        report(&format!("64-bit seed {seed}"), &sb);
        // The run exercised what it claims to check.
        assert!(sb.frames_out > 5_000, "too few frames");
        assert!(sb.throttled > 1_000, "the throttle never acted");
        assert!(sb.paused_heads > 100, "pause never held a head");
        assert!(sb.slverr > 0 && sb.bresps > 1_000 && sb.rresps > 1_000);
        assert!(sb.resets > 5, "too few resets");
    }
}

#[test]
fn rtl_matches_model_512_bits_wide_user() {
    let k = Knobs {
        data_words: 8,
        user_bits: 16,
        ..DEFAULT
    };
    let sb = lockstep::<512, 64, 16>(7, k, 20_000);
    report("512-bit", &sb);
    assert!(sb.frames_out > 500);
}

#[test]
fn rtl_matches_model_128_bits_no_backpressure() {
    let k = Knobs {
        data_words: 2,
        p_ready: 1.0,
        p_gap: 0.0,
        ..DEFAULT
    };
    lockstep::<128, 16, 1>(11, k, 20_000);
}

/// A driver of both sides for directed register cases.
struct Both {
    rtl: AxisStepper<64, 8, 1>,
    model: AxisModel,
}

impl Both {
    fn new() -> Self {
        let mut b = Both {
            rtl: AxisStepper::default(),
            model: AxisModel::new(),
        };
        b.step(Inputs {
            rst: true,
            ..Default::default()
        });
        b
    }
    fn step(&mut self, i: Inputs) -> Outputs {
        let w = self.model.step(&i);
        assert_eq!(self.rtl.step(&i), w, "{i:?}");
        w
    }
    /// Holds AW and W up until their handshake: the grant comes in the second cycle (the
    /// readys are registers), never in the first.
    fn write(&mut self, a: u32, v: u32, strb: u8) -> u8 {
        let i = Inputs {
            awvalid: true,
            wvalid: true,
            awaddr: a as u8,
            wdata: v,
            wstrb: strb,
            ..Default::default()
        };
        let o = self.step(i);
        assert!(
            !o.awready && !o.wready,
            "a ready in the request's own cycle"
        );
        let o = self.step(i);
        assert!(o.awready && o.wready);
        let o = self.step(Inputs {
            bready: true,
            ..Default::default()
        });
        assert!(o.bvalid);
        o.bresp
    }
    fn read(&mut self, a: u32) -> (u8, u32) {
        let i = Inputs {
            arvalid: true,
            araddr: a as u8,
            ..Default::default()
        };
        let o = self.step(i);
        assert!(!o.arready, "a ready in the request's own cycle");
        let o = self.step(i);
        assert!(o.arready);
        let o = self.step(Inputs {
            rready: true,
            ..Default::default()
        });
        assert!(o.rvalid);
        (o.rresp, o.rdata)
    }
}

#[test]
fn register_block_header_slverr_and_strobes() {
    let mut b = Both::new();
    assert_eq!(b.read(axil::RB_TYPE_OFFSET), (OKAY, axil::RB_TYPE));
    assert_eq!(b.read(axil::RB_VERSION_OFFSET), (OKAY, axil::RB_VERSION));
    assert_eq!(b.read(axil::RB_NEXT_PTR_OFFSET), (OKAY, axil::RB_NEXT_PTR));
    assert_eq!(b.read(0x0C), (OKAY, 0));
    assert_eq!(b.read(0x80), (SLVERR, 0));
    assert_eq!(b.read(0xFC), (SLVERR, 0));
    assert_eq!(b.write(0x90, 1, 0xF), SLVERR);
    assert_eq!(b.write(0x00, 1, 0xF), OKAY);
    assert_eq!(b.read(0x00), (OKAY, axil::RB_TYPE));
    // The reset values at their byte offsets.
    let cl = axil::offset(addr::CREDIT_LIMIT);
    assert_eq!(b.read(cl), (OKAY, 0x400));
    // Strobes: byte 0 only keeps byte 1 of an RW register.
    assert_eq!(b.write(cl, 0x1234, 0x1), OKAY);
    assert_eq!(b.read(cl), (OKAY, 0x0434));
    assert_eq!(b.write(cl, 0x1234, 0x2), OKAY);
    assert_eq!(b.read(cl), (OKAY, 0x1234));
    // No strobe: no write.
    assert_eq!(b.write(cl, 0xFFFF, 0x0), OKAY);
    assert_eq!(b.read(cl), (OKAY, 0x1234));
    // CTRL: every write sets gating (packet gating).
    let ctrl = axil::offset(addr::CTRL);
    assert_eq!(b.write(ctrl, 1, 0xF), OKAY);
    assert_eq!(b.read(ctrl), (OKAY, 1 | CTRL_GATING));
    // A counter cleared by a write; an unaligned address is its word.
    assert_eq!(b.read(axil::offset(addr::CNT_SENT) | 3).0, OKAY);
}

/// A reset in the middle of a frame (docs/axis.md): the MAC stalls with the frame's first
/// beat in the output register and its second beat offered; one reset cycle. In it
/// `s_axis_tready` and `m_axis_tvalid` are low (the MAC ready all the same); after it `m_axis_tvalid` is low (the held beat is dropped), the
/// credits are 0, and the packet is forgotten: the next beat is a packet's first again, so
/// `pause` holds it back, and it passes when `pause` falls. RTL and model, every cycle.
#[test]
fn reset_in_the_middle_of_a_frame() {
    let mut b = Both::new();
    let beat = |n: u64, last: bool| Inputs {
        s_tdata: [n, 0, 0, 0, 0, 0, 0, 0],
        s_tkeep: 0xFF,
        s_tvalid: true,
        s_tlast: last,
        ..Default::default()
    };
    // The frame's first beat moves into the register; the MAC does not take it.
    let o = b.step(beat(1, false));
    assert!(o.s_tready && !o.m_tvalid);
    let o = b.step(beat(2, false));
    assert!(!o.s_tready && o.m_tvalid && o.m_tdata[0] == 1 && o.used_credits == 1);
    assert!(b.model.in_packet);
    // The reset cycle: nothing accepted, and the held beat not presented (AXI-Stream:
    // TVALID low during reset), so the MAC cannot take it.
    let o = b.step(Inputs {
        rst: true,
        m_tready: true,
        ..beat(2, false)
    });
    assert!(
        !o.s_tready && !o.m_tvalid,
        "the held beat is presented in the reset cycle"
    );
    // After it: the register is empty, the credits are 0, the packet is forgotten.
    let o = b.step(Inputs {
        pause: true,
        ..beat(3, false)
    });
    assert!(!o.m_tvalid, "the held beat survived the reset");
    assert_eq!(o.used_credits, 0);
    assert!(!b.model.in_packet);
    assert!(
        !o.s_tready,
        "a packet's first beat started under pause after the reset"
    );
    let o = b.step(beat(3, true));
    assert!(
        o.s_tready,
        "the next frame's first beat passes once pause falls"
    );
    let o = b.step(Inputs {
        m_tready: true,
        ..Default::default()
    });
    assert!(o.m_tvalid && o.m_tdata[0] == 3 && o.m_tlast);
}

/// A reset while a write and a read response wait for their readys (docs/axis.md): BVALID
/// and RVALID are low in the reset cycle (AXI4-Lite: low during reset), a master ready all
/// the same takes neither, and both are dropped. RTL and model, every cycle.
#[test]
fn responses_are_not_valid_in_a_reset_cycle() {
    let mut b = Both::new();
    let w = Inputs {
        awvalid: true,
        wvalid: true,
        awaddr: axil::offset(addr::CNT_SENT) as u8,
        wstrb: 0xF,
        ..Default::default()
    };
    b.step(w);
    assert!(b.step(w).awready);
    let o = b.step(Inputs::default());
    assert!(o.bvalid, "the write's response waits");
    let r = Inputs {
        arvalid: true,
        araddr: axil::offset(addr::CTRL) as u8,
        ..Default::default()
    };
    b.step(r);
    assert!(b.step(r).arready);
    let o = b.step(Inputs::default());
    assert!(o.bvalid && o.rvalid, "both responses wait");
    let o = b.step(Inputs {
        rst: true,
        bready: true,
        rready: true,
        ..Default::default()
    });
    assert!(
        !o.bvalid && !o.rvalid,
        "a response valid in the reset cycle"
    );
    let o = b.step(Inputs::default());
    assert!(!o.bvalid && !o.rvalid, "a response survived the reset");
}
