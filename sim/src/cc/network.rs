//! [`Network`]: the network of one run with any registered scheme. Each variant is a
//! `net::Network` monomorphic in its scheme's state; this file builds it and forwards the
//! core's API with one `match` per call, so a cycle's hooks are direct calls.

use super::{CcConfig, EngineKind, Network, RunOpts};
use crate::error::FieldError;
use crate::net::scheme::Scheme;
use crate::net::{
    Delivery, EvalOrder, GateOut, NetConfig, NetError, NicStats, NodeId, Topology, Workload,
};

impl Network {
    /// Build a network at cycle 0 running congestion control `cc` (any registered scheme).
    pub fn with_cc(
        cfg: &NetConfig,
        cc: &CcConfig,
        engine: EngineKind,
        seed: u64,
    ) -> Result<Network, NetError> {
        Network::with_cc_on(cfg, cc, engine, seed, None)
    }

    /// `with_cc`, with the scheme acting only at the NICs `on` marks (one flag per NIC, in
    /// NIC order; `None`: every NIC). For PFT a NIC left out keeps its block as its credit
    /// counter with CTRL.enable = 0, so it never throttles ("PFT on the congestors only").
    pub fn with_cc_on(
        cfg: &NetConfig,
        cc: &CcConfig,
        engine: EngineKind,
        seed: u64,
        on: Option<&[bool]>,
    ) -> Result<Network, NetError> {
        cfg.validate()?;
        if let Some(on) = on {
            let nodes = cfg.topology.nodes() as usize;
            if on.len() != nodes {
                return Err(NetError::Config(FieldError::new(
                    "pft_on",
                    format!("{} flags", on.len()),
                    format!("must have one flag per NIC ({nodes})"),
                )));
            }
        }
        cc.validate("cc")?;
        // the parts of the network's configuration a scheme owns (the core only carries
        // them), whichever scheme runs
        super::check_owned(cfg)?;
        cc.network(cfg, seed, &RunOpts { engine, on })
    }

    /// The scheme's per-NIC counters of NIC `n` (names fixed per scheme).
    pub fn scheme_counters(&self, n: NodeId) -> Vec<(&'static str, u64)> {
        each_net!(self, net => net.scheme().nic_counters(n.0))
    }

    /// The scheme's network-wide counters (names fixed per scheme).
    pub fn scheme_totals(&self) -> Vec<(&'static str, u64)> {
        each_net!(self, n => n.scheme().counters())
    }

    /// The scheme's network-wide counters and its per-NIC counters summed over the NICs.
    pub fn counter_map(&self) -> std::collections::BTreeMap<String, u64> {
        let mut m: std::collections::BTreeMap<String, u64> = self
            .scheme_totals()
            .into_iter()
            .map(|(k, v)| (k.to_string(), v))
            .collect();
        for n in NodeId::all(self.nodes()) {
            for (k, v) in self.scheme_counters(n) {
                *m.entry(k.to_string()).or_default() += v;
            }
        }
        m
    }

    /// A packet that arrived with scheme bits `bits` counts as marked (`Scheme::marked`).
    pub fn marked(&self, bits: u8) -> bool {
        each_net!(self, n => n.scheme().marked(bits))
    }

    /// The scheme's probes now: named values of its state (names fixed per scheme).
    pub fn scheme_probes(&self) -> Vec<(&'static str, f64)> {
        each_net!(self, n => n.scheme().probes())
    }

    // ------------------------------------------------ the core's API (`net::Network`)

    /// Simulate one cycle (`net::Network::step`).
    pub fn step(&mut self, workload: &mut dyn Workload) -> Result<(), NetError> {
        each_net!(self, n => n.step(workload))
    }

    /// `step` `cycles` times, with the same results; where the network allows it, in blocks of
    /// cycles (the NICs through a block, then the switches), so the network is
    /// whole only at the end of the call.
    pub fn run(&mut self, workload: &mut dyn Workload, cycles: u64) -> Result<(), NetError> {
        each_net!(self, n => n.run(workload, cycles))
    }

    /// Step until idle (true) or `max_cycles` have passed (false).
    pub fn run_until_idle(
        &mut self,
        workload: &mut dyn Workload,
        max_cycles: u64,
    ) -> Result<bool, NetError> {
        each_net!(self, n => n.run_until_idle(workload, max_cycles))
    }

    /// Run the invariant checker now (`net::Network::check`).
    pub fn check(&self) -> Result<(), NetError> {
        each_net!(self, n => n.check())
    }

    /// `net::Network::set_stream_share`.
    pub fn set_stream_share(&mut self, nic: NodeId, tag: u32, share: f64) {
        each_net!(self, n => n.set_stream_share(nic, tag, share))
    }

    /// `net::Network::class_progress`.
    pub fn class_progress(&self) -> Vec<(u32, u64, u64)> {
        each_net!(self, n => n.class_progress())
    }

    /// The current cycle.
    pub fn now(&self) -> u64 {
        each_net!(self, n => n.now())
    }

    /// Number of NICs.
    pub fn nodes(&self) -> u32 {
        each_net!(self, n => n.nodes())
    }

    /// The network's configuration.
    pub fn config(&self) -> &NetConfig {
        each_net!(self, n => n.config())
    }

    /// The topology (paths, switch names).
    pub fn topology(&self) -> &Topology {
        each_net!(self, n => n.topology())
    }

    /// The run seed.
    pub fn seed(&self) -> u64 {
        each_net!(self, n => n.seed())
    }

    /// Counters of NIC `nic`.
    pub fn nic_stats(&self, nic: NodeId) -> NicStats {
        each_net!(self, n => n.nic_stats(nic))
    }

    /// All NICs' counters summed.
    pub fn total_stats(&self) -> NicStats {
        each_net!(self, n => n.total_stats())
    }

    /// Data packets NIC `src` has sent to `dst` whose ACK has not arrived
    /// (`net::Network::outstanding`; 0 without `ack_bytes`).
    pub fn outstanding(&self, src: NodeId, dst: NodeId) -> u32 {
        each_net!(self, n => n.outstanding(src.0, dst.0))
    }

    /// NIC `nic`'s used credits `c` now.
    pub fn used_credits(&self, nic: NodeId) -> u16 {
        each_net!(self, n => n.used_credits(nic))
    }

    /// NIC `nic` is congested now (`net::Network::congested`).
    pub fn congested(&self, nic: NodeId) -> bool {
        each_net!(self, n => n.congested(nic))
    }

    /// The outputs of NIC `nic`'s injection gate in the last simulated cycle.
    pub fn gate_outputs(&self, nic: NodeId) -> GateOut {
        each_net!(self, n => n.gate_outputs(nic))
    }

    /// Messages delivered in the last simulated cycle, by message id.
    pub fn last_deliveries(&self) -> &[Delivery] {
        each_net!(self, n => n.last_deliveries())
    }

    /// Flits injected and not yet ejected.
    pub fn flits_in_network(&self) -> u64 {
        each_net!(self, n => n.flits_in_network())
    }

    /// Data flits delivered to NICs since cycle 0 (`net::Network::flits_delivered`).
    pub fn flits_delivered(&self) -> u64 {
        each_net!(self, n => n.flits_delivered())
    }

    /// Why phase 2 runs on one thread whatever `[network] threads` says, if it does
    /// (`net::Network::single_thread_reason`).
    pub fn single_thread_reason(&self) -> Option<String> {
        each_net!(self, n => n.single_thread_reason())
    }

    /// Full switch-to-switch input buffers now (`net::Network::full_switch_inputs`).
    pub fn full_switch_inputs(&self) -> u64 {
        each_net!(self, n => n.full_switch_inputs())
    }

    /// Packets that took Disha's recovery path since cycle 0 (`routing = "disha"`; 0
    /// otherwise).
    pub fn disha_recoveries(&self) -> u64 {
        each_net!(self, n => n.disha_recoveries())
    }

    /// The lanes' `series.csv` columns now (`net::Network::lane_probes`).
    pub fn lane_probes(&self) -> Vec<(&'static str, f64)> {
        each_net!(self, n => n.lane_probes())
    }

    /// The lanes' whole-run counters (`net::Network::lane_counters`).
    pub fn lane_counters(&self) -> Vec<(&'static str, u64)> {
        each_net!(self, n => n.lane_counters())
    }

    /// Messages accepted and not yet delivered.
    pub fn messages_pending(&self) -> u64 {
        each_net!(self, n => n.messages_pending())
    }

    /// Nothing queued at a NIC, nothing in flight.
    pub fn is_idle(&self) -> bool {
        each_net!(self, n => n.is_idle())
    }

    /// Flits in the input buffer of port `port` of switch `switch` now.
    pub fn switch_input_flits(&self, switch: u32, port: u32) -> u32 {
        each_net!(self, n => n.switch_input_flits(switch, port))
    }

    /// Flits in NIC `nic`'s receive buffer now.
    pub fn nic_receive_flits(&self, nic: NodeId) -> u32 {
        each_net!(self, n => n.nic_receive_flits(nic))
    }

    /// Choose the phase-2 evaluation order (results do not depend on it).
    pub fn set_eval_order(&mut self, order: EvalOrder) {
        each_net!(self, n => n.set_eval_order(order))
    }

    /// The lane router scans on `u128` lane masks at every switch (results do not depend
    /// on it).
    #[doc(hidden)]
    pub fn set_wide_lane_masks(&mut self, wide: bool) {
        each_net!(self, n => n.set_wide_lane_masks(wide))
    }

    /// The lane router's switch allocator grants a lone ready lane through its search
    /// (results do not depend on it).
    #[doc(hidden)]
    pub fn set_lane_sa_search(&mut self, search: bool) {
        each_net!(self, n => n.set_lane_sa_search(search))
    }

    /// The lane router finds the lanes that can move a flit from their records rather than
    /// from its has-flit masks (results do not depend on it).
    #[doc(hidden)]
    pub fn set_lane_ready_scan(&mut self, scan: bool) {
        each_net!(self, n => n.set_lane_ready_scan(scan))
    }

    /// Prefetching of switch records forced on or off (by default on only for networks
    /// whose switch records outgrow 4 MiB; results do not depend on it).
    #[doc(hidden)]
    pub fn set_prefetch(&mut self, on: bool) {
        each_net!(self, n => n.set_prefetch(on))
    }

    /// Cycles `run` has evaluated in blocks so far (`net::Network::blocked_cycles`).
    #[doc(hidden)]
    pub fn blocked_cycles(&self) -> u64 {
        each_net!(self, n => n.blocked_cycles())
    }

    /// The chunks of switches (`net::Network::switch_chunks`).
    #[doc(hidden)]
    pub fn switch_chunks(&self) -> u32 {
        each_net!(self, n => n.switch_chunks())
    }

    /// Whether the run prefetches switch records (`set_prefetch`).
    #[doc(hidden)]
    pub fn prefetches(&self) -> bool {
        each_net!(self, n => n.prefetches())
    }

    /// The lane router's wait lists on (the default) or off (results do not depend on it).
    #[doc(hidden)]
    pub fn set_lane_wait_lists(&mut self, on: bool) {
        each_net!(self, n => n.set_lane_wait_lists(on))
    }

    /// Cycles NIC `nic` skipped since it last ran (`net::Network::idle_slots`).
    pub fn idle_slots(&self, nic: NodeId) -> u64 {
        each_net!(self, n => n.idle_slots(nic))
    }

    /// `net::Network::set_idle_skip`: idle NICs skip their quiet cycles (default) or not.
    #[doc(hidden)]
    pub fn set_idle_skip(&mut self, on: bool) {
        each_net!(self, n => n.set_idle_skip(on))
    }

    /// `net::Network::set_plain`: the plain copies of the NIC's and switch's cycle may
    /// run (default) or not.
    #[doc(hidden)]
    pub fn set_plain(&mut self, on: bool) {
        each_net!(self, n => n.set_plain(on))
    }

    /// `net::Network::plain_cycles`: cycles that took the plain copies.
    #[doc(hidden)]
    pub fn plain_cycles(&self) -> u64 {
        each_net!(self, n => n.plain_cycles())
    }

    /// Heads of the lane router now waiting for a lane to free.
    #[doc(hidden)]
    pub fn lane_heads_waiting(&self) -> u32 {
        each_net!(self, n => n.lane_heads_waiting())
    }
}
