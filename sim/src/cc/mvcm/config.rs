//! MVCM's keys (`[[cc]] kind = "mvcm"`), named after seed 004's constants; the defaults are
//! the paper's, and the source's constants are derived from the network as its §4.3 does.

use crate::cc::round_trip::{round_trip, RoundTrip};
use crate::net::config::{bad, FieldError};
use crate::net::{NetConfig, TopologyConfig};
use pft_hdl::mvcm::model::{Params, RTT_MIN_MAX};
use serde::{Deserialize, Serialize};

/// Keys of an `mvcm` entry. Integer keys are read wide and range-checked, so an error names
/// the key and its range.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct MvcmConfig {
    /// Input threshold, percent of an input buffer: a data packet whose arrival leaves more
    /// than this in the buffer (itself included) is marked (MB). Seed: 66. 1..=100.
    pub in_threshold_percent: u64,
    /// Output threshold, percent of an output queue: a marked packet leaving a queue that
    /// holds more than this (itself included) is validated (VB). Seed: 33. 1..=100.
    pub out_threshold_percent: u64,
    /// The WS growth factor k (the switch arity). Default: the topology's k (`kary_nfly`,
    /// `kary_ntree`, `torus`, `mesh`); other topologies need it. 2..=64.
    pub k: Option<u64>,
    /// Network stages n. Default: the topology's n, as `k`. 1..=12.
    pub n: Option<u64>,
    /// How many times the WS may be multiplied by k after they were set to 1. Default n
    /// (at most k^n WS, docs/cc/mvcm.md). 0..=31 and k^ws_max_incs * rtt_min < 2^32.
    pub ws_max_incs: Option<u64>,
    /// Largest dynamic window, packets. Default: ceil(omega) from the network. 1..=255.
    pub dw_max: Option<u64>,
    /// One WS, cycles. Default: the network's minimum round trip. 1..=1048576.
    pub rtt_min: Option<u64>,
    /// The data packet's length for the derivation, bytes (the paper: 256 B payload + 22 B
    /// header). Default: the network's `mtu_bytes`. 1..=mtu_bytes.
    pub packet_bytes: Option<u64>,
    /// Validation on (false: an MB alone grades the ACK as hot: the seed's Fig. 13
    /// ablation, "marking without validation").
    pub validate: bool,
    /// Warm ACKs (MB without VB) lower the window (false: the source takes them as clean:
    /// the seed's Fig. 14 ablation, "warm packets are not marked").
    pub warm: bool,
    /// The fast reset only when the flow has no packet outstanding (false, the default:
    /// whenever a packet enters the flow's empty queue, docs/cc/mvcm.md). Issue 42's
    /// ablation: the seed resets a host "that stopped sending", which gets no ACKs.
    pub fast_reset_idle: bool,
}

impl Default for MvcmConfig {
    /// The seed's thresholds; everything else derived.
    fn default() -> Self {
        MvcmConfig {
            in_threshold_percent: 66,
            out_threshold_percent: 33,
            k: None,
            n: None,
            ws_max_incs: None,
            dw_max: None,
            rtt_min: None,
            packet_bytes: None,
            validate: true,
            warm: true,
            fast_reset_idle: false,
        }
    }
}

/// The derived constants of one network, with what they came from (for the docs and
/// `pftsim check`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Derived {
    /// The source's constants.
    pub params: Params,
    /// What the derivation read from the network.
    pub round_trip: RoundTrip,
    /// Input and output thresholds, flits (a buffer holding more is over).
    pub in_level: u32,
    pub out_level: u32,
}

impl MvcmConfig {
    /// Every error of the keys alone (those that need the network: `derive`).
    pub fn errors(&self, prefix: &str) -> Vec<FieldError> {
        let key = |k: &str| {
            if prefix.is_empty() {
                k.to_string()
            } else {
                format!("{prefix}.{k}")
            }
        };
        let mut errs = Vec::new();
        for (k, v, lo, hi) in [
            (
                "in_threshold_percent",
                Some(self.in_threshold_percent),
                1,
                100,
            ),
            (
                "out_threshold_percent",
                Some(self.out_threshold_percent),
                1,
                100,
            ),
            ("k", self.k, 2, 64),
            ("n", self.n, 1, 12),
            ("ws_max_incs", self.ws_max_incs, 0, 31),
            ("dw_max", self.dw_max, 1, 255),
            ("rtt_min", self.rtt_min, 1, RTT_MIN_MAX as u64),
        ] {
            if let Some(v) = v.filter(|v| !(lo..=hi).contains(v)) {
                errs.push(bad(&key(k), v, format!("must be in {lo}..={hi}")));
            }
        }
        if self.packet_bytes == Some(0) {
            errs.push(bad(
                &key("packet_bytes"),
                0,
                "must be in 1..=network.mtu_bytes (a data packet is at most one MTU)",
            ));
        }
        // keys left unread (a value equal to the default changes nothing)
        if !self.validate
            && self.out_threshold_percent != MvcmConfig::default().out_threshold_percent
        {
            errs.push(bad(
                &key("out_threshold_percent"),
                self.out_threshold_percent,
                "is used only with validate = true (the output queues validate marks)",
            ));
        }
        if !self.validate && !self.warm {
            // every MB is validated then: no ACK is warm, so `warm` changes nothing
            errs.push(bad(
                &key("warm"),
                false,
                "is used only with validate = true (without validation no ACK is warm)",
            ));
        }
        if let (Some(b), Some(_), Some(_)) = (self.packet_bytes, self.rtt_min, self.dw_max) {
            errs.push(bad(
                &key("packet_bytes"),
                b,
                "derives rtt_min and dw_max from the round trip; with both set it is not used",
            ));
        }
        errs
    }

    /// The source's constants and the switches' thresholds on the valid network `net`
    /// (`prefix` names the entry in errors): what the scheme needs from the network
    /// (output queues, ACKs) is checked here too. Every problem is returned, each naming
    /// the full key it is about; the keys must be in their own ranges (`errors`) first.
    pub fn derive(
        &self,
        net: &NetConfig,
        longest: impl FnOnce() -> u32,
        prefix: &str,
    ) -> Result<Derived, Vec<FieldError>> {
        let key = |k: &str| format!("{prefix}.{k}");
        let mut errs = Vec::new();
        if net.speedup.is_none() {
            errs.push(bad(
                "network.speedup",
                "not set",
                format!("{prefix} (mvcm) validates packets at output queues: set network.speedup (1..=8, the CIOQ switch; the seed's is 2)"),
            ));
        }
        let (tk, tn) = match net.topology {
            TopologyConfig::KaryNfly { k, n, .. }
            | TopologyConfig::KaryNtree { k, n, .. }
            | TopologyConfig::Torus { k, n }
            | TopologyConfig::Mesh { k, n } => (Some(k as u64), Some(n as u64)),
            _ => (None, None),
        };
        // k and n: the entry's (in range, `errors`), else the topology's
        let mut shape =
            |own: Option<u64>, from: Option<u64>, name: &str, lo: u64, hi: u64| match (own, from) {
                (Some(v), _) => Some(v),
                (None, Some(v)) if (lo..=hi).contains(&v) => Some(v),
                (None, Some(v)) => {
                    errs.push(bad(
                        &key(name),
                        format!("not set (network.topology.{name} = {v})"),
                        format!(
                            "mvcm's waiting slots need {name} in {lo}..={hi}: set {}",
                            key(name)
                        ),
                    ));
                    None
                }
                (None, None) => {
                    errs.push(bad(
                        &key(name),
                        "not set",
                        format!(
                            "must be set ({lo}..={hi}) on a topology without a k-ary n-stage shape"
                        ),
                    ));
                    None
                }
            };
        let k = shape(self.k, tk, "k", 2, 64);
        let n = shape(self.n, tn, "n", 1, 12);
        // (the longest path only when nothing else is wrong: on a file it builds the
        // tables; otherwise a stand-in 0, never used, since `errs` is returned below)
        let fine = errs.is_empty();
        let longest = || if fine { longest() } else { 0 };
        let rt = round_trip(net, longest, self.packet_bytes, prefix);
        let rt = match rt {
            Ok(rt) => Some(rt),
            Err(e) => {
                errs.extend(e);
                None
            }
        };
        let (Some(k), Some(n), Some(rt)) = (k, n, rt) else {
            return Err(errs);
        };
        if !errs.is_empty() {
            return Err(errs);
        }
        let rtt_min = match self.rtt_min {
            Some(r) => r as u32,
            None => rt.rtt.min(RTT_MIN_MAX),
        };
        let params = Params {
            dw_max: self.dw_max.map_or(rt.dw_max.clamp(1, 255), |d| d as u32),
            k: k as u32,
            n: n as u32,
            rtt_min,
            ws_max_incs: self.ws_max_incs.unwrap_or(n) as u32,
        };
        // every other constant is in its range here: only the waiting slots' width is left
        let lim = params.ws_incs_limit();
        if params.ws_max_incs > lim {
            let got = match self.ws_max_incs {
                Some(v) => v.to_string(),
                None => format!("not set (n = {n})"),
            };
            let rtt = match self.rtt_min {
                Some(_) => key("rtt_min"),
                None => "the derived rtt_min".to_string(),
            };
            return Err(vec![bad(
                &key("ws_max_incs"),
                got,
                format!(
                    "must be in 0..={lim} (k^ws_max_incs * rtt_min = {k}^ws_max_incs * {rtt_min} must stay below 2^32; k = {k}, {rtt} = {rtt_min})"
                ),
            )]);
        }
        if let Err(e) = params.check() {
            // not reached: every constant was checked above
            return Err(vec![bad(prefix, "mvcm", e)]);
        }
        let level = |pct: u64, cap: u32| (pct * cap as u64 / 100) as u32;
        let out_cap = net.out_buffer_flits.unwrap_or(net.buffer_flits);
        Ok(Derived {
            params,
            round_trip: rt,
            in_level: level(self.in_threshold_percent, net.buffer_flits),
            out_level: level(self.out_threshold_percent, out_cap),
        })
    }

    /// One line for reports: `MVCM in>66% out>33% dw=auto rtt=auto k=auto n=auto`.
    pub fn describe(&self) -> String {
        let opt = |v: Option<u64>| v.map_or("auto".to_string(), |v| v.to_string());
        format!(
            "MVCM in>{}% out>{}% dw={} rtt={} k={} n={}{}{}{}",
            self.in_threshold_percent,
            self.out_threshold_percent,
            opt(self.dw_max),
            opt(self.rtt_min),
            opt(self.k),
            opt(self.n),
            if self.validate { "" } else { " novalid" },
            if self.warm { "" } else { " nowarm" },
            if self.fast_reset_idle {
                " reset=idle"
            } else {
                ""
            }
        )
    }
}
