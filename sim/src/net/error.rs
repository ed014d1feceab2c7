//! `NetError`: why a run stopped. Every variant prints the cycle, the component and the
//! numbers involved; the network is not usable after an error.

use super::config::FieldError;
use thiserror::Error;

/// A failed run or a refused configuration.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum NetError {
    #[error(transparent)]
    Config(#[from] FieldError),
    #[error("cycle {cycle}: message {id} refused: {reason}")]
    BadMessage { cycle: u64, id: u64, reason: String },
    #[error("cycle {cycle}: buffer overflow at {component}: {occupancy_flits} flits > capacity {capacity_flits} (the sender used a credit it did not have)")]
    Overflow {
        cycle: u64,
        component: String,
        occupancy_flits: u32,
        capacity_flits: u32,
    },
    #[error("cycle {cycle}: credit not conserved on link {link}: sender's used credits {used} != {flits_in_channel} flits in the channel + {flits_in_buffer} flits in the receiver buffer + {credits_in_channel} credits returning (difference {diff:+})")]
    CreditNotConserved {
        cycle: u64,
        link: String,
        used: u32,
        flits_in_channel: u32,
        flits_in_buffer: u32,
        credits_in_channel: u32,
        diff: i64,
    },
    #[error("cycle {cycle}: credit underflow at {component}: a credit came back with no credit in use (a credit was duplicated)")]
    CreditUnderflow { cycle: u64, component: String },
    #[error("cycle {cycle}: flit duplicated at {component}: packet {packet} flit {seq} arrived again ({arrived} of {len} flits already there)")]
    FlitDuplicated {
        cycle: u64,
        component: String,
        packet: u32,
        seq: u32,
        arrived: u32,
        len: u32,
    },
    #[error("cycle {cycle}: flit lost before {component}: {detail}")]
    FlitLost {
        cycle: u64,
        component: String,
        detail: String,
    },
    #[error("cycle {cycle}: flit misrouted: packet {packet} (message {msg_id}, NIC {src} -> NIC {dst}) arrived at NIC {at}")]
    Misrouted {
        cycle: u64,
        packet: u32,
        msg_id: u64,
        src: u32,
        dst: u32,
        at: u32,
    },
    /// A NIC's injection gate (`gate`: "PFT block", "credit counter") contradicts its link.
    #[error("cycle {cycle}: {gate} of NIC {nic} disagrees with the link: {detail}")]
    Gate {
        cycle: u64,
        nic: u32,
        gate: String,
        detail: String,
    },
    #[error("cycle {cycle}: deadlock: no flit moved for {stalled_cycles} cycles with {flits_in_network} flits in the network\n{dump}")]
    Deadlock {
        cycle: u64,
        stalled_cycles: u64,
        flits_in_network: u64,
        dump: String,
    },
    #[error("cycle {cycle}: NIC {nic} starved by its {gate}: {packet} is stuck halfway, its next flit held back (with credit) for {stalled_cycles} cycles in a row (c = {c} of {credit_limit} credits, {state}): {reason}")]
    Starved {
        cycle: u64,
        nic: u32,
        gate: String,
        packet: String,
        stalled_cycles: u64,
        c: u16,
        credit_limit: u32,
        state: String,
        reason: String,
    },
    /// Lane router: lanes that hold flits and have sent none for `limit` cycles
    /// (`deadlock_cycles`), found while other lanes move.
    #[error("cycle {cycle}: deadlock in part of the network: {lanes} lanes hold {flits} flits and not one of them has left for network.deadlock_cycles = {limit} cycles, while flits move elsewhere\n{dump}")]
    LanesStalled {
        cycle: u64,
        lanes: usize,
        flits: u64,
        limit: u64,
        dump: String,
    },
    #[error("cycle {cycle}: traffic class `{class}` stalled: {outstanding} of its messages in the network and not one of their packets delivered for {stalled_cycles} cycles (network.stall_cycles = {limit}); the oldest: {oldest}")]
    Stalled {
        cycle: u64,
        class: String,
        outstanding: u64,
        stalled_cycles: u64,
        limit: u64,
        oldest: String,
    },
    #[error("cycle {cycle}: invariant broken: {detail}")]
    Invariant { cycle: u64, detail: String },
}
