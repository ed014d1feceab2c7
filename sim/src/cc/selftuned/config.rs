//! The self-tuned throttle's keys (`[[cc]] kind = "selftuned"`), named after seed 003's
//! constants; the defaults are the paper's.

use crate::net::config::{bad, FieldError};
use crate::net::{BuildCtx, NetConfig, NetError, Peer, Topology, TopologyConfig};
use pft_hdl::selftuned::model::{Params, BW_BITS};
use serde::{Deserialize, Serialize};

/// How a node estimates the full-buffer count between snapshots.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Estimate {
    /// Linear extrapolation of the last two snapshots to the present (the paper's).
    #[default]
    Linear,
    /// The newest snapshot as it is (the paper's "previous snapshot" comparison).
    Previous,
}

/// Keys of a `selftuned` entry. Integer keys are read wide and range-checked, so an error
/// names the key and its range.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SelfTunedConfig {
    /// Side-band delay between neighbours, cycles (seed: h = 2). 1..=64.
    pub h: u64,
    /// Gather duration g, cycles: every node gets a g-cycle-old snapshot every g cycles.
    /// Default: (k/2) * h * n on a k-ary n-cube torus, (k-1) * h * n on a mesh; other
    /// topologies need it. 1..=256.
    pub gather_cycles: Option<u64>,
    /// Tuning period, cycles: a multiple of g, at most 255 gathers (seed: 96). Used only
    /// with `tune = true`.
    pub tune_cycles: u64,
    /// Threshold at reset, in full buffers (default: `init_percent` of all buffers).
    pub threshold: Option<u64>,
    /// Threshold at reset, percent of all switch-to-switch buffers (seed: about 1 %).
    pub init_percent: f64,
    /// Additive increment and decrement, percent of all buffers (seed: 1 % and 4 %: 30 and
    /// 122 of 3,072). Counts are rounded down.
    pub inc_percent: f64,
    pub dec_percent: f64,
    /// A drop in bandwidth: a tuning period below this percent of the previous one (seed:
    /// 75). 1..=100.
    pub drop_percent: u64,
    /// Far below the best period: below this percent of `max` resets the threshold to
    /// min(T_max, N_max) (the seed says "significantly"; 0 turns the reset off). 0..=100.
    pub reset_percent: u64,
    /// Consecutive resets after which the best period is forgotten (seed: r = 5). 1..=255.
    pub resets: u64,
    /// The estimate between snapshots.
    pub estimate: Estimate,
    /// Tune the threshold (false: a static threshold, the seed's Fig. 6 comparison).
    pub tune: bool,
}

impl Default for SelfTunedConfig {
    /// The seed's constants.
    fn default() -> Self {
        SelfTunedConfig {
            h: 2,
            gather_cycles: None,
            tune_cycles: 96,
            threshold: None,
            init_percent: 1.0,
            inc_percent: 1.0,
            dec_percent: 4.0,
            drop_percent: 75,
            reset_percent: 75,
            resets: 5,
            estimate: Estimate::Linear,
            tune: true,
        }
    }
}

/// Largest threshold and buffer count the node's 16-bit registers hold.
pub const MAX_BUFFERS: u64 = (1 << pft_hdl::selftuned::model::COUNT_BITS) - 1;

impl SelfTunedConfig {
    /// Every error of the keys alone (those that need the network: `params`).
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
            ("h", self.h, 1, 64),
            ("gather_cycles", self.gather_cycles.unwrap_or(1), 1, 256),
            ("tune_cycles", self.tune_cycles, 1, 65_280),
            ("threshold", self.threshold.unwrap_or(0), 0, MAX_BUFFERS),
            ("drop_percent", self.drop_percent, 1, 100),
            ("reset_percent", self.reset_percent, 0, 100),
            ("resets", self.resets, 1, 255),
        ] {
            if !(lo..=hi).contains(&v) {
                errs.push(bad(&key(k), v, format!("must be in {lo}..={hi}")));
            }
        }
        for (k, v) in [
            ("init_percent", self.init_percent),
            ("inc_percent", self.inc_percent),
            ("dec_percent", self.dec_percent),
        ] {
            if !(0.0..=100.0).contains(&v) {
                errs.push(bad(
                    &key(k),
                    v,
                    "must be in 0..=100 (percent of all buffers)",
                ));
            }
        }
        // the threshold at reset is one or the other
        if self.threshold.is_some() && self.init_percent != SelfTunedConfig::default().init_percent
        {
            errs.push(bad(
                &key("init_percent"),
                self.init_percent,
                "cannot be set with threshold (the threshold at reset is one or the other)",
            ));
        }
        if !self.tune {
            // a static threshold: the tuner's keys change nothing
            let d = SelfTunedConfig::default();
            for (k, set, v) in [
                (
                    "inc_percent",
                    self.inc_percent != d.inc_percent,
                    self.inc_percent.to_string(),
                ),
                (
                    "dec_percent",
                    self.dec_percent != d.dec_percent,
                    self.dec_percent.to_string(),
                ),
                (
                    "drop_percent",
                    self.drop_percent != d.drop_percent,
                    self.drop_percent.to_string(),
                ),
                (
                    "reset_percent",
                    self.reset_percent != d.reset_percent,
                    self.reset_percent.to_string(),
                ),
                ("resets", self.resets != d.resets, self.resets.to_string()),
                (
                    "tune_cycles",
                    self.tune_cycles != d.tune_cycles,
                    self.tune_cycles.to_string(),
                ),
            ] {
                if set {
                    errs.push(bad(
                        &key(k),
                        v,
                        "is used only with tune = true (with tune = false the threshold stays where it starts)",
                    ));
                }
            }
        }
        errs
    }

    /// The gather duration g on this network (`prefix` names the entry in errors).
    fn gather(&self, topo: &TopologyConfig, prefix: &str) -> Result<u64, FieldError> {
        if let Some(g) = self.gather_cycles {
            return Ok(g);
        }
        let g = match *topo {
            TopologyConfig::Torus { k, n } => (k / 2) as u64 * self.h * n as u64,
            TopologyConfig::Mesh { k, n } => (k - 1) as u64 * self.h * n as u64,
            _ => {
                return Err(bad(
                    &format!("{prefix}.gather_cycles"),
                    "not set",
                    "must be set (1..=256) on a topology other than a torus or mesh, whose side-band delay the paper gives as (k/2) h n",
                ))
            }
        };
        if !(1..=256).contains(&g) {
            return Err(bad(
                &format!("{prefix}.h"),
                self.h,
                format!("gives g = {g} cycles on this network; g must be in 1..=256 (set h or gather_cycles lower)"),
            ));
        }
        Ok(g)
    }

    /// Snapshots per tuning period on a network of gather `g` and `topo`'s NICs: the
    /// tuning period is a multiple of g, at most 255 g, and too short to deliver 2^24 flits.
    fn tuning_periods(&self, g: u64, topo: &Topology, prefix: &str) -> Result<u32, FieldError> {
        if !self.tune_cycles.is_multiple_of(g) || self.tune_cycles / g > 255 {
            return Err(bad(
                &format!("{prefix}.tune_cycles"),
                self.tune_cycles,
                format!(
                    "must be a multiple of g = {g} cycles, at most 255 g{}",
                    if self.tune_cycles == SelfTunedConfig::default().tune_cycles {
                        format!(
                            " ({} is the default, made for the paper's g = 32; set tune_cycles, e.g. {})",
                            self.tune_cycles,
                            g * (self.tune_cycles / g).max(1)
                        )
                    } else {
                        String::new()
                    }
                ),
            ));
        }
        // a NIC ejects at most one flit per cycle: a period's flits fit the 24-bit register
        let most = self.tune_cycles * topo.nodes() as u64;
        if most >= 1 << BW_BITS {
            return Err(bad(
                &format!("{prefix}.tune_cycles"),
                self.tune_cycles,
                format!(
                    "lets {most} flits arrive in a tuning period on {} NICs; the 24-bit flit accumulator holds {} (shorten the period)",
                    topo.nodes(),
                    (1u64 << BW_BITS) - 1
                ),
            ));
        }
        Ok((self.tune_cycles / g) as u32)
    }

    /// The node logic's constants and the buffer count on the valid network `net`: g, and
    /// the percentages as counts of its switch-to-switch buffers (each lane a buffer).
    pub fn params_for(
        &self,
        net: &NetConfig,
        topo: &Topology,
        prefix: &str,
    ) -> Result<(Params, u64), FieldError> {
        let g = self.gather(&net.topology, prefix)?;
        // a static threshold (tune = false) makes no decision: its tuning period is not
        // checked (tune_cycles is refused there unless it is the default, which need not
        // fit this g), and the model gets any valid one
        let periods = if self.tune {
            self.tuning_periods(g, topo, prefix)?
        } else {
            (self.tune_cycles / g).clamp(1, 255) as u32
        };
        let lanes = net.vcs.unwrap_or(1) as u64;
        let links: u64 = topo
            .switches()
            .iter()
            .map(|s| {
                s.ports
                    .iter()
                    .filter(|p| matches!(p, Peer::Switch { .. }))
                    .count() as u64
            })
            .sum();
        let buffers = links * lanes;
        if !(1..=MAX_BUFFERS).contains(&buffers) {
            return Err(bad(
                "network.topology",
                format!("{buffers} switch-to-switch buffers"),
                format!(
                    "the self-tuned throttle counts 1..={MAX_BUFFERS} buffers (16-bit registers)"
                ),
            ));
        }
        let pct = |p: f64| (p * buffers as f64 / 100.0).floor() as u32;
        let (inc, dec, reset) = if self.tune {
            (
                pct(self.inc_percent),
                pct(self.dec_percent),
                self.reset_percent,
            )
        } else {
            (0, 0, 0)
        };
        let p = Params {
            g: g as u32,
            periods,
            t_init: match self.threshold {
                Some(t) => t.min(buffers) as u32,
                None => pct(self.init_percent),
            },
            inc,
            dec,
            t_ceiling: buffers as u32,
            drop_pct: self.drop_percent as u32,
            reset_pct: reset as u32,
            r: self.resets as u32,
            linear: self.estimate == Estimate::Linear,
        };
        p.check().map_err(|e| bad(prefix, "selftuned", e))?;
        Ok((p, buffers))
    }

    /// `params_for` on the network `ctx` describes (errors name `cc.key`).
    pub fn params(&self, ctx: &BuildCtx) -> Result<(Params, u64), NetError> {
        self.params_for(ctx.cfg, ctx.topo, "cc")
            .map_err(NetError::Config)
    }

    /// One line for reports: `TUNE h=2 tp=96 +1%/-4% drop<75% reset<75% r=5` or
    /// `STATIC T=250`.
    pub fn describe(&self) -> String {
        let t0 = match self.threshold {
            Some(t) => format!("T={t}"),
            None => format!("T={}%", self.init_percent),
        };
        let est = match self.estimate {
            Estimate::Linear => "",
            Estimate::Previous => " prev",
        };
        let g = match self.gather_cycles {
            Some(g) => format!("g={g}"),
            None => format!("h={}", self.h),
        };
        if self.tune {
            format!(
                "TUNE {g} tp={} {t0} +{}%/-{}% drop<{}% reset<{}% r={}{est}",
                self.tune_cycles,
                self.inc_percent,
                self.dec_percent,
                self.drop_percent,
                self.reset_percent,
                self.resets
            )
        } else {
            format!("STATIC {g} {t0}{est}")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The seed's 16-ary 2-cube with 3 lanes; h = 5 gives g = (16/2) * 5 * 2 = 80 cycles.
    fn cube() -> NetConfig {
        NetConfig {
            topology: TopologyConfig::Torus { k: 16, n: 2 },
            vcs: Some(3),
            ..NetConfig::default()
        }
    }

    #[test]
    fn a_static_threshold_does_not_check_the_tuning_period() {
        let net = cube();
        let topo = Topology::shape(&net.topology);
        let fixed = SelfTunedConfig {
            h: 5,
            threshold: Some(250),
            tune: false,
            ..Default::default()
        };
        // the default 96 is no multiple of g = 80, and nothing tunes
        let (p, buffers) = fixed.params_for(&net, &topo, "cc").unwrap();
        assert_eq!((p.g, p.periods, p.t_init, buffers), (80, 1, 250, 3072));
        assert!(fixed.errors("cc").is_empty());
        // tuning, the same period is refused
        let e = SelfTunedConfig {
            tune: true,
            ..fixed.clone()
        }
        .params_for(&net, &topo, "cc")
        .unwrap_err()
        .to_string();
        assert!(
            e.contains("tune_cycles") && e.contains("multiple of g = 80"),
            "{e}"
        );
        // set with tune = false, it is refused like the tuner's other keys
        let errs: Vec<String> = SelfTunedConfig {
            tune_cycles: 80,
            ..fixed
        }
        .errors("cc")
        .iter()
        .map(|e| e.to_string())
        .collect();
        assert!(
            errs.len() == 1
                && errs[0].contains("cc.tune_cycles")
                && errs[0].contains("is used only with tune = true"),
            "{errs:?}"
        );
    }
}
