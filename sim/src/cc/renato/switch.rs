//! Input packet marking (IPM) in three steps, as seed 004 §3.2.1 gives Santos et al.'s:
//! (1) an input buffer that becomes full triggers marking; (2) every output that a packet
//! in such a full buffer requests is congested; (3) every packet in any input buffer of
//! the switch destined to a congested output is marked.
//!
//! - **Full**: the buffer cannot take another largest packet (its free room, counting the
//!   room reserved for packets still arriving, is below the MTU): with virtual cut-through
//!   that is as full as it gets.
//! - **Packets in a buffer** are counted from the head's arrival to the head's departure
//!   for its output (the grant); a packet leaving frees its room then.
//! - **Step 3 without visiting the buffers**: an output keeps a count of its congestion
//!   onsets. A packet for a congested output is marked when its head arrives; a packet
//!   that waits while its output becomes congested (the count moved since it arrived) is
//!   marked when its head leaves the buffer. So every packet that sat in an input buffer
//!   of the switch at some moment its output was congested leaves marked: the seed's
//!   step 3, applied at each onset and for the packets that arrive during it.

use std::collections::VecDeque;

/// The onset count stored for a packet marked on arrival.
const MARKED: u32 = u32::MAX;

/// The IPM state of every switch.
pub struct Ipm {
    mtu_flits: u32,
    /// Per switch: its first global port, its radix, its congested outputs (bit per local
    /// output).
    base: Vec<u32>,
    radix: Vec<u32>,
    congested: Vec<u64>,
    /// Per global input port: flits of the packets in it (whole packets), and the local
    /// outputs its packets request (bit per output).
    flits: Vec<u32>,
    wants: Vec<u64>,
    /// Per global input port and local output (`gp * max_radix + o`): packets in the
    /// buffer for that output, and the onset count of the output when each arrived,
    /// oldest first (a buffer serves one output's packets in arrival order).
    count: Vec<u16>,
    onset_at: Vec<VecDeque<u32>>,
    /// Per global output port: congestion onsets so far.
    onsets: Vec<u32>,
    max_radix: usize,
    /// Data packets marked, and congestion onsets (an output becoming congested).
    pub marked: u64,
    pub events: u64,
}

impl Ipm {
    /// Switches of the given radices (global ports numbered switch by switch, in order);
    /// `mtu_flits` is the largest packet.
    pub fn new(radices: impl Iterator<Item = u32>, mtu_flits: u32) -> Ipm {
        let radix: Vec<u32> = radices.collect();
        let mut base = Vec::with_capacity(radix.len());
        let mut ports = 0u32;
        for &r in &radix {
            base.push(ports);
            ports += r;
        }
        let max_radix = radix.iter().copied().max().unwrap_or(1) as usize;
        let ports = ports as usize;
        Ipm {
            mtu_flits,
            congested: vec![0; radix.len()],
            base,
            radix,
            flits: vec![0; ports],
            wants: vec![0; ports],
            count: vec![0; ports * max_radix],
            onset_at: vec![VecDeque::new(); ports * max_radix],
            onsets: vec![0; ports],
            max_radix,
            marked: 0,
            events: 0,
        }
    }

    /// Recompute switch `s`'s congested outputs (step 2) and count the onsets.
    fn update(&mut self, s: usize, capacity: u32) {
        let b = self.base[s] as usize;
        let mut cong = 0u64;
        for g in b..b + self.radix[s] as usize {
            if capacity.saturating_sub(self.flits[g]) < self.mtu_flits {
                cong |= self.wants[g];
            }
        }
        let mut new = cong & !self.congested[s];
        self.events += new.count_ones() as u64;
        while new != 0 {
            let o = new.trailing_zeros() as usize;
            new &= new - 1;
            self.onsets[b + o] += 1;
        }
        self.congested[s] = cong;
    }

    /// A packet head of `len` flits for local output `out` entered input `gp` (global) of
    /// switch `s`, whose buffers hold `capacity` flits: mark it (true) if its output is
    /// congested now.
    pub fn arrive(
        &mut self,
        s: u32,
        gp: usize,
        out: u32,
        len: u32,
        capacity: u32,
        data: bool,
    ) -> bool {
        let s = s as usize;
        let k = gp * self.max_radix + out as usize;
        self.flits[gp] += len;
        self.count[k] += 1;
        self.wants[gp] |= 1 << out;
        self.update(s, capacity);
        let og = self.base[s] as usize + out as usize;
        let mark = data && self.congested[s] >> out & 1 != 0;
        self.onset_at[k].push_back(if mark { MARKED } else { self.onsets[og] });
        self.marked += mark as u64;
        mark
    }

    /// That packet's head leaves input `gp` for its output: mark it (true) if its output
    /// became congested while it waited.
    pub fn leave(
        &mut self,
        s: u32,
        gp: usize,
        out: u32,
        len: u32,
        capacity: u32,
        data: bool,
    ) -> bool {
        let s = s as usize;
        let k = gp * self.max_radix + out as usize;
        let og = self.base[s] as usize + out as usize;
        let at = self.onset_at[k]
            .pop_front()
            .expect("a packet leaves an input it entered");
        // a packet marked on arrival is marked already
        let mark = data && at != MARKED && at != self.onsets[og];
        self.flits[gp] -= len;
        self.count[k] -= 1;
        if self.count[k] == 0 {
            self.wants[gp] &= !(1 << out);
        }
        self.update(s, capacity);
        self.marked += mark as u64;
        mark
    }

    /// Switch `s`'s congested outputs now (bit per local output).
    pub fn congested(&self, s: u32) -> u64 {
        self.congested[s as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One switch of 4 ports (global ports 0..4), 128-flit buffers, 35-flit packets.
    fn ipm() -> Ipm {
        Ipm::new([4].into_iter(), 35)
    }

    #[test]
    fn a_full_buffer_congests_the_outputs_its_packets_request() {
        let mut m = ipm();
        // input 0: packets for outputs 1, 2, 1: the third fills it (105 + 35 > 128)
        assert!(!m.arrive(0, 0, 1, 35, 128, true));
        assert!(!m.arrive(0, 0, 2, 35, 128, true));
        assert_eq!(m.congested(0), 0, "70 flits: room for another packet");
        let third = m.arrive(0, 0, 1, 35, 128, true);
        assert_eq!(m.congested(0), 0b110, "outputs 1 and 2 are congested");
        assert!(third, "the packet that filled the buffer is in it: marked");
        assert_eq!(m.events, 2);
        // step 3: a packet for output 2 in another input, arriving now, is marked
        assert!(m.arrive(0, 3, 2, 35, 128, true));
        // a packet for output 0 is not
        assert!(!m.arrive(0, 3, 0, 35, 128, true));
        // ACKs are never marked
        assert!(!m.arrive(0, 2, 1, 3, 128, false));
        assert_eq!(m.marked, 2);
    }

    #[test]
    fn a_packet_that_waited_through_an_onset_leaves_marked_and_later_ones_do_not() {
        let mut m = ipm();
        // input 1 holds a packet for output 3 before anything is congested
        assert!(!m.arrive(0, 1, 3, 35, 128, true));
        // input 0 fills with packets for output 3
        for _ in 0..3 {
            m.arrive(0, 0, 3, 35, 128, true);
        }
        assert_eq!(m.congested(0), 0b1000);
        // input 1's packet leaves: it waited while output 3 became congested
        assert!(m.leave(0, 1, 3, 35, 128, true));
        // input 0 drains one packet: no longer full, output 3 no longer congested; its
        // packets were marked on arrival (the third) or waited through the onset
        assert!(m.leave(0, 0, 3, 35, 128, true), "waited through the onset");
        assert_eq!(m.congested(0), 0);
        // a packet arriving now, and leaving before any onset, stays clean
        assert!(!m.arrive(0, 2, 3, 35, 128, true));
        assert!(!m.leave(0, 2, 3, 35, 128, true));
        // the last two of input 0 leave: the third was marked on arrival (not again)
        let before = m.marked;
        assert!(
            m.leave(0, 0, 3, 35, 128, true),
            "the second waited through the onset"
        );
        assert!(
            !m.leave(0, 0, 3, 35, 128, true),
            "marked on arrival already"
        );
        assert_eq!(m.marked, before + 1);
        assert_eq!(m.flits[0], 0);
    }
}
