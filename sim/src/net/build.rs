//! Building a network: the topology's switches and ports, the links (NIC injection and
//! ejection, then every switch-to-switch direction), the NICs, and the congestion-control
//! scheme's state (made by the caller from the built network's facts).

use super::config::{Arbitration, FieldError, NetConfig, TopologyConfig};
use super::error::NetError;
use super::faults::{self, FaultState};
use super::network::{InPort, Link, NicState, NicStats, Nics, OutPort, SwState, Switches};
use super::network::{Network, ONE};
use super::parallel::CHUNK_NICS;
use super::prefetch::PREFETCH_BYTES;
use super::scheme::Scheme;
use super::state::LanePorts;
use super::store::{
    End, Endpoint, Entries, EntryId, LinkId, MsgId, PktId, PortId, Slab, SwitchId, Table, Wheel,
};
use super::topology::{Peer, Topology};
use super::types::NodeId;
use std::collections::VecDeque;

/// What a scheme may read while it is built: the network's configuration, its topology
/// and the dense numbering of switch ports that the switch hooks use.
pub struct BuildCtx<'a> {
    pub cfg: &'a NetConfig,
    pub topo: &'a Topology,
    /// NICs.
    pub nodes: u32,
    /// Switch ports over all switches (`OutputAt::global` is below this).
    pub ports: usize,
    /// The run seed.
    pub seed: u64,
}

impl BuildCtx<'_> {
    /// A seed for NIC `nic`'s own random source, from the run seed and `salt` (the same for
    /// every run with the same seed; different NICs and salts give unrelated values).
    pub fn nic_seed(&self, nic: u32, salt: u64) -> u64 {
        nic_seed(self.seed, nic, salt)
    }
}

/// `BuildCtx::nic_seed` of a run with seed `seed`, without the network (an export of a
/// NIC's constants: `crate::cc::export`).
pub fn nic_seed(seed: u64, nic: u32, salt: u64) -> u64 {
    faults::mix(seed, Endpoint::nic(nic).raw(), salt)
}

impl<S: Scheme> Network<S> {
    /// Build a network at cycle 0: empty channels and buffers, the topology's routing
    /// tables, and the congestion-control scheme that `scheme` makes from the built
    /// network's facts (`crate::cc` builds its schemes this way; `crate::Network::with_cc`
    /// is the usual entry point). Errors name the field and its range.
    pub fn build(
        cfg: &NetConfig,
        seed: u64,
        scheme: impl FnOnce(&BuildCtx) -> Result<S, NetError>,
    ) -> Result<Network<S>, NetError> {
        cfg.validate()?;
        let topo = Topology::for_net(cfg);
        let nodes = topo.nodes();
        let n = nodes as usize;
        let specs = topo.switches();
        let max_radix = specs.iter().map(|s| s.radix).max().unwrap_or(1);
        let qpp = if cfg.voq { max_radix } else { 1 };

        // Lanes per port: 1 for today's switch; with `vcs`, every port has V lane records
        // (local index port * V + lane), NIC ports using lane 0 only.
        // (`disha` adds the deadlock buffer's lane to every port: `lane_records`)
        let v = cfg.lane_records().unwrap_or(1);
        let vc_buf = cfg.vc_buf_flits.unwrap_or(super::lanes::DEFAULT_VC_BUF);
        let router = super::lanes::Router::of(cfg);
        let mut sw = Switches {
            qpp,
            vcs: cfg.lane_records().unwrap_or(0),
            model: if cfg.vcs.is_some() {
                1
            } else if cfg.speedup.is_some() {
                2
            } else {
                0
            },
            speedup: cfg.speedup.unwrap_or(0),
            router,
            lane_port: cfg.lane_records().map(LanePorts::new).unwrap_or_default(),
            reuse_tail: cfg.lane_reuse() == super::lanes::LaneReuse::Tail,
            whole: cfg.switching == Some(super::lanes::Switching::Vct)
                || router.is_some_and(|rt| rt.whole_at_tail()),
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
            let mut used_mask = 0u128;
            let lanes = spec.ports.iter().flat_map(|p| (0..v).map(move |c| (p, c)));
            for (l, (peer, c)) in lanes.enumerate() {
                let used = match peer {
                    Peer::Unused => false,
                    Peer::Nic(_) => c == 0,
                    Peer::Switch { .. } => true,
                };
                if used {
                    used_mask |= 1 << l;
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
                    credit_owner: 0,
                    rr: 0,
                    local: l as u8,
                    resv: 0,
                    moved_at: 0,
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
                    rx_owner: 0,
                    sw: SwitchId(s as u32),
                    rr: 0,
                    resv: 0,
                    turn: 0,
                    bypassed: 0,
                });
            }
            sw.sw.push(SwState {
                base,
                radix: spec.radix * v,
                used_mask,
                ..Default::default()
            });
        }
        sw.q = vec![(EntryId::NONE, EntryId::NONE); sw.inp.len() * qpp as usize];
        sw.narrow = sw.sw.items.iter().all(|st| st.radix <= 64);
        let records = sw.inp.len() * std::mem::size_of::<InPort>()
            + sw.out.len() * std::mem::size_of::<OutPort>()
            + sw.sw.len() * std::mem::size_of::<SwState>();
        // on one thread only: under threads each thread reads its own share of the
        // records, and on the 16,512-NIC dragonfly at two threads the hints cost more than
        // they saved (docs/performance.md, "Threads", "Prefetching on one thread only")
        sw.prefetch = records > PREFETCH_BYTES && cfg.threads <= 1;

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
                        End::Port(_) if cfg.vcs.is_some() => vc_buf,
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
            let g = sw.sw[SwitchId(s)].port(p * v);
            // the same port but on a butterfly, whose NICs eject at the last stage
            let (es, ep) = topo.eject(NodeId(d));
            let eg = sw.sw[SwitchId(es)].port(ep * v);
            let inj_link = connect(&mut links, &mut sw, Endpoint::nic(d), Endpoint::port(g));
            let ej_link = connect(&mut links, &mut sw, Endpoint::port(eg), Endpoint::nic(d));
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
                asleep_from: super::state::AWAKE,
                inj_paused: false,
                cur_ctl: false,
                inj_rx: g,
                ej_tx: eg,
                inj_link,
                ej_link,
            });
        }
        for (s, spec) in specs.iter().enumerate() {
            for (p, peer) in spec.ports.iter().enumerate() {
                if let Peer::Switch { switch, port } = *peer {
                    for c in 0..v {
                        let from = sw.sw[SwitchId(s as u32)].port(p as u32 * v + c);
                        let to = sw.sw[SwitchId(switch)].port(port * v + c);
                        connect(
                            &mut links,
                            &mut sw,
                            Endpoint::port(from),
                            Endpoint::port(to),
                        );
                    }
                }
            }
        }

        let nic = Nics {
            st,
            share: Vec::new(),
            active: (0..n).map(|_| VecDeque::new()).collect(),
            sq: Default::default(),
            stats: vec![NicStats::default(); n],
            waiting: vec![0; n],
            skip_idle: false, // set below, with the scheme
            awake: super::idle::all_awake(n as u32),
        };
        let lat_sw = cfg.link_latency_cycles + cfg.switch_latency_cycles;
        // the wheels' size, as `check` judges it (credit faults' extra: at most
        // MAX_CREDIT_EXTRA_CYCLES, validated)
        let max_lat = max_latency(cfg, &topo);
        // Dragonfly: links inside and between groups have their own latencies (flit and
        // credit alike), NIC links the network's.
        let df_lat = cfg
            .topology
            .dragonfly()
            .filter(|_| cfg.local_latency_cycles.is_some() || cfg.global_latency_cycles.is_some());
        if let Some(shape) = df_lat {
            let local = cfg.local_latency_cycles;
            let global = cfg.global_latency_cycles;
            sw.lat_out = vec![lat_sw; sw.out.len()];
            sw.lat_cred = vec![cfg.credit_latency_cycles; sw.out.len()];
            for (s, spec) in specs.iter().enumerate() {
                for (p, peer) in spec.ports.iter().enumerate() {
                    if !matches!(peer, Peer::Switch { .. }) {
                        continue;
                    }
                    let l = if shape.is_global(p as u32) {
                        global
                    } else {
                        local
                    };
                    for c in 0..v {
                        let g = sw.sw[SwitchId(s as u32)].port(p as u32 * v + c).0 as usize;
                        if let Some(l) = l {
                            sw.lat_out[g] = l + cfg.switch_latency_cycles;
                            sw.lat_cred[g] = l;
                        } else {
                            sw.lat_cred[g] = cfg.credit_latency_cycles;
                        }
                    }
                }
            }
        }
        // A file topology: the channels whose latency the file gives (flit and credit).
        if let TopologyConfig::File { graph: Some(g), .. } = &cfg.topology {
            let lats = g.latencies();
            if !lats.is_empty() {
                sw.lat_out = vec![lat_sw; sw.out.len()];
                sw.lat_cred = vec![cfg.credit_latency_cycles; sw.out.len()];
            }
            for (s, p, l) in lats {
                for c in 0..v {
                    let g = sw.sw[SwitchId(s)].port(p * v + c).0 as usize;
                    sw.lat_out[g] = l + cfg.switch_latency_cycles;
                    sw.lat_cred[g] = l;
                }
            }
        }
        let rate_fp = cfg.eject_units();
        let cc = scheme(&BuildCtx {
            cfg,
            topo: &topo,
            nodes,
            ports: sw.out.len(),
            seed,
        })?;
        if cfg.vcs.is_some() && S::MARKS && !S::MARKS_ON_LANES && cc.seams().marks {
            return Err(NetError::Config(FieldError::new(
                "vcs",
                v,
                "the congestion control marks packets at switch inputs, which the lane router does not support: remove `vcs`",
            )));
        }
        sw.sa_in = vec![0; sw.inp.len()];
        if cfg.speedup.is_some() {
            let limit = cfg.out_buffer_flits.unwrap_or(cfg.buffer_flits);
            sw.oq = vec![super::cioq::OutQueue::new(limit); sw.out.len()];
        }
        if cfg.vcs.is_some() {
            if cfg.allocator == Some(super::lanes::Allocator::Central) {
                sw.central = vec![0; sw.sw.len()];
            }
            sw.no_credit = vec![0; sw.sw.len()];
            sw.has_flit = vec![Default::default(); sw.sw.len()];
            sw.held_from = vec![0; sw.out.len()];
            sw.held_to = vec![0; sw.inp.len()];
            sw.stalled_in = vec![0; sw.sw.len()];
            if matches!(
                cfg.routing,
                Some(
                    super::lanes::Routing::Duato
                        | super::lanes::Routing::Disha
                        | super::lanes::Routing::ShortestUpdown
                )
            ) {
                sw.hop_flits = vec![0; v as usize];
            }
            if cfg.routing != Some(super::lanes::Routing::Disha) {
                // Disha's token holder and recovery path change a head's candidates
                sw.waiters = vec![0; sw.out.len()];
            }
            if cfg.head_latency_cycles.unwrap_or(0) > 0 {
                sw.va_at = vec![0; sw.inp.len()];
            }
        }
        sw.sa_out = vec![0; sw.inp.len()];
        sw.busy = (0..sw.sw.len().div_ceil(64))
            .map(|_| std::sync::atomic::AtomicU64::new(0))
            .collect();
        // Phase 1 by owner (`parallel.rs`): the switches' channels are read by their
        // chunk, unless something shared is touched when a switch reads its inputs.
        let owner_p1 = !cc.seams().marks
            && cfg.routing != Some(super::lanes::Routing::Disha)
            && cfg.fault.is_none();
        let block = match owner_p1 {
            true => super::block::block_cycles::<S>(cfg, cc.seams().flows),
            false => 1,
        };
        let switches = sw.sw.len() as u32;
        let (pool_nic, pool_sw, entries) =
            entry_pools(cfg, &topo, max_lat).map_err(NetError::Config)?;
        // receivers with channels of their own: the NIC chunks, then the switch chunks
        let threads = cfg.threads.max(1);
        // (with blocks on a network whose switch records outgrow the caches, chunks small
        // enough that a chunk's records stay in cache through a block: `block.rs`)
        let sw_chunk = match block > 1 && (sw.prefetch || super::block::chunk_forced()) {
            true => super::block::switch_chunk(pool_sw, switches, records),
            false => owners(switches, pool_sw, threads),
        };
        let nic_chunk = owners(nodes, pool_nic, threads);
        let nic_owners = nodes.div_ceil(nic_chunk);
        let sw_chunks = switches.div_ceil(sw_chunk);
        let port_owner: Vec<u32> = if owner_p1 {
            sw.inp
                .iter()
                .map(|ip| nic_owners + ip.sw.0 / sw_chunk)
                .collect()
        } else {
            Vec::new()
        };
        if owner_p1 {
            let owner = |e: Endpoint| match e.end() {
                End::Nic(n) => n / nic_chunk,
                End::Port(g) => port_owner[g.0 as usize],
            };
            for ip in sw.inp.iter_mut() {
                ip.credit_owner = owner(ip.credit_to);
            }
            for op in sw.out.iter_mut() {
                op.rx_owner = owner(op.rx);
            }
        }
        let receivers = if owner_p1 {
            (nic_owners + sw_chunks) as usize
        } else {
            1
        };
        let mut nic = nic;
        for s in &mut nic.st {
            s.rate = rate_fp;
        }
        nic.skip_idle = !cc.seams().flows;
        Ok(Network {
            par: None,
            par_on: false,
            plain: Default::default(),
            par_nic_chunks: 0,
            par_plain: false,
            mtu_flits: cfg.mtu_flits(),
            rate_fp,
            lat_inj: cfg.link_latency_cycles as u64,
            lat_sw: lat_sw as u64,
            lat_credit: cfg.credit_latency_cycles as u64,
            lat_head: cfg.head_latency_cycles.unwrap_or(0) as u64,
            cfg: cfg.clone(),
            nodes,
            now: 0,
            links,
            // (a block's sends go up to `block - 1` cycles past the reads left)
            fwheel: Wheel::with_chunks(max_lat + block as u32 - 1, receivers),
            cwheel: Wheel::with_chunks(max_lat + block as u32 - 1, receivers),
            owner_p1,
            nic_chunk,
            sw_chunk,
            nic_owners,
            sw_chunks,
            port_owner,
            pool_nic_shift: pool_nic.trailing_zeros(),
            pool_sw_shift: pool_sw.trailing_zeros(),
            pool_nic_owners: nodes.div_ceil(pool_nic),
            packets: Slab::default(),
            entries,
            msgs: Slab::default(),
            sw,
            nic,
            flits_in_network: 0,
            flits_delivered: 0,
            messages_pending: 0,
            classes: Vec::new(),
            last_progress: 0,
            block,
            blocked: 0,
            faults: FaultState::new(cfg, n),
            seams: cc.seams(),
            acks: cfg
                .ack_bytes
                .map(|b| Box::new(super::acks::Acks::new(nodes, cfg.flits_for(b) as u16))),
            disha: super::disha::Disha::new(cfg),
            cc,
            order: None,
            msg_buf: Vec::new(),
            ahead: Vec::new(),
            ahead_at: u64::MAX,
            ahead_panic: None,
            run_end: 0,
            deliveries: Vec::new(),
            seed,
            topo,
        })
    }
}

/// Most entry pools of NICs, and of switches, so most chunks a thread can run (`owners`):
/// pools are the finest chunks, and a chunk has channels of its own (separate buffers: on
/// the 16,512-NIC dragonfly, 258 NIC and 516 switch chunks made one thread 28 % slower
/// than one set of channels, measured 2026-11-30).
const MAX_CHUNKS: u32 = 128;

/// The longest channel latency of the network `cfg` describes, built as `topo` (flits:
/// link and switch; credits, with the credit faults' extra; a dragonfly's and a file's own
/// link latencies), which sizes the timing wheels. `check` sizes them the same way.
pub(crate) fn max_latency(cfg: &NetConfig, topo: &Topology) -> u32 {
    let credit_extra: u32 = cfg.faults.iter().map(|f| f.max_credit_extra()).sum();
    let mut most = (cfg.link_latency_cycles + cfg.switch_latency_cycles)
        .max(cfg.credit_latency_cycles + credit_extra);
    if let Some(shape) = cfg.topology.dragonfly() {
        for spec in topo.switches() {
            for (p, peer) in spec.ports.iter().enumerate() {
                let l = if shape.is_global(p as u32) {
                    cfg.global_latency_cycles
                } else {
                    cfg.local_latency_cycles
                };
                if let (Peer::Switch { .. }, Some(l)) = (peer, l) {
                    most = most.max(l + cfg.switch_latency_cycles);
                }
            }
        }
    }
    if let TopologyConfig::File { graph: Some(g), .. } = &cfg.topology {
        for (_, _, l) in g.latencies() {
            most = most.max(l + cfg.switch_latency_cycles);
        }
    }
    most
}

/// The shortest channel latency of the network `cfg` describes: nothing sent in cycle t
/// arrives before t + this (flits and credits; a dragonfly's and a file's own link
/// latencies). Credit faults can only add to it.
pub(crate) fn min_latency(cfg: &NetConfig) -> u32 {
    let mut least = cfg.link_latency_cycles.min(cfg.credit_latency_cycles);
    if cfg.topology.dragonfly().is_some() {
        for l in [cfg.local_latency_cycles, cfg.global_latency_cycles]
            .into_iter()
            .flatten()
        {
            least = least.min(l);
        }
    }
    if let TopologyConfig::File { graph: Some(g), .. } = &cfg.topology {
        for (_, _, l) in g.latencies() {
            least = least.min(l);
        }
    }
    least
}

/// The entry pools of the network `cfg` describes, built as `topo`, with channels of up
/// to `max_lat` cycles (`chunking`), or the error `check` and `build` both give when its
/// buffers could hold more entries than a 32-bit id names. The error names the buffer
/// that weighs most: the NICs' `eject_buffer_flits`, else the CIOQ switch's
/// `out_buffer_flits` where its output queues hold more than its inputs, else the lanes'
/// `vc_buf_flits` where it is above `buffer_flits`, else with lanes `vcs` (each lane is
/// sized by `buffer_flits` then: lanes multiply it), else `buffer_flits`.
pub(crate) fn entry_pools(
    cfg: &NetConfig,
    topo: &Topology,
    max_lat: u32,
) -> Result<(u32, u32, Entries), FieldError> {
    let (nodes, switches) = (topo.nodes(), topo.switches().len() as u32);
    let max_radix = topo.switches().iter().map(|s| s.radix).max().unwrap_or(1);
    let v = cfg.lane_records().unwrap_or(1);
    let vc_buf = cfg.vc_buf_flits.unwrap_or(super::lanes::DEFAULT_VC_BUF);
    // entries a lane or port can hold: its flits, and one whose flits all left (a lane
    // fed by a NIC holds `buffer_flits`, as the NIC's credits say)
    let lanes = cfg.vcs.is_some() && vc_buf > cfg.buffer_flits;
    let rec_most = if lanes { vc_buf } else { cfg.buffer_flits } as u64 + 1;
    let oq_most = cfg
        .speedup
        .map_or(0, |_| cfg.out_buffer_flits.unwrap_or(cfg.buffer_flits)) as u64;
    let per_switch = max_radix as u64 * (v as u64 * rec_most + oq_most);
    let per_nic = cfg.eject_buffer_flits as u64 + 1;
    let buckets = (max_lat as u64 + 1).next_power_of_two();
    chunking(nodes, switches, per_switch, per_nic, buckets).ok_or_else(|| {
        // a buffer left at its default says so: the user may not know it is there
        let d = NetConfig::default();
        let shown = |v: u32, default: u32| super::config::shown(v.into(), default.into());
        let head = format!(
            "{nodes} NICs and {switches} switches with these buffers need more buffer entries than a 32-bit id names"
        );
        let (field, value, why) = if per_nic * CHUNK_NICS as u64 > per_switch * 4 {
            let why = match cfg.vcs {
                Some(_) => "lower eject_buffer_flits, buffer_flits or vcs",
                None => "lower buffer_flits or eject_buffer_flits",
            };
            ("eject_buffer_flits", shown(cfg.eject_buffer_flits, d.eject_buffer_flits), why.to_string())
        } else if oq_most > v as u64 * rec_most {
            let why = "lower buffer_flits, eject_buffer_flits or out_buffer_flits";
            ("out_buffer_flits", oq_most.to_string(), why.to_string())
        } else if lanes {
            let why = "lower vc_buf_flits, vcs or eject_buffer_flits";
            ("vc_buf_flits", vc_buf.to_string(), why.to_string())
        } else if let Some(vcs) = cfg.vcs {
            // the lanes' records are sized by the NICs' lanes, `buffer_flits`: the lanes
            // multiply them, and a smaller `vc_buf_flits` does not help
            let disha = if v > vcs { " + 1 for Disha's deadlock lane" } else { "" };
            let why = format!(
                "each of a switch's {max_radix} ports keeps vcs = {vcs}{disha} lanes with entries for up to buffer_flits = {} flits each (a lane fed by a NIC holds buffer_flits; vc_buf_flits = {vc_buf} is not above it): lower vcs, buffer_flits or eject_buffer_flits",
                shown(cfg.buffer_flits, d.buffer_flits)
            );
            ("vcs", vcs.to_string(), why)
        } else {
            let why = "lower buffer_flits or eject_buffer_flits";
            ("buffer_flits", shown(cfg.buffer_flits, d.buffer_flits), why.to_string())
        };
        FieldError::new(field, value, format!("{head}: {why}"))
    })
}

/// The chunks of the entry pools: NICs per pool (64, or a larger power of two, so that
/// there are at most `MAX_CHUNKS`), switches per pool (at least 4, a power of two with at
/// most `MAX_CHUNKS` pools; more where one chunk's channels would hold over 2^20 buckets in
/// all, links of tens of thousands of cycles, or where the pools would not leave the bits
/// an entry id needs), and the pools. None when no chunking fits a u32 id. Depends on the
/// network alone, never on the thread count, so that entry ids do not either; the owners
/// of channels and the threads' chunks are whole pool chunks (`owners`).
fn chunking(
    nodes: u32,
    switches: u32,
    per_switch: u64,
    per_nic: u64,
    buckets: u64,
) -> Option<(u32, u32, Entries)> {
    let mut nic_chunk = CHUNK_NICS;
    while nodes.div_ceil(nic_chunk) > MAX_CHUNKS {
        nic_chunk *= 2;
    }
    let nic_owners = nodes.div_ceil(nic_chunk);
    let nic_most = nic_chunk as u64 * per_nic;
    let fits = |c: u32| {
        let chunks = switches.div_ceil(c) as u64;
        (chunks * buckets <= 1 << 20 || c >= switches).then(|| {
            let most = nic_most.max(per_switch * c.min(switches.max(1)) as u64);
            Entries::new(nic_owners + chunks as u32, most).map(|e| (nic_chunk, c, e))
        })?
    };
    let least = (2..=31)
        .map(|k| 1u32 << k)
        .find(|&c| switches.div_ceil(c) <= MAX_CHUNKS)
        .unwrap_or(1 << 31);
    (2..=31)
        .map(|k| 1u32 << k)
        .filter(|&c| c >= least)
        .find_map(fits)
        .or_else(|| [2, 1].into_iter().find_map(fits))
}

/// Components per owner (`Network::nic_chunk`, `Network::sw_chunk`) of `n` NICs or
/// switches whose pool chunk is `pool`, on `threads` threads: whole pool chunks, a power
/// of two. On one thread, one owner: the fewest sets of channels. On t threads, the
/// largest that still makes at least 3t owners, so that the threads' shares balance and a
/// thread done early can take some; the pool chunk where even that makes fewer. Fewer,
/// larger owners cost less under threads: each (sender, receiver) pair of chunks has an
/// outbox read across cores every cycle (measured 2026-11-30 on two threads, `net-bench`:
/// ib648 0.70-0.73 s with 6 NIC and 7 switch chunks against 0.77-0.79 s with 11 and 14;
/// the 16,512-NIC dragonfly, 3,000 cycles, 3.15-3.55 s with 9 and 9 against 3.22-4.53 s
/// with 65 and 65; on one thread the 16-ary 2-cube 0.47 s with one owner of each against
/// 0.51-0.52 s with 4 and 64).
fn owners(n: u32, pool: u32, threads: u32) -> u32 {
    if threads <= 1 {
        return pool.max(n.next_power_of_two());
    }
    let want = 3 * threads;
    let mut c = pool;
    while n.div_ceil(2 * c) >= want {
        c *= 2;
    }
    c
}

#[cfg(test)]
mod tests {
    use super::{chunking, owners};

    /// One owner of each kind on one thread; at least 3t owners on t threads where the
    /// pool chunks allow, in whole pool chunks.
    #[test]
    fn owners_are_whole_pools_and_enough_for_the_threads() {
        assert_eq!(owners(648, 64, 1), 1024);
        assert_eq!(owners(54, 4, 1), 64);
        assert_eq!(owners(648, 64, 2), 128);
        assert_eq!(owners(54, 4, 2), 8);
        assert_eq!(owners(16_512, 256, 2), 2048);
        assert_eq!(owners(648, 64, 16), 64);
        for (n, pool) in [
            (648, 64),
            (54, 4),
            (16_512, 256),
            (2_064, 32),
            (5, 4),
            (0, 4),
        ] {
            for t in 2..=64 {
                let c = owners(n, pool, t);
                assert!(
                    c.is_multiple_of(pool) && c.is_power_of_two(),
                    "{n} {pool} {t}: {c}"
                );
                assert!(c == pool || n.div_ceil(c) >= 3 * t, "{n} {pool} {t}: {c}");
                assert!(n.div_ceil(2 * c) < 3 * t, "{n} {pool} {t}: {c}");
            }
        }
    }

    /// Four switches to a chunk; larger chunks where long links would make the owners'
    /// channels too many buckets; no chunking where no id split can name the entries.
    #[test]
    fn chunking_fits_the_wheels_and_the_ids() {
        let (n, c, _) = chunking(648, 54, 36 * 1025, 1025, 16).unwrap();
        assert_eq!((n, c), (64, 4));
        // the 16,512-NIC dragonfly: at most 128 chunks of each
        let (n, c, _) = chunking(16_512, 2_064, 93 * 65, 1025, 32).unwrap();
        assert_eq!((n, c), (256, 32));
        // 2^17 buckets a channel set: at most 8 switch chunks
        let (_, c, _) = chunking(1000, 1000, 1000, 1000, 1 << 17).unwrap();
        assert!(1000u32.div_ceil(c) * (1 << 17) <= 1 << 20, "{c}");
        // more entries than a 32-bit id can name beside the NICs' pool
        assert!(chunking(64, 1, 1 << 31, 1 << 30, 16).is_none());
    }
}
