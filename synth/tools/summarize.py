#!/usr/bin/env python3
"""Collect the synthesis results of synth/run.sh into synth/reports/.

Reads the Yosys stat/ltp reports, the nextpnr-ice40 log and --report JSON, and the icetime
report from the work directory; writes summary.json, summary.md and nextpnr_critical_path.txt
(the post-route register-to-register critical path, first condensed by RTL block, then as
nextpnr printed it). Standard library only.
"""

import argparse
import hashlib
import json
import re
import sys
from pathlib import Path

# The design registry (hdl/src/lib.rs) as `pft-verilog --list` writes it: each design's
# direct sub-blocks with their roles. Flattened cell names start with the instance name;
# anything else belongs to the top's own logic (PFT's: send, throttle_ok, ready).
DESIGNS = Path(__file__).resolve().parents[2] / "hdl" / "generated" / "designs.json"
BLOCKS = {}


# Yosys names a LUT after a net it drives, and a net that crosses a block border often keeps
# the name of the sink's port. These stems need a hint to be read as RTL.
STEM_HINTS = {
    "fi.level": "shifter.level (shifted + k) seen from the fi port",
    "ri.level": "shifter.level (shifted + k) seen from the ri port",
    "flit_valid": "top: ready = flit_valid & credit_ok, send",
    "send": "top: send (output and credit/fi/counter inputs)",
    "throttled": "top: throttled = ready & !throttle_ok",
    "csr.thr_ri": "top: throttle_ok select (CTRL.thr_mode) with the fi/ri compare",
    "csr.decode$distance": "CSR: decoded SHAPE shift distance register",
    "csr.n_q.q": "CSR register SHAPE.n",
    "csr.m_q.q": "CSR register SHAPE.m",
    "credit.next": "credit: c + send - credit_return (clamped)",
    "credit.sum": "credit: c + send",
    "credit.overflow.q": "credit: overflow flag",
    "counters.throttled_count.q": "counters: CNT_THROTTLED (enable = throttled)",
    "counters.sent_count.q": "counters: CNT_SENT (enable = send)",
}


def read(path):
    return Path(path).read_text(encoding="utf-8", errors="replace")


def stat_cells(text):
    """Cell counts of the last module section of a Yosys `stat` report: {type: count}."""
    cells = {}
    for m in re.finditer(r"^\s+(\$?[A-Za-z_][\w$]*)\s+(\d+)\s*$", text, re.M):
        cells[m.group(1)] = int(m.group(2))
    return cells


def stat_sections(text):
    """Split a hierarchical `stat` report into {module: text}."""
    parts = re.split(r"^=== (.+?) ===\s*$", text, flags=re.M)
    return {parts[i].strip(): parts[i + 1] for i in range(1, len(parts) - 1, 2)}


def ice40_counts(cells):
    return {
        "lut4": cells.get("SB_LUT4", 0),
        "carry": cells.get("SB_CARRY", 0),
        "dff": sum(v for k, v in cells.items() if k.startswith("SB_DFF")),
    }


def number(text, pattern, cast=int):
    m = re.search(pattern, text, re.M)
    return cast(m.group(1)) if m else None


def block_of(cell):
    head = cell.split(".", 1)[0]
    return head if head in BLOCKS else "top"


def use_blocks(top, designs=DESIGNS):
    """Select the block table of the design whose top module is `top` (PftInjector's when
    the list has no such top)."""
    found = {t: d for d in json.loads(read(designs)) for t in d["tops"]}
    d = found.get(top) or found["pft_injector"]
    BLOCKS.clear()
    BLOCKS.update({b: role for b, role in d["blocks"]})


def stem_of(cell):
    """`shifter.d_left_SB_LUT4_O_I2_LC.O` -> `shifter.d_left`."""
    cell = re.sub(r"\.(O|COUT|CIN|I\d|CEN|D|Q|SR)$", "", cell)
    return re.split(r"_SB_|\$CARRY|_DFFLC|_LC$", cell, maxsplit=1)[0]


def critical_path(log):
    """The last posedge->posedge critical path report of a nextpnr log (post-route).

    Returns (raw_lines, hops, footer) where hops are (t_start, t_end, cell)."""
    lines = log.splitlines()
    starts = [i for i, l in enumerate(lines)
              if "Critical path report for clock" in l and "posedge -> posedge" in l]
    if not starts:
        return [], [], ""
    raw = []
    for l in lines[starts[-1]:]:
        if raw and ("Critical path report for" in l or not l.strip()):
            break
        raw.append(l)
    hops, footer = [], ""
    for l in raw:
        m = re.match(r"Info:\s+([\d.]+)\s+([\d.]+)\s+(Source|Setup)\s+(\S+)", l)
        if m:
            delay, total = float(m.group(1)), float(m.group(2))
            hops.append((total - delay, total, m.group(4), m.group(3)))
        m = re.match(r"Info:\s+([\d.]+ ns logic, [\d.]+ ns routing)", l)
        if m:
            footer = m.group(1)
    return raw, hops, footer


def condense(hops):
    """Group consecutive hops by name stem: [(t_in, t_out, block, stem, n_cells)]."""
    groups = []
    prev_stem = None
    for t0, t1, cell, kind in hops:
        stem = stem_of(cell)
        if stem.startswith("$nextpnr_") and prev_stem:  # packer-made LC: keep the previous
            stem = prev_stem
        if kind == "Setup":
            groups.append([t0, t1, block_of(cell), "setup " + stem, 0])
            break
        if groups and groups[-1][3] == stem:
            groups[-1][1] = t1
            groups[-1][4] += 1
        else:
            groups.append([t0, t1, block_of(stem), stem, 1])
        prev_stem = stem
    # A group's time runs until the next group starts (includes the routing after it).
    for a, b in zip(groups, groups[1:]):
        a[1] = b[0]
    return groups


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--work", required=True, help="work directory of synth/run.sh")
    ap.add_argument("--reports", required=True, help="output directory (synth/reports)")
    ap.add_argument("--verilog", required=True, help="the synthesized Verilog file")
    ap.add_argument("--device", required=True)
    ap.add_argument("--package", required=True)
    ap.add_argument("--freq", required=True, type=float)
    ap.add_argument("--seed", required=True, type=int)
    ap.add_argument("--command", required=True, help="command line to record")
    ap.add_argument("--top", default="pft_injector", help="top module of the Verilog")
    a = ap.parse_args()
    use_blocks(a.top)
    work, out = Path(a.work), Path(a.reports)

    versions = dict(
        l.split(": ", 1) for l in read(work / "versions.txt").splitlines() if ": " in l
    )
    vbytes = Path(a.verilog).read_bytes()

    gen_cells = stat_cells(stat_sections(read(work / "generic_stat.txt"))[a.top])
    gen_text = read(work / "generic_stat.txt")
    cmos = read(work / "generic_stat_cmos.txt")
    ltp = read(work / "generic_ltp.txt")
    generic = {
        "cells": number(gen_text, r"Number of cells:\s+(\d+)"),
        "flip_flops": sum(v for k, v in gen_cells.items() if "DFF" in k),
        "transistors_cmos": number(cmos, r"Estimated number of transistors:\s+(\d+)"),
        "transistors_note": "lower bound" if re.search(r"transistors:\s+\d+\+", cmos) else "",
        "ltp_noff_cells": number(ltp, r"Longest topological path in \S+ \(length=(\d+)\)"),
        "cell_types": gen_cells,
    }

    ice_text = read(work / "ice40_stat.txt")
    ice_cells = stat_cells(stat_sections(ice_text)[a.top])
    ice40 = {"cells": number(ice_text, r"Number of cells:\s+(\d+)"), **ice40_counts(ice_cells),
             "cell_types": ice_cells}

    ice40_abc9 = None
    if (work / "ice40_abc9_stat.txt").exists() and (work / "nextpnr_abc9_report.json").exists():
        t = read(work / "ice40_abc9_stat.txt")
        r9 = json.loads(read(work / "nextpnr_abc9_report.json"))
        f9 = next(iter(r9.get("fmax", {}).values()), {})
        ice40_abc9 = {**ice40_counts(stat_cells(stat_sections(t)[a.top])),
                      "fmax_mhz": round(f9.get("achieved", 0.0), 2),
                      "logic_cells": r9.get("utilization", {}).get("ICESTORM_LC", {}).get("used")}

    blocks = {}
    for mod, body in stat_sections(read(work / "ice40_blocks_stat.txt")).items():
        if mod.startswith("design hierarchy"):
            continue
        name = mod.split("$", 1)[1] if "$" in mod else "top"
        blocks[name] = ice40_counts(stat_cells(body))
    blocks_total = {k: sum(b[k] for b in blocks.values()) for k in ("lut4", "carry", "dff")}

    log = read(work / "nextpnr.log")
    rep = json.loads(read(work / "nextpnr_report.json"))
    fmax_lines = re.findall(r"^.*Max frequency for clock.*$", log, re.M)
    clk, f = next(iter(rep.get("fmax", {}).items()), (None, {}))
    util = rep.get("utilization", {})
    raw, hops, footer = critical_path(log)
    groups = condense(hops)
    icetime = read(work / "icetime.txt") if (work / "icetime.txt").exists() else ""
    nextpnr = {
        "device": a.device, "package": a.package, "seed": a.seed,
        "freq_constraint_mhz": a.freq,
        "fmax_mhz": round(f.get("achieved", 0.0), 2),
        "clock": clk,
        "fmax_log_line": fmax_lines[-1].strip() if fmax_lines else None,
        "logic_cells": util.get("ICESTORM_LC", {}).get("used"),
        "logic_cells_available": util.get("ICESTORM_LC", {}).get("available"),
        "critical_path_ns": round(hops[-1][1], 2) if hops else None,
        "critical_path_split": footer,
        "critical_path_from": hops[0][2] if hops else None,
        "critical_path_to": hops[-1][2] if hops else None,
        "critical_path_blocks": [
            {"from_ns": round(g[0], 1), "to_ns": round(g[1], 1), "block": g[2], "stem": g[3],
             "cells": g[4]} for g in groups],
    }
    it = {
        "path_delay_ns": number(icetime, r"Total path delay:\s+([\d.]+) ns", float),
        "fmax_mhz": number(icetime, r"Total path delay:\s+[\d.]+ ns \(([\d.]+) MHz\)", float),
    }

    summary = {
        "command": a.command,
        "verilog": a.verilog,
        "verilog_sha256": hashlib.sha256(vbytes).hexdigest(),
        "tools": versions,
        "generic": generic,
        "ice40": ice40,
        "ice40_abc9": ice40_abc9,
        "ice40_blocks": blocks,
        "ice40_blocks_total": blocks_total,
        "nextpnr": nextpnr,
        "icetime": it,
    }
    (out / "summary.json").write_text(json.dumps(summary, indent=2) + "\n")

    # The critical path: condensed view, then nextpnr's own report (post-route).
    cp = [
        "Post-route critical path (posedge -> posedge), nextpnr-ice40 "
        f"--{a.device} --package {a.package} --freq {a.freq:g} --seed {a.seed}",
        f"{nextpnr['fmax_log_line']}",
        "",
        "Condensed by RTL block. Names are Yosys/nextpnr cell names; a cell is named after",
        "a net it drives, so a stem may carry the name of the port it feeds (see hint).",
        f"{'from':>6} {'to':>6}  {'block':<9} {'cells':>5}  stem  [hint]",
    ]
    for t0, t1, blk, stem, n in groups:
        hint = STEM_HINTS.get(stem.replace("setup ", ""), "")
        cp.append(f"{t0:6.1f} {t1:6.1f}  {blk:<9} {n:5d}  {stem}" + (f"  [{hint}]" if hint else ""))
    cp += ["", footer, "", "nextpnr's report:", *raw, ""]
    (out / "nextpnr_critical_path.txt").write_text("\n".join(cp))

    # Human-readable summary.
    md = [
        "# Synthesis summary (generated by synth/run.sh; do not edit)",
        "",
        f"- Command: `{a.command}`",
        f"- Input: `{a.verilog}` (sha256 `{summary['verilog_sha256'][:16]}...`)",
        "- Tools: " + "; ".join(f"{k} {v}" for k, v in versions.items()),
        "",
        "## iCE40 (comparison only, not a product target)",
        "",
        "| metric | value |",
        "|---|---|",
        f"| SB_LUT4 | {ice40['lut4']} |",
        f"| SB_DFF* (flip-flops) | {ice40['dff']} |",
        f"| SB_CARRY | {ice40['carry']} |",
        f"| logic cells after packing (ICESTORM_LC) | {nextpnr['logic_cells']} of "
        f"{nextpnr['logic_cells_available']} |",
        f"| Fmax post-route, seed {a.seed} (nextpnr) | {nextpnr['fmax_mhz']} MHz "
        f"(constraint {a.freq:g} MHz) |",
        f"| critical path (nextpnr) | {nextpnr['critical_path_ns']} ns: {footer} |",
        f"| Fmax (icetime, cross-check) | {it['fmax_mhz']} MHz ({it['path_delay_ns']} ns) |",
        "",
    ]
    if ice40_abc9:
        md += [
            "Second opinion, same flow with `synth_ice40 -abc9` (experimental mapper in Yosys "
            "0.23): "
            f"{ice40_abc9['lut4']} SB_LUT4, {ice40_abc9['dff']} DFF, {ice40_abc9['carry']} "
            f"SB_CARRY, {ice40_abc9['logic_cells']} logic cells, Fmax {ice40_abc9['fmax_mhz']} MHz "
            f"(seed {a.seed}).",
            "",
        ]
    md += [
        "## Generic gates (`synth -flatten`)",
        "",
        "| metric | value |",
        "|---|---|",
        f"| cells | {generic['cells']} |",
        f"| flip-flops | {generic['flip_flops']} |",
        f"| transistors (`stat -tech cmos`) | {generic['transistors_cmos']}"
        f"{' (lower bound)' if generic['transistors_note'] else ''} |",
        f"| longest path (`ltp -noff`, cells) | {generic['ltp_noff_cells']} |",
        "",
        "## iCE40 cells per block (kept hierarchy, no cross-block optimisation)",
        "",
        "| block | SB_LUT4 | SB_CARRY | DFF | role |",
        "|---|---|---|---|---|",
    ]
    for name, b in sorted(blocks.items(), key=lambda kv: -kv[1]["lut4"]):
        md.append(f"| {name} | {b['lut4']} | {b['carry']} | {b['dff']} | "
                  f"{BLOCKS.get(name, 'top glue')} |")
    md.append(f"| **total** | {blocks_total['lut4']} | {blocks_total['carry']} | "
              f"{blocks_total['dff']} | flat run: {ice40['lut4']} LUT4 |")
    md += ["", "## Critical path by block (post-route; full report in "
           "nextpnr_critical_path.txt)", "", "| ns | block | cells | stem |", "|---|---|---|---|"]
    for t0, t1, blk, stem, n in groups:
        md.append(f"| {t0:.1f}-{t1:.1f} | {blk} | {n} | `{stem}` |")
    md.append("")
    (out / "summary.md").write_text("\n".join(md))

    print(f"iCE40 {a.device}: {ice40['lut4']} LUT4, {ice40['dff']} DFF, {ice40['carry']} carry, "
          f"Fmax {nextpnr['fmax_mhz']} MHz (constraint {a.freq:g}); generic: "
          f"{generic['cells']} cells, {generic['flip_flops']} FF, "
          f"{generic['transistors_cmos']} transistors, ltp {generic['ltp_noff_cells']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
