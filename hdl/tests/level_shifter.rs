//! The RTL SHAPE decoder and shifter against the exact level, for every (m, n) and corner
//! values of c and k.

use pft_hdl::level_shifter::LevelShifter;
use pft_hdl::model::level;
use pft_hdl::shape_decode::ShapeDecode;
use rust_hdl::prelude::*;

#[test]
fn shifter_is_exact_for_every_m_n() {
    let mut uut = LevelShifter::default();
    uut.connect_all();
    let mut dec = ShapeDecode::default();
    dec.connect_all();
    let cs = [0u16, 1, 2, 3, 0x250, 0x2a0, 0x7FFF, 0x8000, 0xFFFE, 0xFFFF];
    let ks = [0u16, 1, 0x7FFF, 0xFFFF];
    let mut checked = 0;
    for m in 0..32u8 {
        for n in 0..32u8 {
            for c in cs {
                for k in ks {
                    dec.m.next = (m as u64).into();
                    dec.n.next = (n as u64).into();
                    assert!(simulate(&mut dec, 100));
                    uut.c.next = (c as u64).into();
                    uut.left.next = dec.left.val();
                    uut.distance.next = dec.distance.val();
                    uut.spill_mask.next = dec.spill_mask.val();
                    uut.k.next = (k as u64).into();
                    assert!(simulate(&mut uut, 100));
                    let exact = level(c, m, n, k);
                    let ovf = uut.level_ovf.val();
                    let low = uut.level.val().index() as u64;
                    assert_eq!(
                        ovf,
                        exact >= 1 << 32,
                        "overflow flag, c={c:#x} m={m} n={n} k={k:#x}"
                    );
                    if !ovf {
                        assert_eq!(low, exact, "c={c:#x} m={m} n={n} k={k:#x}");
                    }
                    checked += 1;
                }
            }
        }
    }
    assert_eq!(checked, 32 * 32 * 10 * 4);
}
