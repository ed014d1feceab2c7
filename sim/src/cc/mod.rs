//! Congestion control as plug-ins of one shape. Each scheme is a folder here: its
//! configuration and validation, its NIC part, its switch part if it has one, its
//! statistics, and a docs page; its state implements the network's seams
//! ([`crate::net::Scheme`]). [`Plugin`] is what a folder gives the registry.
//!
//! The registry at the bottom of this file is the only place that lists schemes. From it
//! come [`CcConfig`] (the `kind` of a `[[cc]]` entry and its keys), [`Network`] (one variant
//! per scheme, each a `net::Network` monomorphic in the scheme's state: every hook is a
//! direct call, and the variant is matched once per `step`), [`KINDS`]
//! (what errors list and `net-bench --cc` takes) and the report labels. Adding a scheme is
//! a new folder plus one registry line; the conformance suite (`sim/tests/cc_conformance.rs`)
//! then runs on it. docs/network.md, "Writing a congestion-control scheme", walks through
//! IB CC as the example.

/// The injection-gate hooks (`gate`, `used_credits`, `gate_idle`, `gate_blocked`,
/// `gate_error`) of a scheme whose gate is the plain credit check `net::CreditGate`, held
/// in the field `$g` of its state.
macro_rules! credit_gate_hooks {
    ($g:tt) => {
        credit_gate_hooks!(@slots $g);
        fn gate_error(&self, n: u32) -> Option<String> {
            self.$g.error(n)
        }
    };
    // The same, with `gate_error` falling back to the first error a flow of the NIC
    // reported (`$e[n]: Option<String>`).
    ($g:tt, $e:tt) => {
        credit_gate_hooks!(@slots $g);
        fn gate_error(&self, n: u32) -> Option<String> {
            self.$g.error(n).or_else(|| self.$e[n as usize].clone())
        }
    };
    (@slots $g:tt) => {
        #[inline]
        fn gate(
            &mut self,
            n: u32,
            _now: u64,
            i: &crate::net::scheme::GateIn,
        ) -> crate::net::scheme::GateOut {
            self.$g.step(n, i)
        }
        #[inline]
        fn used_credits(&self, n: u32) -> u16 {
            self.$g.used(n)
        }
        /// A quiet slot leaves the credit counter as it is.
        #[inline]
        fn gate_idle(&self, _n: u32) -> bool {
            true
        }
        /// With every credit in use, a slot that offers a flit sends nothing and leaves
        /// the counter as it is.
        #[inline]
        fn gate_blocked(&self, n: u32) -> bool {
            self.$g.full(n)
        }
    };
}

pub mod alo;
pub mod dcqcn;
pub mod export;
pub mod ibcc;
pub mod mvcm;
pub mod none;
pub mod pft;
pub mod renato;
pub mod round_trip;
pub mod selftuned;

pub use ibcc::IbccConfig;

use crate::error::FieldError;
use crate::net::scheme::Scheme;
use crate::net::{BuildCtx, NetConfig, NetError};
use pft::{EngineKind, PftConfig};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::fmt::Debug;

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
    /// The y axis of `cc_probes.svg` (the scheme's probes against time, `Scheme::probes`).
    const PROBES_AXIS: &'static str = "value";
    /// Probes `series.csv` has but `cc_probes.svg` leaves out (a flag on a scale of
    /// hundreds would be a flat line at 0).
    const PROBES_NOT_PLOTTED: &'static [&'static str] = &[];
    /// Check `cfg`; push every error (keys named `prefix.key`, with their ranges).
    fn validate(cfg: &Self::Config, prefix: &str, errs: &mut Vec<FieldError>);
    /// Check `cfg` against a valid network `net` (what depends on its topology or lanes);
    /// push every error, keys named `prefix.key`. `build` refuses the same. Default: none.
    fn validate_network(
        cfg: &Self::Config,
        net: &NetConfig,
        prefix: &str,
        errs: &mut Vec<FieldError>,
    ) {
        let _ = (cfg, net, prefix, errs);
    }
    /// Check the parts of the network's own configuration that this scheme owns, whichever
    /// scheme runs (PFT: the register tables of `pft_rewrite` faults). Default: none.
    fn check_owned(net: &NetConfig) -> Result<(), FieldError> {
        let _ = net;
        Ok(())
    }
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
    /// The network the conformance suite runs the scheme on, from the suite's own (a
    /// small fat tree of today's switches): a scheme that needs more (output queues, ACKs)
    /// turns it on here. Default: the suite's network.
    fn example_net(net: NetConfig) -> NetConfig {
        net
    }
    /// The values the scheme derives from the valid network `net` for the keys `cfg`
    /// leaves out, each under its key, as a run on `net` uses them (`summary.json`'s
    /// `cc_derived`); a key the entry sets is not listed. Called only when `cfg` is valid
    /// on `net`. Default: none.
    fn derived(cfg: &Self::Config, net: &NetConfig) -> Vec<(&'static str, u64)> {
        let _ = (cfg, net);
        Vec::new()
    }
    /// False when `cfg` does nothing (a `pft` entry with `enable = false`).
    fn active(cfg: &Self::Config) -> bool {
        let _ = cfg;
        true
    }
}

/// `Plugin::derived`'s list from `(key, the entry's value, the value derived from the
/// network)`: the keys the entry leaves out, with their derived values.
pub(crate) fn left_out<const N: usize>(
    keys: [(&'static str, Option<u64>, u64); N],
) -> Vec<(&'static str, u64)> {
    keys.into_iter()
        .filter(|(_, own, _)| own.is_none())
        .map(|(k, _, v)| (k, v))
        .collect()
}

/// Makes the registry from one line per scheme: `Variant("kind") => folder::Plugin`.
/// (`$d` is a `$` passed in, so that the macro can define `each_net!`, which needs its own
/// metavariables.)
macro_rules! registry {
    ($d:tt $($(#[$doc:meta])* $var:ident($kind:literal) => $p:ty),* $(,)?) => {
        /// The congestion control of one run (every NIC and switch runs the same scheme), as
        /// a `[[cc]]` entry gives it: `kind` and the scheme's keys.
        #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
        #[serde(tag = "kind")]
        pub enum CcConfig {
            $($(#[$doc])* #[serde(rename = $kind)] $var(<$p as Plugin>::Config),)*
        }

        /// The network of one run, running one registered scheme: one variant per scheme,
        /// each a network monomorphic in that scheme's state, so no hook inside a cycle
        /// pays a dispatch; the variant is matched once per call (`step`, `run`, ...).
        #[allow(clippy::large_enum_variant)]
        pub enum Network {
            $($(#[$doc])* $var(crate::net::Network<<$p as Plugin>::State>),)*
        }

        /// `each_net!(net, n => expr)`: `expr` with `n` bound to the network inside
        /// whichever variant `net` is.
        macro_rules! each_net {
            ($d net:expr, $d n:ident => $d e:expr) => {
                match $d net { $(Network::$var($d n) => $d e,)* }
            };
        }

        /// Every registered scheme's `Plugin::check_owned` on `net`: the first error.
        pub fn check_owned(net: &NetConfig) -> Result<(), FieldError> {
            $(<$p>::check_owned(net)?;)*
            Ok(())
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
            /// The conformance suite's network for the scheme `kind` (`Plugin::example_net`
            /// of `net`; None: no such scheme).
            pub fn example_net_of(kind: &str, net: NetConfig) -> Option<NetConfig> {
                match kind {
                    $($kind => Some(<$p>::example_net(net)),)*
                    _ => None,
                }
            }
            /// Every error of the scheme's keys (named `prefix.key`).
            pub fn errors(&self, prefix: &str) -> Vec<FieldError> {
                let mut errs = Vec::new();
                match self { $(CcConfig::$var(c) => <$p>::validate(c, prefix, &mut errs),)* }
                errs
            }
            /// Every error of the scheme's keys against the valid network `net` (named
            /// `prefix.key`): a scheme that marks packets at switch buffers with lanes
            /// (`vcs`), then `Plugin::validate_network`. None while a key of the entry is
            /// out of its own range (`errors`): a derived check never judges a value
            /// already refused, and never divides by one.
            pub fn network_errors(&self, net: &NetConfig, prefix: &str) -> Vec<FieldError> {
                let mut errs = Vec::new();
                if !self.errors(prefix).is_empty() {
                    return errs;
                }
                match self { $(CcConfig::$var(c) => {
                    type St = <$p as Plugin>::State;
                    if <St as Scheme>::MARKS && !<St as Scheme>::MARKS_ON_LANES {
                        if let Some(v) = net.vcs {
                            errs.push(marks_with_lanes($kind, v, prefix));
                        }
                    }
                    <$p>::validate_network(c, net, prefix, &mut errs)
                },)* }
                errs
            }
            /// The values the scheme derives from `net` for the keys the entry leaves out
            /// (`Plugin::derived`); empty while the entry is not valid on `net`.
            pub fn derived(&self, net: &NetConfig) -> std::collections::BTreeMap<String, u64> {
                if !self.errors("cc").is_empty() || !self.network_errors(net, "cc").is_empty() {
                    return Default::default();
                }
                let d = match self { $(CcConfig::$var(c) => <$p>::derived(c, net),)* };
                d.into_iter().map(|(k, v)| (k.to_string(), v)).collect()
            }
            /// The y axis of `cc_probes.svg` (`Plugin::PROBES_AXIS`).
            pub fn probes_axis(&self) -> &'static str {
                match self { $(CcConfig::$var(_) => <$p as Plugin>::PROBES_AXIS,)* }
            }
            /// False for a probe `cc_probes.svg` leaves out (`Plugin::PROBES_NOT_PLOTTED`).
            pub fn probe_plotted(&self, name: &str) -> bool {
                match self {
                    $(CcConfig::$var(_) => !<$p as Plugin>::PROBES_NOT_PLOTTED.contains(&name),)*
                }
            }
            /// The label reports print.
            pub fn label(&self) -> String {
                match self { $(CcConfig::$var(c) => <$p>::label(c),)* }
            }
            /// True when the scheme acts.
            pub fn active(&self) -> bool {
                match self { $(CcConfig::$var(c) => <$p>::active(c),)* }
            }
            /// A network at cycle 0 running this scheme (`net::Network::build` with the
            /// scheme's state).
            fn network(&self, cfg: &NetConfig, seed: u64, opts: &RunOpts)
                -> Result<Network, NetError> {
                // the one check every path goes through: no scheme is built from a value
                // `check` would refuse (`errors`, then `network_errors`)
                let refused = |ctx: &BuildCtx| -> Result<(), NetError> {
                    let mut errs = self.errors("cc");
                    errs.extend(self.network_errors(ctx.cfg, "cc"));
                    match errs.into_iter().next() {
                        Some(e) => Err(NetError::Config(e)),
                        None => Ok(()),
                    }
                };
                Ok(match self {
                    $(CcConfig::$var(c) => Network::$var(crate::net::Network::build(
                        cfg, seed, |ctx: &BuildCtx| {
                            refused(ctx)?;
                            <$p>::build(c, ctx, opts)
                        })?),)*
                })
            }
        }

    };
}

// ------------------------------------------------------------------------------ registry
registry! {
    $
    /// No congestion control: NICs send whenever a flit has a credit.
    None("none") => none::NoCc,
    /// PFT at every NIC with these registers.
    Pft("pft") => pft::Pft,
    /// InfiniBand congestion control (FECN/BECN, CCT), seed 002.
    Ibcc("ibcc") => ibcc::Ibcc,
    /// The self-tuned global throttle (side-band full-buffer count, hill-climbed
    /// threshold), seed 003.
    SelfTuned("selftuned") => selftuned::SelfTunedPlugin,
    /// At-Least-One: inject only with free virtual channels on the useful outputs (seed
    /// 003's comparator).
    Alo("alo") => alo::Alo,
    /// MVCM: input marking and output validation, per-flow window and waiting slots
    /// (seed 004).
    Mvcm("mvcm") => mvcm::Mvcm,
    /// Renato's proposal: three-step input marking, window 1, LIPD (seed 004's
    /// comparator).
    Renato("renato") => renato::Renato,
    /// DCQCN: RED/ECN marking, CNPs, per-flow rate limiter (Zhu et al., SIGCOMM 2015).
    Dcqcn("dcqcn") => dcqcn::Dcqcn,
}
// ----------------------------------------------------------------------------------------

mod network;

/// The refusal of a scheme that marks packets at switch buffers (its state's
/// `Scheme::MARKS`) at inputs (not `Scheme::MARKS_ON_LANES`) on a network with lanes: the
/// lane router counts flits per output port and calls no `head_leaves`.
fn marks_with_lanes(kind: &str, vcs: u32, prefix: &str) -> FieldError {
    FieldError::new(
        "network.vcs",
        vcs,
        format!(
            "not with {prefix}: kind = \"{kind}\" marks packets at switch inputs, which the lane router does not support (IB CC and DCQCN, which mark at outputs, run with lanes): remove `network.vcs` or the entry"
        ),
    )
}

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
