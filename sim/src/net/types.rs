//! Types shared by the network model (`net`), the workloads (`workload`) and the metrics
//! (`metrics`). Sizes are in bytes at this level; the NIC cuts messages into packets (at most
//! the MTU) and packets into flits (one flit = one link credit).

/// A network endpoint (NIC), 0..nodes.
pub type NodeId = u32;

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
}

/// A source of messages that may react to deliveries (closed-loop tests such as ping-pong,
/// windows of outstanding messages, collectives).
pub trait Workload {
    /// Called once per cycle, before the network evaluates: append new messages to `out`.
    fn tick(&mut self, now: u64, out: &mut Vec<Message>);
    /// Called for each message completed in cycle `now` (after the network committed it).
    fn delivered(&mut self, now: u64, d: &Delivery);
}
