//! Congestion control as plug-ins of one shape. Each scheme is a folder here: its
//! configuration and validation, its NIC part, its switch part if it has one, its
//! statistics, and a docs page; its state implements the network's seams
//! ([`crate::net::Scheme`]). [`Plugin`] is what a folder gives the registry.
//!
//! The registry at the bottom of this file is the only place that lists schemes. From it
//! come [`CcConfig`] (the `kind` of a `[[cc]]` entry and its keys), [`Cc`] (the state of a
//! network's scheme, which implements `Scheme` by a `match`: static dispatch), [`KINDS`]
//! (what errors list and `net-bench --cc` takes) and the report labels. Adding a scheme is
//! a new folder plus one registry line; the conformance suite (`sim/tests/cc_conformance.rs`)
//! then runs on it. docs/network.md, "Writing a congestion-control scheme", walks through
//! IB CC as the example.

pub mod ibcc;
pub mod none;
pub mod pft;

pub use ibcc::IbccConfig;

use crate::error::FieldError;
use crate::net::scheme::{
    Arrival, Control, Departure, GateIn, GateOut, GateState, Global, InputAt, OutputAt, Scheme,
    Seams,
};
use crate::net::{BuildCtx, NetConfig, NetError, NodeId};
use pft::{EngineKind, PftConfig};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;
use std::fmt::Debug;

/// The network running any registered scheme: what scenarios, tests and tools use.
pub type Network = crate::net::Network<Cc>;

/// Options of a run that a scheme may use when it is built.
#[derive(Clone, Copy, Debug, Default)]
pub struct RunOpts<'a> {
    /// The PFT block's implementation (PFT only).
    pub engine: EngineKind,
    /// The scheme acts only at the NICs flagged here (one flag per NIC; None: all). PFT
    /// keeps the others' blocks as credit counters with CTRL.enable = 0.
    pub on: Option<&'a [bool]>,
}

/// What a scheme's folder gives the registry.
pub trait Plugin {
    /// The `kind` of its `[[cc]]` entries and its name in `net-bench --cc`.
    const KIND: &'static str;
    /// One line for help texts.
    const ABOUT: &'static str;
    /// Its keys (serde: missing keys take the defaults, unknown keys are refused).
    type Config: Clone + Debug + Default + PartialEq + Serialize + DeserializeOwned;
    /// Its state in a network.
    type State: Scheme;
    /// A key and an out-of-range TOML value of it, if the scheme has keys with ranges: the
    /// conformance suite checks that a `[[cc]]` entry with it is refused, naming the key
    /// and its range.
    const OUT_OF_RANGE: Option<(&'static str, &'static str)> = None;
    /// Check `cfg`; push every error (keys named `prefix.key`, with their ranges).
    fn validate(cfg: &Self::Config, prefix: &str, errs: &mut Vec<FieldError>);
    /// Its state for the network that `ctx` describes.
    fn build(cfg: &Self::Config, ctx: &BuildCtx, opts: &RunOpts) -> Result<Self::State, NetError>;
    /// The label reports print for `cfg` (`off`, `AT-RI m=18 ...`, `IBCC w=15 ...`).
    fn label(cfg: &Self::Config) -> String;
    /// The configuration the conformance suite runs: one under which the scheme acts in
    /// the suite's small network (20 NICs, 1,024-flit buffers, an incast). Default: the
    /// defaults.
    fn example() -> Self::Config {
        Self::Config::default()
    }
    /// False when `cfg` does nothing (a `pft` entry with `enable = false`).
    fn active(cfg: &Self::Config) -> bool {
        let _ = cfg;
        true
    }
}

/// Makes the registry from one line per scheme: `Variant("kind") => folder::Plugin`.
macro_rules! registry {
    ($($(#[$doc:meta])* $var:ident($kind:literal) => $p:ty),* $(,)?) => {
        /// The congestion control of one run (every NIC and switch runs the same scheme), as
        /// a `[[cc]]` entry gives it: `kind` and the scheme's keys.
        #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
        #[serde(tag = "kind")]
        pub enum CcConfig {
            $($(#[$doc])* #[serde(rename = $kind)] $var(<$p as Plugin>::Config),)*
        }

        /// The state of a network's scheme: one variant per registered scheme. One value per
        /// network, so variant sizes do not matter; boxing would add an indirection to
        /// every hook.
        #[allow(clippy::large_enum_variant)]
        pub enum Cc {
            $($var(<$p as Plugin>::State),)*
        }

        /// Every registered scheme's `kind`, in registry order.
        pub const KINDS: &[&str] = &[$($kind),*];
        /// Every registered scheme's `kind` and help line.
        pub const ABOUT: &[(&str, &str)] = &[$(($kind, <$p as Plugin>::ABOUT)),*];
        /// Every registered scheme's `kind` and its out-of-range example
        /// (`Plugin::OUT_OF_RANGE`).
        pub const OUT_OF_RANGE: &[(&str, Option<(&str, &str)>)] =
            &[$(($kind, <$p as Plugin>::OUT_OF_RANGE)),*];

        impl CcConfig {
            /// The scheme's `kind`.
            pub fn kind(&self) -> &'static str {
                match self { $(CcConfig::$var(_) => $kind,)* }
            }
            /// The scheme `kind` with its defaults (None: no such scheme).
            pub fn default_of(kind: &str) -> Option<CcConfig> {
                match kind {
                    $($kind => Some(CcConfig::$var(Default::default())),)*
                    _ => None,
                }
            }
            /// The scheme `kind`'s conformance-suite configuration (`Plugin::example`).
            pub fn example_of(kind: &str) -> Option<CcConfig> {
                match kind {
                    $($kind => Some(CcConfig::$var(<$p>::example())),)*
                    _ => None,
                }
            }
            /// Every error of the scheme's keys (named `prefix.key`).
            pub fn errors(&self, prefix: &str) -> Vec<FieldError> {
                let mut errs = Vec::new();
                match self { $(CcConfig::$var(c) => <$p>::validate(c, prefix, &mut errs),)* }
                errs
            }
            /// The label reports print.
            pub fn label(&self) -> String {
                match self { $(CcConfig::$var(c) => <$p>::label(c),)* }
            }
            /// True when the scheme acts.
            pub fn active(&self) -> bool {
                match self { $(CcConfig::$var(c) => <$p>::active(c),)* }
            }
            /// The scheme's state for a network being built.
            pub fn build(&self, ctx: &BuildCtx, opts: &RunOpts) -> Result<Cc, NetError> {
                Ok(match self { $(CcConfig::$var(c) => Cc::$var(<$p>::build(c, ctx, opts)?),)* })
            }
        }

        impl Scheme for Cc {
            const MARKS: bool = false $(|| <<$p as Plugin>::State as Scheme>::MARKS)*;
            const WANTS_GLOBAL: bool = false $(|| <<$p as Plugin>::State as Scheme>::WANTS_GLOBAL)*;
            const FLOWS: bool = false $(|| <<$p as Plugin>::State as Scheme>::FLOWS)*;

            fn seams(&self) -> Seams {
                match self { $(Cc::$var(s) => s.seams(),)* }
            }
            #[inline(always)]
            fn gate(&mut self, n: u32, now: u64, i: &GateIn) -> GateOut {
                match self { $(Cc::$var(s) => s.gate(n, now, i),)* }
            }
            #[inline]
            fn used_credits(&self, n: u32) -> u16 {
                match self { $(Cc::$var(s) => s.used_credits(n),)* }
            }
            #[inline]
            fn gate_congested(&self, n: u32) -> bool {
                match self { $(Cc::$var(s) => s.gate_congested(n),)* }
            }
            fn gate_error(&self, n: u32) -> Option<String> {
                match self { $(Cc::$var(s) => s.gate_error(n),)* }
            }
            fn gate_state(&self, n: u32) -> GateState {
                match self { $(Cc::$var(s) => s.gate_state(n),)* }
            }
            fn gate_name(&self) -> &'static str {
                match self { $(Cc::$var(s) => s.gate_name(),)* }
            }
            fn csr_writes(&self, regs: &toml::Table) -> Vec<(u8, u32)> {
                match self { $(Cc::$var(s) => s.csr_writes(regs),)* }
            }
            #[inline]
            fn nic_tick(&mut self, n: u32, now: u64) {
                match self { $(Cc::$var(s) => s.nic_tick(n, now),)* }
            }
            #[inline]
            fn may_start(&mut self, n: u32, now: u64, queued: &VecDeque<u32>) -> bool {
                match self { $(Cc::$var(s) => s.may_start(n, now, queued),)* }
            }
            #[inline]
            fn eligible(&self, n: u32, dst: u32, now: u64) -> bool {
                match self { $(Cc::$var(s) => s.eligible(n, dst, now),)* }
            }
            #[inline]
            fn queue_opened(&mut self, n: u32) {
                match self { $(Cc::$var(s) => s.queue_opened(n),)* }
            }
            #[inline]
            fn packet_started(&mut self, n: u32, dst: u32, flits: u32, now: u64) {
                match self { $(Cc::$var(s) => s.packet_started(n, dst, flits, now),)* }
            }
            #[inline]
            fn nic_congested(&self, n: u32) -> bool {
                match self { $(Cc::$var(s) => s.nic_congested(n),)* }
            }
            #[inline]
            fn take_control(&mut self, n: u32) -> Option<Control> {
                match self { $(Cc::$var(s) => s.take_control(n),)* }
            }
            #[inline]
            fn control_waiting(&self, n: u32) -> bool {
                match self { $(Cc::$var(s) => s.control_waiting(n),)* }
            }
            fn controls_pending(&self) -> usize {
                match self { $(Cc::$var(s) => s.controls_pending(),)* }
            }
            #[inline]
            fn arrived(&mut self, at: u32, a: &Arrival) {
                match self { $(Cc::$var(s) => s.arrived(at, a),)* }
            }
            #[inline]
            fn head_arrived(&mut self, i: &InputAt) -> u8 {
                match self { $(Cc::$var(s) => s.head_arrived(i),)* }
            }
            #[inline]
            fn queued(&mut self, o: &OutputAt) {
                match self { $(Cc::$var(s) => s.queued(o),)* }
            }
            #[inline]
            fn departs(&mut self, o: &OutputAt, d: &Departure) -> u8 {
                match self { $(Cc::$var(s) => s.departs(o, d),)* }
            }
            #[inline]
            fn switch_done(&mut self, sw: u32, free: impl Fn(u32) -> u32) {
                match self { $(Cc::$var(s) => s.switch_done(sw, free),)* }
            }
            fn queued_for(&self, gp: usize) -> Option<u32> {
                match self { $(Cc::$var(s) => s.queued_for(gp),)* }
            }
            #[inline]
            fn cycle(&mut self, now: u64, g: &Global) {
                match self { $(Cc::$var(s) => s.cycle(now, g),)* }
            }
            fn nic_counters(&self, n: u32) -> Vec<(&'static str, u64)> {
                match self { $(Cc::$var(s) => s.nic_counters(n),)* }
            }
            fn counters(&self) -> Vec<(&'static str, u64)> {
                match self { $(Cc::$var(s) => s.counters(),)* }
            }
        }
    };
}

// ------------------------------------------------------------------------------ registry
registry! {
    /// No congestion control: NICs send whenever a flit has a credit.
    None("none") => none::NoCc,
    /// PFT at every NIC with these registers.
    Pft("pft") => pft::Pft,
    /// InfiniBand congestion control (FECN/BECN, CCT), seed 002.
    Ibcc("ibcc") => ibcc::Ibcc,
}
// ----------------------------------------------------------------------------------------

impl CcConfig {
    /// No congestion control.
    pub fn none() -> CcConfig {
        CcConfig::None(Default::default())
    }

    /// The registers of every NIC's PFT block: these for `pft`, disabled otherwise.
    pub fn pft(&self) -> PftConfig {
        match self {
            CcConfig::Pft(p) => *p,
            _ => PftConfig::disabled(),
        }
    }

    /// The IB CC parameters, for `ibcc`.
    pub fn ibcc(&self) -> Option<&IbccConfig> {
        match self {
            CcConfig::Ibcc(c) => Some(c),
            _ => None,
        }
    }

    /// Check the parameters; the first error (see `errors` for all of them).
    pub fn validate(&self, prefix: &str) -> Result<(), FieldError> {
        match self.errors(prefix).into_iter().next() {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }
}

impl From<PftConfig> for CcConfig {
    fn from(p: PftConfig) -> Self {
        CcConfig::Pft(p)
    }
}

impl Network {
    /// Build a network at cycle 0 with PFT at every NIC: empty channels and buffers, every
    /// PFT block reset and configured (CREDIT_LIMIT = `buffer_flits`, SEED derived from
    /// `seed` per NIC). `with_cc` builds any congestion control.
    pub fn new(
        cfg: &NetConfig,
        pft: &PftConfig,
        engine: EngineKind,
        seed: u64,
    ) -> Result<Network, NetError> {
        Network::with_cc(cfg, &CcConfig::Pft(*pft), engine, seed)
    }

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
        // A register rewrite's table is PFT's to check (the core only carries it).
        for (i, f) in cfg.faults.iter().enumerate() {
            if let crate::net::FaultSpec::RegRewrite { regs, .. } = f {
                PftConfig::check_rewrite(regs, &format!("faults[{i}].pft"))?;
            }
        }
        let opts = RunOpts { engine, on };
        crate::net::Network::build(cfg, seed, |ctx| cc.build(ctx, &opts))
    }

    /// The PFT blocks' state, for a PFT network.
    pub fn pft_state(&self) -> Option<&pft::PftState> {
        match self.scheme() {
            Cc::Pft(p) => Some(p),
            _ => None,
        }
    }

    /// The engine the PFT blocks run in (`model` for a network without PFT).
    pub fn engine_kind(&self) -> EngineKind {
        self.pft_state()
            .map_or(EngineKind::Model, |p| p.engine_kind())
    }

    /// The outputs of NIC `n`'s injection gate in the last simulated cycle, as the PFT
    /// block's output port (`csr_rdata` reads 0: the network never reads the CSR port).
    pub fn pft_outputs(&self, n: NodeId) -> pft_hdl::model::Outputs {
        pft::outputs(self.gate_outputs(n))
    }

    /// The registered state of NIC `n`'s PFT block now (None without PFT).
    pub fn pft_probe(&self, n: NodeId) -> Option<pft_hdl::stepper::Probe> {
        self.pft_state().map(|p| p.block(n.0).probe())
    }

    /// IB CC: the CCTI of flow `src -> dst` now (None without IB CC).
    pub fn ccti(&self, src: NodeId, dst: NodeId) -> Option<u16> {
        match self.scheme() {
            Cc::Ibcc(ib) => Some(ib.ccti(src.0, dst.0)),
            _ => None,
        }
    }

    /// IB CC: packets marked with FECN so far, all switches (0 without IB CC).
    pub fn fecn_marked(&self) -> u64 {
        match self.scheme() {
            Cc::Ibcc(ib) => ib.fecn_marked(),
            _ => 0,
        }
    }

    /// IB CC: NIC `n`'s counters (FECNs received, CNPs sent, BECNs received; zero without
    /// IB CC).
    pub fn ibcc_stats(&self, n: NodeId) -> ibcc::IbccNicStats {
        match self.scheme() {
            Cc::Ibcc(ib) => ib.nics.stats[n.index()],
            _ => Default::default(),
        }
    }

    /// IB CC: every NIC's counters summed.
    pub fn ibcc_total_stats(&self) -> ibcc::IbccNicStats {
        let mut t = ibcc::IbccNicStats::default();
        for n in NodeId::all(self.nodes()) {
            let s = self.ibcc_stats(n);
            t.fecn_received += s.fecn_received;
            t.cnps_sent += s.cnps_sent;
            t.becns_received += s.becns_received;
            t.ccti_decrements += s.ccti_decrements;
        }
        t
    }

    /// The scheme's per-NIC counters of NIC `n` (names fixed per scheme).
    pub fn scheme_counters(&self, n: NodeId) -> Vec<(&'static str, u64)> {
        self.scheme().nic_counters(n.0)
    }
}
