//! The property's cases: what a case holds (registers and steps of stimulus) and the
//! proptest strategies that draw them.

use super::MAX_STEPS;
use pft_hdl::model::Regs;
use pft_hdl::regs::{self, addr};
use proptest::prelude::*;

// ------------------------------------------------------------------------------------------
// Case description
// ------------------------------------------------------------------------------------------

/// Flit-valid pattern of a step (`j` = cycle within the step).
#[derive(Clone, Copy, Debug)]
pub(crate) enum Valid {
    Never,
    Always,
    /// One flit every `n` cycles.
    Every(u8),
    /// Bit `j % 16` of the word.
    Pattern(u16),
}

/// Head-of-packet pattern of a step (read by the block with packet gating only).
#[derive(Clone, Copy, Debug)]
pub(crate) enum Head {
    /// Every flit is a packet's first (1-flit packets).
    Always,
    /// No flit is (a packet longer than the step).
    Never,
    /// Packets of `n` flits back to back: a head whenever the reference's CNT_SENT is a
    /// multiple of `n` (so the head stays up until it leaves).
    Packets(u8),
    /// Bit `j % 16` of the word.
    Pattern(u16),
}

/// Credit returns of a step.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Ret {
    None,
    /// `amount` credits every `period` cycles, clamped to the credits in use.
    Clamped {
        amount: u8,
        period: u8,
    },
    /// `v` credits on the step's first cycle, whatever is in use (may underflow).
    Raw(u8),
}

/// A CSR write value.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Val {
    Raw(u32),
    /// Percent of the current CREDIT_LIMIT.
    PctLimit(u8),
    /// Current used credits `c` plus an offset (clamped to 0..=0xFFFF).
    NearC(i8),
}

/// Read address held on the CSR port while not writing.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Read {
    /// All 16 registers in turn.
    Sweep,
    /// One address (0x10..0xFF alias onto the 4-bit port).
    Addr(u8),
}

#[derive(Clone, Copy, Debug)]
pub(crate) struct Step {
    pub(crate) len: u16,
    /// Reset on the first cycle; `Some(true)`: then load the case's registers again.
    pub(crate) reset: Option<bool>,
    /// Write on the first cycle (after the reset prelude, if any).
    pub(crate) write: Option<(u8, Val)>,
    pub(crate) valid: Valid,
    pub(crate) head: Head,
    pub(crate) ret: Ret,
    pub(crate) read: Read,
}

#[derive(Clone, Debug)]
pub(crate) struct Case {
    pub(crate) regs: Regs,
    pub(crate) steps: Vec<Step>,
}

// ------------------------------------------------------------------------------------------
// Strategies
// ------------------------------------------------------------------------------------------

pub(crate) fn ctrl_strategy() -> impl Strategy<Value = u32> {
    (
        prop::bool::weighted(0.9),
        any::<bool>(),
        any::<bool>(),
        any::<bool>(),
        prop_oneof![4 => Just(0u32), 1 => any::<u32>()],
    )
        .prop_map(|(en, at, ri, packet, junk)| {
            regs::ctrl_word(en, at, ri)
                | if packet { regs::CTRL_GATING } else { 0 }
                | (junk & !regs::CTRL_MASK)
        })
}

/// SHAPE.r_width: the extremes (1 and 32; 0 and 63 act as 32) and narrow widths.
pub(crate) fn r_width_strategy() -> impl Strategy<Value = u8> {
    prop_oneof![
        4 => Just(32u8),
        1 => Just(0u8),
        1 => Just(63u8),
        2 => Just(1u8),
        4 => 2u8..=31,
    ]
}

pub(crate) fn limit_strategy() -> impl Strategy<Value = u16> {
    prop_oneof![
        1 => Just(0u16),
        1 => Just(1u16),
        8 => 2u16..=64,
        4 => 64u16..=400,
        1 => any::<u16>(),
    ]
}

/// A threshold relative to the credit limit.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Th {
    Pct(u8),
    Near(i8),
    Raw(u16),
}

pub(crate) fn th_strategy() -> impl Strategy<Value = Th> {
    prop_oneof![
        8 => (0u8..=105).prop_map(Th::Pct),
        1 => (-4i8..=4).prop_map(Th::Near),
        1 => any::<u16>().prop_map(Th::Raw),
    ]
}

pub(crate) fn resolve_th(t: Th, limit: u16) -> u16 {
    match t {
        Th::Pct(p) => (limit as u32 * p as u32 / 100).min(0xFFFF) as u16,
        Th::Near(d) => (limit as i32 + d as i32).clamp(0, 0xFFFF) as u16,
        Th::Raw(v) => v,
    }
}

pub(crate) fn win_strategy() -> impl Strategy<Value = u16> {
    prop_oneof![
        1 => Just(0u16),
        1 => Just(1u16),
        3 => 2u16..=16,
        4 => 16u16..=128,
        1 => any::<u16>(),
    ]
}

/// An AT count relative to its window.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Cnt {
    Zero,
    One,
    /// Percent of the window, up to 150 % (count > window: never switches).
    Pct(u8),
    Raw(u16),
}

pub(crate) fn cnt_strategy() -> impl Strategy<Value = Cnt> {
    prop_oneof![
        1 => Just(Cnt::Zero),
        1 => Just(Cnt::One),
        6 => (0u8..=150).prop_map(Cnt::Pct),
        1 => any::<u16>().prop_map(Cnt::Raw),
    ]
}

pub(crate) fn resolve_cnt(c: Cnt, win: u16) -> u16 {
    match c {
        Cnt::Zero => 0,
        Cnt::One => 1,
        Cnt::Pct(p) => (win as u32 * p as u32 / 100).min(0xFFFF) as u16,
        Cnt::Raw(v) => v,
    }
}

/// (selector, FI-friendly (m, n), RI-friendly (m, n), any (m, n)).
type ShapePick = (u8, (u8, u8), (u8, u8), (u8, u8));

pub(crate) fn shape_strategy() -> impl Strategy<Value = ShapePick> {
    (
        0u8..10,
        (0u8..=4, 0u8..=12),
        (20u8..=31, 0u8..=3),
        (0u8..=31, 0u8..=31),
    )
}

pub(crate) fn k_strategy() -> impl Strategy<Value = u16> {
    prop_oneof![6 => 0u16..=16, 1 => Just(0xFFFFu16), 1 => any::<u16>()]
}

pub(crate) fn seed_strategy() -> impl Strategy<Value = u32> {
    prop_oneof![1 => Just(0u32), 4 => any::<u32>()]
}

pub(crate) fn regs_strategy() -> impl Strategy<Value = Regs> {
    (
        ctrl_strategy(),
        limit_strategy(),
        (th_strategy(), th_strategy()),
        (
            win_strategy(),
            cnt_strategy(),
            win_strategy(),
            cnt_strategy(),
        ),
        (shape_strategy(), r_width_strategy()),
        k_strategy(),
        seed_strategy(),
    )
        .prop_map(
            |(ctrl, limit, (te, ts), (we, ce, ws, cs), (shape, r_width), k, seed)| {
                let (sel, fi, ri, any) = shape;
                let (m, n) = if sel < 2 {
                    any
                } else if ctrl & regs::CTRL_THR_RI != 0 && (1..24).contains(&r_width) {
                    // a level near 2^r_width for c up to a few hundred
                    (ri.0.min(r_width.saturating_sub(6)), ri.1)
                } else if ctrl & regs::CTRL_THR_RI != 0 {
                    ri
                } else {
                    fi
                };
                Regs {
                    ctrl,
                    credit_limit: limit,
                    th_enter: resolve_th(te, limit),
                    th_escape: resolve_th(ts, limit),
                    at_win_e: we,
                    at_cnt_e: resolve_cnt(ce, we),
                    at_win_s: ws,
                    at_cnt_s: resolve_cnt(cs, ws),
                    m,
                    n,
                    k,
                    r_width,
                    seed,
                }
            },
        )
}

pub(crate) fn write_strategy() -> impl Strategy<Value = (u8, Val)> {
    let raw = || any::<u32>().prop_map(Val::Raw);
    prop_oneof![
        // Mode and enable changes (junk in the high bits now and then).
        3 => ctrl_strategy().prop_map(|v| (addr::CTRL, Val::Raw(v))),
        // Thresholds near the credit level or near c, in either order.
        3 => (prop_oneof![Just(addr::TH_ENTER), Just(addr::TH_ESCAPE)],
              prop_oneof![(0u8..=110).prop_map(Val::PctLimit), (-8i8..=8).prop_map(Val::NearC)]),
        // The limit, also below c (overflow flag).
        3 => (Just(addr::CREDIT_LIMIT),
              prop_oneof![2 => (-8i8..=0).prop_map(Val::NearC), 1 => (0i8..=8).prop_map(Val::NearC),
                          1 => limit_strategy().prop_map(|v| Val::Raw(v as u32))]),
        2 => (prop_oneof![Just(addr::AT_WIN_E), Just(addr::AT_CNT_E),
                          Just(addr::AT_WIN_S), Just(addr::AT_CNT_S)],
              win_strategy().prop_map(|v| Val::Raw(v as u32))),
        2 => (Just(addr::SHAPE),
              ((0u8..=31, 0u8..=31), r_width_strategy(), any::<u32>())
                  .prop_map(|((m, n), w, junk)| Val::Raw(regs::shape_word(m, n)
                      | (w as u32) << regs::SHAPE_R_WIDTH_SHIFT | (junk & !regs::SHAPE_MASK)))),
        1 => (Just(addr::K), k_strategy().prop_map(|v| Val::Raw(v as u32))),
        1 => (Just(addr::SEED), seed_strategy().prop_map(Val::Raw)),
        // Write-to-clear registers, the read-only AT_STATUS, and addresses past the 4-bit port.
        2 => (prop_oneof![Just(addr::STATUS), Just(addr::CNT_CONGESTED),
                          Just(addr::CNT_SENT), Just(addr::CNT_THROTTLED), Just(addr::AT_STATUS)], raw()),
        2 => (16u8..=255, raw()),
    ]
}

/// Step length 1..=400 cycles, cubic in a uniform x so that short steps are common (a quarter
/// are <= 7 cycles, half <= 50); monotone, so shrinking x shrinks the length down to 1.
pub(crate) fn len_strategy() -> impl Strategy<Value = u16> {
    (0u64..=1000).prop_map(|x| (1 + x * x * x * 399 / 1_000_000_000) as u16)
}

pub(crate) fn any_valid() -> impl Strategy<Value = Valid> {
    prop_oneof![
        1 => Just(Valid::Never),
        4 => Just(Valid::Always),
        2 => (2u8..=8).prop_map(Valid::Every),
        2 => any::<u16>().prop_map(Valid::Pattern),
    ]
}

pub(crate) fn any_head() -> impl Strategy<Value = Head> {
    prop_oneof![
        1 => Just(Head::Always),
        1 => Just(Head::Never),
        3 => (2u8..=16).prop_map(Head::Packets),
        1 => any::<u16>().prop_map(Head::Pattern),
    ]
}

pub(crate) fn any_ret() -> impl Strategy<Value = Ret> {
    prop_oneof![
        2 => Just(Ret::None),
        5 => (1u8..=4, 1u8..=4).prop_map(|(amount, period)| Ret::Clamped { amount, period }),
        1 => any::<u8>().prop_map(Ret::Raw),
    ]
}

/// The flit and credit pattern of a step: a congestion episode (flits nearly every cycle, few
/// credits back), a relief (few flits, credits back every cycle or two), or anything.
pub(crate) fn traffic_strategy() -> impl Strategy<Value = (Valid, Ret)> {
    prop_oneof![
        3 => (any_valid(), any_ret()),
        4 => (
            prop_oneof![4 => Just(Valid::Always), 1 => Just(Valid::Every(2)),
                        1 => any::<u16>().prop_map(|p| Valid::Pattern(p | 0x7777))],
            prop_oneof![1 => Just(Ret::None),
                        3 => (2u8..=8).prop_map(|period| Ret::Clamped { amount: 1, period })],
        ),
        2 => (
            prop_oneof![2 => Just(Valid::Never), 1 => (4u8..=8).prop_map(Valid::Every)],
            (1u8..=4, 1u8..=2).prop_map(|(amount, period)| Ret::Clamped { amount, period }),
        ),
    ]
}

pub(crate) fn step_strategy() -> impl Strategy<Value = Step> {
    (
        len_strategy(),
        prop::option::weighted(0.03, prop::bool::weighted(0.7)),
        prop::option::weighted(0.2, write_strategy()),
        traffic_strategy(),
        any_head(),
        prop_oneof![2 => Just(Read::Sweep), 1 => any::<u8>().prop_map(Read::Addr)],
    )
        .prop_map(|(len, reset, write, (valid, ret), head, read)| Step {
            len,
            reset,
            write,
            valid,
            head,
            ret,
            read,
        })
}

pub(crate) fn case_strategy() -> impl Strategy<Value = Case> {
    (
        regs_strategy(),
        prop::collection::vec(step_strategy(), 1..=MAX_STEPS),
    )
        .prop_map(|(regs, steps)| Case { regs, steps })
}
