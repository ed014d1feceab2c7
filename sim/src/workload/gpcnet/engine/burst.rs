//! A congestor's first window of operations, posted back to back at its start, made one
//! message at a time as each reaches the NIC: the same ids, host times and cycles as
//! posting them all at once (which held every sender's whole window: 53 MB at 4,096 NICs
//! and one process per NIC, times `ppn`).

use super::steps::Meta;
use super::{CongestorKind, GpcnetWorkload};
use crate::net::types::Message;

/// The rest of a congestor's first window: `left` more operations of `kind` from process
/// `p` to `root`, the next with id `id` reaching the NIC in cycle `at`, then one every
/// host send time with the next id (what posting them one by one gives).
#[derive(Clone, Copy, Debug)]
pub(super) struct Burst {
    p: u32,
    root: u32,
    kind: CongestorKind,
    id: u64,
    at: u64,
    pub(super) left: u32,
}

impl GpcnetWorkload {
    /// `window` calls of `post_op` (host send time > 0): the same ids, host times and
    /// cycles, but each message made when the one before it reaches the NIC (`tick`).
    pub(super) fn post_burst(
        &mut self,
        p: u32,
        root: u32,
        kind: CongestorKind,
        window: u32,
        emit: u64,
    ) {
        let pr = &mut self.procs[p as usize];
        pr.outstanding += window;
        let start = pr.host_free.max(emit);
        pr.host_free = start + window as u64 * self.host_send;
        let id = self.next_id;
        self.next_id += window as u64;
        let b = Burst {
            p,
            root,
            kind,
            id,
            at: start + self.host_send,
            left: window,
        };
        self.make_burst_message(b);
    }

    /// Makes burst `b`'s next message (into `inflight` and `posted`, as `send` does) and
    /// keeps the rest under its id.
    pub(super) fn make_burst_message(&mut self, mut b: Burst) {
        let (kind, bytes) = self.op_message(b.kind);
        self.inflight.insert(
            b.id,
            Meta {
                src: b.p,
                dst: b.root,
                kind,
                seq: 0,
                bytes,
            },
        );
        let msg = Message {
            id: b.id,
            src: self.layout.node_of(b.p),
            dst: self.layout.node_of(b.root),
            bytes,
            tag: kind.tag(),
            created: b.at,
        };
        self.posted.insert((b.at, b.id), msg);
        b.left -= 1;
        if b.left > 0 {
            let id = b.id;
            b.id += 1;
            b.at += self.host_send;
            self.bursts.insert(id, b);
        }
    }
}
