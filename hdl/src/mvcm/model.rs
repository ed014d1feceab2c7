//! Plain-Rust reference model of MVCM's per-flow source state (seed 004, Ferrer et al.,
//! "Progressive congestion management based on packet marking and validation techniques",
//! IEEE Trans. Computers; §4.2 corrective actions, §4.3 parameter initialisation).
//! Event-ordered, no clock and no rust-hdl types: the simulator's MVCM plug-in runs it, and
//! the RTL is tested against it.
//!
//! One [`Flow`] is one source-destination pair (the paper's full VOQ: one queue per
//! destination). The constants, [`Params`], are shared by all the flows of a NIC and are
//! passed to every event, so a flow is only its registers: `dw` (the dynamic window,
//! 1..=dw_max), `out` (packets injected and not yet ACKed), the waiting slots (WS) as an
//! exponent `ws_exp` (`None`: no WS; `Some(e)`: `k^e` WS), `incs` (how many times the WS
//! were multiplied by k since they were set to 1) and `next_ok` (the first cycle in which
//! the flow's next packet may start). A new flow, and a flow after the fast reset, has
//! `dw = dw_max`, no WS, `incs = 0`, `next_ok = 0` (`out` is 0 only for a new flow).
//!
//! # Rules
//!
//! **ACK of the flow** ([`Flow::on_ack`]; the destination copies the data packet's MB and
//! VB into it): `out -= 1`, then by the bits (Table 1 of the paper, reconstructed from
//! §4.2.1 and §4.2.2):
//! - MB = 1, VB = 1 (hot, "imminent"): if `dw > 1` then `dw -= 1`; else if there are no
//!   WS, insert one (`e = 0`); else if `incs < ws_max_incs` then `e += 1`, `incs += 1`
//!   (the WS are multiplied by k); else nothing (the minimum rate is reached).
//! - MB = 1, VB = 0 (warm, "moderate"): if `dw > 1` then `dw -= 1`; else nothing.
//! - MB = 0, VB = 0 (clean): if there are WS, remove them all (`incs = 0`) and cancel the
//!   waiting interval in progress (`next_ok = 0`); else if `dw < dw_max` then `dw += 1`;
//!   else nothing. Full rate is back after `1 + (dw_max - 1)` clean ACKs.
//! - MB = 0, VB = 1: impossible (a switch validates only a marked packet): an error.
//!
//! **Injection**: the flow may start a packet in cycle `now` iff
//! `out < dw && now >= next_ok` ([`Flow::can_inject`]); starting one
//! ([`Flow::on_inject`]) does `out += 1` and `next_ok = now + W`, where the waiting
//! interval `W = k^e * rtt_min` with WS and 0 without (eqs. 1 and 2 of the paper).
//!
//! **Fast reset** ([`Flow::on_enqueue_into_empty_queue`], when the host puts a packet into
//! the flow's empty injection queue): `dw = dw_max`, no WS, `incs = 0`, `next_ok = 0`;
//! `out` is unchanged (those packets are still in the network and their ACKs will come).
//!
//! **Invariants** ([`Flow::check_invariants`]): `1 <= dw <= dw_max`; `out <= dw_max`;
//! WS only with `dw == 1`; `incs == e` with WS and 0 without, so `e <= ws_max_incs`
//! (the RTL may keep `e` alone; `incs` is the paper's counter, kept for readability).
//!
//! # Open points, decided
//!
//! 1. **The WS bound.** The paper limits "the number of times number_WS can be increased"
//!    by n; Table 2 is lost. Setting the WS to 1 is not an increase (it is "set", the
//!    multiplications by k are "increased"), so the WS go 1, k, k^2, ..., k^ws_max_incs
//!    and `ws_max_incs = n` by default: at most `k^n` WS (4-ary 5-fly: 1,024).
//! 2. **Where the waiting interval is measured from**: from the start of the previous
//!    packet's injection (the interval lies "between the injections of two consecutive
//!    packets"). A consequence: with `dw = 1` and one WS (`e = 0`) the next packet may not
//!    start before its predecessor's ACK, which comes at least `rtt_min` after that
//!    predecessor started, so one WS adds no delay to the window of 1; the first WS step
//!    that slows such a flow further is `k` WS.
//! 3. **When a change of the WS takes effect**: `next_ok` is computed when a packet starts,
//!    so more WS take effect from the next injection on (the interval in progress is not
//!    lengthened). A removal of the WS (clean ACK, fast reset) also cancels the interval
//!    in progress: the paper removes the waiting interval "immediately" for a "fast
//!    recovering" (§4.2.2; §4.2.1's clean ACKs that "reduce" the WS are read as this),
//!    and a flow at `k^n` WS would otherwise wait up to `k^n * rtt_min` cycles more.
//! 4. **Warm ACKs and the WS**: a moderate ACK neither inserts, grows nor removes WS (at
//!    `dw = 1` "no additional actions will be taken"); only clean ACKs remove them.
//! 5. **The fast reset** has no `out == 0` condition: the paper resets on a packet put into
//!    an *empty* injection queue, whatever is in flight; the caller decides emptiness.
//! 6. **A stray ACK** (`out == 0`): [`FlowError::StrayAck`], and nothing changes (the
//!    ACK is not this flow's, so its bits are ignored too); a stray ACK with MB = 0,
//!    VB = 1 is reported as stray.
//! 7. **The impossible ACK** (MB = 0, VB = 1, `out > 0`): [`FlowError::ImpossibleMarks`];
//!    the ACK still releases its packet (`out -= 1`: the packet was delivered, and keeping
//!    it counted would lose a window slot for good) but takes no corrective action.
//! 8. **An injection the flow may not make**: [`FlowError::NotEligible`], nothing changes.
//! 9. **Several events in one cycle**: the caller applies the flow's ACKs, then the fast
//!    reset, then the injection. An injection decided from the state at the cycle's start
//!    stays allowed after that cycle's ACKs and fast reset (an ACK lowers `out` by 1 and
//!    `dw` by at most 1 and never raises `next_ok`; the reset raises `dw` and clears
//!    `next_ok`), so a registered (one cycle old) decision is always accepted; the new
//!    packet's interval uses the WS after the ACKs.
//! 10. **Rounding of the derived constants** ([`Params::derived`]). A link moves
//!     `bytes_per_cycle` bytes a cycle in whole flits, so a packet of L bytes takes
//!     `ceil(L / B)` cycles: `rtt_min = 2*h*t_hop + ceil(L_data / B) + ceil(L_ack / B)`
//!     cycles, with `L_data = L_payload + L_header`. `dw_max = ceil(omega)` with the exact
//!     `omega = (2*h*t_hop*B + L_data + L_ack) / L_data` (the paper's closed form): the
//!     paper's examples give `ceil(354/278 = 1.27) = 2` and `ceil(1164/278 = 4.19) = 5`,
//!     both its choices. No floor of 2 is added: `omega > 1` whenever the hops or the ACK
//!     take any time, so `ceil(omega) >= 2` already; the paper's reason for 2 (1.4 packets
//!     outstanding measured near saturation, above 1.27) is the headroom the ceiling gives.
//! 11. **Arithmetic**: `W <= k^ws_max_incs * rtt_min`, which [`Params::check`] keeps below
//!     `2^WAIT_BITS` (32); `next_ok` is a saturating `u64`; `out < dw <= 255` before every
//!     increment. The timer needs [`Params::wait_bits`] bits: 19 for the 4-ary 5-fly
//!     (`4^5 * 354 = 362,496 < 2^19`), as a per-flow countdown loaded with `W`, or as the
//!     low bits of `next_ok` compared with a free-running counter.

use std::fmt;

/// Bits of the waiting-interval timer the constants must fit: `k^ws_max_incs * rtt_min`
/// is below `2^WAIT_BITS`.
pub const WAIT_BITS: u32 = 32;
/// Largest `rtt_min`, cycles.
pub const RTT_MIN_MAX: u32 = 1 << 20;

/// The NIC's MVCM constants (the RTL's parameters or CSRs). Check them with
/// [`Params::check`]; the flow events assume they pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Params {
    /// Largest dynamic window, packets outstanding per flow (1..=255; the paper's omega).
    pub dw_max: u32,
    /// Switch radix: the factor by which the WS grow (2..=64).
    pub k: u32,
    /// Network stages (1..=12).
    pub n: u32,
    /// Minimum round-trip time, cycles: the length of one WS (1..=2^20).
    pub rtt_min: u32,
    /// How many times the WS may be multiplied by k after they were set to 1 (0..=the
    /// largest value with `k^ws_max_incs * rtt_min < 2^WAIT_BITS`; the paper: n).
    pub ws_max_incs: u32,
}

/// `2*h*t_hop + ceil(l_data / b) + ceil(l_ack / b)`: the minimum round trip in whole
/// cycles, data packet out and ACK back (`l_data` = payload + header; `b` >= 1).
pub fn rtt_min_cycles(hops: u32, t_hop: u32, b: u32, l_data: u32, l_ack: u32) -> u128 {
    let b = b.max(1) as u128;
    2 * hops as u128 * t_hop as u128 + (l_data as u128).div_ceil(b) + (l_ack as u128).div_ceil(b)
}

/// The optimal window `omega = RTT_min / (L_data / B)` as the exact fraction
/// `(2*h*t_hop*B + L_data + L_ack) / L_data` (numerator, denominator).
pub fn omega(hops: u32, t_hop: u32, b: u32, l_data: u32, l_ack: u32) -> (u128, u128) {
    let num = 2 * hops as u128 * t_hop as u128 * b as u128 + l_data as u128 + l_ack as u128;
    (num, l_data as u128)
}

impl Params {
    /// Why these constants do not fit the RTL, if they do not.
    pub fn check(&self) -> Result<(), String> {
        let fits = |name: &str, v: u32, lo: u32, hi: u32| {
            if v < lo || v > hi {
                Err(format!("{name} = {v}: allowed {lo}..={hi}"))
            } else {
                Ok(())
            }
        };
        fits("dw_max", self.dw_max, 1, 255)?;
        fits("k", self.k, 2, 64)?;
        fits("n", self.n, 1, 12)?;
        fits("rtt_min", self.rtt_min, 1, RTT_MIN_MAX)?;
        let lim = self.ws_incs_limit();
        if self.ws_max_incs > lim {
            return Err(format!(
                "ws_max_incs = {}: allowed 0..={lim} (k^ws_max_incs * rtt_min = {}^{} * {} \
                 must stay below 2^{WAIT_BITS})",
                self.ws_max_incs, self.k, self.ws_max_incs, self.rtt_min
            ));
        }
        Ok(())
    }

    /// The largest `ws_max_incs` for this `k` and `rtt_min`: the largest e with
    /// `k^e * rtt_min < 2^WAIT_BITS` (0 if `k < 2` or `rtt_min` is 0 or too large).
    pub fn ws_incs_limit(&self) -> u32 {
        let top = 1u64 << WAIT_BITS;
        let (k, mut w) = (self.k as u64, self.rtt_min as u64);
        if k < 2 || w == 0 || w >= top {
            return 0;
        }
        let mut e = 0;
        while w * k < top {
            w *= k;
            e += 1;
        }
        e
    }

    /// The constants from the network configuration (§4.3 of the paper): `k`, `n`; the
    /// hops of the longest path `hops` and the cycles per hop `t_hop` (routing, switching,
    /// link); the link's `bytes_per_cycle`; the data packet's `l_payload` and `l_header`
    /// bytes (`L_data = l_payload + l_header`) and the ACK's `l_ack` bytes.
    /// `rtt_min` = [`rtt_min_cycles`], `dw_max = ceil(omega)` ([`omega`]),
    /// `ws_max_incs = n`; checked.
    #[allow(clippy::too_many_arguments)]
    pub fn derived(
        k: u32,
        n: u32,
        hops: u32,
        t_hop: u32,
        bytes_per_cycle: u32,
        l_payload: u32,
        l_ack: u32,
        l_header: u32,
    ) -> Result<Params, String> {
        if bytes_per_cycle == 0 {
            return Err("bytes_per_cycle = 0: allowed 1..".into());
        }
        let l_data = l_payload
            .checked_add(l_header)
            .ok_or("l_payload + l_header overflows u32")?;
        if l_data == 0 {
            return Err("l_payload + l_header = 0: allowed 1..".into());
        }
        let narrow = |v: u128| u32::try_from(v).unwrap_or(u32::MAX);
        let (num, den) = omega(hops, t_hop, bytes_per_cycle, l_data, l_ack);
        let p = Params {
            dw_max: narrow(num.div_ceil(den)),
            k,
            n,
            rtt_min: narrow(rtt_min_cycles(hops, t_hop, bytes_per_cycle, l_data, l_ack)),
            ws_max_incs: n,
        };
        p.check()?;
        Ok(p)
    }

    /// The longest waiting interval, `k^ws_max_incs * rtt_min` cycles (saturating).
    pub fn max_waiting_interval(&self) -> u64 {
        (self.k as u64)
            .saturating_pow(self.ws_max_incs)
            .saturating_mul(self.rtt_min as u64)
    }

    /// Bits of the waiting-interval timer: those of [`Params::max_waiting_interval`].
    pub fn wait_bits(&self) -> u32 {
        u64::BITS - self.max_waiting_interval().leading_zeros()
    }

    fn dw_max_u8(&self) -> u8 {
        self.dw_max.clamp(1, 255) as u8
    }
}

/// The class of an ACK, from its MB and VB bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Class {
    /// MB = 0, VB = 0: no congestion on the path.
    Clean,
    /// MB = 1, VB = 0: a warm flow (HOL blocking at a congested input buffer).
    Moderate,
    /// MB = 1, VB = 1: a hot flow (also through a saturated output).
    Imminent,
}

impl Class {
    /// The class of the bits, or [`FlowError::ImpossibleMarks`] for MB = 0, VB = 1.
    pub fn from_bits(mb: bool, vb: bool) -> Result<Class, FlowError> {
        match (mb, vb) {
            (false, false) => Ok(Class::Clean),
            (true, false) => Ok(Class::Moderate),
            (true, true) => Ok(Class::Imminent),
            (false, true) => Err(FlowError::ImpossibleMarks),
        }
    }
}

/// What a valid ACK did to the flow (one per ACK: the RTL's action code).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// `dw -= 1` (moderate or imminent).
    DwDown,
    /// The first WS inserted (`e = 0`; imminent at `dw = 1`).
    WsSet,
    /// The WS multiplied by k (`e += 1`, `incs += 1`; imminent).
    WsUp,
    /// All WS removed and the interval in progress cancelled (clean).
    WsRemoved,
    /// `dw += 1` (clean).
    DwUp,
    /// Nothing: at the floor (`dw = 1`, moderate; WS at the bound, imminent) or at full
    /// rate (clean).
    Hold,
}

/// An event the flow refuses or reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FlowError {
    /// An ACK with no packet outstanding: nothing changed.
    StrayAck,
    /// An ACK with MB = 0 and VB = 1: its packet was released (`out -= 1`), nothing else.
    ImpossibleMarks,
    /// `on_inject` while `can_inject` is false: nothing changed.
    NotEligible,
}

impl fmt::Display for FlowError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            FlowError::StrayAck => "ACK with no packet outstanding",
            FlowError::ImpossibleMarks => "ACK with MB = 0 and VB = 1",
            FlowError::NotEligible => "injection while the flow may not inject",
        })
    }
}

impl std::error::Error for FlowError {}

/// One flow's registers (see the module doc for the rules).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Flow {
    /// Dynamic window: packets that may be outstanding (1..=dw_max).
    pub dw: u8,
    /// Packets injected and not yet ACKed.
    pub out: u8,
    /// Waiting slots: `None` for none, `Some(e)` for `k^e`.
    pub ws_exp: Option<u8>,
    /// Multiplications by k since the WS were set to 1 (`e`, or 0 without WS).
    pub incs: u8,
    /// First cycle in which the next packet may start.
    pub next_ok: u64,
}

impl Flow {
    /// A flow at full rate with nothing outstanding.
    pub fn new(p: &Params) -> Flow {
        Flow {
            dw: p.dw_max_u8(),
            out: 0,
            ws_exp: None,
            incs: 0,
            next_ok: 0,
        }
    }

    /// The number of waiting slots: `k^e`, or 0 without WS.
    pub fn waiting_slots(&self, p: &Params) -> u64 {
        self.ws_exp
            .map_or(0, |e| (p.k as u64).saturating_pow(e as u32))
    }

    /// The waiting interval a packet started now would impose on the next one, cycles:
    /// `k^e * rtt_min`, or 0 without WS.
    pub fn waiting_interval(&self, p: &Params) -> u64 {
        self.waiting_slots(p).saturating_mul(p.rtt_min as u64)
    }

    /// The flow may start a packet in cycle `now`.
    pub fn can_inject(&self, now: u64) -> bool {
        self.out < self.dw && now >= self.next_ok
    }

    /// A packet of the flow starts in cycle `now`.
    pub fn on_inject(&mut self, p: &Params, now: u64) -> Result<(), FlowError> {
        if !self.can_inject(now) {
            return Err(FlowError::NotEligible);
        }
        self.out += 1;
        self.next_ok = now.saturating_add(self.waiting_interval(p));
        Ok(())
    }

    /// An ACK of the flow arrives with the bits `mb` and `vb`.
    pub fn on_ack(&mut self, p: &Params, mb: bool, vb: bool) -> Result<Action, FlowError> {
        if self.out == 0 {
            return Err(FlowError::StrayAck);
        }
        self.out -= 1;
        let action = match Class::from_bits(mb, vb)? {
            Class::Imminent if self.dw > 1 => {
                self.dw -= 1;
                Action::DwDown
            }
            Class::Imminent => match self.ws_exp {
                None => {
                    self.ws_exp = Some(0);
                    self.incs = 0;
                    Action::WsSet
                }
                Some(e) if (self.incs as u32) < p.ws_max_incs => {
                    self.ws_exp = Some(e + 1);
                    self.incs += 1;
                    Action::WsUp
                }
                Some(_) => Action::Hold,
            },
            Class::Moderate if self.dw > 1 => {
                self.dw -= 1;
                Action::DwDown
            }
            Class::Moderate => Action::Hold,
            Class::Clean if self.ws_exp.is_some() => {
                self.ws_exp = None;
                self.incs = 0;
                self.next_ok = 0;
                Action::WsRemoved
            }
            Class::Clean if self.dw < p.dw_max_u8() => {
                self.dw += 1;
                Action::DwUp
            }
            Class::Clean => Action::Hold,
        };
        Ok(action)
    }

    /// The host puts a packet into the flow's empty injection queue: back to full rate
    /// (`out` unchanged).
    pub fn on_enqueue_into_empty_queue(&mut self, p: &Params) {
        self.dw = p.dw_max_u8();
        self.ws_exp = None;
        self.incs = 0;
        self.next_ok = 0;
    }

    /// Which invariant of the module doc the flow breaks, if any.
    pub fn check_invariants(&self, p: &Params) -> Result<(), String> {
        let dw_max = p.dw_max_u8();
        if self.dw < 1 || self.dw > dw_max {
            return Err(format!("dw = {}: allowed 1..={dw_max}", self.dw));
        }
        if self.out > dw_max {
            return Err(format!("out = {} above dw_max = {dw_max}", self.out));
        }
        match self.ws_exp {
            None if self.incs != 0 => Err(format!("incs = {} without WS", self.incs)),
            Some(_) if self.dw != 1 => Err(format!("WS with dw = {}", self.dw)),
            Some(e) if e != self.incs => Err(format!("e = {e} but incs = {}", self.incs)),
            Some(e) if e as u32 > p.ws_max_incs => {
                Err(format!("e = {e} above ws_max_incs = {}", p.ws_max_incs))
            }
            _ => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_xoshiro::Xoshiro256PlusPlus;

    /// The paper's 4-ary 5-fly: 9 hops of 3 cycles, 1 B/cycle, 256 B payload + 22 B
    /// header, 22 B ACKs.
    fn paper() -> Params {
        Params::derived(4, 5, 9, 3, 1, 256, 22, 22).unwrap()
    }

    /// A wider window to see the DW phase: dw_max 5, k 2, 3 increases, 100-cycle WS.
    fn wide() -> Params {
        Params {
            dw_max: 5,
            k: 2,
            n: 3,
            rtt_min: 100,
            ws_max_incs: 3,
        }
    }

    /// Start one packet as soon as the flow may, then ACK it with (mb, vb).
    fn round(f: &mut Flow, p: &Params, now: &mut u64, mb: bool, vb: bool) -> Action {
        *now = (*now).max(f.next_ok);
        f.on_inject(p, *now).unwrap();
        let a = f.on_ack(p, mb, vb).unwrap();
        f.check_invariants(p).unwrap();
        a
    }

    #[test]
    fn the_paper_example_derives_rtt_354_omega_1_27_and_dw_max_2() {
        let (num, den) = omega(9, 3, 1, 278, 22);
        assert_eq!(
            (num, den),
            (354, 278),
            "K = 2*9*3 + 22 = 76; 76 + 278 = 354"
        );
        let w = num as f64 / den as f64;
        assert!((1.273..1.274).contains(&w), "{w}");
        assert_eq!(rtt_min_cycles(9, 3, 1, 278, 22), 354);
        let p = paper();
        assert_eq!(
            p,
            Params {
                dw_max: 2,
                k: 4,
                n: 5,
                rtt_min: 354,
                ws_max_incs: 5
            }
        );
        // Without payload omega tends to 98/22 = 4.45 (the paper's upper bound).
        assert_eq!(omega(9, 3, 1, 22, 22), (98, 22));
    }

    #[test]
    fn the_wide_link_example_derives_omega_4_19_and_dw_max_5() {
        let (num, den) = omega(9, 3, 16, 278, 22);
        assert_eq!((num, den), (1164, 278));
        let w = num as f64 / den as f64;
        assert!((4.18..4.19).contains(&w), "{w}");
        let p = Params::derived(4, 5, 9, 3, 16, 256, 22, 22).unwrap();
        assert_eq!(p.dw_max, 5);
        // 54 cycles of hops + ceil(278/16) = 18 + ceil(22/16) = 2.
        assert_eq!(p.rtt_min, 74);
    }

    #[test]
    fn derived_refuses_what_it_cannot_compute_and_what_does_not_fit() {
        let e = Params::derived(4, 5, 9, 3, 0, 256, 22, 22).unwrap_err();
        assert!(e.contains("bytes_per_cycle"), "{e}");
        let e = Params::derived(4, 5, 9, 3, 1, 0, 22, 0).unwrap_err();
        assert!(e.contains("l_payload + l_header"), "{e}");
        // 1-byte packets over a long path: omega = 1,000,002 / 1.
        let e = Params::derived(4, 5, 500_000, 1, 1, 1, 1, 0).unwrap_err();
        assert!(e.contains("dw_max") && e.contains("1..=255"), "{e}");
        let e = Params::derived(1, 5, 9, 3, 1, 256, 22, 22).unwrap_err();
        assert!(e.contains("k = 1") && e.contains("2..=64"), "{e}");
    }

    #[test]
    fn check_names_the_field_and_its_range() {
        assert!(paper().check().is_ok());
        assert!(wide().check().is_ok());
        let cases = [
            (
                Params {
                    dw_max: 0,
                    ..wide()
                },
                "dw_max = 0: allowed 1..=255",
            ),
            (
                Params {
                    dw_max: 256,
                    ..wide()
                },
                "dw_max = 256: allowed 1..=255",
            ),
            (Params { k: 1, ..wide() }, "k = 1: allowed 2..=64"),
            (Params { k: 65, ..wide() }, "k = 65: allowed 2..=64"),
            (Params { n: 0, ..wide() }, "n = 0: allowed 1..=12"),
            (Params { n: 13, ..wide() }, "n = 13: allowed 1..=12"),
            (
                Params {
                    rtt_min: 0,
                    ..wide()
                },
                "rtt_min = 0: allowed 1..=1048576",
            ),
            (
                Params {
                    rtt_min: RTT_MIN_MAX + 1,
                    ..wide()
                },
                "rtt_min = 1048577: allowed 1..=1048576",
            ),
        ];
        for (p, want) in cases {
            let e = p.check().unwrap_err();
            assert!(e.contains(want), "{e}");
        }
        // 64^e * 2^20 < 2^32 only for e <= 1.
        let big = Params {
            dw_max: 2,
            k: 64,
            n: 12,
            rtt_min: RTT_MIN_MAX,
            ws_max_incs: 2,
        };
        assert_eq!(big.ws_incs_limit(), 1);
        let e = big.check().unwrap_err();
        assert!(e.contains("ws_max_incs = 2: allowed 0..=1"), "{e}");
        assert!(Params {
            ws_max_incs: 1,
            ..big
        }
        .check()
        .is_ok());
    }

    #[test]
    fn the_paper_timer_needs_19_bits() {
        let p = paper();
        assert_eq!(p.max_waiting_interval(), 1024 * 354);
        assert_eq!(p.max_waiting_interval(), 362_496);
        assert_eq!(p.wait_bits(), 19);
        // The worst case the check lets through still fits WAIT_BITS.
        let big = Params {
            dw_max: 255,
            k: 2,
            n: 12,
            rtt_min: 1,
            ws_max_incs: 31,
        };
        assert!(big.check().is_ok());
        assert_eq!(big.wait_bits(), WAIT_BITS);
    }

    #[test]
    fn validated_acks_reduce_dw_to_1_then_insert_1_k_k2_up_to_k_pow_ws_max_incs() {
        for p in [paper(), wide()] {
            let mut f = Flow::new(&p);
            let mut now = 0;
            for dw in (1..p.dw_max as u8).rev() {
                assert_eq!(round(&mut f, &p, &mut now, true, true), Action::DwDown);
                assert_eq!((f.dw, f.ws_exp), (dw, None));
            }
            assert_eq!(round(&mut f, &p, &mut now, true, true), Action::WsSet);
            assert_eq!((f.dw, f.ws_exp, f.incs), (1, Some(0), 0));
            assert_eq!(f.waiting_slots(&p), 1);
            let mut slots = vec![f.waiting_slots(&p)];
            for i in 1..=p.ws_max_incs as u8 {
                assert_eq!(round(&mut f, &p, &mut now, true, true), Action::WsUp);
                assert_eq!((f.ws_exp, f.incs), (Some(i), i));
                slots.push(f.waiting_slots(&p));
            }
            let want: Vec<u64> = (0..=p.ws_max_incs).map(|e| (p.k as u64).pow(e)).collect();
            assert_eq!(slots, want);
            for _ in 0..10 {
                assert_eq!(round(&mut f, &p, &mut now, true, true), Action::Hold);
            }
            assert_eq!(f.waiting_interval(&p), p.max_waiting_interval());
        }
        let p = paper();
        let mut f = Flow::new(&p);
        let mut now = 0;
        let acts: Vec<Action> = (0..9)
            .map(|_| round(&mut f, &p, &mut now, true, true))
            .collect();
        use Action::*;
        assert_eq!(
            acts,
            [DwDown, WsSet, WsUp, WsUp, WsUp, WsUp, WsUp, Hold, Hold]
        );
        assert_eq!(f.waiting_slots(&p), 1024);
    }

    #[test]
    fn with_no_increases_allowed_the_waiting_slots_stay_at_1() {
        let p = Params {
            ws_max_incs: 0,
            ..wide()
        };
        let mut f = Flow::new(&p);
        let mut now = 0;
        for _ in 0..20 {
            round(&mut f, &p, &mut now, true, true);
        }
        assert_eq!((f.dw, f.ws_exp, f.incs), (1, Some(0), 0));
    }

    #[test]
    fn moderate_acks_lower_dw_to_1_and_never_touch_the_waiting_slots() {
        let p = wide();
        let mut f = Flow::new(&p);
        let mut now = 0;
        for _ in 0..4 {
            assert_eq!(round(&mut f, &p, &mut now, true, false), Action::DwDown);
        }
        for _ in 0..20 {
            assert_eq!(round(&mut f, &p, &mut now, true, false), Action::Hold);
            assert_eq!((f.dw, f.ws_exp), (1, None));
        }
        // With WS present they neither grow nor remove them.
        round(&mut f, &p, &mut now, true, true);
        round(&mut f, &p, &mut now, true, true);
        assert_eq!(f.ws_exp, Some(1));
        for _ in 0..5 {
            assert_eq!(round(&mut f, &p, &mut now, true, false), Action::Hold);
            assert_eq!((f.dw, f.ws_exp, f.incs), (1, Some(1), 1));
        }
    }

    /// The flow after the full reduction (dw = 1, k^ws_max_incs WS).
    fn reduced(p: &Params, now: &mut u64) -> Flow {
        let mut f = Flow::new(p);
        for _ in 0..(p.dw_max + p.ws_max_incs + 5) {
            round(&mut f, p, now, true, true);
        }
        assert_eq!((f.dw, f.ws_exp), (1, Some(p.ws_max_incs as u8)));
        f
    }

    #[test]
    fn recovery_removes_all_waiting_slots_first_then_adds_1_per_clean_ack() {
        for p in [paper(), wide()] {
            let mut now = 0;
            let mut f = reduced(&p, &mut now);
            // One packet in flight under the longest interval.
            now = f.next_ok;
            f.on_inject(&p, now).unwrap();
            assert_eq!(f.next_ok, now + p.max_waiting_interval());
            assert_eq!(f.on_ack(&p, false, false), Ok(Action::WsRemoved));
            assert_eq!((f.dw, f.ws_exp, f.incs, f.out), (1, None, 0, 0));
            assert!(
                f.can_inject(now + 1),
                "the interval in progress is cancelled"
            );
            let mut clean = 1;
            while f.dw < p.dw_max as u8 {
                let dw = f.dw;
                assert_eq!(round(&mut f, &p, &mut now, false, false), Action::DwUp);
                assert_eq!(f.dw, dw + 1);
                clean += 1;
            }
            assert_eq!(
                clean, p.dw_max,
                "full rate after 1 + (dw_max - 1) clean ACKs"
            );
            assert_eq!(round(&mut f, &p, &mut now, false, false), Action::Hold);
            assert_eq!(
                f,
                Flow {
                    next_ok: f.next_ok,
                    ..Flow::new(&p)
                }
            );
        }
    }

    #[test]
    fn the_fast_reset_restores_full_rate_and_keeps_out() {
        let p = wide();
        let mut now = 0;
        let mut f = reduced(&p, &mut now);
        now = f.next_ok;
        f.on_inject(&p, now).unwrap();
        assert!(!f.can_inject(now + 1));
        f.on_enqueue_into_empty_queue(&p);
        assert_eq!(
            f,
            Flow {
                dw: 5,
                out: 1,
                ws_exp: None,
                incs: 0,
                next_ok: 0
            }
        );
        assert!(f.can_inject(now + 1), "4 more may go at once");
        for _ in 0..4 {
            f.on_inject(&p, now + 1).unwrap();
        }
        assert!(!f.can_inject(now + 1));
        assert_eq!(f.out, 5);
        f.check_invariants(&p).unwrap();
    }

    #[test]
    fn a_packet_may_start_at_next_ok_and_not_one_cycle_before() {
        let p = paper();
        let mut f = Flow::new(&p);
        // Without WS the flow may start the next packet in the same cycle (window 2).
        f.on_inject(&p, 1000).unwrap();
        assert_eq!(f.next_ok, 1000);
        assert!(f.can_inject(1000));
        f.on_inject(&p, 1000).unwrap();
        assert!(!f.can_inject(1000), "window full");
        // dw 2 -> 1, then 1 WS (the next packet may start 354 cycles after this one).
        assert_eq!(f.on_ack(&p, true, true), Ok(Action::DwDown));
        assert_eq!(f.on_ack(&p, true, true), Ok(Action::WsSet));
        f.on_inject(&p, 1000).unwrap();
        assert_eq!(f.next_ok, 1000 + 354);
        // Then 4 WS, from the next injection on.
        assert_eq!(f.on_ack(&p, true, true), Ok(Action::WsUp));
        assert_eq!((f.dw, f.out, f.ws_exp), (1, 0, Some(1)));
        assert_eq!(
            f.next_ok,
            1000 + 354,
            "the interval in progress is not lengthened"
        );
        let t0 = 5_000;
        f.on_inject(&p, t0).unwrap();
        f.on_ack(&p, true, false).unwrap(); // the ACK is back; only the interval holds it
        assert_eq!(f.next_ok, t0 + 4 * 354);
        assert!(!f.can_inject(t0 + 4 * 354 - 1));
        assert!(f.can_inject(t0 + 4 * 354));
        let mut g = f;
        assert_eq!(
            g.on_inject(&p, t0 + 4 * 354 - 1),
            Err(FlowError::NotEligible)
        );
    }

    #[test]
    fn one_waiting_slot_never_delays_a_window_of_1() {
        let p = paper();
        let mut f = Flow {
            dw: 1,
            out: 0,
            ws_exp: Some(0),
            incs: 0,
            next_ok: 0,
        };
        f.on_inject(&p, 100).unwrap();
        // The earliest ACK comes rtt_min after the start: the interval is over by then.
        f.on_ack(&p, true, false).unwrap();
        assert!(f.can_inject(100 + p.rtt_min as u64));
    }

    #[test]
    fn impossible_and_stray_acks_are_reported_not_panicking() {
        let p = wide();
        let mut f = Flow::new(&p);
        assert_eq!(f.on_ack(&p, false, false), Err(FlowError::StrayAck));
        assert_eq!(f.on_ack(&p, true, true), Err(FlowError::StrayAck));
        assert_eq!(
            f.on_ack(&p, false, true),
            Err(FlowError::StrayAck),
            "stray wins"
        );
        assert_eq!(f, Flow::new(&p), "nothing changed");
        // The impossible ACK releases its packet and does nothing else.
        let mut now = 0;
        round(&mut f, &p, &mut now, true, false);
        f.on_inject(&p, now).unwrap();
        let before = f;
        assert_eq!(f.on_ack(&p, false, true), Err(FlowError::ImpossibleMarks));
        assert_eq!(f, Flow { out: 0, ..before });
        assert_eq!(
            Class::from_bits(false, true),
            Err(FlowError::ImpossibleMarks)
        );
        assert_eq!(
            FlowError::StrayAck.to_string(),
            "ACK with no packet outstanding"
        );
        // An injection the flow may not make changes nothing.
        let mut g = Flow {
            dw: 1,
            out: 1,
            ..Flow::new(&p)
        };
        let before = g;
        assert_eq!(g.on_inject(&p, 0), Err(FlowError::NotEligible));
        assert_eq!(g, before);
    }

    /// Random events on random flows: the invariants hold after every event, and an
    /// injection allowed at a cycle's start stays allowed after that cycle's ACK and reset.
    #[test]
    fn random_events_keep_the_invariants_and_a_registered_decision_stays_valid() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(4);
        for p in [
            paper(),
            wide(),
            Params {
                dw_max: 1,
                ..wide()
            },
        ] {
            let mut f = Flow::new(&p);
            let mut now: u64 = 0;
            let (mut seen, mut top_e) = (Vec::new(), 0);
            for _ in 0..200_000 {
                now += rng.gen_range(0..300u64);
                let allowed = f.can_inject(now);
                if f.out > 0 && rng.gen_bool(0.5) {
                    // Hot 50 %, warm 20 %, clean 20 %, impossible 10 %.
                    let (mb, vb) = match rng.gen_range(0..10) {
                        0..=4 => (true, true),
                        5..=6 => (true, false),
                        7..=8 => (false, false),
                        _ => (false, true),
                    };
                    match f.on_ack(&p, mb, vb) {
                        Ok(a) if !seen.contains(&a) => seen.push(a),
                        Ok(_) => {}
                        Err(e) => assert!(!mb && vb && e == FlowError::ImpossibleMarks),
                    }
                    top_e = top_e.max(f.ws_exp.unwrap_or(0));
                    f.check_invariants(&p).unwrap();
                }
                if rng.gen_bool(0.01) {
                    f.on_enqueue_into_empty_queue(&p);
                    f.check_invariants(&p).unwrap();
                }
                if allowed {
                    assert!(f.can_inject(now), "{f:?} at {now}");
                    f.on_inject(&p, now).unwrap();
                    f.check_invariants(&p).unwrap();
                }
            }
            // Every action, and the bound, were reached.
            assert_eq!(seen.len(), if p.dw_max > 1 { 6 } else { 4 }, "{seen:?}");
            assert_eq!(top_e as u32, p.ws_max_incs);
        }
    }
}
