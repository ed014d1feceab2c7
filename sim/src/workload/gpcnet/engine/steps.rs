//! The steps a GPCNeT process runs: message kinds and their traffic tags, the sends and
//! awaits of one step, and the collective patterns (dissemination barrier, recursive-doubling
//! allreduce, GPCNeT's all-to-all) as step lists.

use crate::workload::tag;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) enum Kind {
    LatToLeft,
    LatToRight,
    BwToLeft,
    BwToRight,
    Barrier,
    Allreduce,
    A2a,
    Incast,
    Put,
    PutAck,
    GetReq,
    GetResp,
}

impl Kind {
    pub(super) fn tag(self) -> u32 {
        match self {
            Kind::LatToLeft | Kind::LatToRight => tag::CANARY_LATENCY,
            Kind::BwToLeft | Kind::BwToRight => tag::CANARY_BANDWIDTH,
            Kind::Barrier => tag::CANARY_BARRIER,
            Kind::Allreduce => tag::CANARY_ALLREDUCE,
            Kind::A2a => tag::CONGESTOR_A2A,
            Kind::Incast => tag::CONGESTOR_INCAST,
            Kind::Put => tag::CONGESTOR_PUT,
            Kind::PutAck => tag::CONGESTOR_PUT_ACK,
            Kind::GetReq => tag::CONGESTOR_GET_REQ,
            Kind::GetResp => tag::CONGESTOR_GET_RESP,
        }
    }
}

#[derive(Clone, Copy, Debug)]
pub(super) struct Meta {
    pub(super) src: u32,
    pub(super) dst: u32,
    pub(super) kind: Kind,
    pub(super) seq: u64,
    pub(super) bytes: u32,
}

pub(super) type Key = (u32, Kind, u64);

#[derive(Clone, Debug)]
pub(super) struct Send {
    pub(super) dst: u32,
    pub(super) kind: Kind,
    pub(super) seq: u64,
    pub(super) count: u32,
    pub(super) bytes: u32,
}

#[derive(Clone, Debug)]
pub(super) struct Await {
    pub(super) src: u32,
    pub(super) kind: Kind,
    pub(super) seq: u64,
    pub(super) count: u32,
}

#[derive(Clone, Debug, Default)]
pub(super) struct Step {
    pub(super) sends: Vec<Send>,
    pub(super) awaits: Vec<Await>,
}

pub(super) fn snd(dst: u32, kind: Kind, seq: u64, count: u32, bytes: u32) -> Send {
    Send {
        dst,
        kind,
        seq,
        count,
        bytes,
    }
}

pub(super) fn awt(src: u32, kind: Kind, seq: u64, count: u32) -> Await {
    Await {
        src,
        kind,
        seq,
        count,
    }
}

/// Dissemination barrier over `members` (rank order): round j sends to rank + 2^j and waits
/// for rank - 2^j, for j < ceil(log2 n).
pub(super) fn barrier_steps(members: &[u32], rank: u32, k: u64, bytes: u32) -> Vec<Step> {
    let n = members.len() as u64;
    let r = rank as u64;
    let mut steps = Vec::new();
    let mut j = 0u64;
    while (1u64 << j) < n {
        let d = 1u64 << j;
        let to = members[((r + d) % n) as usize];
        let from = members[((r + n - d % n) % n) as usize];
        let seq = k * 64 + j;
        steps.push(Step {
            sends: vec![snd(to, Kind::Barrier, seq, 1, bytes)],
            awaits: vec![awt(from, Kind::Barrier, seq, 1)],
        });
        j += 1;
    }
    steps
}

/// Recursive-doubling allreduce (MPICH's algorithm for short messages, with its fold of the
/// ranks beyond the largest power of two).
pub(super) fn allreduce_steps(members: &[u32], rank: u32, k: u64, bytes: u32) -> Vec<Step> {
    let n = members.len() as u32;
    let pof2 = 1u32 << (31 - n.leading_zeros());
    let rem = n - pof2;
    let base = k * 64;
    let mut steps = Vec::new();
    let newrank = if rank < 2 * rem {
        if rank.is_multiple_of(2) {
            let peer = members[(rank + 1) as usize];
            steps.push(Step {
                sends: vec![snd(peer, Kind::Allreduce, base, 1, bytes)],
                awaits: vec![],
            });
            steps.push(Step {
                sends: vec![],
                awaits: vec![awt(peer, Kind::Allreduce, base + 63, 1)],
            });
            return steps;
        }
        steps.push(Step {
            sends: vec![],
            awaits: vec![awt(members[(rank - 1) as usize], Kind::Allreduce, base, 1)],
        });
        rank / 2
    } else {
        rank - rem
    };
    let mut s = 0u32;
    while (1u32 << s) < pof2 {
        let pn = newrank ^ (1 << s);
        let pr = if pn < rem { pn * 2 + 1 } else { pn + rem };
        let peer = members[pr as usize];
        let seq = base + 1 + s as u64;
        steps.push(Step {
            sends: vec![snd(peer, Kind::Allreduce, seq, 1, bytes)],
            awaits: vec![awt(peer, Kind::Allreduce, seq, 1)],
        });
        s += 1;
    }
    if rank < 2 * rem {
        steps.push(Step {
            sends: vec![snd(
                members[(rank - 1) as usize],
                Kind::Allreduce,
                base + 63,
                1,
                bytes,
            )],
            awaits: vec![],
        });
    }
    steps
}

/// A process's steps in its current iteration: a list, or one pass of GPCNeT's all-to-all
/// (`a2a_step`), whose n - 1 rounds are made one at a time as the process reaches them (a
/// list of them all, for every process, grew with the square of the group: 56 MB at 4,096
/// NICs, 3.6 GB at 32,768, at one process per NIC).
#[derive(Clone, Debug)]
pub(super) enum Steps {
    List(Vec<Step>),
    /// Congestor `rank` of communicator `comm` of group `group`, pass `k`, `n` ranks.
    A2a {
        group: u32,
        comm: u32,
        rank: u32,
        k: u64,
        n: u32,
    },
}

impl Default for Steps {
    fn default() -> Self {
        Steps::List(Vec::new())
    }
}

impl Steps {
    pub(super) fn len(&self) -> usize {
        match self {
            Steps::List(v) => v.len(),
            Steps::A2a { n, .. } => n.saturating_sub(1) as usize,
        }
    }
}

/// Round `j` (from 0) of one all-to-all pass as GPCNeT's `a2a_congestor`: rounds i = 1..n-1
/// of `MPI_Sendrecv` (XOR partner when n is a power of two, else send to rank+i and receive
/// from rank-i), i = j + 1.
pub(super) fn a2a_step(members: &[u32], rank: u32, k: u64, j: u32, bytes: u32) -> Step {
    let n = members.len() as u32;
    let i = j + 1;
    let (dst, src) = if n.is_power_of_two() {
        (rank ^ i, rank ^ i)
    } else {
        ((rank + i) % n, (rank + n - i) % n)
    };
    let seq = k * n as u64 + i as u64;
    Step {
        sends: vec![snd(members[dst as usize], Kind::A2a, seq, 1, bytes)],
        awaits: vec![awt(members[src as usize], Kind::A2a, seq, 1)],
    }
}
