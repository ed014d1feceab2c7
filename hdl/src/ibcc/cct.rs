//! IB CC's congestion control table (CCT) of a NIC port, as a table of synthesis-time
//! constants (a ROM).

use super::model::Params;
use rust_hdl::prelude::*;
use std::collections::BTreeMap;

/// `entry = CCT[ccti]` (shift in bits 15:14, multiplier in 13:0), and 0 at CCTI 0 (the
/// model's "no delay at CCTI 0", whatever `CCT[0]` holds).
///
/// **A ROM, not a RAM.** The table is a `ROM` widget of `limit + 1` 16-bit constants (a
/// `case` on the CCTI in Verilog), so what it costs depends on its contents: the linear
/// table of docs/cc/ibcc.md (entry i = i) is the CCTI itself and costs nothing; a table of
/// arbitrary entries costs a few LUTs per output bit. In an InfiniBand HCA the subnet
/// manager writes the CCT (the CongestionControlTable attribute, blocks of 64 entries), so
/// there it is a RAM of `(limit + 1) x 16` bits per port (2,048 bits for 128 entries: one
/// iCE40 SB_RAM40_4K) read once per packet start; docs/hardware.md gives both. One table
/// serves every flow of the port: one packet starts per cycle.
///
/// ```text
///              +-----------------------------+
///  ccti[C] --->|  ccti == 0 ? 0 : CCT[ccti]  |---> entry[16]
///              +-----------------------------+
/// ```
#[derive(LogicBlock)]
pub struct Cct<const C: usize> {
    /// The CCTI to look up.
    pub ccti: Signal<In, Bits<C>>,
    /// Its entry (0 for CCTI 0).
    pub entry: Signal<Out, Bits<16>>,
    /// The table.
    pub rom: ROM<Bits<16>, C>,
}

impl<const C: usize> Cct<C> {
    /// The CCT of `p`. Panics if `p` does not pass `Params::check` or its limit does not fit
    /// C bits.
    pub fn new(p: &Params) -> Self {
        if let Err(e) = p.check() {
            panic!("Cct: {e}");
        }
        assert!(
            C <= 16 && (p.limit as u64) < 1u64 << C,
            "Cct: limit = {} does not fit {C} bits",
            p.limit
        );
        let mut values = BTreeMap::new();
        for (i, &e) in p.cct.iter().enumerate().skip(1) {
            values.insert((i as u64).into(), (e as u64).into());
        }
        Self {
            ccti: Default::default(),
            entry: Default::default(),
            rom: ROM::new(values),
        }
    }
}

impl<const C: usize> Logic for Cct<C> {
    #[hdl_gen]
    fn update(&mut self) {
        self.rom.address.next = self.ccti.val();
        self.entry.next = self.rom.data.val();
    }
}

#[test]
fn cct_synthesizes() {
    let mut uut = Cct::<7>::new(&Params::table1());
    uut.connect_all();
    yosys_validate("ibcc_cct", &generate_verilog(&uut)).unwrap();
}
