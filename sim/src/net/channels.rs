//! Phase 1: the channels. Every flit and credit link is a fixed-latency pipe in one of two
//! timing wheels (`Network::fwheel`, `Network::cwheel`); a sender commits into the wheel
//! in phase 2, the receiver reads its heads in phase 1 of the cycle they arrive. With
//! phase 1 by owner (`Network::owner_p1`) each owner (a chunk of NICs or of switches) has
//! channels of its own and reads them just before it is evaluated.

use super::error::NetError;
use super::network::{Clocked, Network, Nic, Switch};
use super::scheme::Scheme;
use super::store::{End, Endpoint, Id, PortId};

impl<S: Scheme> Network<S> {
    /// Phase 1 without `owner_p1`: every channel head of this cycle (with it, each owner
    /// reads its own: `read_owner`).
    pub(crate) fn read_inputs(&mut self) -> Result<(), Box<NetError>> {
        if self.owner_p1 {
            Ok(())
        } else {
            self.read_owner(0)
        }
    }

    /// Phase 1 of owner `o`: the flits, then the credits, arriving there this cycle.
    pub(crate) fn read_owner(&mut self, o: u32) -> Result<(), Box<NetError>> {
        let now = self.now;
        let o = o as usize;
        let flits = self.fwheel.take_from(now, o);
        let mut r = Ok(());
        for ev in &flits {
            r = match ev.rx.end() {
                End::Nic(n) => Nic::read(self, n, ev),
                End::Port(g) => Switch::read(self, g, ev),
            };
            if r.is_err() {
                break;
            }
        }
        self.fwheel.restore_to(now, o, flits);
        r?;
        let mut r = Ok(());
        let credits = self.cwheel.take_from(now, o);
        for ev in &credits {
            match ev.tx.end() {
                End::Nic(n) => {
                    self.nic.st[n as usize].credit_in += 1;
                    self.nic.poke(n);
                }
                End::Port(g) => r = self.port_credit(g),
            }
            if r.is_err() {
                break;
            }
        }
        self.cwheel.restore_to(now, o, credits);
        r
    }

    /// The owner whose channels end at `e` (0 for all without `owner_p1`). A switch's
    /// links keep theirs (`OutPort::rx_owner`, `InPort::credit_owner`).
    #[inline(always)]
    pub(crate) fn owner_of(&self, e: Endpoint) -> u32 {
        if !self.owner_p1 {
            return 0;
        }
        match e.end() {
            End::Nic(n) => n >> self.nic_chunk.trailing_zeros(),
            End::Port(g) => self.port_owner[g.index()],
        }
    }

    /// A credit arrives at switch output port `g`.
    #[inline(always)]
    pub(crate) fn port_credit(&mut self, g: PortId) -> Result<(), Box<NetError>> {
        let u = &mut self.sw.out[g].used;
        if *u == 0 {
            return Err(self.credit_underflow(g));
        }
        *u -= 1;
        if !self.sw.waiters.is_empty() {
            self.lane_credit(g);
        }
        Ok(())
    }

    #[cold]
    #[inline(never)]
    fn credit_underflow(&self, g: PortId) -> Box<NetError> {
        Box::new(NetError::CreditUnderflow {
            cycle: self.now,
            component: self.out_port_name(g),
        })
    }
}
