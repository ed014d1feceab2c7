//! IB CC's parameters (`[[cc]] kind = "ibcc"`), named after the seed's Table I.

use crate::net::config::{bad, first, FieldError};
use serde::{Deserialize, Serialize};

/// The IB management unit of `ccti_timer`: 1.024 us.
pub const TIMER_UNIT_NS: f64 = 1024.0;
/// Largest CCT index (the IB spec's 14-bit CCTI).
pub const MAX_CCTI: u64 = 16383;

/// Which switch ports have their victim mask set (they may enter the congestion state
/// without credits, because the NIC behind them never marks).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum VictimMask {
    /// Ports that face a NIC (the seed's and the spec's usual setting).
    #[default]
    NicPorts,
    /// No port: only roots (ports with credits) mark.
    None,
    /// Every port.
    All,
}

impl VictimMask {
    /// The value as a scenario writes it, quoted.
    fn quoted(self) -> &'static str {
        match self {
            VictimMask::NicPorts => "\"nic_ports\"",
            VictimMask::None => "\"none\"",
            VictimMask::All => "\"all\"",
        }
    }
}

/// `marking = "validated"`'s input and output thresholds when left out (MVCM's, percent).
pub const VALIDATED_PERCENT: (u64, u64) = (66, 33);

/// Which packets the switches mark with FECN.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Marking {
    /// IB's: packets leaving a congested output (`threshold`, `marking_rate`,
    /// `packet_size`, `victim_mask`).
    #[default]
    Output,
    /// Seed 004's Fig. 12: MVCM's marking and validation decide. A data packet is marked
    /// when its head arrives at an input buffer holding more than `in_threshold_percent`
    /// of it (the packet included), and gets FECN when a marked head leaves an output
    /// queue holding more than `out_threshold_percent` of it. Needs output queues
    /// (`network.speedup`).
    Validated,
}

/// IB CC parameters of every switch and NIC in a run. Integer fields are read wide and
/// range-checked by `errors`, so an error names the key and the field's own range.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct IbccConfig {
    /// Switch: weight 0..=15 of the congestion threshold; 0 = never mark, 1 = the highest
    /// level (late), 15 = the lowest (early). Level = ceil(buffer_flits * (16 - w) / 16)
    /// flits queued for an output. Default 15.
    pub threshold: u64,
    /// Switch: eligible packets sent between two marked ones (0 = mark every eligible
    /// packet). 0..=65535, default 0.
    pub marking_rate: u64,
    /// Switch: packets shorter than this many 64-byte credits are not marked. 0..=255,
    /// default 0.
    pub packet_size: u64,
    /// Switch: ports that may enter the congestion state without credits. Default
    /// `nic_ports`.
    pub victim_mask: VictimMask,
    /// Source NIC: CCTI step per BECN. 0..=255, default 1.
    pub ccti_increase: u64,
    /// Source NIC: largest CCTI (the CCT has ccti_limit + 1 entries). 0..=16383, default 127.
    pub ccti_limit: u64,
    /// Source NIC: smallest CCTI the timer lowers to. 0..=ccti_limit, default 0.
    pub ccti_min: u64,
    /// Source NIC: the CCTI timer period in units of 1.024 us. 1..=65535, default 150.
    pub ccti_timer: u64,
    /// The CCT as 16-bit IB entries (shift in bits 15:14, multiplier in 13:0; IRD =
    /// (packet flits * multiplier) >> shift flit times). Default: entry i = multiplier i,
    /// shift 0 (IRD = i packet times), ccti_limit + 1 entries.
    pub cct: Option<Vec<u64>>,
    /// Switch: which packets get FECN. Default `output`.
    pub marking: Marking,
    /// Switch, `marking = "validated"` only: the input buffer's fill, in percent, above
    /// which a head is marked. 1..=100, default 66 (MVCM's).
    pub in_threshold_percent: Option<u64>,
    /// Switch, `marking = "validated"` only: the output queue's fill, in percent, above
    /// which a marked head gets FECN. 1..=100, default 33 (MVCM's).
    pub out_threshold_percent: Option<u64>,
}

impl Default for IbccConfig {
    /// The seed's Table I.
    fn default() -> Self {
        IbccConfig {
            threshold: 15,
            marking_rate: 0,
            packet_size: 0,
            victim_mask: VictimMask::NicPorts,
            ccti_increase: 1,
            ccti_limit: 127,
            ccti_min: 0,
            ccti_timer: 150,
            cct: None,
            marking: Marking::Output,
            in_threshold_percent: None,
            out_threshold_percent: None,
        }
    }
}

impl IbccConfig {
    /// Check every field; the first error (`errors` has them all).
    pub fn validate(&self, prefix: &str) -> Result<(), FieldError> {
        first(self.errors(prefix))
    }

    /// Every error of the fields, each naming `prefix.key` and the field's range.
    pub fn errors(&self, prefix: &str) -> Vec<FieldError> {
        let mut errs = Vec::new();
        let key = |k: &str| {
            if prefix.is_empty() {
                k.to_string()
            } else {
                format!("{prefix}.{k}")
            }
        };
        for (k, v, lo, hi, what) in [
            ("threshold", self.threshold, 0, 15, "the 4-bit IB weight"),
            ("marking_rate", self.marking_rate, 0, 0xFFFF, "16 bits"),
            (
                "packet_size",
                self.packet_size,
                0,
                0xFF,
                "64-byte credits, 8 bits",
            ),
            ("ccti_increase", self.ccti_increase, 0, 0xFF, "8 bits"),
            (
                "ccti_limit",
                self.ccti_limit,
                0,
                MAX_CCTI,
                "the 14-bit CCT index",
            ),
            (
                "ccti_min",
                self.ccti_min,
                0,
                self.ccti_limit.min(0xFF),
                "8 bits, at most ccti_limit",
            ),
            (
                "ccti_timer",
                self.ccti_timer,
                1,
                0xFFFF,
                "units of 1.024 us, 16 bits",
            ),
        ] {
            if !(lo..=hi).contains(&v) {
                errs.push(bad(&key(k), v, format!("must be in {lo}..={hi} ({what})")));
            }
        }
        for (k, v) in [
            ("in_threshold_percent", self.in_threshold_percent),
            ("out_threshold_percent", self.out_threshold_percent),
        ] {
            let Some(v) = v else { continue };
            if self.marking != Marking::Validated {
                errs.push(bad(
                    &key(k),
                    v,
                    "is used only with marking = \"validated\" (MVCM's thresholds)",
                ));
            } else if !(1..=100).contains(&v) {
                errs.push(bad(
                    &key(k),
                    v,
                    "must be in 1..=100 (percent of the buffer)",
                ));
            }
        }
        // IB's output-marking keys set to other than their defaults do nothing when the
        // switches mark by MVCM's thresholds, or (weight 0) never mark
        let unread = match (self.marking, self.threshold) {
            (Marking::Validated, _) => Some((
                true,
                "is used only with marking = \"output\" (IB's output marking); with \"validated\" the switches mark by in_threshold_percent and out_threshold_percent",
            )),
            (Marking::Output, 0) => Some((
                false,
                "is not used with threshold = 0 (the switches never mark): remove it or set threshold in 1..=15",
            )),
            _ => None,
        };
        if let Some((with_threshold, why)) = unread {
            let d = IbccConfig::default();
            for (k, set, v) in [
                (
                    "threshold",
                    with_threshold && self.threshold != d.threshold,
                    self.threshold.to_string(),
                ),
                (
                    "marking_rate",
                    self.marking_rate != d.marking_rate,
                    self.marking_rate.to_string(),
                ),
                (
                    "packet_size",
                    self.packet_size != d.packet_size,
                    self.packet_size.to_string(),
                ),
                (
                    "victim_mask",
                    self.victim_mask != d.victim_mask,
                    self.victim_mask.quoted().to_string(),
                ),
            ] {
                if set {
                    errs.push(bad(&key(k), v, why));
                }
            }
        }
        if let Some(cct) = &self.cct {
            // The first bad entry (one error per list). Its range is what a message about
            // an entry that does not even deserialize (`cct = [0, -2]`) quotes
            // (toml_error.rs).
            if let Some((i, &v)) = cct.iter().enumerate().find(|(_, &v)| v > 0xFFFF) {
                errs.push(bad(
                    &key(&format!("cct[{i}]")),
                    v,
                    "must be in 0..=65535 (shift in bits 15:14, multiplier in 13:0)",
                ));
            }
            // the length follows from ccti_limit: checked when that is valid
            let want = self.ccti_limit + 1;
            if self.ccti_limit <= MAX_CCTI && cct.len() as u64 != want {
                errs.push(bad(
                    &key("cct"),
                    format!("{} entries", cct.len()),
                    format!("must have ccti_limit + 1 = {want} entries"),
                ));
            }
        }
        errs
    }

    /// The CCT entries (ccti_limit + 1 of them).
    pub fn table(&self) -> Vec<u16> {
        match &self.cct {
            Some(v) => v.iter().map(|&e| e as u16).collect(),
            None => (0..=self.ccti_limit).map(|i| i as u16).collect(),
        }
    }

    /// The flit count at which an output enters the congestion state, for input buffers of
    /// `buffer_flits` (None: threshold 0, never).
    pub fn level(&self, buffer_flits: u32) -> Option<u32> {
        (self.threshold > 0).then(|| {
            let w = self.threshold;
            ((buffer_flits as u64 * (16 - w)).div_ceil(16)).max(1) as u32
        })
    }

    /// Under `marking = "validated"`: the input-buffer and output-queue levels (flits),
    /// MVCM's `percent * capacity / 100`, above which a head is marked and validated.
    pub fn validated_levels(&self, buffer_flits: u32, out_flits: u32) -> Option<(u32, u32)> {
        let level = |pct: u64, cap: u32| (pct * cap as u64 / 100) as u32;
        (self.marking == Marking::Validated).then(|| {
            (
                level(
                    self.in_threshold_percent.unwrap_or(VALIDATED_PERCENT.0),
                    buffer_flits,
                ),
                level(
                    self.out_threshold_percent.unwrap_or(VALIDATED_PERCENT.1),
                    out_flits,
                ),
            )
        })
    }

    /// The CCTI timer period in cycles of `cycle_ns` (at least 1).
    pub fn timer_cycles(&self, cycle_ns: f64) -> u64 {
        ((self.ccti_timer as f64 * TIMER_UNIT_NS / cycle_ns).round() as u64).max(1)
    }

    /// One line for reports: `IBCC w=15 mr=0 inc=1 lim=127 T=150` (with `marking =
    /// "validated"`: `IBCC validated in>66% out>33% inc=1 lim=127 T=150`).
    pub fn describe(&self) -> String {
        let marks = match self.marking {
            Marking::Output => format!("w={} mr={}", self.threshold, self.marking_rate),
            Marking::Validated => format!(
                "validated in>{}% out>{}%",
                self.in_threshold_percent.unwrap_or(66),
                self.out_threshold_percent.unwrap_or(33)
            ),
        };
        format!(
            "IBCC {marks} inc={} lim={} T={}",
            self.ccti_increase, self.ccti_limit, self.ccti_timer
        )
    }
}
