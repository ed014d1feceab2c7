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
    /// The synthesis-time constants it was built with, in the RTL's units, and the block's
    /// widths: `name=value` for the report.
    pub constants: Vec<(&'static str, String)>,
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
    nic: Option<u32>,
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

/// `e` with its top module (and its submodules, `top$...`) named `top`: one design may
/// hold several exports (two NICs' IB CC blocks, whose timer phases differ), which would
/// otherwise declare the same modules twice. `top`: a Verilog name without `$`.
pub fn with_top(mut e: RtlExport, top: &str) -> Result<RtlExport, String> {
    let ok = top.len() <= 64
        && top.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
        && top.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    if !ok {
        return Err(format!(
            "--top {top:?}: a Verilog name of 1..=64 letters, digits and `_`, not starting with a digit"
        ));
    }
    let old = e.top.clone();
    e.verilog = e
        .verilog
        .replace(&format!("module {old}("), &format!("module {top}("))
        .replace(&format!("{old}$"), &format!("{top}$"));
    e.top = top.to_string();
    Ok(e)
}

/// The RTL of `cc` (an entry of `sc`, which is valid) with the constants its run derives:
/// one flow (`flows` None) or the `flows`-flow block; `nic` picks the NIC whose IB CC timer
/// phase the block takes (the network draws one per NIC; `None`: NIC 0; refused for the
/// other kinds). Errors say what the RTL cannot
/// hold, naming the key and the range.
pub fn rtl_export(
    sc: &Scenario,
    cc: &CcConfig,
    flows: Option<usize>,
    nic: Option<u32>,
) -> Result<RtlExport, String> {
    let net = &sc.network;
    let exported = matches!(
        cc,
        CcConfig::Mvcm(_) | CcConfig::SelfTuned(_) | CcConfig::Ibcc(_) | CcConfig::Dcqcn(_)
    );
    if let (true, Some(n)) = (exported, flows) {
        if !FLOW_COUNTS.contains(&n) {
            return Err(format!(
                "--flows {n}: the N-flow blocks are built for N in {FLOW_COUNTS:?}"
            ));
        }
    }
    if let (true, Some(n)) = (exported, nic) {
        if !matches!(cc, CcConfig::Ibcc(_)) {
            return Err(format!(
                "--nic {n}: only an ibcc entry's block differs from NIC to NIC (its timer's phase)"
            ));
        }
        let nodes = Topology::shape(&net.topology).nodes();
        if n >= nodes {
            return Err(format!("--nic {n}: the network has NICs 0..={}", nodes - 1));
        }
    }
    match cc {
        CcConfig::Mvcm(c) => {
            // (the block has the seed's rules: a warm ACK lowers the window, and a packet
            // into an empty queue resets the flow)
            if !c.warm || c.fast_reset_idle {
                return Err(format!(
                    "`{}`: the block has the seed's rules only (`warm = true`, \
                     `fast_reset_idle = false`); the entry's ablation changes the NIC",
                    if c.warm {
                        "fast_reset_idle = true"
                    } else {
                        "warm = false"
                    }
                ));
            }
            let d = c
                .derive(net, || super::round_trip::longest_of(net), "cc")
                .map_err(|e| joined(&e))?;
            let p = d.params;
            let paper = mvcm::mvcm_flow::fits(&p, 2, 3, 19);
            let constants = vec![
                ("dw_max", p.dw_max.to_string()),
                ("k", p.k.to_string()),
                ("n", p.n.to_string()),
                ("rtt_min", p.rtt_min.to_string()),
                ("ws_max_incs", p.ws_max_incs.to_string()),
                ("widths", if paper { "2,3,19" } else { "8,5,32" }.to_string()),
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
                    if !paper {
                        return Err(format!(
                            "--flows {n}: the N-flow block has the paper's widths (dw_max <= 3, \
                             ws_max_incs <= 7, k^ws_max_incs * rtt_min <= 2^19); this entry derives \
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
                    ("g", p.g.to_string()),
                    ("periods", p.periods.to_string()),
                    ("t_init", p.t_init.to_string()),
                    ("inc", p.inc.to_string()),
                    ("dec", p.dec.to_string()),
                    ("t_ceiling", p.t_ceiling.to_string()),
                    ("drop_pct", p.drop_pct.to_string()),
                    ("reset_pct", p.reset_pct.to_string()),
                    ("r", p.r.to_string()),
                    ("linear", p.linear.to_string()),
                ],
                params: RtlParams::SelfTuned(p),
            })
        }
        CcConfig::Ibcc(c) => ibcc_export(sc, c, net, flows, nic.unwrap_or(0)),
        CcConfig::Dcqcn(c) => {
            let d = c.derive(net, "cc").map_err(|e| joined(&e))?;
            let fp = super::dcqcn::nic::rp_params(&d);
            let p = dcqcn::model::Params::from_float(&fp)
                .map_err(|e| format!("the entry's DCQCN constants on this network: {e}"))?;
            // a rate the RTL's units round away: the block would not do what the run does
            let unit_mbps = net.link_gbps * 1000.0 / dcqcn::model::LINE as f64;
            for (key, want) in [
                ("rai_mbps", fp.rai),
                ("rhai_mbps", fp.rhai),
                ("min_rate_mbps", fp.min_rate),
            ] {
                if want > 0.0 && dcqcn::model::rate_units(want) < 1.0 {
                    return Err(format!(
                        "`cc.{key}` = {} Mb/s: the RTL's rates are whole units of \
                         {unit_mbps:.3} Mb/s (the line / {}), and it rounds to 0",
                        want * net.link_gbps * 1000.0,
                        dcqcn::model::LINE
                    ));
                }
            }
            let longest = (1u64 << dcqcn::model::FLIT_BITS) - 1;
            if net.mtu_flits() as u64 > longest {
                return Err(format!(
                    "network.mtu_bytes = {}: a packet of {} flits; the RTL's `flits` port holds 1..={longest}",
                    net.mtu_bytes,
                    net.mtu_flits()
                ));
            }
            let constants = vec![
                ("rate_timer", p.rate_timer.to_string()),
                ("alpha_timer", p.alpha_timer.to_string()),
                ("byte_counter", p.byte_counter.to_string()),
                ("f", p.f.to_string()),
                ("g_shift", p.g_shift.to_string()),
                ("rai", p.rai.to_string()),
                ("rhai", p.rhai.to_string()),
                ("min_rate", p.min_rate.to_string()),
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
    // what a block of widths (CCTI c, length l, spacing t, timer bits q) does not hold
    let misfits = |(c, l, t, q): (u32, u32, u32, u32)| {
        let mut m = Vec::new();
        if p.limit as u64 >= 1 << c {
            m.push(format!("ccti_limit {} (a {c}-bit CCTI)", p.limit));
        }
        if packet >= 1 << l {
            m.push(format!(
                "packets of {packet} flits (a {l}-bit length: 1..={})",
                (1u64 << l) - 1
            ));
        } else if p.max_spacing((1 << l) - 1) > 1 << t {
            m.push(format!(
                "the CCT's longest spacing, {} cycles (a {t}-bit spacing counter)",
                p.max_spacing((1 << l) - 1)
            ));
        }
        if period > 1 << q {
            m.push(format!(
                "a timer of {period} cycles (a {q}-bit timer: 1..={})",
                1u64 << q
            ));
        }
        if first >= 1 << q {
            m.push(format!(
                "NIC {nic}'s first expiry in cycle {first} (a {q}-bit timer: 0..={})",
                (1u64 << q) - 1
            ));
        }
        m
    };
    const TABLE1: (u32, u32, u32, u32) = (7, 6, 13, 13);
    const SPACING20: (u32, u32, u32, u32) = (7, 6, 20, 13);
    const WIDE: (u32, u32, u32, u32) = (8, 8, 22, 16);
    let widths = if flows.is_some() {
        Some(TABLE1).filter(|&w| misfits(w).is_empty())
    } else {
        [TABLE1, SPACING20, WIDE]
            .into_iter()
            .find(|&w| misfits(w).is_empty())
    };
    let Some(w) = widths else {
        let (what, w) = match flows {
            Some(n) => (format!("--flows {n}: the N-flow block"), TABLE1),
            None => ("ibcc_flow: its widest block".to_string(), WIDE),
        };
        return Err(format!(
            "{what} (CCTI, length, spacing, timer: {}, {}, {}, {} bits) does not hold {}{}",
            w.0,
            w.1,
            w.2,
            w.3,
            misfits(w).join(", "),
            if flows.is_some() {
                ": export one flow (no --flows)"
            } else {
                ""
            }
        ));
    };
    let table = c.table();
    let linear = table.iter().enumerate().all(|(i, &e)| e as usize == i);
    let constants = vec![
        ("nic", nic.to_string()),
        ("ccti_increase", p.increase.to_string()),
        ("ccti_limit", p.limit.to_string()),
        ("ccti_min", p.min.to_string()),
        (
            "cct",
            if linear {
                "linear".to_string()
            } else {
                format!(
                    "{}-entries-max-{}",
                    table.len(),
                    table.iter().max().unwrap_or(&0)
                )
            },
        ),
        ("timer_period", period.to_string()),
        ("timer_first", first.to_string()),
        ("widths", format!("{},{},{},{}", w.0, w.1, w.2, w.3)),
    ];
    let params = RtlParams::Ibcc {
        p: p.clone(),
        period,
        first,
        packet_flits: packet as u32,
    };
    // (the widths as `ibcc_verilog` picks them for one flow: it panics when none holds
    // the constants, and does not see the packets: both checked above)
    let (design, top, verilog) = match flows {
        None if w == WIDE => (
            "ibcc_flow",
            TOP_IBCC.to_string(),
            pft_hdl::verilog::rename(
                pft_hdl::verilog::gen(WideIbccFlow::new(&p, period, first)),
                TOP_IBCC,
            ),
        ),
        None => (
            "ibcc_flow",
            TOP_IBCC.to_string(),
            ibcc_verilog(&p, period, first, TOP_IBCC),
        ),
        Some(n) => (
            "ibcc_flows",
            ibcc_flows_top(n),
            ibcc_flows_verilog(&p, period, first, n),
        ),
    };
    debug_assert!(
        ibcc_fits(&p, w.0 as usize, w.1 as usize, w.2 as usize),
        "the widths hold the constants"
    );
    Ok(RtlExport {
        design,
        top,
        verilog,
        constants,
        params,
    })
}

/// Field errors as one message.
fn joined(errs: &[crate::error::FieldError]) -> String {
    errs.iter()
        .map(|e| e.to_string())
        .collect::<Vec<_>>()
        .join("; ")
}
