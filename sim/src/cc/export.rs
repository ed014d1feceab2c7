//! The RTL of a scenario's `[[cc]]` entry with the constants a run of it uses
//! (`pftsim verilog`): the registry's designs (`pft_hdl::DESIGNS`) are exported at the
//! seeds' constants; this exports the same blocks at the constants the network model
//! derives from the scenario (`summary.json`'s `cc_derived`), so the Verilog a user
//! synthesizes is the logic the run simulated (docs/hardware.md, "A scenario's constants").

use super::CcConfig;
use crate::net::{NetConfig, Topology};
use crate::scenario::Scenario;
use pft_hdl::verilog::FLOW_COUNTS;
use pft_hdl::{dcqcn, ibcc, mvcm, selftuned};

/// One exported block: the registry design it is an instance of, its top module, the
/// Verilog, and the constants it holds (as `name = value` lines for the report).
#[derive(Debug)]
pub struct RtlExport {
    /// The registry design whose block this is (`mvcm_flow`, `ibcc_flows`, ...).
    pub design: &'static str,
    /// The top module's name.
    pub top: String,
    pub verilog: String,
    /// The synthesis-time constants it was built with, in the RTL's units.
    pub constants: Vec<(&'static str, u64)>,
    /// The same constants as the RTL's model takes them (a testbench's reference).
    pub params: RtlParams,
}

/// The constants of an export, as `pft_hdl`'s models take them.
#[derive(Clone, Debug)]
pub enum RtlParams {
    Mvcm(mvcm::model::Params),
    SelfTuned(selftuned::model::Params),
    /// IB CC's rules, its CCTI timer's period and first expiry, the packet's flits.
    Ibcc {
        p: ibcc::model::Params,
        period: u64,
        first: u64,
        packet_flits: u32,
    },
    Dcqcn(dcqcn::model::Params),
}

/// `rtl_export` of the `[[cc]]` (or `[[pft]]`) entry called `name` of `sc`.
pub fn export_entry(
    sc: &Scenario,
    name: &str,
    flows: Option<usize>,
    nic: u32,
) -> Result<RtlExport, String> {
    let Some(cc) = sc.config_named(name) else {
        let names: Vec<String> = sc.configs().into_iter().map(|(n, _)| n).collect();
        return Err(format!(
            "no [[cc]] or [[pft]] entry of that name (the scenario's entries: {})",
            if names.is_empty() {
                "none".to_string()
            } else {
                names.join(", ")
            }
        ));
    };
    rtl_export(sc, &cc, flows, nic)
}

/// The RTL of `cc` (an entry of `sc`, which is valid) with the constants its run derives:
/// one flow (`flows` None) or the `flows`-flow block; `nic` picks the NIC whose IB CC timer
/// phase the block takes (the network draws one per NIC). Errors say what the RTL cannot
/// hold, naming the key and the range.
pub fn rtl_export(
    sc: &Scenario,
    cc: &CcConfig,
    flows: Option<usize>,
    nic: u32,
) -> Result<RtlExport, String> {
    let net = &sc.network;
    if let Some(n) = flows {
        if !FLOW_COUNTS.contains(&n) {
            return Err(format!(
                "--flows {n}: the N-flow blocks are built for N in {FLOW_COUNTS:?}"
            ));
        }
    }
    let nodes = Topology::shape(&net.topology).nodes();
    if nic >= nodes {
        return Err(format!(
            "--nic {nic}: the network has NICs 0..={}",
            nodes - 1
        ));
    }
    match cc {
        CcConfig::Mvcm(c) => {
            let d = c
                .derive(net, || super::round_trip::longest_of(net), "cc")
                .map_err(|e| joined(&e))?;
            let p = d.params;
            let constants = vec![
                ("dw_max", p.dw_max as u64),
                ("k", p.k as u64),
                ("n", p.n as u64),
                ("rtt_min", p.rtt_min as u64),
                ("ws_max_incs", p.ws_max_incs as u64),
            ];
            Ok(match flows {
                None => RtlExport {
                    design: "mvcm_flow",
                    top: mvcm::verilog::TOP_MVCM.into(),
                    verilog: mvcm::verilog::mvcm_verilog(&p),
                    constants,
                    params: RtlParams::Mvcm(p),
                },
                Some(n) => {
                    if !mvcm::mvcm_flow::fits(&p, 2, 3, 19) {
                        return Err(format!(
                            "--flows {n}: the N-flow block has the paper's widths (dw_max <= 3, \
                             ws_max_incs <= 7, k^ws_max_incs * rtt_min < 2^19); this entry derives \
                             dw_max {}, ws_max_incs {}, k {}, rtt_min {}: export one flow (no --flows)",
                            p.dw_max, p.ws_max_incs, p.k, p.rtt_min
                        ));
                    }
                    RtlExport {
                        design: "mvcm_flows",
                        top: mvcm::verilog::mvcm_flows_top(n),
                        verilog: mvcm::verilog::mvcm_flows_verilog(&p, n),
                        constants,
                        params: RtlParams::Mvcm(p),
                    }
                }
            })
        }
        CcConfig::SelfTuned(c) => {
            if flows.is_some() {
                return Err("--flows: the self-tuned throttle's block is one per NIC, without flows".into());
            }
            let (p, _) = c
                .params_for(net, &Topology::shape(&net.topology), "cc")
                .map_err(|e| e.to_string())?;
            Ok(RtlExport {
                design: "selftuned_node",
                top: selftuned::verilog::TOP_SELFTUNED.into(),
                verilog: selftuned::verilog::selftuned_verilog(&p),
                constants: vec![
                    ("g", p.g as u64),
                    ("periods", p.periods as u64),
                    ("t_init", p.t_init as u64),
                    ("inc", p.inc as u64),
                    ("dec", p.dec as u64),
                    ("t_ceiling", p.t_ceiling as u64),
                    ("drop_pct", p.drop_pct as u64),
                    ("reset_pct", p.reset_pct as u64),
                    ("r", p.r as u64),
                    ("linear", p.linear as u64),
                ],
                params: RtlParams::SelfTuned(p),
            })
        }
        CcConfig::Ibcc(c) => ibcc_export(sc, c, net, flows, nic),
        CcConfig::Dcqcn(c) => {
            let d = c.derive(net, "cc").map_err(|e| joined(&e))?;
            let p = dcqcn::model::Params::from_float(&super::dcqcn::nic::rp_params(&d))
                .map_err(|e| format!("the entry's DCQCN constants on this network: {e}"))?;
            let longest = (1u64 << dcqcn::model::FLIT_BITS) - 1;
            if net.mtu_flits() as u64 > longest {
                return Err(format!(
                    "network.mtu_bytes = {}: a packet of {} flits; the RTL's `flits` port holds 1..={longest}",
                    net.mtu_bytes,
                    net.mtu_flits()
                ));
            }
            let constants = vec![
                ("rate_timer", p.rate_timer as u64),
                ("alpha_timer", p.alpha_timer as u64),
                ("byte_counter", p.byte_counter as u64),
                ("f", p.f as u64),
                ("g_shift", p.g_shift as u64),
                ("rai", p.rai as u64),
                ("rhai", p.rhai as u64),
                ("min_rate", p.min_rate as u64),
            ];
            Ok(match flows {
                None => RtlExport {
                    design: "dcqcn_flow",
                    top: dcqcn::verilog::TOP_DCQCN.into(),
                    verilog: dcqcn::verilog::dcqcn_verilog(&p, dcqcn::verilog::TOP_DCQCN),
                    constants,
                    params: RtlParams::Dcqcn(p),
                },
                Some(n) => RtlExport {
                    design: "dcqcn_flows",
                    top: dcqcn::verilog::dcqcn_flows_top(n),
                    verilog: dcqcn::verilog::dcqcn_flows_verilog(&p, n),
                    constants,
                    params: RtlParams::Dcqcn(p),
                },
            })
        }
        CcConfig::Pft(_) => Err(
            "a `pft` entry's settings are registers written at run time, not constants: \
             `pft-verilog --design pft_injector` is the block of every PFT entry (docs/registers.md)"
                .into(),
        ),
        other => Err(format!(
            "kind `{}`: no RTL (the schemes with NIC logic exported are pft, ibcc, selftuned, mvcm and dcqcn)",
            other.kind()
        )),
    }
}

/// IB CC's flow (or `flows` flows) with the entry's CCT, its CCTI timer at the scenario's
/// link rate and NIC `nic`'s timer phase, at the narrowest widths that hold them and the
/// scenario's packets.
fn ibcc_export(
    sc: &Scenario,
    c: &super::IbccConfig,
    net: &NetConfig,
    flows: Option<usize>,
    nic: u32,
) -> Result<RtlExport, String> {
    use ibcc::ibcc_flow::WideIbccFlow;
    use ibcc::verilog::{ibcc_fits, ibcc_flows_top, ibcc_flows_verilog, ibcc_verilog, TOP_IBCC};
    let p = ibcc::model::Params {
        increase: c.ccti_increase as u16,
        limit: c.ccti_limit as u16,
        min: c.ccti_min as u16,
        cct: c.table(),
    };
    p.check()
        .map_err(|e| format!("the entry's IB CC constants: {e}"))?;
    let period = c.timer_cycles(net.cycle_ns());
    let first = super::ibcc::timer_first(sc.seed, nic, period);
    let packet = net.mtu_flits() as u64;
    let timer13 = period - 1 < 1 << 13 && first < 1 << 13;
    let constants = vec![
        ("ccti_increase", p.increase as u64),
        ("ccti_limit", p.limit as u64),
        ("ccti_min", p.min as u64),
        ("timer_period", period),
        ("timer_first", first),
        ("packet_flits", packet),
    ];
    let too_wide = |what: &str| {
        format!(
            "{what}: the entry needs a CCTI of {} bits, packets of {packet} flits, a timer of \
             {period} cycles (first expiry {first}); the block holds {}",
            64 - (p.limit as u64).leading_zeros(),
            if flows.is_some() {
                "a 7-bit CCTI, packets of 1..=63 flits and a timer of 1..=8192 cycles: export one flow (no --flows)"
            } else {
                "an 8-bit CCTI, packets of 1..=255 flits and a timer of 1..=65536 cycles"
            }
        )
    };
    // `ibcc_verilog` takes the narrowest block that holds the constants (7-bit CCTI,
    // 6-bit length), else the wide one, and panics when none does: both checked here, the
    // packet's length too, which it does not see
    let narrow = packet < 1 << 6 && timer13 && ibcc_fits(&p, 7, 6, 20);
    let params = RtlParams::Ibcc {
        p: p.clone(),
        period,
        first,
        packet_flits: packet as u32,
    };
    let wide =
        packet < 1 << 8 && ibcc_fits(&p, 8, 8, 22) && period - 1 < 1 << 16 && first < 1 << 16;
    match flows {
        None => {
            let verilog = if narrow {
                ibcc_verilog(&p, period, first, TOP_IBCC)
            } else if wide {
                pft_hdl::verilog::rename(
                    pft_hdl::verilog::gen(WideIbccFlow::new(&p, period, first)),
                    TOP_IBCC,
                )
            } else {
                return Err(too_wide("ibcc_flow"));
            };
            Ok(RtlExport {
                design: "ibcc_flow",
                top: TOP_IBCC.into(),
                verilog,
                constants,
                params,
            })
        }
        Some(n) => {
            if !(packet < 1 << 6 && ibcc_fits(&p, 7, 6, 13) && timer13) {
                return Err(too_wide(&format!("--flows {n}")));
            }
            Ok(RtlExport {
                design: "ibcc_flows",
                top: ibcc_flows_top(n),
                verilog: ibcc_flows_verilog(&p, period, first, n),
                constants,
                params,
            })
        }
    }
}

/// Field errors as one message.
fn joined(errs: &[crate::error::FieldError]) -> String {
    errs.iter()
        .map(|e| e.to_string())
        .collect::<Vec<_>>()
        .join("; ")
}
