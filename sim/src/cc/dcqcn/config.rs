//! DCQCN's keys (`[[cc]] kind = "dcqcn"`), named after Zhu et al., SIGCOMM 2015, with the
//! paper's values as defaults, in the paper's units (bytes, microseconds, Mb/s); `derive`
//! converts them to this network's flits and cycles (docs/cc/dcqcn.md shows the arithmetic).

use crate::net::config::{bad, FieldError};
use crate::net::NetConfig;
use serde::{Deserialize, Serialize};

/// Largest byte threshold or byte counter a key takes (1 TiB; a run never sends that much
/// on one flow).
pub const MAX_BYTES: u64 = 1 << 40;
/// Largest time key, microseconds (1 s; a run is milliseconds).
pub const MAX_US: f64 = 1_000_000.0;
/// Largest rate key, Mb/s (the largest `network.link_gbps`).
pub const MAX_MBPS: f64 = 100_000_000.0;
/// The least `min_rate_mbps`: 1 b/s.
pub const MIN_RATE_MBPS: f64 = 1e-6;

/// Keys of a `dcqcn` entry. Integer keys are read wide and range-checked, so an error names
/// the key and its range.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct DcqcnConfig {
    /// Switch (CP): no packet is marked while the output's queue is at most this many bytes
    /// (the paper's Kmin, 5 KB). Not set: 5 KB, or half of Kmax if that is smaller (a buffer
    /// below 10 KB).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kmin_bytes: Option<u64>,
    /// Switch: the marking probability reaches `pmax` at this queue and every packet is
    /// marked above it (the paper's Kmax, 200 KB). Not set: 200 KB or one input buffer
    /// (`network.buffer_flits`), whichever is smaller (docs/cc/dcqcn.md, "Kmax").
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kmax_bytes: Option<u64>,
    /// Switch: marking probability at Kmax (the paper's Pmax, 1 %), 0..=1.
    pub pmax: f64,
    /// Destination (NP): at most one CNP per flow in this many microseconds (the paper's N,
    /// 50 us); 0 sends one per marked packet.
    pub cnp_interval_us: f64,
    /// Source (RP): the gain of alpha's moving average (the paper's g, 1/256), 0..=1.
    pub g: f64,
    /// Source: alpha decays by (1 - g) every this many microseconds without a CNP (the
    /// paper's K, 55 us).
    pub alpha_timer_us: f64,
    /// Source: the rate-increase timer (the paper's T, 55 us).
    pub rate_timer_us: f64,
    /// Source: the rate-increase byte counter (the paper's B, 10 MB).
    pub byte_counter_bytes: u64,
    /// Source: timer or byte-counter events of fast recovery before additive increase (the
    /// paper's F, 5).
    pub fast_recovery_steps: u64,
    /// Source: additive increase step of the target rate (the paper's R_AI, 40 Mb/s).
    pub rai_mbps: f64,
    /// Source: hyper increase step (R_HAI, 100 Mb/s).
    pub rhai_mbps: f64,
    /// Source: no cut takes a flow below this rate (100 Mb/s, the NS-3 DCQCN model's).
    pub min_rate_mbps: f64,
}

impl Default for DcqcnConfig {
    /// The paper's values (docs/cc/dcqcn.md, "Parameters", with their sources).
    fn default() -> Self {
        DcqcnConfig {
            kmin_bytes: None,
            kmax_bytes: None,
            pmax: 0.01,
            cnp_interval_us: 50.0,
            g: 1.0 / 256.0,
            alpha_timer_us: 55.0,
            rate_timer_us: 55.0,
            byte_counter_bytes: 10 * 1024 * 1024,
            fast_recovery_steps: 5,
            rai_mbps: 40.0,
            rhai_mbps: 100.0,
            min_rate_mbps: 100.0,
        }
    }
}

/// The paper's Kmin and Kmax, bytes (5 KB and 200 KB).
pub const PAPER_KMIN_BYTES: u64 = 5 * 1024;
pub const PAPER_KMAX_BYTES: u64 = 200 * 1024;

/// The keys converted to one network: flits, cycles and fractions of the line rate (one
/// flit per cycle).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Derived {
    /// Kmin and Kmax, flits (Kmin < Kmax).
    pub kmin: u32,
    pub kmax: u32,
    pub pmax: f64,
    /// CNP interval, alpha timer and rate timer, cycles (the timers at least 1).
    pub cnp_interval: u64,
    pub alpha_timer: u64,
    pub rate_timer: u64,
    /// Byte counter, flits (at least 1).
    pub byte_counter: u64,
    pub f: u32,
    pub g: f64,
    /// R_AI, R_HAI and the floor, fractions of the line rate.
    pub rai: f64,
    pub rhai: f64,
    pub min_rate: f64,
}

impl DcqcnConfig {
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
        let kmin = self.kmin_bytes.filter(|&k| k < MAX_BYTES);
        for (k, v, lo, hi) in [
            ("kmin_bytes", self.kmin_bytes.unwrap_or(0), 0, MAX_BYTES - 1),
            (
                "kmax_bytes",
                self.kmax_bytes.unwrap_or(MAX_BYTES),
                kmin.map_or(1, |k| k + 1),
                MAX_BYTES,
            ),
            ("byte_counter_bytes", self.byte_counter_bytes, 1, MAX_BYTES),
            ("fast_recovery_steps", self.fast_recovery_steps, 1, 255),
        ] {
            if !(lo..=hi).contains(&v) {
                let why = if k == "kmax_bytes" && kmin.is_some() {
                    " (above kmin_bytes)"
                } else {
                    ""
                };
                errs.push(bad(&key(k), v, format!("must be in {lo}..={hi}{why}")));
            }
        }
        for (k, v) in [("pmax", self.pmax), ("g", self.g)] {
            if !(0.0..=1.0).contains(&v) {
                errs.push(bad(&key(k), v, "must be in 0..=1 (a fraction)"));
            }
        }
        if let (Some(k), 0.0) = (self.kmin_bytes, self.pmax) {
            // no mark between Kmin and Kmax, every one above Kmax: Kmin is not read
            errs.push(bad(
                &key("kmin_bytes"),
                k,
                "is not used with pmax = 0 (no marks below kmax_bytes, every packet above it): remove it or set pmax above 0",
            ));
        }
        if !(0.0..=MAX_US).contains(&self.cnp_interval_us) {
            errs.push(bad(
                &key("cnp_interval_us"),
                self.cnp_interval_us,
                format!("must be in 0..={MAX_US} (microseconds)"),
            ));
        }
        for (k, v) in [
            ("alpha_timer_us", self.alpha_timer_us),
            ("rate_timer_us", self.rate_timer_us),
        ] {
            if !(v > 0.0 && v <= MAX_US) {
                errs.push(bad(
                    &key(k),
                    v,
                    format!("must be above 0 and at most {MAX_US} (microseconds)"),
                ));
            }
        }
        for (k, v) in [("rai_mbps", self.rai_mbps), ("rhai_mbps", self.rhai_mbps)] {
            if !(0.0..=MAX_MBPS).contains(&v) {
                errs.push(bad(&key(k), v, format!("must be in 0..={MAX_MBPS} (Mb/s)")));
            }
        }
        // (from 1 b/s: a smaller floor is a rate of 0 in all but name)
        if !(self.min_rate_mbps >= MIN_RATE_MBPS && self.min_rate_mbps <= MAX_MBPS) {
            errs.push(bad(
                &key("min_rate_mbps"),
                self.min_rate_mbps,
                format!("must be at least {MIN_RATE_MBPS:.6} (1 b/s) and at most network.link_gbps in Mb/s (the line rate)"),
            ));
        }
        errs
    }

    /// Kmin and Kmax in bytes on the network `net`: the keys, or the paper's 200 KB capped at
    /// one input port's buffers (`NetConfig::input_port_flits`) and the paper's 5 KB capped
    /// at half of Kmax.
    pub fn thresholds_on(&self, net: &NetConfig) -> (u64, u64) {
        let kmax = self.kmax_bytes.unwrap_or_else(|| {
            PAPER_KMAX_BYTES.min(net.input_port_flits() as u64 * net.flit_bytes as u64)
        });
        (
            self.kmin_bytes.unwrap_or(PAPER_KMIN_BYTES.min(kmax / 2)),
            kmax,
        )
    }

    /// The keys converted to the valid network `net` (its keys already valid: `errors` is
    /// empty). Errors name `prefix.key`.
    pub fn derive(&self, net: &NetConfig, prefix: &str) -> Result<Derived, Vec<FieldError>> {
        let mut errs = Vec::new();
        let fb = net.flit_bytes.max(1) as u64;
        let (kmin_b, kmax_b) = self.thresholds_on(net);
        if kmin_b >= kmax_b {
            errs.push(bad(
                &format!("{prefix}.kmin_bytes"),
                kmin_b,
                format!(
                    "must be in 0..={} (below Kmax: kmax_bytes is not set, so Kmax is min(200 KB, one input buffer) = {kmax_b} bytes on this network)",
                    kmax_b - 1
                ),
            ));
        }
        let line_mbps = net.link_gbps * 1000.0;
        if self.min_rate_mbps > line_mbps {
            // a link slower than 0.1 Gb/s refuses the default too: say so, or the user
            // is told about a key they never wrote
            let default = DcqcnConfig::default().min_rate_mbps;
            let unset = if self.min_rate_mbps == default {
                format!("; {default} is its default when not set")
            } else {
                String::new()
            };
            errs.push(bad(
                &format!("{prefix}.min_rate_mbps"),
                self.min_rate_mbps,
                format!("must be at least {MIN_RATE_MBPS:.6} (1 b/s) and at most {line_mbps} (network.link_gbps in Mb/s){unset}"),
            ));
        }
        if !errs.is_empty() {
            return Err(errs);
        }
        // bytes to flits: Kmin rounded down, Kmax up, so that Kmin < Kmax stays true
        let kmin = (kmin_b / fb).min(u32::MAX as u64 - 1) as u32;
        let kmax = (kmax_b.div_ceil(fb).min(u32::MAX as u64) as u32).max(kmin + 1);
        let cyc = |us: f64| (us * 1000.0 / net.cycle_ns()).round() as u64;
        Ok(Derived {
            kmin,
            kmax,
            pmax: self.pmax,
            cnp_interval: cyc(self.cnp_interval_us),
            alpha_timer: cyc(self.alpha_timer_us).max(1),
            rate_timer: cyc(self.rate_timer_us).max(1),
            byte_counter: self.byte_counter_bytes.div_ceil(fb).max(1),
            f: self.fast_recovery_steps as u32,
            g: self.g,
            rai: self.rai_mbps / line_mbps,
            rhai: self.rhai_mbps / line_mbps,
            min_rate: self.min_rate_mbps / line_mbps,
        })
    }

    /// One line for reports: `DCQCN K=5K..min(200K,buf) P=0.01 g=0.0039 T=55us B=10485760`.
    pub fn describe(&self) -> String {
        // (Kmin left out is min(5 KB, Kmax / 2): with Kmax set, the label says so)
        let kmin = match (self.kmin_bytes, self.kmax_bytes) {
            (Some(k), _) => k.to_string(),
            (None, Some(_)) => "min(5K,Kmax/2)".to_string(),
            (None, None) => "5K".to_string(),
        };
        let kmax = self
            .kmax_bytes
            .map_or("min(200K,buf)".to_string(), |k| k.to_string());
        format!(
            "DCQCN K={}..{} P={} g={:.4} T={}us B={}",
            kmin, kmax, self.pmax, self.g, self.rate_timer_us, self.byte_counter_bytes
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_paper_converts_to_flits_and_cycles() {
        // 64 B flits at 100 Gb/s: 5.12 ns a cycle; 1024-flit buffers (64 KiB)
        let d = DcqcnConfig::default()
            .derive(&NetConfig::default(), "cc")
            .unwrap();
        assert_eq!(
            (d.kmin, d.kmax),
            (80, 1024),
            "5 KiB; 200 KiB capped at 64 KiB"
        );
        assert_eq!(d.cnp_interval, 9766, "50 us / 5.12 ns");
        assert_eq!((d.alpha_timer, d.rate_timer), (10742, 10742), "55 us");
        assert_eq!(d.byte_counter, 163_840, "10 MiB / 64 B");
        assert!((d.rai - 0.0004).abs() < 1e-12 && (d.rhai - 0.001).abs() < 1e-12);
        let wide = NetConfig {
            buffer_flits: 8192,
            ..Default::default()
        };
        let d = DcqcnConfig::default().derive(&wide, "cc").unwrap();
        assert_eq!(d.kmax, 3200, "200 KiB fits a 512 KiB buffer");
        let tiny = NetConfig {
            flit_bytes: 8,
            mtu_bytes: 64,
            buffer_flits: 64,
            ..Default::default()
        };
        let d = DcqcnConfig::default().derive(&tiny, "cc").unwrap();
        assert_eq!(
            (d.kmin, d.kmax),
            (32, 64),
            "512 B buffers: Kmin is half of Kmax"
        );
    }

    #[test]
    fn ranges_name_the_key() {
        let c = DcqcnConfig {
            kmin_bytes: Some(100),
            kmax_bytes: Some(100),
            pmax: 1.5,
            fast_recovery_steps: 0,
            rate_timer_us: 0.0,
            ..Default::default()
        };
        let e: Vec<String> = c.errors("cc[0]").iter().map(|e| e.to_string()).collect();
        assert_eq!(e.len(), 4, "{e:?}");
        assert!(e[0].contains("cc[0].kmax_bytes") && e[0].contains("101..="));
        let d = DcqcnConfig {
            kmin_bytes: Some(70_000),
            ..Default::default()
        }
        .derive(&NetConfig::default(), "cc[0]")
        .unwrap_err();
        assert!(d[0].to_string().contains("cc[0].kmin_bytes"), "{d:?}");
    }
}
