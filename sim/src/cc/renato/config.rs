//! The keys of Renato's proposal (`[[cc]] kind = "renato"`), as seed 004 §3.2.1 describes
//! it; the defaults are the configuration seed 004 compares against (window 1, LIPD).

use crate::cc::round_trip::{round_trip, RoundTrip};
use crate::net::config::{bad, FieldError};
use crate::net::NetConfig;
use serde::{Deserialize, Serialize};

/// The source's response function (Santos et al., as seed 004 names them).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Response {
    /// Linear Inter-Packet Delay: a marked ACK adds one packet transmission time T to the
    /// flow's delay, a clean ACK takes one away (the seed's "static" choice and its
    /// comparison's).
    #[default]
    Lipd,
    /// Fast Increase Multiplicative Decrease: a marked ACK divides the rate by `m`, a clean
    /// ACK multiplies it by `m` (exponential increase), up to full rate.
    Fimd,
    /// Additive Increase Multiplicative Decrease: a marked ACK halves the rate, a clean ACK
    /// adds `ai_percent` of full rate.
    Aimd,
}

/// What one window and one delay govern at a source.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FlowUnit {
    /// One per origin-destination pair: seed 004's flow (its footnote 1), each queue of
    /// the NIC's full VOQ with its own window and delay.
    #[default]
    Pair,
    /// One per source NIC, shared by all its destinations: every packet of the NIC waits
    /// for the same window and delay (an ablation: the reading under which seed 004's
    /// "window 1 restricts the injection rate" can hold at medium load).
    Source,
}

/// Keys of a `renato` entry.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct RenatoConfig {
    /// The response function. Default `lipd`.
    pub response: Response,
    /// FIMD's factor m. 2..=16, default 2 (the seed's).
    pub m: u64,
    /// AIMD's additive step, percent of full rate per clean ACK. (0, 100], default 6.25.
    pub ai_percent: f64,
    /// The static window, packets outstanding per flow. 1..=255, default 1 (the seed's).
    pub window: u64,
    /// What a flow is: `pair` (default, seed 004's) or `source` (an ablation).
    pub flow: FlowUnit,
    /// The packet transmission time T, cycles (the minimum time to send a packet and
    /// receive its ACK). Default: the network's minimum round trip, as MVCM's RTT_min.
    /// 1..=1048576.
    pub packet_time: Option<u64>,
    /// The data packet's length for that derivation, bytes. Default `mtu_bytes`.
    pub packet_bytes: Option<u64>,
}

impl Default for RenatoConfig {
    fn default() -> Self {
        RenatoConfig {
            response: Response::Lipd,
            m: 2,
            ai_percent: 6.25,
            window: 1,
            flow: FlowUnit::Pair,
            packet_time: None,
            packet_bytes: None,
        }
    }
}

impl RenatoConfig {
    /// Every error of the keys alone.
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
            ("m", Some(self.m), 2, 16),
            ("window", Some(self.window), 1, 255),
            ("packet_time", self.packet_time, 1, 1 << 20),
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
        if !(self.ai_percent > 0.0 && self.ai_percent <= 100.0) {
            errs.push(bad(
                &key("ai_percent"),
                self.ai_percent,
                "must be in (0, 100] (percent of full rate per clean ACK)",
            ));
        }
        // keys the chosen response or a given T leaves unread (a value equal to the
        // default changes nothing and is let through)
        let d = RenatoConfig::default();
        if self.m != d.m && self.response != Response::Fimd {
            errs.push(bad(
                &key("m"),
                self.m,
                "is used only with response = \"fimd\" (FIMD's factor)",
            ));
        }
        if self.ai_percent != d.ai_percent && self.response != Response::Aimd {
            errs.push(bad(
                &key("ai_percent"),
                self.ai_percent,
                "is used only with response = \"aimd\" (AIMD's additive step)",
            ));
        }
        if let (Some(b), Some(_)) = (self.packet_bytes, self.packet_time) {
            errs.push(bad(
                &key("packet_bytes"),
                b,
                "derives packet_time from the round trip; with packet_time set it is not used (set one or the other)",
            ));
        }
        errs
    }

    /// The packet transmission time T on the valid network `net` (it needs ACKs), and the
    /// round trip it came from.
    pub fn packet_time_on(
        &self,
        net: &NetConfig,
        longest: impl FnOnce() -> u32,
        prefix: &str,
    ) -> Result<(u32, RoundTrip), Vec<FieldError>> {
        let rt = round_trip(net, longest, self.packet_bytes, prefix)?;
        Ok((self.packet_time.map_or(rt.rtt, |t| t as u32), rt))
    }

    /// One line for reports: `RENATO lipd w=1 T=auto`.
    pub fn describe(&self) -> String {
        let t = self
            .packet_time
            .map_or("auto".to_string(), |t| t.to_string());
        let f = match self.response {
            Response::Lipd => "lipd".to_string(),
            Response::Fimd => format!("fimd m={}", self.m),
            Response::Aimd => format!("aimd +{}%", self.ai_percent),
        };
        let unit = match self.flow {
            FlowUnit::Pair => "",
            FlowUnit::Source => " flow=source",
        };
        format!("RENATO {f} w={} T={t}{unit}", self.window)
    }
}
