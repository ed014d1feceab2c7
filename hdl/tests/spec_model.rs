//! The reference model against the spec's own numbers and rules (spec §1-§3). The RTL is
//! tied to the model cycle by cycle elsewhere; these tests tie the model to the spec.

use pft_hdl::model::{level, xorshift32, Inputs, PftModel};
use pft_hdl::regs::{self, addr};

fn write(m: &mut PftModel, a: u8, d: u32) {
    m.step(&Inputs {
        csr_we: true,
        csr_addr: a,
        csr_wdata: d,
        ..Default::default()
    });
}

/// A model after reset with the given register writes applied.
fn configured(writes: &[(u8, u32)]) -> PftModel {
    let mut m = PftModel::after_reset();
    for &(a, d) in writes {
        write(&mut m, a, d);
    }
    m
}

/// Step with a flit always ready and `c` held constant: return exactly the credit the block
/// is about to use. Returns the number of flits sent in `cycles`.
fn sends_at_constant_c(m: &mut PftModel, cycles: u32) -> u32 {
    let mut sent = 0;
    for _ in 0..cycles {
        let will_send = m.c < m.regs.credit_limit && m.throttle_ok();
        let c0 = m.c;
        let o = m.step(&Inputs {
            flit_valid: true,
            credit_return: will_send as u8,
            ..Default::default()
        });
        assert_eq!(o.send, will_send);
        assert_eq!(m.c, c0);
        sent += o.send as u32;
    }
    sent
}

/// Fill `c` to `target` with the block disabled (no throttling), credit limit at maximum.
fn fill(m: &mut PftModel, target: u16) {
    while m.c < target {
        let o = m.step(&Inputs {
            flit_valid: true,
            ..Default::default()
        });
        assert!(o.send);
    }
}

/// Walks `c` through `path` (its first value is `m.c`), one cycle per later value: a flit sent
/// moves `c` one up, credits returned move it down. The detector of cycle i sees `path[i]`.
/// Returns, after each cycle, whether the block is Congested and its AT (win, hit) counters.
fn walk_c(m: &mut PftModel, path: &[u16]) -> Vec<(bool, u16, u16)> {
    assert_eq!(m.c, path[0]);
    path.windows(2)
        .map(|w| {
            let up = w[1] == w[0] + 1;
            assert!(up || w[1] <= w[0], "{} -> {}", w[0], w[1]);
            let o = m.step(&Inputs {
                flit_valid: up,
                credit_return: if up { 0 } else { (w[0] - w[1]) as u8 },
                ..Default::default()
            });
            assert_eq!(o.send, up, "c {} -> {}: the flit must leave", w[0], w[1]);
            assert_eq!(m.c, w[1]);
            (m.congested(), m.win, m.hit)
        })
        .collect()
}

#[test]
fn level_is_exact_shift_add() {
    assert_eq!(level(0x250, 18, 0, 0), 0x250 << 18);
    assert_eq!(level(0xFFFF, 31, 0, 0xFFFF), (0xFFFFu64 << 31) + 0xFFFF); // nothing lost left
    assert_eq!(level(0xFFFF, 31, 31, 0), 0xFFFF);
    assert_eq!(level(3, 0, 1, 5), 1 + 5);
    assert_eq!(level(0x8000, 1, 17, 0), 0); // (0x10000 >> 17)
}

#[test]
fn ri_probabilities_match_the_spec_examples() {
    // m = 18, n = 0, k = 0: c = 0x250 -> P = 0.964; c = 0x2000 -> 0.5; c >= 0x4000 -> 0.
    for (c, p, tol) in [
        (0x250u16, 0.964, 0.004),
        (0x2000, 0.5, 0.006),
        (0x4000, 0.0, 0.0),
        (0x7000, 0.0, 0.0),
    ] {
        let mut m = configured(&[(addr::CREDIT_LIMIT, 0xFFFF), (addr::SEED, 12345)]);
        fill(&mut m, c);
        // FT with enter = escape = 0: Congested as soon as c > 0, and it never leaves.
        write(&mut m, addr::TH_ENTER, 0);
        write(&mut m, addr::TH_ESCAPE, 0);
        write(&mut m, addr::CTRL, regs::CTRL_ENABLE | regs::CTRL_THR_RI);
        m.step(&Inputs::default()); // the state register flips
        assert!(m.congested());
        let n = 200_000;
        let rate = sends_at_constant_c(&mut m, n) as f64 / n as f64;
        assert!(
            (rate - p).abs() <= tol,
            "c = {c:#x}: P(send) = {rate}, spec {p}"
        );
    }
}

#[test]
fn fi_sends_one_flit_every_one_plus_f_cycles() {
    for k in [0u32, 1, 3, 10] {
        // m = 0, n = 31: (c << 0) >> 31 = 0, so f(c) = k.
        let mut m = configured(&[
            (addr::SHAPE, 31 << regs::SHAPE_N_SHIFT),
            (addr::K, k),
            (addr::TH_ENTER, 0),
            (addr::TH_ESCAPE, 0),
            (addr::CREDIT_LIMIT, 0xFFFF),
        ]);
        fill(&mut m, 5);
        write(&mut m, addr::CTRL, regs::CTRL_ENABLE);
        m.step(&Inputs::default());
        assert!(m.congested());
        // Sends are exactly k idle cycles apart.
        let mut last = None;
        for t in 0..2_000u32 {
            let will = m.throttle_ok();
            let o = m.step(&Inputs {
                flit_valid: true,
                credit_return: will as u8,
                ..Default::default()
            });
            if o.send {
                if let Some(l) = last {
                    assert_eq!(t - l - 1, k, "idle cycles between two flits");
                }
                last = Some(t);
            }
        }
        assert!(last.is_some());
    }
}

#[test]
fn fi_level_above_16_bits_blocks_until_c_falls() {
    let mut m = configured(&[
        (addr::K, 0x1_0000 - 1),
        (addr::SHAPE, 1),
        (addr::TH_ENTER, 0),
        (addr::TH_ESCAPE, 0),
    ]);
    fill(&mut m, 2);
    write(&mut m, addr::CTRL, regs::CTRL_ENABLE);
    m.step(&Inputs::default());
    assert!(m.congested());
    // f(c) = 2c + 0xFFFF > 0xFFFF for c >= 1: the saturated gap never reaches it.
    for _ in 0..70_000 {
        assert!(
            !m.step(&Inputs {
                flit_valid: true,
                ..Default::default()
            })
            .send
        );
    }
    assert_eq!(m.gap, 0xFFFF);
    // c falls to 1: f(1) = 0x10001, still above the saturated gap.
    let o = m.step(&Inputs {
        credit_return: 1,
        ..Default::default()
    });
    assert!(!o.send);
    for _ in 0..100 {
        let o = m.step(&Inputs {
            flit_valid: true,
            ..Default::default()
        });
        assert!(!o.send && o.throttled, "c = 1: f(1) = 0x10001 > gap");
    }
    // c falls to 0: f(0) = 0xFFFF = the saturated gap, so the gate opens in the next cycle.
    m.step(&Inputs {
        credit_return: 1,
        ..Default::default()
    });
    assert_eq!((m.c, m.level(), m.gap), (0, 0xFFFF, 0xFFFF));
    let o = m.step(&Inputs {
        flit_valid: true,
        ..Default::default()
    });
    assert!(
        o.send,
        "c = 0: gap 0xFFFF >= f(0) = 0xFFFF, the gate must open"
    );
}

#[test]
fn ft_thresholds_are_strict_and_toggle_when_enter_below_escape() {
    let mut m = configured(&[
        (addr::TH_ENTER, 10),
        (addr::TH_ESCAPE, 20),
        (addr::CREDIT_LIMIT, 100),
    ]);
    fill(&mut m, 10);
    write(&mut m, addr::CTRL, regs::CTRL_ENABLE);
    // c = 10 is not > 10: stays Normal.
    for _ in 0..5 {
        m.step(&Inputs::default());
        assert!(!m.congested());
    }
    // c = 15, between enter and escape: Normal -> Congested -> Normal ... every cycle.
    write(&mut m, addr::CTRL, 0);
    fill(&mut m, 15);
    write(&mut m, addr::CTRL, regs::CTRL_ENABLE);
    let mut states = vec![];
    for _ in 0..6 {
        m.step(&Inputs::default());
        states.push(m.congested());
    }
    assert!(states.windows(2).all(|w| w[0] != w[1]), "{states:?}");

    // Escape is strict too: c = TH_ESCAPE = 8 stays Congested, c = 7 leaves.
    let mut m = configured(&[
        (addr::TH_ENTER, 5),
        (addr::TH_ESCAPE, 8),
        (addr::CREDIT_LIMIT, 100),
    ]);
    fill(&mut m, 8);
    write(&mut m, addr::CTRL, regs::CTRL_ENABLE);
    m.step(&Inputs::default()); // c = 8 > 5: enters
    assert!(m.congested());
    for _ in 0..5 {
        m.step(&Inputs::default());
        assert!(
            m.congested(),
            "c = 8 is not < TH_ESCAPE = 8: stays Congested"
        );
    }
    m.step(&Inputs {
        credit_return: 1,
        ..Default::default()
    });
    assert!(m.congested(), "the state follows c one cycle later");
    m.step(&Inputs::default()); // c = 7 < 8: escapes
    assert!(!m.congested());
}

#[test]
fn at_counts_hits_in_a_window_and_switches_mid_window() {
    // W = 20, T' = 4 both ways. f(c) = ((c << 0) >> 31) + 0 = 0: the throttle never holds a
    // flit, so c goes where the test's flits and credits take it, Congested or not.
    let mut m = configured(&[
        (addr::TH_ENTER, 5),
        (addr::TH_ESCAPE, 3),
        (addr::AT_WIN_E, 20),
        (addr::AT_CNT_E, 4),
        (addr::AT_WIN_S, 20),
        (addr::AT_CNT_S, 4),
        (addr::SHAPE, 31 << regs::SHAPE_N_SHIFT),
        (addr::K, 0),
    ]);
    fill(&mut m, 6);
    write(&mut m, addr::CTRL, regs::CTRL_ENABLE | regs::CTRL_DET_AT);
    // c = 6 > TH_ENTER for 4 cycles in a row: enters at once, mid-window.
    let mut cycles = 0;
    while !m.congested() {
        m.step(&Inputs::default());
        cycles += 1;
        assert!(cycles <= 4);
    }
    assert_eq!(cycles, 4);
    assert_eq!((m.win, m.hit), (0, 0), "counters clear on a state change");

    // Escape: hits (c < 3) alternate with misses inside the window. The detector sees
    // c = 6, 2, 3, 2, 3, 2, 3, 2: hits on cycles 2, 4, 6 and 8, never two in a row. Counted
    // cumulatively the 4th hit switches at once; counted consecutively, never.
    let seen = walk_c(&mut m, &[6, 2, 3, 2, 3, 2, 3, 2, 3]);
    let want: Vec<(bool, u16, u16)> = (1..=8u16)
        .map(|t| {
            if t < 8 {
                (true, t, t / 2)
            } else {
                (false, 0, 0)
            }
        })
        .collect();
    assert_eq!(seen, want, "escape: (congested, win, hit) after each cycle");

    // Enter the same way: the detector sees c = 3, 4, 5, 6, 5, 6, 5, 6, 5, 6, hits (c > 5)
    // on cycles 4, 6, 8 and 10; the 4th enters.
    let seen = walk_c(&mut m, &[3, 4, 5, 6, 5, 6, 5, 6, 5, 6, 5]);
    let want: Vec<(bool, u16, u16)> = (1..=10u16)
        .map(|t| {
            if t < 10 {
                (false, t, t.saturating_sub(2) / 2)
            } else {
                (true, 0, 0)
            }
        })
        .collect();
    assert_eq!(seen, want, "enter: (congested, win, hit) after each cycle");
}

#[test]
fn at_with_zero_count_switches_every_cycle_and_window_zero_never_switches() {
    let mut m = configured(&[(addr::AT_CNT_E, 0), (addr::AT_CNT_S, 0)]);
    write(&mut m, addr::CTRL, regs::CTRL_ENABLE | regs::CTRL_DET_AT);
    let mut s = vec![];
    for _ in 0..4 {
        m.step(&Inputs::default());
        s.push(m.congested());
    }
    assert_eq!(s, [true, false, true, false]);
    let mut m = configured(&[
        (addr::AT_WIN_E, 0),
        (addr::AT_CNT_E, 1),
        (addr::TH_ENTER, 0),
    ]);
    fill(&mut m, 3);
    write(&mut m, addr::CTRL, regs::CTRL_ENABLE | regs::CTRL_DET_AT);
    for _ in 0..100 {
        m.step(&Inputs::default());
        assert!(!m.congested());
    }
}

#[test]
fn disabled_block_is_held_normal_but_still_checks_credits() {
    let mut m = configured(&[(addr::TH_ENTER, 0), (addr::CREDIT_LIMIT, 4)]);
    let sent: u32 = (0..10)
        .map(|_| {
            m.step(&Inputs {
                flit_valid: true,
                ..Default::default()
            })
            .send as u32
        })
        .sum();
    assert_eq!(sent, 4, "credit check applies while disabled");
    assert!(!m.congested());
    let o = m.step(&Inputs {
        credit_return: 9,
        ..Default::default()
    });
    assert!(!o.send);
    assert!(
        m.err_underflow,
        "returning more credits than in use is an error"
    );
    assert_eq!(m.c, 0);
    assert_eq!(
        m.read(addr::STATUS) & regs::STATUS_ERR_UNDERFLOW,
        regs::STATUS_ERR_UNDERFLOW
    );
    write(&mut m, addr::STATUS, regs::STATUS_ERR_UNDERFLOW);
    assert!(!m.err_underflow, "write 1 clears");
}

#[test]
fn seed_register_reloads_the_generator_and_zero_is_refused() {
    let mut m = configured(&[(addr::SEED, 77)]);
    assert_eq!(m.r, 77);
    m.step(&Inputs::default());
    assert_eq!(m.r, xorshift32(77));
    write(&mut m, addr::SEED, 0);
    assert_eq!((m.r, m.regs.seed), (regs::RESET_SEED, regs::RESET_SEED));
}

/// GF(2) 32x32 matrices as 32 column words.
type Mat = [u32; 32];
fn apply(a: &Mat, x: u32) -> u32 {
    (0..32)
        .filter(|&i| x >> i & 1 == 1)
        .fold(0, |acc, i| acc ^ a[i])
}
fn mul(a: &Mat, b: &Mat) -> Mat {
    let mut c = [0; 32];
    for i in 0..32 {
        c[i] = apply(a, b[i]);
    }
    c
}
fn pow(a: &Mat, mut e: u64) -> Mat {
    let mut r: Mat = std::array::from_fn(|i| 1 << i);
    let mut b = *a;
    while e > 0 {
        if e & 1 == 1 {
            r = mul(&r, &b);
        }
        b = mul(&b, &b);
        e >>= 1;
    }
    r
}

#[test]
fn generator_has_period_2_pow_32_minus_1() {
    // xorshift32 is linear over GF(2): x -> T x. Its period on non-zero states is 2^32 - 1
    // iff T^(2^32-1) = I and T^((2^32-1)/p) != I for every prime p | 2^32 - 1.
    let t: Mat = std::array::from_fn(|i| xorshift32(1 << i));
    for i in 0..32u32 {
        let x = 0x1234_5678u32.rotate_left(i) ^ i;
        assert_eq!(apply(&t, x), xorshift32(x), "linearity");
    }
    let id: Mat = std::array::from_fn(|i| 1 << i);
    let order: u64 = (1 << 32) - 1;
    assert_eq!(pow(&t, order), id);
    for p in [3u64, 5, 17, 257, 65537] {
        assert_ne!(pow(&t, order / p), id, "period divides (2^32-1)/{p}");
    }
}

#[test]
fn successive_send_decisions_are_uncorrelated() {
    // At P(send) = 1/2, P(send at t and at t+1) must be 1/4. (A one-bit-per-cycle shift
    // register fails this: its top bits at t+1 are its next-lower bits at t.)
    let mut x = 0xDEAD_BEEFu32;
    let (mut both, mut one, n) = (0u32, 0u32, 1_000_000);
    let mut prev = x >= 0x8000_0000;
    for _ in 0..n {
        x = xorshift32(x);
        let s = x >= 0x8000_0000;
        one += s as u32;
        both += (s && prev) as u32;
        prev = s;
    }
    let p1 = one as f64 / n as f64;
    let p11 = both as f64 / n as f64;
    assert!((p1 - 0.5).abs() < 0.002, "{p1}");
    assert!((p11 - 0.25).abs() < 0.002, "P(send, send) = {p11}");
    // And successive outputs are not shifted copies of each other.
    let mut x = 1u32;
    for _ in 0..1000 {
        let y = xorshift32(x);
        assert_ne!(y >> 1, x & 0x7FFF_FFFF);
        assert_ne!(y << 1, x & 0xFFFF_FFFE);
        x = y;
    }
}
