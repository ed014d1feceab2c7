//! `BernoulliSource`: a minimal built-in workload for tests and benchmarks (the real
//! workloads live in `crate::workload`). Every cycle, every source NIC starts a message of
//! `msg_bytes` with probability load / flits-per-message, so the offered load is `load`
//! flits per cycle per source; destinations are uniform over the other nodes, one node
//! (incast), a hot spot, or a permutation (shift, transpose, bit complement, bit reversal,
//! tornado). Seeded xoshiro256++: same seed, same messages.

use super::types::{Delivery, Message, NodeId, Workload};
use rand::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// Where messages go.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pattern {
    /// Uniform over all nodes but the source.
    Uniform,
    /// Every other node sends to `dst`.
    Incast { dst: NodeId },
    /// NIC `s` sends to NIC `(s + by) mod nodes` (a shift permutation; nothing when `by` is a
    /// multiple of `nodes`).
    Shift { by: u32 },
    /// The classic permutations (BookSim's `traffic.cpp`), on the b = log2(nodes) bits of a
    /// NIC number (nodes a power of two); a NIC that maps to itself sends nothing.
    /// Transpose: the upper and lower b/2 bits swapped (b even).
    Transpose,
    /// Bit complement: every bit inverted.
    Complement,
    /// Bit reversal: the b bits in reverse order.
    BitReversal,
    /// Perfect shuffle: the b bits rotated left by one.
    Shuffle,
    /// Tornado on a k-ary n-cube: each coordinate moves ceil(k/2) - 1 places plus (the
    /// longest minimal way round a ring); `k = nodes, n = 1` treats the NICs as one ring.
    Tornado { k: u32, n: u32 },
    /// A hot spot: `percent` % of the messages go to `dst`, the others uniform.
    HotSpot { dst: NodeId, percent: u8 },
    /// Each message to a NIC drawn uniformly from the next group, `(i + 1) mod groups`,
    /// afresh per message; groups of `group` NICs numbered in order (a dragonfly's:
    /// BookSim's `bad_dragon`).
    GroupShift { group: u32 },
    /// A random permutation of the NICs drawn from `seed` (Fisher-Yates on xoshiro256++;
    /// `Pattern::permutation`); a NIC mapped to itself sends nothing.
    Permutation { seed: u64 },
}

impl Pattern {
    /// The table of `Permutation { seed }` on `nodes` NICs: entry s is s's destination.
    pub fn permutation(seed: u64, nodes: u32) -> Vec<u32> {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let mut t: Vec<u32> = (0..nodes).collect();
        for i in (1..nodes as usize).rev() {
            let j = (rng.next_u64() % (i as u64 + 1)) as usize;
            t.swap(i, j);
        }
        t
    }

    /// A destination drawn by a drawing pattern other than uniform and the hot spot
    /// (`GroupShift`); None for the others.
    pub fn draw<R: RngCore>(self, rng: &mut R, s: u32, nodes: u32) -> Option<u32> {
        match self {
            Pattern::GroupShift { group } => {
                let next = (s / group + 1) % (nodes / group);
                let off = (((rng.next_u64() >> 32) * group as u64) >> 32) as u32;
                Some(next * group + off)
            }
            _ => None,
        }
    }

    /// The destination of a permutation for source `s` of `nodes` (None for the patterns
    /// that draw a destination, and when `s` maps to itself). `Permutation` needs its
    /// table (`permutation`): the sources keep it.
    pub fn permute(self, s: u32, nodes: u32) -> Option<u32> {
        let b = nodes.trailing_zeros();
        let d = match self {
            Pattern::Shift { by } => (s + by % nodes) % nodes,
            Pattern::Transpose => {
                let h = b / 2;
                ((s >> h) | (s << h)) & (nodes - 1)
            }
            Pattern::Complement => !s & (nodes - 1),
            Pattern::BitReversal => s.reverse_bits().checked_shr(32 - b).unwrap_or(0),
            Pattern::Shuffle => ((s << 1) | (s >> b.saturating_sub(1))) & (nodes - 1),
            Pattern::Tornado { k, n } => (0..n).fold(0, |acc, d| {
                let x = (s / k.pow(d)) % k;
                acc + ((x + k.div_ceil(2) - 1) % k) * k.pow(d)
            }),
            _ => return None,
        };
        (d != s).then_some(d)
    }

    /// A fixed permutation that maps every one of `nodes` NICs to itself (`shift` by a
    /// multiple of the NIC count, `tornado` with k = 2, ...): it would send nothing at all.
    pub fn sends_nothing(self, nodes: u32) -> bool {
        let fixed = matches!(
            self,
            Pattern::Shift { .. }
                | Pattern::Transpose
                | Pattern::Complement
                | Pattern::BitReversal
                | Pattern::Shuffle
                | Pattern::Tornado { .. }
        );
        fixed && (0..nodes).all(|s| self.permute(s, nodes).is_none())
    }

    /// `check`, and a pattern that sends nothing there refused too (`sends_nothing`).
    pub fn check_sends(self, nodes: u32) -> Result<(), String> {
        self.check(nodes)?;
        match self.sends_nothing(nodes) {
            true => Err(format!(
                "maps every one of the {nodes} NICs to itself: no NIC would send"
            )),
            false => Ok(()),
        }
    }

    /// Whether the pattern can run on `nodes` NICs (the bit permutations need a power of
    /// two, transpose an even number of bits; tornado k^n NICs); the reason if not.
    pub fn check(self, nodes: u32) -> Result<(), String> {
        let pow2 = nodes.is_power_of_two();
        match self {
            Pattern::Transpose if !(pow2 && nodes.trailing_zeros().is_multiple_of(2)) => Err(
                format!("transpose needs 4^j NICs (an even number of address bits), not {nodes}"),
            ),
            Pattern::Complement | Pattern::BitReversal | Pattern::Shuffle if !pow2 => Err(format!(
                "the bit permutations need a power of two NICs, not {nodes}"
            )),
            Pattern::Tornado { k, n } if k < 2 || n < 1 => Err(format!(
                "tornado needs k >= 2 and n >= 1 (a k-ary n-cube of k^n = {nodes} NICs), not k = {k}, n = {n}"
            )),
            Pattern::Tornado { k, n } if k.checked_pow(n) != Some(nodes) => Err(format!(
                "tornado on a {k}-ary {n}-cube needs {k}^{n} NICs, not {nodes}"
            )),
            Pattern::Incast { dst } | Pattern::HotSpot { dst, .. } if dst.0 >= nodes => {
                Err(format!("NIC {dst} is not one of the {nodes} NICs"))
            }
            Pattern::HotSpot { percent, .. } if percent > 100 => {
                Err(format!("the hot spot's share {percent} % is over 100 %"))
            }
            Pattern::GroupShift { group }
                if group == 0 || !nodes.is_multiple_of(group) || nodes / group < 2 =>
            {
                Err(format!(
                    "group_shift needs groups of {group} NICs that divide the {nodes} NICs into at least 2 (a dragonfly's a*p NICs per group)"
                ))
            }
            _ => Ok(()),
        }
    }
}

/// Bernoulli message source.
#[derive(Clone, Debug)]
pub struct BernoulliSource {
    nodes: u32,
    pattern: Pattern,
    threshold: u64,
    msg_bytes: u32,
    rng: Xoshiro256PlusPlus,
    next_id: u64,
    /// No new message from this cycle on.
    pub stop_at: u64,
    /// Messages created so far.
    pub created: u64,
    /// Messages delivered so far.
    pub delivered: u64,
    /// Every delivery, in order, when `Some`.
    pub log: Option<Vec<Delivery>>,
    /// `Pattern::Permutation`'s table (empty otherwise).
    table: Vec<u32>,
}

impl BernoulliSource {
    /// `load`: offered flits per cycle per source, in 0..=1; `flit_bytes` converts
    /// `msg_bytes` into flits.
    ///
    /// # Panics
    /// On `nodes < 2`, `load` outside 0..=1 (or NaN), `msg_bytes == 0`, `flit_bytes == 0`,
    /// or a pattern that `Pattern::check` refuses for `nodes`.
    /// This is a test and benchmark source; tools validate user input before calling it
    /// (`net-bench` does).
    pub fn new(
        nodes: u32,
        pattern: Pattern,
        load: f64,
        msg_bytes: u32,
        flit_bytes: u32,
        seed: u64,
    ) -> Self {
        assert!(nodes >= 2, "a source needs two nodes");
        if let Err(e) = pattern.check(nodes) {
            panic!("{e}");
        }
        assert!((0.0..=1.0).contains(&load), "load {load} not in 0..=1");
        assert!(
            msg_bytes > 0 && flit_bytes > 0,
            "msg_bytes and flit_bytes must be positive"
        );
        let flits = msg_bytes.div_ceil(flit_bytes) as f64;
        let p = (load / flits).min(1.0);
        BernoulliSource {
            nodes,
            pattern,
            threshold: if p >= 1.0 {
                u64::MAX
            } else {
                (p * 18_446_744_073_709_551_616.0) as u64
            },
            msg_bytes,
            rng: Xoshiro256PlusPlus::seed_from_u64(seed),
            next_id: 0,
            stop_at: u64::MAX,
            created: 0,
            delivered: 0,
            log: None,
            table: match pattern {
                Pattern::Permutation { seed } => Pattern::permutation(seed, nodes),
                _ => Vec::new(),
            },
        }
    }

    /// Keep every delivery in `log`.
    pub fn logged(mut self) -> Self {
        self.log = Some(Vec::new());
        self
    }

    /// Stop creating messages at cycle `stop_at`.
    pub fn until(mut self, stop_at: u64) -> Self {
        self.stop_at = stop_at;
        self
    }
}

/// A destination drawn uniformly from the `nodes - 1` NICs other than `src` (one draw).
#[inline(always)]
fn uniform_dst(rng: &mut Xoshiro256PlusPlus, nodes: u32, src: u32) -> NodeId {
    let r = (((rng.next_u64() >> 32) * (nodes as u64 - 1)) >> 32) as u32;
    NodeId(if r >= src { r + 1 } else { r })
}

impl BernoulliSource {
    /// `tick` under the uniform pattern: the same draws in the same order (one per NIC,
    /// and one more for a message's destination), in a loop without the other patterns'
    /// cases, so that the generator's state stays in registers between messages.
    fn tick_uniform(&mut self, now: u64, out: &mut Vec<Message>) {
        let (nodes, threshold) = (self.nodes, self.threshold);
        let mut rng = self.rng.clone();
        for src in 0..nodes {
            if rng.next_u64() >= threshold {
                continue;
            }
            let dst = uniform_dst(&mut rng, nodes, src);
            out.push(Message {
                id: self.next_id,
                src: NodeId(src),
                dst,
                bytes: self.msg_bytes,
                tag: 0,
                created: now,
            });
            self.next_id += 1;
            self.created += 1;
        }
        self.rng = rng;
    }
}

impl Workload for BernoulliSource {
    fn open_loop(&self) -> bool {
        // one stream of draws, made per cycle whatever was delivered
        true
    }

    fn tick(&mut self, now: u64, out: &mut Vec<Message>) {
        if now >= self.stop_at {
            return;
        }
        if let Pattern::Uniform = self.pattern {
            return self.tick_uniform(now, out);
        }
        for src in NodeId::all(self.nodes) {
            // a permutation's destination; a NIC that maps to itself sends nothing
            let fixed = match self.pattern {
                Pattern::Uniform | Pattern::HotSpot { .. } | Pattern::GroupShift { .. } => None,
                Pattern::Permutation { .. } if self.table[src.index()] == src.0 => continue,
                Pattern::Permutation { .. } => Some(self.table[src.index()]),
                Pattern::Incast { dst } if src == dst => continue,
                Pattern::Incast { .. } => None,
                p => match p.permute(src.0, self.nodes) {
                    Some(d) => Some(d),
                    None => continue,
                },
            };
            if self.rng.next_u64() >= self.threshold {
                continue;
            }
            let nodes = self.nodes;
            let uniform = |rng: &mut Xoshiro256PlusPlus| uniform_dst(rng, nodes, src.0);
            let dst = match self.pattern {
                Pattern::Uniform => uniform(&mut self.rng),
                Pattern::Incast { dst } => dst,
                Pattern::GroupShift { .. } => NodeId(
                    self.pattern
                        .draw(&mut self.rng, src.0, self.nodes)
                        .expect("a drawing pattern"),
                ),
                Pattern::HotSpot { dst, percent } => {
                    let hot = self.rng.next_u64() % 100 < percent as u64;
                    if hot && src != dst {
                        dst
                    } else {
                        uniform(&mut self.rng)
                    }
                }
                _ => NodeId(fixed.expect("a permutation's destination")),
            };
            out.push(Message {
                id: self.next_id,
                src,
                dst,
                bytes: self.msg_bytes,
                tag: 0,
                created: now,
            });
            self.next_id += 1;
            self.created += 1;
        }
    }

    fn delivered(&mut self, _now: u64, d: &Delivery) {
        self.delivered += 1;
        if let Some(log) = &mut self.log {
            log.push(*d);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every destination of a permutation, or None for a NIC that maps to itself.
    fn map(p: Pattern, nodes: u32) -> Vec<Option<u32>> {
        (0..nodes).map(|s| p.permute(s, nodes)).collect()
    }

    #[test]
    fn permutations_are_permutations_with_the_classic_definitions() {
        // 64 NICs: 6 address bits
        let t = map(Pattern::Transpose, 64);
        assert_eq!(t[0b000_001], Some(0b001_000));
        assert_eq!(t[0b101_011], Some(0b011_101));
        assert_eq!(t[0b010_010], None); // on the diagonal
        assert_eq!(map(Pattern::Complement, 64)[0b000_101], Some(0b111_010));
        assert_eq!(map(Pattern::BitReversal, 64)[0b000_011], Some(0b110_000));
        assert_eq!(map(Pattern::BitReversal, 64)[0b100_001], None);
        // the seed 003's Table 2 example on 256 NICs: N154 = 10011010 shuffles to N53
        assert_eq!(map(Pattern::Shuffle, 256)[154], Some(53));
        assert_eq!(map(Pattern::BitReversal, 256)[154], Some(89));
        assert_eq!(map(Pattern::Complement, 256)[154], Some(101));
        assert_eq!(map(Pattern::Shuffle, 64)[0b100_000], Some(0b000_001));
        assert_eq!(map(Pattern::Shuffle, 64)[0b111_111], None);
        // tornado on an 8-ary 2-cube: 3 places plus in each dimension
        let tor = map(Pattern::Tornado { k: 8, n: 2 }, 64);
        assert_eq!(tor[0], Some(3 + 3 * 8));
        assert_eq!(tor[7 + 7 * 8], Some(2 + 2 * 8));
        assert_eq!(map(Pattern::Tornado { k: 5, n: 1 }, 5)[4], Some(1));
        for p in [
            Pattern::Transpose,
            Pattern::Complement,
            Pattern::BitReversal,
            Pattern::Shuffle,
            Pattern::Tornado { k: 8, n: 2 },
            Pattern::Shift { by: 5 },
        ] {
            let mut seen = [false; 64];
            for (s, d) in map(p, 64).into_iter().enumerate() {
                let d = d.unwrap_or(s as u32) as usize;
                assert!(!seen[d], "{p:?}: {d} twice");
                seen[d] = true;
            }
        }
    }

    #[test]
    fn patterns_that_do_not_fit_the_network_are_refused() {
        assert!(Pattern::Transpose.check(128).is_err());
        assert!(Pattern::Transpose.check(256).is_ok());
        assert!(Pattern::Complement.check(120).is_err());
        assert!(Pattern::Tornado { k: 4, n: 2 }.check(20).is_err());
        assert!(Pattern::HotSpot {
            dst: NodeId(9),
            percent: 10
        }
        .check(8)
        .is_err());
        assert!(Pattern::HotSpot {
            dst: NodeId(1),
            percent: 101
        }
        .check(8)
        .is_err());
    }

    #[test]
    fn a_hot_spot_gets_its_share() {
        let mut w = BernoulliSource::new(
            16,
            Pattern::HotSpot {
                dst: NodeId(3),
                percent: 25,
            },
            0.5,
            64,
            64,
            1,
        );
        let mut out = Vec::new();
        for t in 0..20_000 {
            w.tick(t, &mut out);
        }
        let hot = out.iter().filter(|m| m.dst == NodeId(3)).count() as f64 / out.len() as f64;
        // 25 % directed (NIC 3 itself sends uniform) plus a uniform share of the rest
        let want = 0.25 * 15.0 / 16.0 + (1.0 - 0.25 * 15.0 / 16.0) / 15.0 * 15.0 / 16.0;
        assert!((hot - want).abs() < 0.02, "{hot} vs {want}");
    }
}
