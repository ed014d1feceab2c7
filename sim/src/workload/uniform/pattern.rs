//! The destinations of the `uniform` workload (`pattern = { kind = ... }`) and their checks
//! against the NIC count.

use crate::net::types::NodeId;
use crate::net::Pattern;
use crate::workload::config::ConfigErrors;
use serde::{Deserialize, Serialize};

/// The destinations of the `uniform` workload (`pattern = { kind = ... }`): BookSim's
/// synthetic patterns. The permutations work on the b = log2(nodes) bits of a NIC number;
/// a NIC that a permutation maps to itself sends nothing.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(
    remote = "Self",
    tag = "kind",
    rename_all = "snake_case",
    deny_unknown_fields
)]
pub enum DestPattern {
    /// Uniform over the other nodes.
    #[default]
    Uniform,
    /// The upper and lower b/2 bits swapped (4^j NICs).
    Transpose,
    /// Every bit inverted (a power of two NICs).
    Complement,
    /// The b bits in reverse order (a power of two NICs).
    BitReversal,
    /// Perfect shuffle: the b bits rotated left by one (a power of two NICs).
    Shuffle,
    /// On a k-ary n-cube (k^n NICs; default one ring of all NICs): each coordinate moves
    /// ceil(k/2) - 1 places plus.
    Tornado { k: Option<u32>, n: Option<u32> },
    /// NIC s sends to NIC (s + by) mod nodes.
    Shift { by: u32 },
    /// `percent` % of the messages to NIC `node`, the others uniform (the hot spot sends
    /// uniformly).
    HotSpot { node: u32, percent: u32 },
    /// A random permutation of the NICs drawn from `seed` (default 1; Fisher-Yates on
    /// xoshiro256++, as `net-bench --pattern permutation`); a NIC mapped to itself sends
    /// nothing.
    Permutation {
        #[serde(default = "default_permutation_seed")]
        seed: u64,
    },
    /// Each message to a NIC drawn uniformly from the next group, `(i + 1) mod groups`,
    /// afresh per message, the NICs taken in groups of `group` in order: on a dragonfly,
    /// `group` = a * p (BookSim's `bad_dragon`), its default there (`resolve_groups`);
    /// required elsewhere.
    GroupShift {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        group: Option<u32>,
    },
}

impl Serialize for DestPattern {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        DestPattern::serialize(self, s)
    }
}

impl<'de> Deserialize<'de> for DestPattern {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        const UNIT: [&str; 5] = [
            "uniform",
            "transpose",
            "complement",
            "bit_reversal",
            "shuffle",
        ];
        crate::workload::config::tagged_strict(d, "kind", &UNIT, DestPattern::deserialize)
    }
}

/// Refuses a pattern that does not fit `nodes` NICs, and a fixed permutation that maps
/// every NIC to itself there (`shift` by a multiple of the NIC count, `tornado` with k = 2,
/// ...): it would send nothing at all.
pub(super) fn check_pattern(p: &DestPattern, nodes: u32, key: &str, errs: &mut ConfigErrors) {
    match p.pattern(nodes) {
        // the key inside the table, where one key is at fault
        Err(e) => match *p {
            DestPattern::HotSpot { percent, .. } if percent > 100 => {
                errs.push(&format!("{key}.percent"), percent, "must be in 0..=100")
            }
            DestPattern::HotSpot { node, .. } if node >= nodes => errs.push(
                &format!("{key}.node"),
                node,
                format!("must be in 0..={} (a NIC)", nodes.saturating_sub(1)),
            ),
            // (each rule names the key's range, not the value: it is also the range a
            // value of the wrong type is told, `toml_error`'s probe)
            DestPattern::GroupShift { group: Some(g) } => errs.push(
                &format!("{key}.group"),
                g,
                format!(
                    "must divide the {nodes} NICs into at least 2 groups: a divisor of {nodes} in 1..={} (a dragonfly's a*p NICs per group)",
                    nodes / 2
                ),
            ),
            DestPattern::GroupShift { group: None } => {
                errs.push(&format!("{key}.group"), "(not given)", e)
            }
            DestPattern::Tornado {
                k: Some(k),
                n: Some(n),
            } if k < 2 || n < 1 => {
                let cube = format!("(a k-ary n-cube of k^n = {nodes} NICs)");
                if k < 2 {
                    let allowed = format!("must be in 2..={nodes} {cube}");
                    errs.push(&format!("{key}.k"), k, allowed);
                }
                if n < 1 {
                    let allowed = format!("must be in 1..={} {cube}", nodes.max(1).ilog2());
                    errs.push(&format!("{key}.n"), n, allowed);
                }
            }
            _ => errs.push(key, p.kind(), e),
        },
        Ok(q) => {
            if q.sends_nothing(nodes) {
                errs.push(
                    key,
                    p.kind(),
                    format!("maps every one of the {nodes} NICs to itself: no NIC would send"),
                );
            }
        }
    }
}

fn default_permutation_seed() -> u64 {
    1
}

impl DestPattern {
    /// `group_shift` without `group` takes `group` (a dragonfly's a * p).
    pub(super) fn resolve_group(&mut self, group: u32) {
        if let DestPattern::GroupShift { group: g @ None } = self {
            *g = Some(group);
        }
    }

    pub(super) fn is_uniform(&self) -> bool {
        *self == DestPattern::Uniform
    }

    /// Its `kind`.
    pub fn kind(&self) -> &'static str {
        match self {
            DestPattern::Uniform => "uniform",
            DestPattern::Transpose => "transpose",
            DestPattern::Complement => "complement",
            DestPattern::BitReversal => "bit_reversal",
            DestPattern::Shuffle => "shuffle",
            DestPattern::Tornado { .. } => "tornado",
            DestPattern::Shift { .. } => "shift",
            DestPattern::HotSpot { .. } => "hot_spot",
            DestPattern::Permutation { .. } => "permutation",
            DestPattern::GroupShift { .. } => "group_shift",
        }
    }

    /// The network's pattern for `nodes` NICs, or why it cannot run there.
    pub fn pattern(&self, nodes: u32) -> Result<Pattern, String> {
        let p = match *self {
            DestPattern::Uniform => Pattern::Uniform,
            DestPattern::Transpose => Pattern::Transpose,
            DestPattern::Complement => Pattern::Complement,
            DestPattern::BitReversal => Pattern::BitReversal,
            DestPattern::Shuffle => Pattern::Shuffle,
            DestPattern::Tornado { k, n } => match (k, n) {
                (None, None) => Pattern::Tornado { k: nodes, n: 1 },
                (Some(k), Some(n)) => Pattern::Tornado { k, n },
                _ => return Err("give both k and n (or neither: one ring of all NICs)".into()),
            },
            DestPattern::Shift { by } => Pattern::Shift { by },
            DestPattern::HotSpot { node, percent } => {
                if percent > 100 {
                    return Err(format!("percent = {percent}: must be in 0..=100"));
                }
                Pattern::HotSpot {
                    dst: NodeId(node),
                    percent: percent as u8,
                }
            }
            DestPattern::Permutation { seed } => Pattern::Permutation { seed },
            DestPattern::GroupShift { group: Some(group) } => Pattern::GroupShift { group },
            DestPattern::GroupShift { group: None } => {
                return Err(
                    "required here: the NICs of a group (its default, a * p, is a dragonfly's)"
                        .into(),
                )
            }
        };
        p.check(nodes)?;
        Ok(p)
    }
}
