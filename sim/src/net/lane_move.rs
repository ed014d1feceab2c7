//! The lane router's flit move (`move_flit`): the credit upstream, the flit onto its link,
//! the tail freeing both lanes; and what every move of a cycle shares (`Sends`).
//! (Out of `router.rs`, whose allocators call it, to keep each file short.)

use super::config::Fault;
use super::network::Network;
use super::plain::GENERAL;
use super::scheme::Scheme;
use super::state::LaneMask;
use super::store::{CreditEv, EntryId, FlitEv, Id, PortId, SwitchId, NEVER};

impl<S: Scheme> Network<S> {
    /// What the lane routers' flit moves share this cycle (`Sends`), looked up once for
    /// the routers a call visits, not per flit.
    #[inline(always)]
    pub(super) fn sends<const PLAIN: u8>(&self) -> Sends {
        let now = self.now;
        let credit_at =
            if self.sw.lat_cred.is_empty() && (PLAIN != GENERAL || !self.faults.credit.on) {
                now + self.lat_credit
            } else {
                NEVER
            };
        let flit_at = if self.sw.lat_out.is_empty() {
            now + self.lat_sw
        } else {
            NEVER
        };
        Sends {
            credit_at,
            credit_row: self.cwheel.row(credit_at),
            flit_at,
            flit_row: self.fwheel.row(flit_at),
            hops: !self.sw.hop_flits.is_empty(),
        }
    }

    /// Move the next flit through output lane `bo` (it is here and has a credit): the
    /// credit goes upstream, the flit onto the link; the tail frees both lanes. (Today's
    /// switch has its own copy, `transmit`; one copy each keeps that switch's code as it
    /// was.) Inlined in both widths of `traverse` (a call per flit costs more).
    /// Returns the input lane's bit if its last flit left (for the caller to clear in
    /// `has_flit`, once for the visit's moves).
    #[inline(always)]
    pub(super) fn move_flit<M: LaneMask, const PLAIN: u8>(
        &mut self,
        si: SwitchId,
        bo: PortId,
        g: PortId,
        sends: Sends,
    ) -> M {
        // (the input lane `g` given, not read from the output lane's record: the two
        // records are then read side by side, not one after the other)
        let op = &mut self.sw.out[bo];
        debug_assert!(op.from == g, "output lane {bo:?} is held from {g:?}");
        let ip = &mut self.sw.inp[g];
        let seq = op.sent;
        op.sent += 1;
        op.used += 1;
        ip.occ -= 1;
        ip.moved_at = self.now;
        // (the input lane's bit in `has_flit` goes with its last flit)
        let (mut empty, lane_in) = (ip.occ == 0, ip.local as u32);
        let last_credit = op.used == op.limit;
        let (e, tail) = (op.entry, op.sent == op.len);
        let credit = CreditEv { tx: ip.credit_to };
        let (rx_o, back) = (op.rx_owner, ip.credit_owner);
        let flit = FlitEv {
            rx: op.rx,
            pkt: op.pkt,
            seq,
        };
        let pkt = op.pkt;
        let to = op.rx.end();
        if tail {
            op.entry = EntryId::NONE;
        }
        if PLAIN == GENERAL && self.disha.is_some() {
            self.disha_moved(si, pkt, tail, to);
        }
        if sends.hops {
            self.count_hop(si, bo, pkt);
        }
        if S::MARKS && self.seams.marks {
            let at = self.lane_output_at(si, self.sw.sw[si].local(bo) / self.sw.vcs);
            let pk = &mut self.packets[pkt];
            let d = pk.departure(seq);
            pk.bits |= self.cc.departs(&at, &d);
        }
        if last_credit {
            // no credit left: the switch allocator skips the lane until one comes back
            // (`port_credit`)
            let l = self.sw.sw[si].local(bo);
            self.sw.no_credit[si.index()] |= 1u128 << l;
            self.sw.stalled_in[si.index()] |= 1u128 << lane_in;
        }
        let now = self.now;
        let (flit_at, flit_row) = if sends.flit_at != NEVER {
            (sends.flit_at, sends.flit_row)
        } else {
            let at = now + self.sw.lat_out[bo.index()] as u64;
            (at, self.fwheel.row(at))
        };
        let mut drop_credit = false;
        if let (true, Some(f)) = (PLAIN == GENERAL, self.faults.test) {
            if !self.faults.test_fired {
                match f {
                    Fault::DropCredit { cycle } if now >= cycle => {
                        self.faults.test_fired = true;
                        drop_credit = true;
                    }
                    Fault::DuplicateFlit { cycle } if now >= cycle => {
                        self.faults.test_fired = true;
                        self.send_flit(flit_at, rx_o, flit);
                    }
                    Fault::StaleHasFlit { cycle } if now >= cycle && empty => {
                        self.faults.test_fired = true;
                        empty = false;
                    }
                    _ => {}
                }
            }
        }
        if !drop_credit {
            let (at, row) = if sends.credit_at != NEVER {
                (sends.credit_at, sends.credit_row)
            } else {
                let at = self.credit_at_in::<PLAIN>(credit.tx);
                (at, self.cwheel.row(at))
            };
            self.push_credit_row::<PLAIN>(at, row, back, credit);
        }
        self.push_flit_row::<PLAIN>(flit_at, flit_row, rx_o, flit);
        if tail {
            let st = &mut self.sw.sw[si];
            let (o, i) = (st.local(bo), st.local(g));
            st.locked_out &= !(1 << o);
            st.locked_in &= !(1 << i);
            st.resident -= 1;
            if !self.sw.waiters.is_empty() {
                self.lane_freed(bo);
            }
            if self.lat_head != 0 {
                // the next packet of this input lane reaches its front now
                self.sw.va_at[g.index()] = now + self.lat_head;
            }
            self.entries[e].live = false;
            self.free_entry(e);
        }
        M::from_u64(u64::from(empty)) << lane_in
    }
}

/// What the lane routers' flit moves share in a cycle, looked up once (`sends`).
#[derive(Clone, Copy)]
pub(super) struct Sends {
    /// The cycle a credit sent now arrives, when every credit link takes the same time and
    /// no fault delays one (`NEVER`: ask `credit_at_in` per credit).
    credit_at: u64,
    /// `credit_at`'s row in the credit wheel (`Wheel::row`).
    credit_row: usize,
    /// The cycle a flit sent now enters its link, when every output lane takes the same
    /// time (`NEVER`: per lane, `Switches::lat_out`).
    flit_at: u64,
    /// `flit_at`'s row in the flit wheel.
    flit_row: usize,
    /// Hops are counted (`count_hop`).
    hops: bool,
}
