//! Run-time faults, set in the scenario file as `[[network.faults]]` tables: credit returns
//! that are late or jittered, an ejection port that stalls or slows down, a link that
//! pauses, and the congestion control's registers rewritten through the NICs' CSR port
//! while traffic runs (`pft_rewrite`; the scheme turns the table into CSR writes). Unlike the
//! test hook `Fault` (which breaks an invariant on purpose), these are things a real fabric
//! does; the network must stay lossless through them, and the invariant checker says so.
//!
//! Every timed fault has a window: active from cycle `start` for `duration` cycles (absent:
//! for ever), repeating every `period` cycles when a period is given. Randomness (credit
//! jitter) is a hash of the run seed, the link and the cycle, so it depends neither on the
//! component evaluation order nor on anything else in the run.

use super::config::{bad, first, Fault, FieldError, NetConfig};
use super::network::{Network, ONE};
use super::plain::GENERAL;
use super::scheme::Scheme;
use super::store::{End, Endpoint, SwitchId};
use super::topology::{Peer, Topology};
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;

/// Largest extra credit-return delay accepted, cycles: for one fault, and for all credit
/// faults of a network together (the credit channels are sized for the sum).
pub const MAX_CREDIT_EXTRA_CYCLES: u32 = 1 << 16;
/// Largest credit jitter accepted, cycles. Jitter bunches credits; a NIC's gate takes at
/// most 255 in one cycle (`credit_return` is 8 bits) and the NIC holds the rest for the
/// next cycles, so nothing is lost, but a long jitter would mostly test that queue.
pub const MAX_CREDIT_JITTER_CYCLES: u32 = 200;
/// Smallest non-zero ejection rate a fault may set (the drain accumulator's resolution).
pub const MIN_EJECT_RATE: f64 = 1.0 / 65536.0;

/// When a fault is active: from `start` for `duration` cycles (None: for ever), repeating
/// every `period` cycles (None: once). `period`, when given, must exceed `duration`. In
/// files these are the keys `start`, `duration`, `period` of the fault's table.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Window {
    pub start: u64,
    pub duration: Option<u64>,
    pub period: Option<u64>,
}

impl Window {
    /// Active in cycle `now`.
    #[inline]
    pub fn active(&self, now: u64) -> bool {
        if now < self.start {
            return false;
        }
        let t = now - self.start;
        match (self.duration, self.period) {
            (None, _) => true,
            (Some(d), None) => t < d,
            (Some(d), Some(p)) => t % p < d,
        }
    }

    fn errors(&self, field: &str, errs: &mut Vec<FieldError>) {
        if self.duration == Some(0) {
            errs.push(bad(
                &format!("{field}.duration"),
                0,
                "must be at least 1 cycle (leave it out for a fault that never ends)",
            ));
        }
        if let Some(p) = self.period {
            match self.duration {
                None => errs.push(bad(
                    &format!("{field}.period"),
                    p,
                    "needs a duration (a fault that never ends cannot repeat)",
                )),
                Some(d) if p <= d => errs.push(bad(
                    &format!("{field}.period"),
                    p,
                    format!("must exceed duration = {d}"),
                )),
                Some(_) => {}
            }
        }
    }
}

/// Which credit channels a credit fault touches.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CreditScope {
    /// Every credit channel in the fabric.
    #[default]
    All,
    /// Only the credits returning to NICs: the ones the NICs' gates count (`c`).
    Nics,
}

/// Which link pauses: a NIC's injection link (`{ nic = N }`), or a switch output
/// (`{ switch = S, port = P }`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct LinkRef {
    pub nic: Option<u32>,
    pub switch: Option<u32>,
    pub port: Option<u32>,
}

impl LinkRef {
    /// The value as a scenario writes it: `{ nic = 3, switch = 0 }`.
    fn as_written(&self) -> String {
        let keys: Vec<String> = [
            ("nic", self.nic),
            ("switch", self.switch),
            ("port", self.port),
        ]
        .iter()
        .filter_map(|(k, v)| v.map(|v| format!("{k} = {v}")))
        .collect();
        if keys.is_empty() {
            "{}".into()
        } else {
            format!("{{ {} }}", keys.join(", "))
        }
    }

    fn errors(&self, field: &str, errs: &mut Vec<FieldError>) {
        match (self.nic, self.switch, self.port) {
            (Some(_), None, None) | (None, Some(_), Some(_)) => {}
            _ => errs.push(bad(
                field,
                self.as_written(),
                "must be { nic = N } (a NIC's injection link) or { switch = S, port = P } (a switch output)",
            )),
        }
    }
}

/// One run-time fault.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum FaultSpec {
    /// Every credit sent while active arrives `cycles` later than the credit latency.
    CreditDelay {
        cycles: u32,
        #[serde(default)]
        scope: CreditScope,
        #[serde(default)]
        start: u64,
        #[serde(default)]
        duration: Option<u64>,
        #[serde(default)]
        period: Option<u64>,
    },
    /// Every credit sent while active arrives 0..=`max_cycles` later, pseudo-random per
    /// link and cycle.
    CreditJitter {
        max_cycles: u32,
        #[serde(default)]
        scope: CreditScope,
        #[serde(default)]
        start: u64,
        #[serde(default)]
        duration: Option<u64>,
        #[serde(default)]
        period: Option<u64>,
    },
    /// The listed NICs (all if absent) drain their receive buffers at `rate` flits per
    /// cycle while active; `rate = 0` stalls the ejection port.
    Eject {
        #[serde(default)]
        nics: Option<Vec<u32>>,
        rate: f64,
        #[serde(default)]
        start: u64,
        #[serde(default)]
        duration: Option<u64>,
        #[serde(default)]
        period: Option<u64>,
    },
    /// The link sends no flit while active (credits still return on its credit channel):
    /// a NIC injection link holds its NIC's flits, a switch output holds its packet.
    LinkPause {
        // (a table: serde would read `[0, 1]` as `{ nic = 0, switch = 1 }`)
        #[serde(deserialize_with = "super::config::tables::table_only")]
        link: LinkRef,
        #[serde(default)]
        start: u64,
        #[serde(default)]
        duration: Option<u64>,
        #[serde(default)]
        period: Option<u64>,
    },
    /// In cycle `at`, the driver rewrites the registers of the listed NICs (all if
    /// absent) with the table `pft` (keys of a `[[pft]]` entry), one CSR write per cycle,
    /// while traffic runs. The scheme checks the table (`cc::pft`: CTRL last, SEED kept)
    /// and turns it into CSR writes.
    #[serde(rename = "pft_rewrite")]
    RegRewrite {
        at: u64,
        #[serde(default)]
        nics: Option<Vec<u32>>,
        #[serde(rename = "pft")]
        regs: toml::Table,
    },
}

impl FaultSpec {
    /// The window of a timed fault (a PFT rewrite happens once, in cycle `at`).
    pub fn window(&self) -> Window {
        match self {
            FaultSpec::CreditDelay {
                start,
                duration,
                period,
                ..
            }
            | FaultSpec::CreditJitter {
                start,
                duration,
                period,
                ..
            }
            | FaultSpec::Eject {
                start,
                duration,
                period,
                ..
            }
            | FaultSpec::LinkPause {
                start,
                duration,
                period,
                ..
            } => Window {
                start: *start,
                duration: *duration,
                period: *period,
            },
            FaultSpec::RegRewrite { at, .. } => Window {
                start: *at,
                duration: Some(1),
                period: None,
            },
        }
    }

    /// Check the values that do not depend on the topology; the first error (`errors` has
    /// them all). `field` is e.g. `network.faults[2]`; `deadlock_cycles` is the network's
    /// deadlock limit (0: off).
    pub fn validate(&self, field: &str, deadlock_cycles: u64) -> Result<(), FieldError> {
        first(self.errors(field, deadlock_cycles))
    }

    /// Every error of the values that do not depend on the topology (see `validate`).
    pub fn errors(&self, field: &str, deadlock_cycles: u64) -> Vec<FieldError> {
        let mut errs = Vec::new();
        let w = self.window();
        w.errors(field, &mut errs);
        // A stall that outlasts the deadlock detector would be reported as a deadlock.
        let stall = |what: &str, errs: &mut Vec<FieldError>| {
            if deadlock_cycles == 0 {
                return;
            }
            match w.duration {
                Some(d) if d < deadlock_cycles => {}
                d => errs.push(bad(
                    &format!("{field}.duration"),
                    d.map_or("none (for ever)".to_string(), |d| d.to_string()),
                    format!(
                        "a {what} must end within deadlock_cycles = {deadlock_cycles} (or set network.deadlock_cycles = 0)"
                    ),
                )),
            }
        };
        let no_nics = |nics: &Option<Vec<u32>>, errs: &mut Vec<FieldError>| {
            if nics.as_ref().is_some_and(|v| v.is_empty()) {
                errs.push(bad(
                    &format!("{field}.nics"),
                    "[]",
                    "must list at least one NIC (leave it out for all NICs)",
                ));
            }
        };
        match self {
            FaultSpec::CreditDelay { cycles, .. } => {
                if !(1..=MAX_CREDIT_EXTRA_CYCLES).contains(cycles) {
                    errs.push(bad(
                        &format!("{field}.cycles"),
                        cycles,
                        format!("must be in 1..={MAX_CREDIT_EXTRA_CYCLES}"),
                    ));
                }
            }
            FaultSpec::CreditJitter { max_cycles, .. } => {
                if !(1..=MAX_CREDIT_JITTER_CYCLES).contains(max_cycles) {
                    errs.push(bad(
                        &format!("{field}.max_cycles"),
                        max_cycles,
                        format!("must be in 1..={MAX_CREDIT_JITTER_CYCLES} (a NIC's gate takes at most 255 credits per cycle)"),
                    ));
                }
            }
            FaultSpec::Eject { nics, rate, .. } => {
                if !(*rate == 0.0 || (MIN_EJECT_RATE..=1.0).contains(rate)) {
                    errs.push(bad(
                        &format!("{field}.rate"),
                        rate,
                        "must be 0 (a stalled port) or in [1/65536, 1] flits per cycle",
                    ));
                }
                no_nics(nics, &mut errs);
                // (reg_rewrite dedups its list; a rate set twice is more likely a typo)
                let list = nics.as_deref().unwrap_or(&[]);
                for (i, n) in list.iter().enumerate() {
                    if let Some(j) = list[..i].iter().position(|m| m == n) {
                        errs.push(bad(
                            &format!("{field}.nics[{i}]"),
                            n,
                            format!("is listed twice (also nics[{j}]); list each NIC once"),
                        ));
                    }
                }
                if *rate == 0.0 {
                    stall("stalled ejection port", &mut errs);
                }
            }
            FaultSpec::LinkPause { link, .. } => {
                link.errors(&format!("{field}.link"), &mut errs);
                stall("link pause", &mut errs);
            }
            FaultSpec::RegRewrite { nics, .. } => {
                // The table's keys are the scheme's to check (cc::validate).
                no_nics(nics, &mut errs);
            }
        }
        errs
    }

    /// True for a fault that can stop flits: a stalled ejection port or a paused link.
    pub fn stalls(&self) -> bool {
        matches!(
            self,
            FaultSpec::Eject { rate, .. } if *rate == 0.0
        ) || matches!(self, FaultSpec::LinkPause { .. })
    }

    /// The largest extra credit delay this fault can add, cycles.
    pub fn max_credit_extra(&self) -> u32 {
        match self {
            FaultSpec::CreditDelay { cycles, .. } => *cycles,
            FaultSpec::CreditJitter { max_cycles, .. } => *max_cycles,
            _ => 0,
        }
    }
}

/// splitmix64: the jitter of a credit from the run seed, the credit's sender and the cycle.
#[inline]
pub(crate) fn mix(seed: u64, tx: u32, now: u64) -> u64 {
    let mut z = seed ^ ((tx as u64) << 40) ^ now.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

// ---------------------------------------------------------------------------------------
// Fault state of a running network

/// The faults of one run and their state: the test hook (`NetConfig::fault`), the
/// run-time faults with which are active now, the extra credit delay they add, and the CSR
/// writes that `pft_rewrite` faults queue at the NICs.
#[derive(Debug, Default)]
pub(crate) struct FaultState {
    pub test: Option<Fault>,
    pub test_fired: bool,
    pub specs: Vec<FaultSpec>,
    pub on: Vec<bool>,
    /// Extra credit delay now: fixed and jitter (max), for credits to NICs and to switches.
    pub credit: CreditFx,
    /// Pending CSR writes per NIC and their total.
    pub csr_q: Vec<VecDeque<(u8, u32)>>,
    pub csr_pending: usize,
}

impl FaultState {
    pub fn new(cfg: &NetConfig, nodes: usize) -> Self {
        FaultState {
            test: cfg.fault,
            test_fired: false,
            specs: cfg.faults.clone(),
            on: vec![false; cfg.faults.len()],
            credit: CreditFx::default(),
            csr_q: if cfg.faults.is_empty() {
                Vec::new()
            } else {
                (0..nodes).map(|_| VecDeque::new()).collect()
            },
            csr_pending: 0,
        }
    }
}

/// Extra delay of credit returns while credit faults are active.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct CreditFx {
    pub on: bool,
    pub fixed_nic: u32,
    pub jitter_nic: u32,
    pub fixed_sw: u32,
    pub jitter_sw: u32,
}

impl<S: Scheme> Network<S> {
    /// Start and end the run-time faults whose windows open or close in this cycle.
    pub(crate) fn apply_faults(&mut self) {
        let now = self.now;
        let (mut credit, mut eject, mut pause) = (false, false, false);
        for (i, f) in self.faults.specs.iter().enumerate() {
            if let FaultSpec::RegRewrite { at, nics, regs } = f {
                if *at == now {
                    let writes = self.cc.csr_writes(regs);
                    let mut list: Vec<u32> =
                        nics.clone().unwrap_or_else(|| (0..self.nodes).collect());
                    list.sort_unstable();
                    list.dedup(); // a NIC listed twice is rewritten once
                    for n in list {
                        self.faults.csr_q[n as usize].extend(writes.iter().copied());
                        self.faults.csr_pending += writes.len();
                        self.nic.poke(n);
                    }
                }
                continue;
            }
            let on = f.window().active(now);
            if on != self.faults.on[i] {
                self.faults.on[i] = on;
                match f {
                    FaultSpec::CreditDelay { .. } | FaultSpec::CreditJitter { .. } => credit = true,
                    FaultSpec::Eject { .. } => eject = true,
                    FaultSpec::LinkPause { .. } => pause = true,
                    FaultSpec::RegRewrite { .. } => {}
                }
            }
        }
        let active = self
            .faults
            .specs
            .iter()
            .zip(&self.faults.on)
            .filter(|(_, &on)| on)
            .map(|(f, _)| f);
        if credit {
            let mut fx = CreditFx::default();
            for f in active.clone() {
                let (fixed, jitter, scope) = match *f {
                    FaultSpec::CreditDelay { cycles, scope, .. } => (cycles, 0, scope),
                    FaultSpec::CreditJitter {
                        max_cycles, scope, ..
                    } => (0, max_cycles, scope),
                    _ => continue,
                };
                fx.fixed_nic += fixed;
                fx.jitter_nic += jitter;
                if scope == CreditScope::All {
                    fx.fixed_sw += fixed;
                    fx.jitter_sw += jitter;
                }
            }
            fx.on = fx.fixed_nic + fx.jitter_nic > 0;
            self.faults.credit = fx;
        }
        if eject {
            // a new ejection rate may end a sleeping NIC's quiet
            self.nic.poke_all();
            for s in &mut self.nic.st {
                s.rate = self.rate_fp;
            }
            // Overlapping ejection faults: the slowest rate wins.
            for f in active.clone() {
                if let FaultSpec::Eject { nics, rate, .. } = f {
                    let r = if *rate == 0.0 {
                        0
                    } else {
                        ((rate * ONE as f64).round() as u32).clamp(1, ONE)
                    };
                    let mut set = |n: usize| {
                        let s = &mut self.nic.st[n].rate;
                        *s = (*s).min(r);
                    };
                    match nics {
                        Some(v) => v.iter().for_each(|&n| set(n as usize)),
                        None => (0..self.nodes as usize).for_each(set),
                    }
                }
            }
        }
        if pause {
            for s in &mut self.nic.st {
                s.inj_paused = false;
            }
            for s in self.sw.sw.iter_mut() {
                s.paused_out = 0;
            }
            for f in active {
                if let FaultSpec::LinkPause { link, .. } = f {
                    match (link.nic, link.switch, link.port) {
                        (Some(n), _, _) => self.nic.st[n as usize].inj_paused = true,
                        (None, Some(s), Some(p)) => self.sw.sw[SwitchId(s)].paused_out |= 1 << p,
                        _ => unreachable!("validated"),
                    }
                }
            }
        }
    }

    /// The cycle a credit sent now by a receiver towards `tx` arrives.
    #[inline]
    pub(crate) fn credit_at(&self, tx: Endpoint) -> u64 {
        self.credit_at_in::<GENERAL>(tx)
    }

    /// `credit_at`; `PLAIN` a plain copy (`plain.rs`): the caller runs a plain cycle
    /// (`Network::plain`), with no credit-delay or credit-jitter fault on.
    #[inline(always)]
    pub(crate) fn credit_at_in<const PLAIN: u8>(&self, tx: Endpoint) -> u64 {
        let at = match tx.end() {
            End::Port(t) if !self.sw.lat_cred.is_empty() => {
                self.now + self.sw.lat_cred[t.0 as usize] as u64
            }
            _ => self.now + self.lat_credit,
        };
        if PLAIN != GENERAL || !self.faults.credit.on {
            return at;
        }
        let (fixed, jitter) = if let End::Nic(_) = tx.end() {
            (self.faults.credit.fixed_nic, self.faults.credit.jitter_nic)
        } else {
            (self.faults.credit.fixed_sw, self.faults.credit.jitter_sw)
        };
        let j = if jitter > 0 {
            mix(self.seed(), tx.raw(), self.now) % (jitter as u64 + 1)
        } else {
            0
        };
        at + fixed as u64 + j
    }
}

/// Check that the faults name NICs, switches and ports that exist: pushes an error for each
/// fault's first NIC out of range (one per list) and each bad link.
pub(crate) fn check_refs(faults: &[FaultSpec], topo: &Topology, errs: &mut Vec<FieldError>) {
    let nodes = topo.nodes();
    let sws = topo.switches();
    for (i, f) in faults.iter().enumerate() {
        let field = format!("faults[{i}]");
        let nic_list = match f {
            FaultSpec::Eject { nics, .. } | FaultSpec::RegRewrite { nics, .. } => nics.as_deref(),
            _ => None,
        };
        if let Some(&n) = nic_list.unwrap_or(&[]).iter().find(|&&n| n >= nodes) {
            errs.push(bad(
                &format!("{field}.nics"),
                n.to_string(),
                format!("NICs are 0..{nodes}"),
            ));
        }
        let FaultSpec::LinkPause { link, .. } = f else {
            continue;
        };
        if let Some(n) = link.nic.filter(|&n| n >= nodes) {
            errs.push(bad(
                &format!("{field}.link.nic"),
                n.to_string(),
                format!("NICs are 0..{nodes}"),
            ));
        }
        if let (Some(s), Some(p)) = (link.switch, link.port) {
            match sws.get(s as usize) {
                None => errs.push(bad(
                    &format!("{field}.link.switch"),
                    s.to_string(),
                    format!("switches are 0..{}", sws.len()),
                )),
                Some(spec) if p >= spec.radix || spec.ports[p as usize] == Peer::Unused => errs
                    .push(bad(
                        &format!("{field}.link.port"),
                        p.to_string(),
                        format!(
                            "must be a connected port of {} (0..{})",
                            spec.name, spec.radix
                        ),
                    )),
                Some(_) => {}
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn windows() {
        let once = Window {
            start: 10,
            duration: Some(5),
            period: None,
        };
        let on: Vec<u64> = (0..40).filter(|&t| once.active(t)).collect();
        assert_eq!(on, vec![10, 11, 12, 13, 14]);
        let rep = Window {
            period: Some(8),
            ..once
        };
        let on: Vec<u64> = (0..30).filter(|&t| rep.active(t)).collect();
        assert_eq!(
            on,
            vec![10, 11, 12, 13, 14, 18, 19, 20, 21, 22, 26, 27, 28, 29]
        );
        assert!(Window::default().active(0) && Window::default().active(u64::MAX));
    }

    #[test]
    fn parse_and_refuse() {
        #[derive(Deserialize)]
        struct F {
            faults: Vec<FaultSpec>,
        }
        let f: F = toml::from_str(
            r#"
            [[faults]]
            kind = "credit_jitter"
            max_cycles = 20
            scope = "nics"
            [[faults]]
            kind = "eject"
            nics = [3]
            rate = 0.0
            start = 100
            duration = 50
            period = 1000
            [[faults]]
            kind = "link_pause"
            link = { switch = 2, port = 5 }
            start = 7
            duration = 9
            [[faults]]
            kind = "pft_rewrite"
            at = 5000
            pft = { det_mode = "ft", thr_mode = "fi", m = 0, n = 4 }
            "#,
        )
        .unwrap();
        assert_eq!(f.faults.len(), 4);
        for (i, x) in f.faults.iter().enumerate() {
            x.validate(&format!("faults[{i}]"), 100_000).unwrap();
        }
        assert_eq!(
            f.faults[2],
            FaultSpec::LinkPause {
                link: LinkRef {
                    nic: None,
                    switch: Some(2),
                    port: Some(5)
                },
                start: 7,
                duration: Some(9),
                period: None,
            }
        );
        // A stall without an end would look like a deadlock.
        let e = FaultSpec::Eject {
            nics: None,
            rate: 0.0,
            start: 0,
            duration: None,
            period: None,
        }
        .validate("network.faults[0]", 100_000)
        .unwrap_err();
        assert_eq!(e.field, "network.faults[0].duration");
        let e = FaultSpec::CreditJitter {
            max_cycles: 500,
            scope: CreditScope::All,
            start: 0,
            duration: None,
            period: None,
        }
        .validate("f", 0)
        .unwrap_err();
        assert!(e.to_string().contains("1..=200"), "{e}");
    }
}
