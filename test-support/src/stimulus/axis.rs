//! Seeded random stimulus of `pft_axis` (shared by hdl/tests/axis_rtl.rs and
//! tb/tests/axis_verilog.rs): an AXI-Stream source of random frames (random sizes, gaps,
//! keep of the last beat, user), a sink with random back-pressure, a credit link that
//! returns each beat's credit after a latency, pause episodes, an AXI4-Lite master of random
//! reads and writes (PFT's registers with sensible values, the header, reserved and outside
//! addresses, random strobes), and rare resets. It follows the protocols: a valid is held
//! with its payload until its ready.

use pft_hdl::axis::model::{Data, Inputs, Outputs};
use pft_hdl::regs::{addr, axil};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::collections::VecDeque;

/// Knobs of one run.
#[derive(Clone, Copy, Debug)]
pub struct Knobs {
    pub data_words: usize,
    pub user_bits: u32,
    pub max_frame: usize,
    pub p_gap: f64,
    pub p_ready: f64,
    pub link_latency: u64,
    pub p_pause: f64,
    pub p_axil: f64,
    pub p_reset: f64,
}

pub const DEFAULT: Knobs = Knobs {
    data_words: 1,
    user_bits: 1,
    max_frame: 12,
    p_gap: 0.2,
    p_ready: 0.8,
    link_latency: 20,
    p_pause: 0.002,
    p_axil: 0.05,
    p_reset: 0.0003,
};

pub struct Stream {
    rng: Xoshiro256PlusPlus,
    pub k: Knobs,
    pub now: u64,
    /// The frame being offered: remaining beats.
    beat: Option<(Data, u64, bool, u64)>,
    left: usize,
    /// Credits due back: cycle each returns.
    due: VecDeque<u64>,
    pause_left: u64,
    aw: Option<(u8, u32, u8)>,
    ar: Option<u8>,
    reset_left: u32,
    pub last: Inputs,
}

impl Stream {
    pub fn new(seed: u64, k: Knobs) -> Self {
        Stream {
            rng: Xoshiro256PlusPlus::seed_from_u64(seed),
            k,
            now: 0,
            beat: None,
            left: 0,
            due: VecDeque::new(),
            pause_left: 0,
            aw: None,
            ar: None,
            reset_left: 2,
            last: Inputs::default(),
        }
    }

    fn new_beat(&mut self) -> (Data, u64, bool, u64) {
        if self.left == 0 {
            self.left = self.rng.gen_range(1..=self.k.max_frame);
        }
        let mut d = [0u64; 8];
        for w in d.iter_mut().take(self.k.data_words) {
            *w = self.rng.gen();
        }
        let bytes = self.k.data_words * 8;
        let last = self.left == 1;
        let keep = if last {
            let n = self.rng.gen_range(1..=bytes);
            if n == 64 {
                u64::MAX
            } else {
                (1u64 << n) - 1
            }
        } else if bytes == 64 {
            u64::MAX
        } else {
            (1u64 << bytes) - 1
        };
        let user = self.rng.gen::<u64>()
            & if self.k.user_bits >= 64 {
                u64::MAX
            } else {
                (1u64 << self.k.user_bits) - 1
            };
        (d, keep, last, user)
    }

    /// A register write with a value worth having: mostly PFT's registers.
    fn axil_write(&mut self) -> (u8, u32, u8) {
        let r: f64 = self.rng.gen();
        let strb = if self.rng.gen_bool(0.8) {
            0xF
        } else {
            self.rng.gen_range(0..16)
        };
        let low = self.rng.gen_range(0..4u8);
        if r < 0.08 {
            // header, reserved or outside
            let a = self.rng.gen_range(0..64u8) * 4;
            return (a | low, self.rng.gen(), strb);
        }
        let w = self.rng.gen_range(0..16u8);
        let v = match w {
            addr::CTRL => self.rng.gen_range(0..16) | 1,
            addr::CREDIT_LIMIT => self.rng.gen_range(2..80),
            addr::TH_ENTER | addr::TH_ESCAPE => self.rng.gen_range(0..60),
            addr::AT_WIN_E..=addr::AT_CNT_S => self.rng.gen_range(0..24),
            addr::SHAPE => {
                self.rng.gen_range(0..6u32)
                    | self.rng.gen_range(0..4u32) << 8
                    | self.rng.gen_range(1..=32u32) << 16
            }
            addr::K => self.rng.gen_range(0..8),
            addr::STATUS => self.rng.gen_range(0..8),
            _ => self.rng.gen(),
        };
        (((axil::offset(w)) as u8) | low, v, strb)
    }

    /// The inputs of the next cycle.
    // An endless stream, stepped in turn with `observe` (the design's outputs of the cycle
    // decide the next inputs): not an `Iterator`.
    #[allow(clippy::should_implement_trait)]
    pub fn next(&mut self) -> Inputs {
        let mut i = Inputs::default();
        // Reset pulses.
        if self.reset_left == 0 && self.rng.gen_bool(self.k.p_reset) {
            self.reset_left = self.rng.gen_range(1..=3);
        }
        if self.reset_left > 0 {
            self.reset_left -= 1;
            i.rst = true;
            self.due.clear();
        }
        // Source: a beat is held until taken.
        if self.beat.is_none() && !self.rng.gen_bool(self.k.p_gap) {
            let b = self.new_beat();
            self.beat = Some(b);
        }
        if let Some((d, keep, last, user)) = self.beat {
            i.s_tvalid = true;
            i.s_tdata = d;
            i.s_tkeep = keep;
            i.s_tlast = last;
            i.s_tuser = user;
        } else {
            // Payload while not valid: anything.
            i.s_tdata[0] = self.rng.gen();
        }
        i.m_tready = self.rng.gen_bool(self.k.p_ready);
        // Credit link: what is due now, at most 255.
        let mut n = 0;
        while n < 255 && self.due.front().is_some_and(|&t| t <= self.now) {
            self.due.pop_front();
            n += 1;
        }
        i.credit_return = n;
        // Pause episodes.
        if self.pause_left == 0 && self.rng.gen_bool(self.k.p_pause) {
            self.pause_left = self.rng.gen_range(1..200);
        }
        if self.pause_left > 0 {
            self.pause_left -= 1;
            i.pause = true;
        }
        // AXI4-Lite master.
        if self.aw.is_none() && self.rng.gen_bool(self.k.p_axil) {
            self.aw = Some(self.axil_write());
        }
        if self.ar.is_none() && self.rng.gen_bool(self.k.p_axil) {
            self.ar = Some(self.rng.gen::<u8>());
        }
        if let Some((a, v, s)) = self.aw {
            i.awvalid = true;
            i.wvalid = true;
            i.awaddr = a;
            i.wdata = v;
            i.wstrb = s;
            i.awprot = self.rng.gen_range(0..8);
        }
        if let Some(a) = self.ar {
            i.arvalid = true;
            i.araddr = a;
            i.arprot = self.rng.gen_range(0..8);
        }
        i.bready = self.rng.gen_bool(0.7);
        i.rready = self.rng.gen_bool(0.7);
        self.last = i;
        i
    }

    /// What the block did with the inputs of `next`.
    pub fn observe(&mut self, o: &Outputs) {
        let i = self.last;
        if i.s_tvalid && o.s_tready {
            self.beat = None;
            self.left -= 1;
            self.due.push_back(self.now + self.k.link_latency);
        }
        if i.awvalid && o.awready {
            self.aw = None;
        }
        if i.arvalid && o.arready {
            self.ar = None;
        }
        self.now += 1;
    }
}

/// End-to-end checks on one side's outputs: every frame out is a frame in (data, keep,
/// last, user, order), `m_axis` holds its beat while stalled, no beat is held back by the
/// throttle inside a packet, one response per request.
#[derive(Default)]
pub struct Scoreboard {
    expect: VecDeque<(Data, u64, bool, u64)>,
    prev: Option<(Inputs, Outputs)>,
    pub beats_in: u64,
    pub beats_out: u64,
    pub frames_out: u64,
    pub throttled: u64,
    pub paused_heads: u64,
    writes: u64,
    reads: u64,
    pub bresps: u64,
    pub rresps: u64,
    pub slverr: u64,
    pub resets: u64,
}

impl Scoreboard {
    pub fn check(&mut self, t: u64, i: &Inputs, o: &Outputs, in_packet: bool) {
        if let Some((pi, po)) = self.prev {
            if !pi.rst && !i.rst && po.m_tvalid && !pi.m_tready {
                assert!(
                    o.m_tvalid,
                    "cycle {t}: m_axis_tvalid fell before its handshake"
                );
                assert_eq!(
                    (o.m_tdata, o.m_tkeep, o.m_tlast, o.m_tuser),
                    (po.m_tdata, po.m_tkeep, po.m_tlast, po.m_tuser),
                    "cycle {t}: m_axis changed while stalled"
                );
            }
            // (a reset drops a waiting response at its clock edge)
            if !pi.rst && !i.rst && po.bvalid && !pi.bready {
                assert!(o.bvalid && o.bresp == po.bresp, "cycle {t}: B dropped");
            }
            // (a reset drops a waiting response at its clock edge)
            if !pi.rst && !i.rst && po.rvalid && !pi.rready {
                assert!(
                    o.rvalid && o.rdata == po.rdata && o.rresp == po.rresp,
                    "cycle {t}: R dropped"
                );
            }
        }
        if i.rst {
            self.expect.clear();
            self.writes = 0;
            self.reads = 0;
            self.resets += 1;
            self.prev = Some((*i, *o));
            return;
        }
        assert!(
            !(o.throttled && in_packet),
            "cycle {t}: a beat inside a packet was held back by the throttle"
        );
        self.throttled += o.throttled as u64;
        if i.pause && i.s_tvalid && !in_packet {
            self.paused_heads += 1;
            assert!(!o.s_tready, "cycle {t}: a packet started under pause");
        }
        if o.m_tvalid && i.m_tready {
            let want = self
                .expect
                .pop_front()
                .unwrap_or_else(|| panic!("cycle {t}: a beat out that never came in"));
            assert_eq!(
                (o.m_tdata, o.m_tkeep, o.m_tlast, o.m_tuser),
                want,
                "cycle {t}: beat changed or reordered"
            );
            self.beats_out += 1;
            self.frames_out += o.m_tlast as u64;
        }
        if i.s_tvalid && o.s_tready {
            self.expect
                .push_back((i.s_tdata, i.s_tkeep, i.s_tlast, i.s_tuser));
            self.beats_in += 1;
        }
        assert!(
            self.expect.len() <= 1,
            "cycle {t}: more than one beat inside"
        );
        if o.bvalid && i.bready {
            assert!(
                self.writes > 0,
                "cycle {t}: a write response without a write"
            );
            self.writes -= 1;
            self.bresps += 1;
            self.slverr += (o.bresp == 2) as u64;
        }
        if o.rvalid && i.rready {
            assert!(self.reads > 0, "cycle {t}: a read response without a read");
            self.reads -= 1;
            self.rresps += 1;
        }
        if i.awvalid && o.awready {
            assert!(o.wready, "cycle {t}: AW without W");
            self.writes += 1;
            assert!(self.writes <= 1);
        }
        if i.arvalid && o.arready {
            self.reads += 1;
            assert!(self.reads <= 1);
        }
        self.prev = Some((*i, *o));
    }
}
