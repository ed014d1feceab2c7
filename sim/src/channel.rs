//! `Channel<T>`: a fixed-latency pipe (BookSim `Channel`), latency at least one cycle.

use std::collections::VecDeque;

/// A pipe of `latency_cycles` stages. A value pushed in cycle t is the head in cycle
/// t + latency_cycles. Empty stages hold `T::default()` (no flit, no credit).
#[derive(Clone, Debug)]
pub struct Channel<T: Copy + Default> {
    stages: VecDeque<T>,
}

impl<T: Copy + Default> Channel<T> {
    /// A channel of `latency_cycles >= 1` stages, all empty.
    pub fn new(latency_cycles: u32) -> Self {
        assert!(
            latency_cycles >= 1,
            "a channel has a latency of at least one cycle"
        );
        Channel {
            stages: std::iter::repeat_n(T::default(), latency_cycles as usize).collect(),
        }
    }

    /// Latency in cycles.
    pub fn latency_cycles(&self) -> u32 {
        self.stages.len() as u32
    }

    /// Read phase: the value arriving at the far end in this cycle.
    #[inline]
    pub fn head(&self) -> T {
        self.stages[0]
    }

    /// Commit phase: write this cycle's value at the near end and advance one cycle.
    #[inline]
    pub fn commit(&mut self, v: T) {
        self.stages.pop_front();
        self.stages.push_back(v);
    }

    /// Values in flight (non-default stages, the head included).
    pub fn in_flight(&self) -> impl Iterator<Item = &T> {
        self.stages.iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn value_arrives_after_latency() {
        for lat in 1..5u32 {
            let mut ch = Channel::<u8>::new(lat);
            let mut seen = Vec::new();
            for t in 0..10u32 {
                seen.push(ch.head());
                ch.commit(if t == 2 { 7 } else { 0 });
            }
            let at = seen.iter().position(|&v| v == 7).unwrap() as u32;
            assert_eq!(at, 2 + lat);
        }
    }
}
