//! Fig. 1's method (`pft_tb::fig1`): the RTL block, held at a credit level by the one-cycle
//! credit loop, injects at equation (1)'s rate: FI exactly one flit per 1 + f(c) cycles,
//! RI within four standard deviations of 1 - f(c)/2^32. (The RTL and the model run in lock
//! step inside `measure`, which fails on any difference.)

use pft_tb::fig1::{curves, measure};

#[test]
fn the_rtl_follows_equation_1() {
    let cycles = 2048u64;
    let all = curves();
    assert_eq!(all.len(), 5 + 8);
    for curve in all
        .iter()
        .filter(|c| (!c.ri && c.n == 8) || (c.ri && c.m == 22))
    {
        let pts = measure(*curve, cycles).unwrap();
        assert_eq!(pts.len(), 17);
        assert!(pts.windows(2).all(|w| w[0].c < w[1].c));
        for p in &pts {
            if curve.ri {
                let sd = (p.eq1 * (1.0 - p.eq1) / cycles as f64).sqrt();
                assert!(
                    (p.rate - p.eq1).abs() <= 4.0 * sd + 1.0 / cycles as f64,
                    "{} c={}: {} vs {}",
                    curve.label(),
                    p.c,
                    p.rate,
                    p.eq1
                );
            } else {
                // N cycles hold floor or ceil of N / (1 + f) flits
                let want = p.eq1 * cycles as f64;
                let got = p.rate * cycles as f64;
                assert!(
                    (got - want).abs() <= 1.0,
                    "{} c={}: {got} flits, eq. (1) {want}",
                    curve.label(),
                    p.c
                );
            }
        }
        // the curve falls: rate at the last point well below the first
        assert!(
            pts[16].rate < 0.1 * pts[0].rate,
            "{}: {pts:?}",
            curve.label()
        );
    }
}
