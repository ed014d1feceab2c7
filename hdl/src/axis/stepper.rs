//! `PftAxis` stepped by hand (no threads), with the model's types: inputs change with the
//! falling edge and settle before the rising edge, as in `pft::stepper`.

use super::model::{Data, Inputs, Outputs};
use super::pft_axis::PftAxis;
use rust_hdl::prelude::*;

/// The RTL of one width.
pub struct AxisStepper<const D: usize, const K: usize, const U: usize> {
    pub uut: Box<PftAxis<D, K, U>>,
}

fn to_bits<const N: usize>(words: &[u64]) -> Bits<N> {
    let mut b = Bits::<N>::default();
    let mut i = 0;
    while i * 64 < N {
        if N - i * 64 >= 64 {
            b.set_bits::<64>(i * 64, words[i].into());
        } else {
            for j in 0..N - i * 64 {
                b = b.replace_bit(i * 64 + j, words[i] >> j & 1 == 1);
            }
        }
        i += 1;
    }
    b
}

fn to_words<const N: usize>(b: Bits<N>) -> Data {
    let mut w = [0u64; 8];
    for (i, x) in w.iter_mut().enumerate() {
        if i * 64 >= N {
            break;
        }
        if N - i * 64 >= 64 {
            *x = b.get_bits::<64>(i * 64).to_u64();
        } else {
            for j in 0..N - i * 64 {
                *x |= (b.get_bit(i * 64 + j) as u64) << j;
            }
        }
    }
    w
}

impl<const D: usize, const K: usize, const U: usize> Default for AxisStepper<D, K, U> {
    fn default() -> Self {
        Self::new(PftAxis::default())
    }
}

impl<const D: usize, const K: usize, const U: usize> AxisStepper<D, K, U> {
    pub fn new(uut: PftAxis<D, K, U>) -> Self {
        let mut uut = Box::new(uut);
        uut.connect_all();
        check_all(uut.as_ref()).expect("PftAxis fails rust-hdl's connection checks");
        uut.clk.next = Clock { clk: true };
        assert!(simulate(uut.as_mut(), 100), "the block did not settle");
        AxisStepper { uut }
    }

    /// One cycle: the inputs, the outputs before the rising edge, the edge.
    pub fn step(&mut self, i: &Inputs) -> Outputs {
        let u = self.uut.as_mut();
        u.clk.next = Clock { clk: false };
        u.rst.next = i.rst;
        u.s_axis_tdata.next = to_bits::<D>(&i.s_tdata);
        u.s_axis_tkeep.next = to_bits::<K>(&[i.s_tkeep]);
        u.s_axis_tvalid.next = i.s_tvalid;
        u.s_axis_tlast.next = i.s_tlast;
        u.s_axis_tuser.next = to_bits::<U>(&[i.s_tuser]);
        u.m_axis_tready.next = i.m_tready;
        u.s_axil_awaddr.next = (i.awaddr as u64).into();
        u.s_axil_awprot.next = ((i.awprot & 7) as u64).into();
        u.s_axil_awvalid.next = i.awvalid;
        u.s_axil_wdata.next = (i.wdata as u64).into();
        u.s_axil_wstrb.next = ((i.wstrb & 0xF) as u64).into();
        u.s_axil_wvalid.next = i.wvalid;
        u.s_axil_bready.next = i.bready;
        u.s_axil_araddr.next = (i.araddr as u64).into();
        u.s_axil_arprot.next = ((i.arprot & 7) as u64).into();
        u.s_axil_arvalid.next = i.arvalid;
        u.s_axil_rready.next = i.rready;
        u.credit_return.next = (i.credit_return as u64).into();
        u.pause.next = i.pause;
        assert!(simulate(u, 100), "the block did not settle");
        let out = Outputs {
            s_tready: u.s_axis_tready.val(),
            m_tdata: to_words::<D>(u.m_axis_tdata.val()),
            m_tkeep: to_words::<K>(u.m_axis_tkeep.val())[0],
            m_tvalid: u.m_axis_tvalid.val(),
            m_tlast: u.m_axis_tlast.val(),
            m_tuser: to_words::<U>(u.m_axis_tuser.val())[0],
            awready: u.s_axil_awready.val(),
            wready: u.s_axil_wready.val(),
            bresp: u.s_axil_bresp.val().index() as u8,
            bvalid: u.s_axil_bvalid.val(),
            arready: u.s_axil_arready.val(),
            rdata: u.s_axil_rdata.val().index() as u32,
            rresp: u.s_axil_rresp.val().index() as u8,
            rvalid: u.s_axil_rvalid.val(),
            congested: u.congested.val(),
            throttled: u.throttled.val(),
            used_credits: u.used_credits.val().index() as u16,
        };
        u.clk.next = Clock { clk: true };
        assert!(simulate(u, 100), "the block did not settle");
        out
    }
}
