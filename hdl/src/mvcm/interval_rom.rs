//! MVCM's waiting interval as a table of constants: `k^e * rtt_min - 1` for each exponent.

use super::model::Params;
#[cfg(test)]
use super::PAPER;
use rust_hdl::prelude::*;
use std::collections::BTreeMap;

/// `wait_m1 = k^e * rtt_min - 1` with waiting slots (`ws`), 0 without: the cycles a packet
/// started now holds the flow's next one beyond the next cycle (the model's interval `W`
/// minus one; `W = 0` without slots). The one-cycle offset lets a timer loaded with it
/// reach 0 exactly in the cycle the model's `next_ok` is reached.
///
/// The table has `ws_max_incs + 1` entries of T bits, synthesis-time constants (a `ROM`
/// widget: a `case` on `e` in Verilog), so any `k` of `Params` is built, not only powers of
/// two: with `k = 2^j` the entries are `rtt_min << (j * e)` and a shifter would do the same
/// job, but a table of a few constants costs no more once Yosys folds it (for the paper's
/// k = 4, n = 5, rtt_min = 354: six 19-bit entries, at most 3 address bits per output bit).
/// A NIC that wants `k`, `n` and `rtt_min` as CSRs instead needs a shifter by `j * e`
/// (k a power of two) or a small RAM written by software; neither is built here.
///
/// ```text
///              +--------------------------------+
///  ws -------->|  ws ? table[e] : 0             |---> wait_m1[T]
///  e[E] ------>|  table[e] = k^e * rtt_min - 1  |
///              +--------------------------------+
/// ```
#[derive(LogicBlock)]
pub struct IntervalRom<const E: usize, const T: usize> {
    /// The packet's flow has waiting slots.
    pub ws: Signal<In, Bit>,
    /// Their exponent.
    pub e: Signal<In, Bits<E>>,
    /// `k^e * rtt_min - 1` with slots, else 0.
    pub wait_m1: Signal<Out, Bits<T>>,
    /// The table.
    pub rom: ROM<Bits<T>, E>,
}

impl<const E: usize, const T: usize> IntervalRom<E, T> {
    /// The table of `p`. Panics if `p` does not pass `Params::check`, if `ws_max_incs`
    /// does not fit E bits or the longest interval minus one does not fit T bits.
    pub fn new(p: &Params) -> Self {
        if let Err(e) = p.check() {
            panic!("IntervalRom: {e}");
        }
        assert!(
            E < 64 && (p.ws_max_incs as u64) < 1u64 << E,
            "IntervalRom: ws_max_incs = {} does not fit {E} bits",
            p.ws_max_incs
        );
        let top = p.max_waiting_interval() - 1;
        assert!(
            T >= 64 || top < 1u64 << T,
            "IntervalRom: the longest interval minus one, {top}, does not fit {T} bits"
        );
        let mut values = BTreeMap::new();
        for e in 0..=p.ws_max_incs {
            let w = (p.k as u64).pow(e) * p.rtt_min as u64 - 1;
            values.insert((e as u64).into(), w.into());
        }
        Self {
            ws: Default::default(),
            e: Default::default(),
            wait_m1: Default::default(),
            rom: ROM::new(values),
        }
    }
}

impl<const E: usize, const T: usize> Logic for IntervalRom<E, T> {
    #[hdl_gen]
    fn update(&mut self) {
        self.rom.address.next = self.e.val();
        self.wait_m1.next = 0.into();
        if self.ws.val() {
            self.wait_m1.next = self.rom.data.val();
        }
    }
}

#[test]
fn interval_rom_synthesizes() {
    let mut uut = IntervalRom::<3, 19>::new(&PAPER);
    uut.connect_all();
    yosys_validate("mvcm_interval_rom", &generate_verilog(&uut)).unwrap();
}

#[test]
#[should_panic(
    expected = "IntervalRom: the longest interval minus one, 362495, does not fit 18 bits"
)]
fn interval_rom_refuses_a_timer_too_narrow_for_the_longest_interval() {
    IntervalRom::<3, 18>::new(&PAPER);
}
