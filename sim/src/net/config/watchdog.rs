//! The watchdogs' limits against the network's own waits (`NetConfig::watchdog_errors`):
//! `deadlock_cycles` must be longer than any wait of a network that is only slow, and
//! `stall_cycles` longer than a packet's shortest way, or a run that would end well is
//! stopped as deadlocked or stalled. Each refusal names the terms of the wait it is judged
//! against (docs/network.md §6).

use super::{
    bad, FieldError, LaneReuse, NetConfig, TopologyConfig, MAX_LATENCY_CYCLES, MAX_WATCHDOG_CYCLES,
};

/// `v` as a message shows a limit or a size: "(the default)" after one equal to its
/// default, which the user has most likely not set.
pub(crate) fn shown(v: u64, default: u64) -> String {
    if v == default {
        format!("{v} (the default)")
    } else {
        v.to_string()
    }
}

impl NetConfig {
    /// `deadlock_cycles` and `stall_cycles` against the latencies; `mtu` the packet size in
    /// flits when valid. The deadlock watchdog stops a run when no flit has moved for that
    /// long, so a wait in which no flit need move (a flit on a link and through a switch, a
    /// credit on its way) must be shorter; with lanes its per-lane watchdog stops a run when
    /// one lane sends nothing for that long, so the wait of a head behind a packet that
    /// crawls through a lane of the slowest link must be shorter too (`lane_wait`). Skipped
    /// while a latency is out of its own range.
    pub(super) fn watchdog_errors(&self, mtu: Option<u32>, errs: &mut Vec<FieldError>) {
        let defaults = NetConfig::default();
        let limit = self.deadlock_cycles;
        for (field, v) in [
            ("deadlock_cycles", self.deadlock_cycles),
            ("stall_cycles", self.stall_cycles),
        ] {
            if v > MAX_WATCHDOG_CYCLES {
                errs.push(bad(
                    field,
                    v,
                    format!("must be in 0..={MAX_WATCHDOG_CYCLES} cycles (0: off; at most the longest run)"),
                ));
            }
        }
        let head = self.head_latency_cycles.filter(|_| self.vcs.is_some());
        let in_range = |v: u32, lo: u32| (lo..=MAX_LATENCY_CYCLES).contains(&v);
        if !in_range(self.link_latency_cycles, 1)
            || !in_range(self.credit_latency_cycles, 1)
            || !in_range(self.switch_latency_cycles, 0)
            || !head.is_none_or(|h| in_range(h, 0))
        {
            return;
        }
        let head_key = if head.is_some() {
            " + network.head_latency_cycles"
        } else {
            ""
        };
        if let Some(p) = mtu {
            self.stall_errors(p, head, head_key, errs);
        }
        if limit == 0 || limit > MAX_WATCHDOG_CYCLES {
            return;
        }
        // the longest link (and its credit's way back): the plain latency, a dragonfly's
        // own, or a topology file's longest link, named as the user wrote it
        let mut own: Vec<(u32, &str)> = [
            (self.local_latency_cycles, "network.local_latency_cycles"),
            (self.global_latency_cycles, "network.global_latency_cycles"),
        ]
        .into_iter()
        .filter_map(|(l, k)| l.filter(|&l| in_range(l, 1)).map(|l| (l, k)))
        .collect();
        if let TopologyConfig::File { graph: Some(g), .. } = &self.topology {
            if let Some(l) = g.latencies().into_iter().map(|t| t.2).max() {
                own.push((l, "the topology file's longest link latency"));
            }
        }
        let longest = |base: u32, key: &'static str| {
            own.iter()
                .fold((base, key), |m, &(l, k)| if l > m.0 { (l, k) } else { m })
        };
        let (link, link_key) = longest(self.link_latency_cycles, "network.link_latency_cycles");
        let (credit, credit_key) =
            longest(self.credit_latency_cycles, "network.credit_latency_cycles");
        let got = shown(limit, defaults.deadlock_cycles);
        let hop = link as u64 + self.switch_latency_cycles as u64 + head.unwrap_or(0) as u64;
        if let Some(p) = mtu {
            let trip = hop + credit as u64;
            let keys = format!(
                "{link_key} + network.switch_latency_cycles{head_key} + {credit_key} = {trip}"
            );
            if let Some(e) = self.lane_wait(p, trip, &keys, &got) {
                errs.push(e);
                return;
            }
        }
        let mut waits: Vec<(u64, String)> = Vec::new();
        if hop >= limit {
            waits.push((
                hop,
                format!("{link_key} + network.switch_latency_cycles{head_key} = {hop} (a flit on a link and through a switch)"),
            ));
        }
        let credit = credit as u64;
        if credit >= limit {
            waits.push((
                credit,
                format!("{credit_key} = {credit} (a credit on its way)"),
            ));
        }
        if let Some(most) = waits.iter().map(|w| w.0).max() {
            let verb = if waits.len() > 1 { "are" } else { "is" };
            let what: Vec<String> = waits.into_iter().map(|w| w.1).collect();
            errs.push(bad(
                "deadlock_cycles",
                got,
                format!(
                    "must be 0 (off) or above {most}: {} {verb} at or above network.deadlock_cycles, and the deadlock watchdog would stop a network that is only waiting (or lower the latency)",
                    what.join(" and ")
                ),
            ));
        }
    }

    /// `stall_cycles` against a packet's shortest way (`p` flits the largest packet): the
    /// class watchdog counts from the cycle a class's first packet starts until one of its
    /// packets is delivered whole, which takes a NIC's link, a switch (and its head's
    /// routing with lanes) and a NIC's link for the head, and `p` cycles more for the
    /// packet's flits, one a cycle, to arrive and drain, or (`eject_rate` below 1) as long
    /// as the receiving NIC takes to drain them.
    fn stall_errors(&self, p: u32, head: Option<u32>, head_key: &str, errs: &mut Vec<FieldError>) {
        let first = 2 * self.link_latency_cycles as u64
            + self.switch_latency_cycles as u64
            + head.unwrap_or(0) as u64;
        // a NIC draining below a flit a cycle (`eject_rate`, in 1/65536 flit a cycle as
        // the NIC's accumulator earns it; one flit banked) drains the packet's first flit
        // at once and each later one ONE / rate cycles apart
        let one = u64::from(super::super::network::ONE);
        // (a rate out of its range is judged by itself, not here)
        let rate = if (super::super::faults::MIN_EJECT_RATE..=1.0).contains(&self.eject_rate) {
            u64::from(self.eject_units())
        } else {
            one
        };
        let drain = (p as u64).max((p as u64).saturating_sub(1) * one / rate);
        let way = first + drain;
        if (1..=way).contains(&self.stall_cycles) {
            let flits = if rate == one {
                format!("{p} more for its {p} flits (network.mtu_bytes / network.flit_bytes, one a cycle) to arrive and drain")
            } else {
                format!("{drain} more for its {p} flits (network.mtu_bytes / network.flit_bytes) to drain at network.eject_rate = {} flits a cycle, one at once and each later one {} cycles after the last", self.eject_rate, one as f64 / rate as f64)
            };
            errs.push(bad(
                "stall_cycles",
                shown(self.stall_cycles, NetConfig::default().stall_cycles),
                format!("must be 0 (off) or above {way}: a packet's shortest way, NIC to switch to NIC, takes 2 x network.link_latency_cycles + network.switch_latency_cycles{head_key} = {first} cycles for its head and {flits}, {way} in all, and the class watchdog would stop a class whose packets are only on their way"),
            ));
        }
    }

    /// With lanes, the per-lane watchdog's shortest limit: a packet of `p` flits through a
    /// lane of `vc_buf_flits` = b flits sends b flits per round trip `trip` (a flit over
    /// the longest link and through a switch, its credit back over the longest credit
    /// channel): given the lane with all b credits, it holds it for ceil(p / b) - 1 round
    /// trips and its last flits, one a cycle (at least its p flits, one a cycle), and the
    /// lane is free again one round trip after its tail (the lane behind drained under
    /// `lane_reuse = "empty"`, a credit back under `"tail"`, where the packet may also have
    /// waited one round trip for the lane's first credit). A head waiting for that lane
    /// sends nothing as long. The error when `deadlock_cycles` is not above it. This covers
    /// a head behind one packet: a head behind several in turn, or behind a packet that
    /// itself waits downstream (congestion on slow links), waits longer, and a run that has
    /// them needs a longer limit still (docs/network.md §6).
    fn lane_wait(&self, p: u32, trip: u64, keys: &str, got: &str) -> Option<FieldError> {
        self.vcs?;
        let b = self
            .vc_buf_flits
            .unwrap_or(super::super::lanes::DEFAULT_VC_BUF);
        if !(1..=0xFFFF).contains(&b) {
            return None; // judged by its own range
        }
        let trips = (p.div_ceil(b) - 1) as u64;
        let last = p as u64 - trips * b as u64;
        let hold = (trips * trip + last).max(p as u64);
        let (before, why) = match self.lane_reuse() {
            LaneReuse::Tail => (1, "lane_reuse = \"tail\": up to one round trip for the lane's first credit before it, and one after its tail for the next credit"),
            LaneReuse::Empty => (0, "lane_reuse = \"empty\": one round trip after its tail for the lane behind to drain and its credits to return"),
        };
        let wait = hold + (before + 1) * trip;
        if self.deadlock_cycles > wait {
            return None;
        }
        let b_default = if self.vc_buf_flits.is_none() {
            " (the default)"
        } else {
            ""
        };
        let held = if hold > trips * trip + last {
            format!("its {p} flits, one a cycle, = {hold} cycles")
        } else {
            format!("ceil({p} / {b}) - 1 = {trips} round trips and its last {last} flits, one a cycle, = {hold} cycles")
        };
        Some(bad(
            "deadlock_cycles",
            got,
            format!("must be 0 (off) or above {wait}: a packet of {p} flits (network.mtu_bytes / network.flit_bytes) crosses a lane of network.vc_buf_flits = {b}{b_default} flits at {b} flits a round trip of {keys} cycles (a flit out over the longest link, its credit back), so it holds the lane for {held}, and a head waiting for that lane sends nothing as long and {} more ({why}): {hold} + {} x {trip} = {wait} cycles, and the per-lane watchdog would stop a network that is only slow (raise network.deadlock_cycles or network.vc_buf_flits, or lower the latencies)",
                if before == 1 { "two round trips" } else { "one round trip" },
                before + 1,
            ),
        ))
    }
}
