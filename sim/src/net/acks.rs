//! Per-packet acknowledgements (`[network] ack_bytes`; issue 22): when the tail of a data
//! packet arrives at its destination NIC, that NIC queues an ACK to the packet's source,
//! carrying the packet's scheme bits. The ACK is a control packet, sent on the same path
//! as a scheme's (`Scheme::take_control`): a real packet of `ack_bytes` (in whole flits)
//! that takes credits and buffer space, leaves before the NIC's next data packet (after
//! the scheme's own control packets), and is seen by the scheme at the source through
//! `Scheme::arrived` with `Arrival::ack` set. Every source counts its outstanding packets
//! per flow (destination): one more when a data packet starts, one less when its ACK
//! arrives (`Network::outstanding`).
//!
//! Why the tail: a NIC acknowledges a packet it holds whole (and could check). Without
//! `ack_bytes` nothing here runs and no state is kept.

use super::network::Network;
use super::scheme::Scheme;
use super::store::{MsgId, Packet, PktId, CONTROL};
use std::collections::VecDeque;

/// `Packet::flags`: an ACK (with `CONTROL`).
pub(crate) const ACK: u8 = 4; // the other flag bits: store.rs

/// The ACK state of a network with `ack_bytes`.
#[derive(Clone, Debug)]
pub(crate) struct Acks {
    /// Flits of one ACK.
    pub flits: u16,
    /// Per NIC, the ACKs waiting to be sent: (to NIC, scheme bits).
    pub queue: Vec<VecDeque<(u32, u8)>>,
    /// ACKs waiting at all NICs.
    pub pending: usize,
    /// `outstanding[key(src, dst)]`: data packets started from `src` to `dst` whose ACK
    /// has not arrived; flows with none have no entry (16 bytes and the map's overhead
    /// per flow with packets in flight).
    pub outstanding: super::flows::FlowMap<u32>,
}

impl Acks {
    pub fn new(nodes: u32, flits: u16) -> Acks {
        Acks {
            flits,
            queue: vec![VecDeque::new(); nodes as usize],
            pending: 0,
            outstanding: Default::default(),
        }
    }
}

impl<S: Scheme> Network<S> {
    /// The tail of data packet `pk` arrived at NIC `n`: queue its ACK.
    #[cold]
    pub(crate) fn ack_due(&mut self, n: usize, pk: &Packet) {
        if let Some(a) = self.acks.as_mut() {
            if pk.flags & CONTROL == 0 {
                a.queue[n].push_back((pk.src, pk.bits));
                a.pending += 1;
                // (no poke: the flit that brought the tail already did, `nic_receive`)
                self.nic.stats[n].acks_sent += 1;
            }
        }
    }

    /// Start NIC `n`'s next ACK as its current packet, if one waits.
    pub(crate) fn start_ack(&mut self, n: usize) -> bool {
        let Some(a) = self.acks.as_mut() else {
            return false;
        };
        let Some((dst, bits)) = a.queue[n].pop_front() else {
            return false;
        };
        a.pending -= 1;
        let flits = a.flits;
        // (logged under threads, as every packet a NIC starts: switch chunks read the
        // packet slab meanwhile)
        let pkt = self.alloc_packet(
            n as u32,
            Packet {
                msg: MsgId::NONE,
                src: n as u32,
                dst,
                len: flits,
                flags: CONTROL | ACK,
                bits,
                route: 0,
            },
        );
        self.set_current(n, pkt, flits, true);
        true
    }

    /// Data packet from `src` to `dst` started: one more outstanding on the flow.
    #[inline]
    pub(crate) fn ack_expected(&mut self, src: usize, dst: u32) {
        if let Some(a) = self.acks.as_mut() {
            *a.outstanding
                .entry(super::flows::key(src as u32, dst))
                .or_insert(0) += 1;
        }
    }

    /// An ACK from `from` arrived at NIC `at`: one less outstanding on the flow.
    pub(crate) fn ack_arrived(&mut self, at: usize, from: u32) {
        if let Some(a) = self.acks.as_mut() {
            let k = super::flows::key(at as u32, from);
            debug_assert!(
                a.outstanding.get(&k).is_some_and(|&o| o > 0),
                "an ACK without an outstanding packet"
            );
            if let Some(o) = a.outstanding.get_mut(&k) {
                *o -= 1;
                if *o == 0 {
                    a.outstanding.remove(&k);
                }
            }
            self.nic.stats[at].acks_received += 1;
        }
    }

    /// Make `pkt` (of `len` flits) NIC `n`'s current packet.
    #[inline]
    pub(crate) fn set_current(&mut self, n: usize, pkt: PktId, len: u16, control: bool) {
        let ns = &mut self.nic.st[n];
        ns.cur_pkt = pkt;
        ns.cur_seq = 0;
        ns.cur_len = len;
        ns.cur_ctl = control;
    }

    /// Data packets NIC `src` has sent to `dst` whose ACK has not arrived (0 without
    /// `ack_bytes`).
    pub fn outstanding(&self, src: u32, dst: u32) -> u32 {
        self.acks.as_ref().map_or(0, |a| {
            a.outstanding
                .get(&super::flows::key(src, dst))
                .copied()
                .unwrap_or(0)
        })
    }
}
