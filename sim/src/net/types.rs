//! Types shared by the network model (`net`), the workloads (`workload`) and the metrics
//! (`metrics`). Sizes are in bytes at this level; the NIC cuts messages into packets (at most
//! the MTU) and packets into flits (one flit = one link credit).

use serde::{Deserialize, Serialize};
use std::fmt;

/// A network endpoint (NIC), 0..nodes. One u32 (no cost); it reads and writes as a plain
/// number in files.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
#[serde(transparent)]
#[repr(transparent)]
pub struct NodeId(pub u32);

impl NodeId {
    /// Its index into per-node tables.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// Nodes `0..n`.
    pub fn all(n: u32) -> impl DoubleEndedIterator<Item = NodeId> + ExactSizeIterator {
        (0..n).map(NodeId)
    }
}

impl From<u32> for NodeId {
    fn from(n: u32) -> Self {
        NodeId(n)
    }
}

impl fmt::Display for NodeId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

/// A message a workload hands to the source NIC.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Message {
    /// Unique within a run (the workload numbers its messages).
    pub id: u64,
    pub src: NodeId,
    pub dst: NodeId,
    /// Payload bytes (> 0).
    pub bytes: u32,
    /// Workload-defined label carried to the delivery (traffic class, group, operation).
    pub tag: u32,
    /// Cycle in which the workload created it.
    pub created: u64,
}

/// A message whose last flit has been ejected at its destination.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Delivery {
    pub msg: Message,
    /// Cycle in which its first flit left the source NIC.
    pub injected: u64,
    /// Cycle in which its last flit was ejected at the destination.
    pub delivered: u64,
    /// The congestion-control scheme's bits of its packets as they arrived at the
    /// destination NIC (`Packet::bits`: set by the sender's scheme and by switches'
    /// marking, e.g. IB CC's FECN), OR-ed over all its packets: non-zero when any packet
    /// of the message was marked. 0 under a scheme that never marks. Opaque to the core,
    /// as the packets' bits are; the metrics read `bits != 0` as "marked"
    /// (`metrics::coldhot`).
    pub bits: u8,
}

/// A source of messages that may react to deliveries (closed-loop tests such as ping-pong,
/// windows of outstanding messages, collectives).
pub trait Workload {
    /// Called once per cycle, before the network evaluates: append new messages to `out`.
    fn tick(&mut self, now: u64, out: &mut Vec<Message>);
    /// Called for each message completed in cycle `now` (after the network committed it).
    fn delivered(&mut self, now: u64, d: &Delivery);
    /// Called for a message of this cycle's `tick` that its source NIC refused (its send
    /// queue was full, `NetConfig::send_queue_msgs`): it will never be delivered.
    fn refused(&mut self, now: u64, m: &Message) {
        let _ = (now, m);
    }
    /// True for an open-loop source: `tick(t)` depends on nothing `delivered` reports for
    /// cycle t - 1. Under threads `Network::run` then calls `tick(t)` while cycle t - 1 is
    /// evaluated, off the serial part of the step, with the same messages in the same
    /// order (after an error the source may have ticked one cycle further).
    fn open_loop(&self) -> bool {
        false
    }
    /// The name of traffic class `tag` in reports (a stalled class); None: the core prints
    /// the tag's number. The workloads own their tags' names, the core does not.
    fn tag_name(&self, tag: u32) -> Option<&'static str> {
        let _ = tag;
        None
    }
}
