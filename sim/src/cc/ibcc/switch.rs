//! IB CC in the switches: a congestion state per output port (one VL) and FECN marking of
//! the packets that leave a congested output.
//!
//! - **Queued flits for an output**: the flits in the switch's input buffers that belong to
//!   packets routed to that output (the switch is input-buffered with VOQs; this is the
//!   output's queue, spread over the inputs). Counted on arrival, uncounted on departure.
//! - **Threshold**: the weight w maps to `level = ceil(buffer_flits * (16 - w) / 16)`;
//!   w = 15 is 1/16 of one input buffer, w = 1 is 15/16.
//! - **Root or victim**: a port "has credits to send" when the credits left at the end of
//!   the previous cycle cover a largest packet (MTU). A port that waits for credits is a
//!   victim and does not enter the state, unless its victim mask is set (by default on
//!   ports facing NICs: the NIC's receive buffer fills at the root of an ejection-bound
//!   tree, so that port has no spare credits while it is the root).
//! - **Marking**: a packet whose head leaves an output with queued >= level and (root or
//!   masked) is eligible when its length is at least `packet_size` credits; of the eligible
//!   packets one is marked, then `marking_rate` are passed (a deterministic counter: the
//!   seed's "mean number of eligible packets between two marked").
//!
//! CNPs are never marked.

use super::IbccConfig;

/// IB CC state of every switch output (indexed by global port id, like `OutPort`).
pub struct IbccSwitches {
    /// Flits queued for the output (None: threshold 0, nothing ever marks).
    level: Option<u32>,
    mtu_flits: u32,
    marking_rate: u16,
    min_flits: u32,
    queued: Vec<u32>,
    mark_cnt: Vec<u16>,
    /// Per switch, bit per port: queued >= level; root at the end of the last cycle;
    /// victim mask.
    over: Vec<u64>,
    root: Vec<u64>,
    victim: Vec<u64>,
    /// FECN markings, per output (a packet marked at several hops counts at each).
    pub marked: Vec<u64>,
}

impl IbccSwitches {
    /// State for `ports` global ports on `switches` switches; `victim[s]` is switch s's
    /// victim mask; `buffer_flits` sets the threshold level, `flit_bytes` converts
    /// `packet_size`.
    pub fn new(
        cfg: &IbccConfig,
        ports: usize,
        victim: Vec<u64>,
        buffer_flits: u32,
        mtu_flits: u32,
        flit_bytes: u32,
    ) -> Self {
        let switches = victim.len();
        IbccSwitches {
            level: cfg.level(buffer_flits),
            mtu_flits,
            marking_rate: cfg.marking_rate as u16,
            min_flits: ((cfg.packet_size * 64) as u32).div_ceil(flit_bytes.max(1)),
            queued: vec![0; ports],
            mark_cnt: vec![0; ports],
            over: vec![0; switches],
            root: vec![0; switches],
            victim,
            marked: vec![0; ports],
        }
    }

    /// Flits queued for global output `gp` now.
    pub fn queued(&self, gp: usize) -> u32 {
        self.queued[gp]
    }

    /// A flit for output `o` (port of switch `s`, global id `gp`) entered an input buffer.
    /// `free` is that output's free credits now (used when the level is crossed).
    #[inline]
    pub fn arrive(&mut self, s: usize, o: u32, gp: usize, free: u32) {
        let q = &mut self.queued[gp];
        *q += 1;
        if Some(*q) == self.level {
            self.over[s] |= 1 << o;
            let bit = 1u64 << o;
            if free >= self.mtu_flits {
                self.root[s] |= bit;
            } else {
                self.root[s] &= !bit;
            }
        }
    }

    /// A flit counted for output `o` of switch `s` (global id `gp`) will leave through
    /// another output: the count drops as at a departure, without a mark.
    #[inline]
    pub fn leave(&mut self, s: usize, o: u32, gp: usize) {
        let q = &mut self.queued[gp];
        *q -= 1;
        if self.level.is_some_and(|l| *q < l) {
            self.over[s] &= !(1u64 << o);
        }
    }

    /// A flit left through output `o` of switch `s` (global id `gp`). For a head
    /// (`len` flits, `data` = not a CNP) returns whether to set FECN.
    #[inline(always)] // see IbccState::departs
    pub fn depart(
        &mut self,
        s: usize,
        o: u32,
        gp: usize,
        head: bool,
        len: u32,
        data: bool,
    ) -> bool {
        let bit = 1u64 << o;
        let congested = self.over[s] & bit != 0 && (self.victim[s] | self.root[s]) & bit != 0;
        let q = &mut self.queued[gp];
        *q -= 1;
        if self.level.is_some_and(|l| *q < l) {
            self.over[s] &= !bit;
        }
        if !(head && congested && data && len >= self.min_flits) {
            return false;
        }
        let c = &mut self.mark_cnt[gp];
        if *c == 0 {
            *c = self.marking_rate;
            self.marked[gp] += 1;
            true
        } else {
            *c -= 1;
            false
        }
    }

    /// End of switch `s`'s cycle: register root (credits for an MTU) for its outputs over
    /// the level; `free(o)` gives output o's free credits.
    #[inline]
    pub fn commit(&mut self, s: usize, free: impl Fn(u32) -> u32) {
        let mut m = self.over[s] & !self.victim[s];
        let mut root = self.root[s];
        while m != 0 {
            let o = m.trailing_zeros();
            m &= m - 1;
            if free(o) >= self.mtu_flits {
                root |= 1 << o;
            } else {
                root &= !(1 << o);
            }
        }
        self.root[s] = root;
    }

    /// Outputs of switch `s` over the level now (a bit per port).
    pub fn over_mask(&self, s: usize) -> u64 {
        self.over[s]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One switch of 4 ports; port 3 faces a NIC (victim mask), the others switches.
    fn sw(cfg: &IbccConfig) -> IbccSwitches {
        IbccSwitches::new(cfg, 4, vec![0b1000], 256, 32, 64)
    }

    #[test]
    fn threshold_weight_maps_to_a_level() {
        let c = |w| IbccConfig {
            threshold: w,
            ..Default::default()
        };
        assert_eq!(c(15).level(256), Some(16));
        assert_eq!(c(1).level(256), Some(240));
        assert_eq!(c(8).level(1024), Some(512));
        assert_eq!(c(0).level(256), None);
    }

    #[test]
    fn marks_only_over_the_level_at_roots_or_masked_ports() {
        let mut s = sw(&IbccConfig::default()); // level 16
                                                // Port 0: a root (free credits 256 >= MTU), 15 flits queued: below the level.
        for _ in 0..15 {
            s.arrive(0, 0, 0, 256);
        }
        assert!(!s.depart(0, 0, 0, true, 1, true), "below the level");
        for _ in 0..2 {
            s.arrive(0, 0, 0, 256);
        }
        assert_eq!(s.queued(0), 16);
        assert!(s.depart(0, 0, 0, true, 1, true), "over the level at a root");
        // Port 1: over the level but without credits for an MTU: a victim.
        for _ in 0..20 {
            s.arrive(0, 1, 1, 10);
        }
        s.commit(0, |_| 10);
        assert!(!s.depart(0, 1, 1, true, 1, true), "victims do not mark");
        // Credits come back: the next cycle's state makes it a root.
        s.commit(0, |_| 100);
        assert!(s.depart(0, 1, 1, true, 1, true));
        // Port 3 (victim mask): marks without credits.
        for _ in 0..20 {
            s.arrive(0, 3, 3, 0);
        }
        s.commit(0, |_| 0);
        assert!(
            s.depart(0, 3, 3, true, 1, true),
            "masked ports mark without credits"
        );
        assert!(!s.depart(0, 3, 3, false, 1, true), "only heads are marked");
        assert!(!s.depart(0, 3, 3, true, 1, false), "CNPs are never marked");
    }

    #[test]
    fn marking_rate_and_packet_size() {
        let cfg = IbccConfig {
            marking_rate: 2,
            packet_size: 2, // 128 B = 2 flits of 64 B
            ..Default::default()
        };
        let mut s = sw(&cfg);
        for _ in 0..100 {
            s.arrive(0, 3, 3, 0);
        }
        assert!(
            !s.depart(0, 3, 3, true, 1, true),
            "shorter than packet_size"
        );
        let marks: Vec<bool> = (0..7).map(|_| s.depart(0, 3, 3, true, 2, true)).collect();
        assert_eq!(marks, [true, false, false, true, false, false, true]);
        assert_eq!(s.marked[3], 3);
    }

    #[test]
    fn leaving_the_level_ends_the_state() {
        let mut s = sw(&IbccConfig::default());
        for _ in 0..16 {
            s.arrive(0, 3, 3, 0);
        }
        assert_eq!(s.over_mask(0), 0b1000);
        assert!(s.depart(0, 3, 3, true, 1, true));
        assert_eq!(s.over_mask(0), 0, "15 queued: below the level again");
        assert!(!s.depart(0, 3, 3, true, 1, true));
    }
}
