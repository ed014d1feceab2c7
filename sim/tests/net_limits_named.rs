//! Limits met just outside their ranges are refused by `check` (`NetConfig::errors`) as
//! building the network would refuse them, naming the value to change with a bound that
//! value breaks: a dragonfly of one NIC; a dragonfly whose ports overflow whichever of p, a
//! and h is named; buffers whose entries a 32-bit id cannot name (found by a review: those
//! passed `check` and failed only when built, naming `buffer_flits` for a lane buffer).

use pft_sim::net::{NetConfig, NetError, Routing, TopologyConfig};
use pft_sim::{CcConfig, EngineKind, Network};

/// `c`'s errors hold one for `key` whose range says `says`.
fn refused(c: &NetConfig, key: &str, says: &str) {
    let e = c.errors();
    assert!(
        e.iter().any(|e| e.field == key && e.allowed.contains(says)),
        "{key} / {says}: {e:?}"
    );
}

fn df(p: u32, a: u32, h: u32, g: Option<u32>) -> NetConfig {
    NetConfig {
        topology: TopologyConfig::Dragonfly { p, a, h, g },
        vcs: Some(2),
        routing: Some(Routing::Min),
        ..NetConfig::default()
    }
}

#[test]
fn a_dragonfly_of_one_nic_is_refused_naming_g() {
    refused(&df(1, 1, 1, Some(1)), "topology.g", "at least 2");
    assert!(df(1, 1, 1, Some(2)).errors().is_empty());
    assert!(df(2, 1, 1, Some(1)).errors().is_empty());
}

#[test]
fn a_dragonfly_router_of_too_many_ports_names_a_value_its_bound_refuses() {
    for (p, a, h, key, says) in [
        (2, 62, 2, "topology.h", "h <= 1"),
        (64, 1, 1, "topology.p", "p <= 63"),
        (1, 64, 1, "topology.a", "a <= 63"),
        (2, 64, 1, "topology.a", "a <= 62"),
        (64, 64, 64, "topology.p", "no p fits"),
    ] {
        refused(&df(p, a, h, Some(2)), key, says);
        let e = df(p, a, h, Some(2)).errors();
        let named = match key {
            "topology.p" => p,
            "topology.a" => a,
            _ => h,
        };
        // the bound given is one the named value breaks
        if let Some(b) = e[0].allowed.split("<= ").nth(1) {
            let bound: u32 = b
                .trim_end_matches(|c: char| !c.is_ascii_digit())
                .parse()
                .unwrap();
            assert!(
                named > bound,
                "{p},{a},{h}: {} = {named}, bound {bound}",
                key
            );
        }
    }
    // the largest routers of each shape pass
    for (p, a, h) in [(2, 62, 1), (62, 1, 2), (1, 63, 1), (1, 1, 63)] {
        assert!(df(p, a, h, Some(2)).errors().is_empty(), "{p},{a},{h}");
    }
}

#[test]
fn buffers_beyond_the_entry_ids_are_refused_by_check_as_by_build() {
    let tree = TopologyConfig::KaryNtree {
        k: 32,
        n: 3,
        hosts: None,
    };
    let ports = NetConfig {
        topology: tree.clone(),
        buffer_flits: 65_535,
        mtu_bytes: 64,
        ..NetConfig::default()
    };
    let lanes = NetConfig {
        topology: tree,
        vcs: Some(2),
        vc_buf_flits: Some(65_535),
        ..NetConfig::default()
    };
    // CIOQ output queues larger than the inputs: they are what to lower
    let queues = NetConfig {
        topology: TopologyConfig::KaryNtree {
            k: 32,
            n: 3,
            hosts: None,
        },
        speedup: Some(2),
        out_buffer_flits: Some(30_000),
        ..NetConfig::default()
    };
    for (c, key) in [
        (ports, "buffer_flits"),
        (lanes, "vc_buf_flits"),
        (queues, "out_buffer_flits"),
    ] {
        refused(&c, key, "more buffer entries than a 32-bit id names");
        let built = Network::with_cc(&c, &CcConfig::none(), EngineKind::Model, 1);
        match built {
            Err(NetError::Config(e)) => assert_eq!(e.field, key, "{e:?}"),
            Err(e) => panic!("{key}: {e}"),
            Ok(_) => panic!("{key}: built"),
        }
    }
    // within the ids: the shipped 16,512-NIC dragonfly's lanes at the defaults
    assert!(df(8, 16, 8, None).errors().is_empty());
}
