use super::*;

/// Round numbers: timers of 100 cycles, CNP interval 50, byte counter 1,000 flits, F = 2,
/// g = 1/4, R_AI = 1 %, R_HAI = 5 %, floor 1 %.
fn d() -> Derived {
    Derived {
        kmin: 10,
        kmax: 100,
        pmax: 0.01,
        cnp_interval: 50,
        alpha_timer: 100,
        rate_timer: 100,
        byte_counter: 1000,
        f: 2,
        g: 0.25,
        rai: 0.01,
        rhai: 0.05,
        min_rate: 0.01,
    }
}

#[test]
fn a_cnp_cuts_by_half_alpha_and_raises_alpha() {
    let d = rp_params(&d());
    let mut f = Flow::default();
    f.cnp(&d, 1000);
    assert_eq!((f.rt, f.rc), (1.0, 0.5), "alpha = 1 at first: halved");
    assert_eq!(f.alpha, 1.0, "(1 - g) * 1 + g");
    assert!(f.limited);
    // 250 cycles later: two alpha periods without a CNP, alpha = 0.75^2 before the update
    f.cnp(&d, 1250);
    let a = 0.75f64 * 0.75;
    assert_eq!(f.rt, 0.5, "RT = RC before the cut");
    assert!((f.rc - 0.5 * (1.0 - a / 2.0)).abs() < 1e-12, "rc {}", f.rc);
    assert!((f.alpha - (0.75 * a + 0.25)).abs() < 1e-12);
}

#[test]
fn the_floor_holds() {
    let d = rp_params(&d());
    let mut f = Flow::default();
    for t in 0..20 {
        f.cnp(&d, t);
    }
    assert_eq!(f.rc, d.min_rate);
}

#[test]
fn fast_recovery_then_additive_then_hyper() {
    let d = rp_params(&d());
    let mut f = Flow::default();
    f.cnp(&d, 0); // rt 1, rc 0.5
    f.cnp(&d, 0); // rt 0.5, rc 0.25
    assert_eq!((f.rt, f.rc), (0.5, 0.25));
    // timer events 1 and 2 (<= F): fast recovery, RT unchanged
    assert!(f.timer(&d, 100));
    assert_eq!((f.t, f.rt, f.rc), (1, 0.5, 0.375));
    assert!(f.timer(&d, 200));
    assert_eq!((f.rt, f.rc), (0.5, 0.4375));
    // event 3: T > F, BC = 0 <= F: additive
    f.timer(&d, 300);
    assert!((f.rt - 0.51).abs() < 1e-12);
    // byte counter events up to BC = 3, the third with T = 3 > F: hyper, i = 1
    f.started(&d, 1000, 301);
    f.started(&d, 1000, 302);
    assert_eq!(f.bc, 2);
    let rt = f.rt;
    assert!((rt - 0.53).abs() < 1e-12, "two more additive steps: {rt}");
    f.started(&d, 1000, 303);
    assert_eq!((f.t, f.bc), (3, 3));
    assert!(
        (f.rt - (rt + d.rhai)).abs() < 1e-12,
        "hyper: + (min(T, BC) - F) R_HAI"
    );
    // a CNP restarts both counters
    f.cnp(&d, 400);
    assert_eq!((f.t, f.bc), (0, 0));
}

#[test]
fn back_at_line_rate_the_flow_is_no_longer_limited() {
    let d = rp_params(&Derived { rai: 1.0, ..d() });
    let mut f = Flow::default();
    f.cnp(&d, 0);
    let mut t = 0;
    while f.limited {
        t += 100;
        f.timer(&d, t);
        assert!(t < 100 * 200, "never recovers");
    }
    assert_eq!((f.rc, f.rt), (1.0, 1.0));
}

#[test]
fn the_limiter_spaces_packet_starts_and_moves_with_the_rate() {
    let d = rp_params(&d());
    let mut f = Flow::default();
    f.started(&d, 64, 0);
    assert_eq!(f.next_ok, 64, "line rate: the packet's own time");
    f.cnp(&d, 10); // rc 0.5
    assert_eq!(f.next_ok, 128, "the pending gap stretches at once");
    f.started(&d, 64, 128);
    assert_eq!(f.next_ok, 256);
    f.timer(&d, 110); // fast recovery: rc 0.75
    assert_eq!(f.next_ok, 128 + 86, "ceil(64 / 0.75)");
}

#[test]
fn np_sends_at_most_one_cnp_per_flow_per_interval() {
    let mut s = DcqcnNics::new(d(), 4);
    s.marked(2, 0, 100);
    s.marked(2, 0, 120);
    s.marked(2, 0, 140);
    s.marked(2, 1, 140);
    assert_eq!(s.cnps_pending(2), 2, "the first mark of each flow at once");
    assert_eq!(s.cnps_pending_total(), 3, "one deferred");
    s.tick(2, 149);
    assert_eq!(s.cnps_pending(2), 2, "not before the interval ends");
    s.tick(2, 150);
    assert_eq!(
        s.cnps_pending(2),
        3,
        "the deferred CNP at the interval's end"
    );
    assert_eq!(s.cnps_pending_total(), 3);
    assert_eq!(s.take_cnp(2), Some(0));
    assert_eq!(s.take_cnp(2), Some(1));
    assert_eq!(s.take_cnp(2), Some(0));
    assert_eq!(s.take_cnp(2), None);
    s.tick(2, 1000);
    assert_eq!(s.cnps_pending_total(), 0, "no mark since: nothing");
    assert_eq!((s.stats[2].ecn_received, s.stats[2].cnps_sent), (4, 3));
}

#[test]
fn a_limited_flow_never_blocks_another() {
    let mut s = DcqcnNics::new(d(), 4);
    s.cnp(0, 1, 0);
    for _ in 0..4 {
        s.cnp(0, 1, 0);
    }
    s.started(0, 1, 64, 0);
    assert!(s.congested(0) && !s.congested(1));
    let mut both: VecDeque<u32> = [1, 2].into_iter().collect();
    assert!(s.ready(0, 10, &both));
    assert!(!s.eligible(0, 1, 10) && s.eligible(0, 2, 10));
    let only: VecDeque<u32> = [1].into_iter().collect();
    assert!(!s.ready(0, 10, &only));
    both.pop_back();
    let wait = s.flow(0, 1).next_ok;
    assert!(wait > 64 * 10, "{wait}");
    assert!(s.ready(0, wait, &only));
}

#[test]
fn timers_run_from_the_nic_tick() {
    let mut s = DcqcnNics::new(d(), 2);
    s.cnp(0, 1, 0);
    assert_eq!(s.flow(0, 1).rc, 0.5);
    s.tick(0, 99);
    assert_eq!(s.flow(0, 1).t, 0);
    s.tick(0, 100);
    assert_eq!((s.flow(0, 1).t, s.flow(0, 1).rc), (1, 0.75));
    assert_eq!(s.stats[0].rate_increases, 1);
    // with R_AI = 1 % and F = 2 it reaches the line again, and leaves the limited list
    let mut t = 100;
    while s.congested(0) {
        t += 100;
        s.tick(0, t);
        assert!(t < 100 * 1000, "never recovers");
    }
    assert_eq!(s.flow(0, 1).rc, 1.0);
}
