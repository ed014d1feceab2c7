//! Flat storage shared by the network's components: slabs of packet descriptors, buffer
//! entries and messages (indices, free lists, no per-cycle allocation), and the timing
//! wheels that implement every flit and credit channel.

use super::types::Message;

/// One end of a link: a NIC, or a global switch port (an input where a link ends, an output
/// where one starts). One u32, a NIC carrying the top bit, so that flit and credit events
/// stay small; `end()` gives the two cases.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[repr(transparent)]
pub(crate) struct Endpoint(u32);

/// What an `Endpoint` is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum End {
    Nic(u32),
    Port(PortId),
}

impl Endpoint {
    const NIC: u32 = 1 << 31;
    /// No endpoint (a port without a link).
    pub const NONE: Endpoint = Endpoint(u32::MAX);

    #[inline]
    pub const fn nic(n: u32) -> Self {
        Endpoint(Self::NIC | n)
    }

    #[inline]
    pub const fn port(p: PortId) -> Self {
        Endpoint(p.0)
    }

    #[inline]
    pub fn end(self) -> End {
        if self.0 & Self::NIC != 0 {
            End::Nic(self.0 & !Self::NIC)
        } else {
            End::Port(PortId(self.0))
        }
    }

    /// The encoded value (hashed by the credit-jitter fault).
    #[inline]
    pub fn raw(self) -> u32 {
        self.0
    }
}

/// A typed index (one u32, no cost) into one kind of table or slab; `NONE` is "no index".
pub(crate) trait Id: Copy {
    fn from_index(i: u32) -> Self;
    fn index(self) -> usize;
}

macro_rules! typed_id {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
        #[repr(transparent)]
        pub(crate) struct $name(pub u32);

        impl $name {
            /// "No index" (not every kind needs one).
            #[allow(dead_code)]
            pub const NONE: $name = $name(u32::MAX);
        }

        impl Id for $name {
            #[inline]
            fn from_index(i: u32) -> Self {
                $name(i)
            }
            #[inline]
            fn index(self) -> usize {
                self.0 as usize
            }
        }
    };
}

typed_id!(
    /// A packet descriptor (`Packet`); its number also names the packet in errors.
    PktId
);
typed_id!(
    /// A packet's presence in one buffer (`Entry`).
    EntryId
);
typed_id!(
    /// A message's slot (`MsgState`; not the workload's message id).
    MsgId
);
typed_id!(
    /// A switch.
    SwitchId
);
typed_id!(
    /// A switch port, numbered over all switches (switch `base` + local port); the input
    /// and the output of a port share it.
    PortId
);
typed_id!(
    /// A directed link (its flit channel one way, its credit channel back).
    LinkId
);

/// A vector indexed by a typed id.
#[derive(Clone, Debug)]
pub(crate) struct Table<I, T> {
    pub items: Vec<T>,
    _id: std::marker::PhantomData<I>,
}

impl<I, T> Default for Table<I, T> {
    fn default() -> Self {
        Table {
            items: Vec::new(),
            _id: std::marker::PhantomData,
        }
    }
}

impl<I: Id, T> Table<I, T> {
    /// Appends `v`; returns its id.
    pub fn push(&mut self, v: T) -> I {
        self.items.push(v);
        I::from_index((self.items.len() - 1) as u32)
    }
    pub fn len(&self) -> usize {
        self.items.len()
    }
    pub fn iter(&self) -> std::slice::Iter<'_, T> {
        self.items.iter()
    }
    pub fn iter_mut(&mut self) -> std::slice::IterMut<'_, T> {
        self.items.iter_mut()
    }
    /// Ask the cache for the start of item `i` (a hint: nothing is read or written, and an
    /// index past the end is harmless), so that a record read a little later is there.
    #[inline(always)]
    pub fn prefetch(&self, i: I) {
        super::prefetch::prefetch(self.items.as_ptr().wrapping_add(i.index()));
    }
}

impl<I: Id, T> std::ops::Index<I> for Table<I, T> {
    type Output = T;
    #[inline]
    fn index(&self, i: I) -> &T {
        &self.items[i.index()]
    }
}
impl<I: Id, T> std::ops::IndexMut<I> for Table<I, T> {
    #[inline]
    fn index_mut(&mut self, i: I) -> &mut T {
        &mut self.items[i.index()]
    }
}

/// A vector with a free list; indices stay valid until freed.
///
/// Beside each slot, a byte of marks (`mark_or`, `mark`): 0 for a slot never marked, and
/// cleared when the slot is freed, so every slot starts unmarked whoever allocates it.
/// The message slab keeps there the OR of the scheme bits of a message's packets that
/// reached its destination (`Delivery::bits`, `nic.rs`); the other slabs never mark, and
/// their marks stay an empty vector.
#[derive(Clone, Debug)]
pub(crate) struct Slab<T, I> {
    pub items: Vec<T>,
    free: Vec<I>,
    marks: Vec<u8>,
}

impl<T, I> Default for Slab<T, I> {
    fn default() -> Self {
        Slab {
            items: Vec::new(),
            free: Vec::new(),
            marks: Vec::new(),
        }
    }
}

impl<T, I: Id> Slab<T, I> {
    #[inline]
    pub fn alloc(&mut self, v: T) -> I {
        if let Some(i) = self.free.pop() {
            self.items[i.index()] = v;
            i
        } else {
            self.items.push(v);
            I::from_index((self.items.len() - 1) as u32)
        }
    }
    #[inline]
    pub fn free(&mut self, i: I) {
        if let Some(m) = self.marks.get_mut(i.index()) {
            *m = 0;
        }
        self.free.push(i);
    }
    /// Size the marks to the slots, so that `mark_or` does not grow them (threads).
    pub fn presize_marks(&mut self) {
        if self.marks.len() < self.items.len() {
            self.marks.resize(self.items.len(), 0);
        }
    }
    /// ORs `bits` into the marks of slot `i` (allocated).
    #[inline]
    pub fn mark_or(&mut self, i: I, bits: u8) {
        let k = i.index();
        if k >= self.marks.len() {
            self.marks.resize(self.items.len().max(k + 1), 0);
        }
        self.marks[k] |= bits;
    }
    /// The marks of slot `i` (0 when never marked since it was allocated).
    #[inline]
    pub fn mark(&self, i: I) -> u8 {
        self.marks.get(i.index()).copied().unwrap_or(0)
    }
    /// The item at `i`, if allocated once (it may have been freed since).
    #[inline]
    pub fn get(&self, i: I) -> Option<&T> {
        self.items.get(i.index())
    }
}

impl<T, I: Id> std::ops::Index<I> for Slab<T, I> {
    type Output = T;
    #[inline]
    fn index(&self, i: I) -> &T {
        &self.items[i.index()]
    }
}
impl<T, I: Id> std::ops::IndexMut<I> for Slab<T, I> {
    #[inline]
    fn index_mut(&mut self, i: I) -> &mut T {
        &mut self.items[i.index()]
    }
}

/// The buffer entries, one pool per pool chunk: 64 NICs (more on large networks), or a
/// few switches (`build.rs`, `chunking`; the chunks a thread runs are whole pool chunks).
/// An entry is taken and freed by the component whose buffer holds it, so under threads
/// each pool is used by one thread at a time, and as the pool chunks depend on the
/// network alone, the ids do not depend on the thread count (`parallel.rs`). An id is the
/// pool in its high bits and the slot in the pool in the low `local_bits`.
#[derive(Clone, Debug, Default)]
pub(crate) struct Entries {
    pools: Vec<Pool>,
    local_bits: u32,
}

#[derive(Clone, Debug, Default)]
struct Pool {
    items: Vec<Entry>,
    free: Vec<u32>,
}

impl Entries {
    /// `owners` pools (one per pool chunk), each able to hold `most` entries at once; None
    /// when one u32 cannot name them all.
    pub fn new(owners: u32, most: u64) -> Option<Entries> {
        let owner_bits = u32::BITS - owners.leading_zeros();
        let local_bits = u32::BITS.checked_sub(owner_bits)?;
        // (the all-ones owner is not an owner: `EntryId::NONE` stays free)
        (most < 1u64 << local_bits).then(|| Entries {
            pools: vec![Pool::default(); owners as usize],
            local_bits,
        })
    }
    #[inline]
    fn split(&self, e: EntryId) -> (usize, usize) {
        (
            (e.0 >> self.local_bits) as usize,
            (e.0 & ((1 << self.local_bits) - 1)) as usize,
        )
    }
    /// Takes a slot of `owner`'s pool for `v`.
    #[inline]
    pub fn alloc(&mut self, owner: u32, v: Entry) -> EntryId {
        let p = &mut self.pools[owner as usize];
        let i = match p.free.pop() {
            Some(i) => {
                p.items[i as usize] = v;
                i
            }
            None => {
                // (`Network::build` sized the ids for the most entries the buffers hold)
                assert!(
                    p.items.len() >> self.local_bits == 0,
                    "an entry pool is full"
                );
                p.items.push(v);
                (p.items.len() - 1) as u32
            }
        };
        EntryId(owner << self.local_bits | i)
    }
    #[inline]
    pub fn free(&mut self, e: EntryId) {
        let (o, i) = self.split(e);
        self.pools[o].free.push(i as u32);
    }
    /// Every slot ever taken (live or freed), owner by owner.
    pub fn iter(&self) -> impl Iterator<Item = (EntryId, &Entry)> {
        let b = self.local_bits;
        self.pools.iter().enumerate().flat_map(move |(o, p)| {
            p.items
                .iter()
                .enumerate()
                .map(move |(i, e)| (EntryId((o as u32) << b | i as u32), e))
        })
    }
}

impl std::ops::Index<EntryId> for Entries {
    type Output = Entry;
    #[inline]
    fn index(&self, e: EntryId) -> &Entry {
        let (o, i) = self.split(e);
        &self.pools[o].items[i]
    }
}
impl std::ops::IndexMut<EntryId> for Entries {
    #[inline]
    fn index_mut(&mut self, e: EntryId) -> &mut Entry {
        let (o, i) = self.split(e);
        &mut self.pools[o].items[i]
    }
}

/// A packet descriptor: one per packet between its first flit's injection and its last
/// flit's ejection, wherever its flits are.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Packet {
    /// Message slot (`NONE` for a control packet).
    pub msg: MsgId,
    pub src: u32,
    pub dst: u32,
    /// Flits (0 = free slot).
    pub len: u16,
    /// The core's flags: `SEEN`, `CONTROL`, `acks::ACK`, `RECOVERY`, `TIE_KNOWN`,
    /// `TIE_MINUS` (one bit each).
    pub flags: u8,
    /// The congestion-control scheme's bits (opaque to the core; set by the sender's
    /// scheme and by switches' marking).
    pub bits: u8,
    /// Dragonfly routing state (`net/dragonfly_route.rs`): intermediate group, global hops
    /// taken, decisions made. 0 on other topologies.
    pub route: u32,
}

impl Packet {
    /// The scheme's view of this packet's flit `seq` leaving a switch output.
    #[inline]
    pub fn departure(&self, seq: u16) -> super::scheme::Departure {
        super::scheme::Departure {
            head: seq == 0,
            len: self.len,
            control: self.flags & CONTROL != 0,
            bits: self.bits,
        }
    }
}

/// `Packet::flags`: its head reached the destination NIC (a second head is a duplicate).
pub(crate) const SEEN: u8 = 1;
/// `Packet::flags`: a scheme's control packet (no message).
pub(crate) const CONTROL: u8 = 2;
/// `Packet::flags`: the packet holds Disha's recovery path (`disha.rs`; or, under its test
/// hook, was put on it). (Value 4 is `acks::ACK`.)
pub(crate) const RECOVERY: u8 = 8;
/// `Packet::flags`: its way round a torus ring, when both are equally long, is known
/// (`Network::tie_minus`, worked out by the first lane router that asks, `tie_of`).
pub(crate) const TIE_KNOWN: u8 = 16;
/// `Packet::flags`: with `TIE_KNOWN`, that way is the minus one.
pub(crate) const TIE_MINUS: u8 = 32;

/// A packet's presence in one buffer (a switch input or a NIC receive buffer): the buffer
/// holds these, not one object per flit. Its flit counts live in the port that is using
/// it: the input port counts the flits of the packet arriving, the output port (or the
/// NIC's receive logic) the flits of the packet leaving; a packet is never counted twice.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Entry {
    pub pkt: PktId,
    /// Next entry in the same queue.
    pub next: EntryId,
    /// The buffer: a switch input port, or a NIC's receive buffer.
    pub port: Endpoint,
    /// Message slot (NIC receive buffers).
    pub msg: MsgId,
    pub len: u16,
    /// Output port (switch) it is routed to.
    pub out: u8,
    pub live: bool,
}

/// A message from its acceptance at the source NIC to its delivery.
#[derive(Clone, Copy, Debug)]
pub(crate) struct MsgState {
    pub msg: Message,
    /// Next message in the same send queue.
    pub next: MsgId,
    /// Payload bytes not yet cut into packets.
    pub bytes_left: u32,
    pub flits_total: u32,
    pub flits_ejected: u32,
    /// Cycle the first flit left the source NIC (`NEVER` until then).
    pub injected: u64,
    /// Its traffic class: index into `Network::classes`.
    pub class: u32,
}

pub(crate) const NEVER: u64 = u64::MAX;

/// A flit on a link, addressed to the link's receiver (a NIC, or a global switch input
/// port: each receiver has exactly one incoming link).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct FlitEv {
    pub rx: Endpoint,
    pub pkt: PktId,
    /// Index of the flit in its packet (0 = head, len-1 = tail).
    pub seq: u16,
}

/// One credit on a link's return channel, addressed to the link's sender (a NIC, or a
/// global switch output port).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct CreditEv {
    pub tx: Endpoint,
}

/// Every channel of one kind at once: a value written in cycle t on a channel of latency L
/// (1 <= L < size) is read in cycle t + L. Bucket t holds what arrives in cycle t; only busy
/// channels cost anything. Same semantics as `crate::channel::Channel` per link.
#[derive(Clone, Debug)]
pub(crate) struct Wheel<T> {
    buckets: Vec<Vec<T>>,
    mask: u64,
    /// Receivers with channels of their own (phase 1 by owner: one per switch chunk):
    /// bucket t of receiver k is `buckets[row(t) + k]`, a cycle's buckets side by side (a
    /// sender of many events arriving in one cycle computes the row once: `push_row`).
    receivers: usize,
}

impl<T> Wheel<T> {
    /// A wheel of `chunks` receivers' channels (at least 1), latencies up to `max_latency`.
    pub fn with_chunks(max_latency: u32, chunks: usize) -> Self {
        let size = (max_latency as usize + 1).next_power_of_two();
        Wheel {
            buckets: (0..size * chunks.max(1)).map(|_| Vec::new()).collect(),
            mask: size as u64 - 1,
            receivers: chunks.max(1),
        }
    }
    /// The first bucket of cycle `t`'s events (`push_row`).
    #[inline(always)]
    pub fn row(&self, t: u64) -> usize {
        (t & self.mask) as usize * self.receivers
    }
    #[inline(always)]
    fn at(&self, t: u64, k: usize) -> usize {
        debug_assert!(k < self.receivers, "receiver {k} of {}", self.receivers);
        self.row(t) + k
    }
    /// Commit: `ev` arrives at receiver `k` in cycle `at`.
    #[inline(always)]
    pub fn push_to(&mut self, at: u64, k: usize, ev: T) {
        let i = self.at(at, k);
        self.buckets[i].push(ev);
    }
    /// `push_to` with the arrival cycle's `row` given.
    #[inline(always)]
    pub fn push_row(&mut self, row: usize, k: usize, ev: T) {
        debug_assert!(k < self.receivers, "receiver {k} of {}", self.receivers);
        self.buckets[row + k].push(ev);
    }
    /// Commit: the events `evs` arrive at receiver `k` in cycle `at`, in that order; the
    /// copies, for the caller to amend.
    #[inline]
    pub fn append_to(&mut self, at: u64, k: usize, evs: &[T]) -> &mut [T]
    where
        T: Copy,
    {
        let i = self.at(at, k);
        let b = &mut self.buckets[i];
        let n = b.len();
        b.extend_from_slice(evs);
        &mut b[n..]
    }
    /// Read: everything arriving at receiver `k` in cycle `now` (give it back with
    /// `restore_to`).
    #[inline]
    pub fn take_from(&mut self, now: u64, k: usize) -> Vec<T> {
        let i = self.at(now, k);
        std::mem::take(&mut self.buckets[i])
    }
    #[inline]
    pub fn restore_to(&mut self, now: u64, k: usize, mut v: Vec<T>) {
        v.clear();
        let i = self.at(now, k);
        self.buckets[i] = v;
    }
    /// Everything in flight.
    pub fn iter(&self) -> impl Iterator<Item = &T> {
        self.buckets.iter().flatten()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::channel::Channel;
    use rand::{Rng, SeedableRng};
    use rand_xoshiro::Xoshiro256PlusPlus;

    /// A wheel carries every channel exactly like one `Channel` per channel.
    #[test]
    fn wheel_matches_channels() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
        let lat = [1u32, 2, 5, 7];
        let mut chans: Vec<Channel<u32>> = lat.iter().map(|&l| Channel::new(l)).collect();
        let mut wheel: Wheel<(usize, u32)> = Wheel::with_chunks(7, 2);
        for t in 0..2000u64 {
            // Read phase.
            let mut got: Vec<(usize, u32)> = wheel.take_from(t, 0).to_vec();
            got.extend(wheel.take_from(t, 1));
            got.sort_unstable();
            let want: Vec<(usize, u32)> = chans
                .iter()
                .enumerate()
                .filter(|(_, c)| c.head() != 0)
                .map(|(i, c)| (i, c.head()))
                .collect();
            assert_eq!(got, want, "cycle {t}");
            wheel.restore_to(t, 0, Vec::new());
            wheel.restore_to(t, 1, Vec::new());
            // Commit phase.
            for (i, c) in chans.iter_mut().enumerate() {
                let v = if rng.gen_bool(0.5) {
                    rng.gen_range(1..100)
                } else {
                    0
                };
                if v != 0 && i == 3 {
                    // (a sender's row of its arrival cycle, computed once)
                    let row = wheel.row(t + lat[i] as u64);
                    wheel.push_row(row, i % 2, (i, v));
                } else if v != 0 {
                    wheel.push_to(t + lat[i] as u64, i % 2, (i, v));
                }
                c.commit(v);
            }
        }
    }
}
