//! Building a network: the topology's switches and ports, the links (NIC injection and
//! ejection, then every switch-to-switch direction), the NICs with their PFT blocks
//! configured through the CSR port, and the congestion control's state.

use super::config::{Arbitration, EngineKind, NetConfig};
use super::error::NetError;
use super::faults::{self, FaultState};
use super::network::{InPort, Link, NicState, NicStats, Nics, OutPort, SwState, Switches};
use super::network::{Network, ONE};
use super::pft::{nic_seed, PftEngine};
use super::store::{
    End, Endpoint, EntryId, LinkId, MsgId, PktId, PortId, Slab, SwitchId, Table, Wheel,
};
use super::topology::{Peer, Topology};
use super::types::NodeId;
use crate::cc::ibcc::{IbccNics, IbccSwitches, VictimMask};
use crate::cc::{CcConfig, FlowCtl, Marking};
use std::collections::VecDeque;

impl Network {
    /// Build a network at cycle 0 running congestion control `cc` (`none`, `pft` or
    /// `ibcc`). Every NIC's PFT block is its link credit counter; it throttles only for
    /// `pft` (crate::cc explains the seams).
    pub fn with_cc(
        cfg: &NetConfig,
        cc: &CcConfig,
        engine: EngineKind,
        seed: u64,
    ) -> Result<Network, NetError> {
        Network::with_cc_on(cfg, cc, engine, seed, None)
    }

    /// `with_cc`, with PFT on only at the NICs `pft_on` marks (one flag per NIC, in NIC
    /// order; `None`: every NIC). A NIC left out keeps its block as its credit counter with
    /// CTRL.enable = 0, so it never throttles (a NIC designer's "PFT on the congestors
    /// only"). Only meaningful for `pft`; the other schemes disable every block anyway.
    pub fn with_cc_on(
        cfg: &NetConfig,
        cc: &CcConfig,
        engine: EngineKind,
        seed: u64,
        pft_on: Option<&[bool]>,
    ) -> Result<Network, NetError> {
        cfg.validate()?;
        if let Some(on) = pft_on {
            let nodes = cfg.topology.nodes() as usize;
            if on.len() != nodes {
                return Err(NetError::Config(crate::error::FieldError::new(
                    "pft_on",
                    format!("{} flags", on.len()),
                    format!("must have one flag per NIC ({nodes})"),
                )));
            }
        }
        cc.validate("cc")?;
        let pft = &cc.pft();
        if engine == EngineKind::Verilator {
            super::verilator::library(pft.build()).map_err(|e| {
                NetError::Config(crate::error::FieldError::new("engine", "verilator", e))
            })?;
        }
        let topo = Topology::build(&cfg.topology);
        let nodes = topo.nodes();
        let n = nodes as usize;
        let specs = topo.switches();
        let max_radix = specs.iter().map(|s| s.radix).max().unwrap_or(1);
        let qpp = if cfg.voq { max_radix } else { 1 };

        let mut sw = Switches {
            qpp,
            reqs: vec![0; 64],
            waits: vec![0; 64],
            keep_turn: cfg.arbitration != Arbitration::Bypass,
            bypass_limit: match cfg.arbitration {
                Arbitration::FairBypass => (max_radix - 1).min(255) as u8,
                _ => 0,
            },
            ..Default::default()
        };
        for (s, spec) in specs.iter().enumerate() {
            let base = PortId(sw.inp.len() as u32);
            let mut used_mask = 0u64;
            for (p, peer) in spec.ports.iter().enumerate() {
                if *peer != Peer::Unused {
                    used_mask |= 1 << p;
                }
                sw.inp.push(InPort {
                    occ: 0,
                    arriving: EntryId::NONE,
                    arr_pkt: PktId::NONE,
                    arr_count: 0,
                    arr_len: 0,
                    last: PktId::NONE,
                    sw: SwitchId(s as u32),
                    nonempty: 0,
                    link: LinkId::NONE,
                    credit_to: Endpoint::NONE,
                    rr: 0,
                    resv: 0,
                });
                sw.out.push(OutPort {
                    used: 0,
                    limit: 0,
                    entry: EntryId::NONE,
                    from: PortId::NONE,
                    pkt: PktId::NONE,
                    sent: 0,
                    len: 0,
                    link: LinkId::NONE,
                    rx: Endpoint::NONE,
                    sw: SwitchId(s as u32),
                    rr: 0,
                    resv: 0,
                    turn: 0,
                    bypassed: 0,
                });
            }
            sw.sw.push(SwState {
                base,
                radix: spec.radix,
                used_mask,
                ..Default::default()
            });
        }
        sw.q = vec![(EntryId::NONE, EntryId::NONE); sw.inp.len() * qpp as usize];

        // Links: NIC injection and ejection, then every switch-to-switch direction.
        let mut links: Table<LinkId, Link> = Table::default();
        let connect =
            |links: &mut Table<LinkId, Link>, sw: &mut Switches, tx: Endpoint, rx: Endpoint| {
                let l = links.push(Link { tx, rx });
                if let End::Port(t) = tx.end() {
                    let o = &mut sw.out[t];
                    o.link = l;
                    o.rx = rx;
                    o.limit = match rx.end() {
                        End::Nic(_) => cfg.eject_buffer_flits,
                        End::Port(_) => cfg.buffer_flits,
                    };
                }
                if let End::Port(r) = rx.end() {
                    let i = &mut sw.inp[r];
                    i.link = l;
                    i.credit_to = tx;
                }
                l
            };
        let mut st = Vec::with_capacity(n);
        for d in 0..nodes {
            let (s, p) = topo.attach(NodeId(d));
            let g = sw.sw[SwitchId(s)].port(p);
            let inj_link = connect(&mut links, &mut sw, Endpoint::nic(d), Endpoint::port(g));
            let ej_link = connect(&mut links, &mut sw, Endpoint::port(g), Endpoint::nic(d));
            st.push(NicState {
                credit_in: 0,
                out_flags: 0,
                out_c: 0,
                dsts: 0,
                throttled: 0,
                congested: 0,
                cur_seq: 0,
                cur_len: 0,
                cur_pkt: PktId::NONE,
                rx_head: EntryId::NONE,
                rx_tail: EntryId::NONE,
                rx_occ: 0,
                rx_sent: 0,
                rx_head_len: 0,
                rx_head_pkt: PktId::NONE,
                rx_head_msg: MsgId::NONE,
                rx_arriving: EntryId::NONE,
                rx_arr_pkt: PktId::NONE,
                rx_arr_count: 0,
                rx_arr_len: 0,
                acc: ONE,
                rate: 0,
                thr_since: 0,
                inj_paused: false,
                cur_cnp: false,
                inj_rx: g,
                ej_tx: g,
                inj_link,
                ej_link,
            });
        }
        for (s, spec) in specs.iter().enumerate() {
            for (p, peer) in spec.ports.iter().enumerate() {
                if let Peer::Switch { switch, port } = *peer {
                    let from = sw.sw[SwitchId(s as u32)].port(p as u32);
                    let to = sw.sw[SwitchId(switch)].port(port);
                    connect(
                        &mut links,
                        &mut sw,
                        Endpoint::port(from),
                        Endpoint::port(to),
                    );
                }
            }
        }

        let credit_limit = cfg.buffer_flits as u16;
        let nic = Nics {
            st,
            share: Vec::new(),
            engine: (0..nodes)
                .map(|i| {
                    let off = pft_on.is_some_and(|on| !on[i as usize]);
                    let cfg_i = if off { pft.with("enable", 0) } else { *pft };
                    PftEngine::configured(engine, &cfg_i, credit_limit, nic_seed(seed, i))
                })
                .collect(),
            active: (0..n).map(|_| VecDeque::new()).collect(),
            sq: vec![(MsgId::NONE, MsgId::NONE); n * n],
            stats: vec![NicStats::default(); n],
        };
        let lat_sw = cfg.link_latency_cycles + cfg.switch_latency_cycles;
        // At most MAX_CREDIT_EXTRA_CYCLES (validated).
        let credit_extra: u32 = cfg.faults.iter().map(|f| f.max_credit_extra()).sum();
        let max_lat = lat_sw.max(cfg.credit_latency_cycles + credit_extra);
        let rate_fp = ((cfg.eject_rate * ONE as f64).round() as u32).clamp(1, ONE);
        let (flow, marking) = match cc {
            CcConfig::Ibcc(ib) => {
                let victim = specs
                    .iter()
                    .map(|spec| {
                        let mut m = 0u64;
                        for (p, peer) in spec.ports.iter().enumerate() {
                            let set = match ib.victim_mask {
                                VictimMask::NicPorts => matches!(peer, Peer::Nic(_)),
                                VictimMask::All => *peer != Peer::Unused,
                                VictimMask::None => false,
                            };
                            m |= (set as u64) << p;
                        }
                        m
                    })
                    .collect();
                (
                    FlowCtl::Ibcc(Box::new(IbccNics::new(ib, nodes, cfg.cycle_ns(), |i| {
                        faults::mix(seed, Endpoint::nic(i).raw(), 0x1bcc)
                    }))),
                    Marking::Ibcc(Box::new(IbccSwitches::new(
                        ib,
                        sw.out.len(),
                        victim,
                        cfg.buffer_flits,
                        cfg.mtu_flits(),
                        cfg.flit_bytes,
                    ))),
                )
            }
            CcConfig::None | CcConfig::Pft(_) => (FlowCtl::None, Marking::None),
        };
        let mut nic = nic;
        for s in &mut nic.st {
            s.rate = rate_fp;
        }
        Ok(Network {
            mtu_flits: cfg.mtu_flits(),
            rate_fp,
            lat_inj: cfg.link_latency_cycles as u64,
            lat_sw: lat_sw as u64,
            lat_credit: cfg.credit_latency_cycles as u64,
            cfg: cfg.clone(),
            nodes,
            now: 0,
            links,
            fwheel: Wheel::new(max_lat),
            cwheel: Wheel::new(max_lat),
            packets: Slab::default(),
            entries: Slab::default(),
            msgs: Slab::default(),
            sw,
            nic,
            flits_in_network: 0,
            messages_pending: 0,
            classes: Vec::new(),
            last_progress: 0,
            faults: FaultState::new(cfg, n),
            flow,
            marking,
            cc: cc.clone(),
            order: None,
            msg_buf: Vec::new(),
            deliveries: Vec::new(),
            engine_kind: engine,
            seed,
            clk_q16: pft.clock_q16(),
            clk_acc: 0,
            clk_steps: 1,
            topo,
        })
    }
}
