#!/usr/bin/env bash
# Synthesize the per-flow source state of MVCM (seed 004; hdl/src/mvcm/, the paper's 4-ary
# 5-fly constants) or, with FLOW_DESIGN=ibcc (synth/ibcc.sh sets it), of IB CC (seed 002;
# hdl/src/ibcc/, Table I) with PFT's flow, one flow and N flows, and fit the cost per flow.
# Reports in synth/reports/mvcm/ or synth/reports/ibcc/.
#
#   usage: bash synth/mvcm.sh      (needs the exports in synth/out/, as `make synth-mvcm` writes:)
#   make synth-mvcm  =  pft-verilog --mvcm synth/out/mvcm_flow.v
#                       pft-verilog --mvcm --flows N synth/out/mvcm_flowsN.v   (N = 1 4 16 64)
#                       bash synth/mvcm.sh
#   make synth-ibcc  =  the same with --ibcc (and --ibcc --cct random), then synth/ibcc.sh
#
# Steps (every tool's exit status is checked; logs under synth/out/work-<design>*/ and
# synth/out/asic/):
#   1. synth/run.sh with PFT_TOP=<design>_flow: check_verilog.sh (yosys, verilator, iverilog),
#      Yosys generic, synth_ice40 (flat and per block), nextpnr-ice40 HX8K, icetime, ABC9,
#      summary.md/json, ECP5 with .venv (Gowin skipped: its wrapper has PFT's ports)
#   2. Yosys synth_ice40 and the OSU 0.18 um mapping with each rust-hdl block of the one flow
#      kept as its own module: modules_ice40_stat.txt, modules_asic_stat.txt
#   3. synth/asic.sh: OSU 0.18 um cells + OpenSTA for the one flow (asic_osu018_*.txt)
#   4. (ibcc) the one flow with a random CCT: Yosys iCE40 and asic.sh (random_cct/)
#   5. the N-flow blocks, N = 1, 4, 16, 64: Yosys check (no latches), Verilator lint (-Wall,
#      the project's waivers and the named observation outputs below), Yosys generic and
#      synth_ice40 (flat; and with flow 0's slot kept as its own module), asic.sh
#      (flows<N>/); then scaling.md: the cells per N and the least-squares line through them
#      (per flow = slope), and the line's value at 512 flows (computed, not synthesized)
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(dirname "$here")"
cd "$root"
design="${FLOW_DESIGN:-mvcm}"
case "$design" in
mvcm)
    what="MVCM per-flow source state (seed 004, the paper's 4-ary 5-fly: dw_max 2, k 4, n 5, rtt_min 354)"
    blocks="window waiting interval timer"
    # Observation outputs of the per-flow blocks that the one-flow top exports and the N-flow
    # block does not (tb/tests/mvcm_verilog.rs waives the same names).
    waive="window\$dw window\$out waiting\$e"
    ;;
ibcc)
    what="IB CC per-flow source state with the port's CCT and CCTI timer (seed 002, Table I)"
    blocks="timer index cct spacing ird_timer"
    waive="index\$ccti"
    ;;
*)
    echo "error: FLOW_DESIGN=$design: mvcm or ibcc" >&2
    exit 2
    ;;
esac
top="${design}_flow"
counts=(1 4 16 64)
for f in "$top" "${counts[@]/#/${design}_flows}"; do
    if [[ ! -f "synth/out/$f.v" ]]; then
        echo "error: synth/out/$f.v not found (run: make synth-$design)" >&2
        exit 2
    fi
done
for t in yosys verilator python3; do
    command -v "$t" >/dev/null || { echo "error: $t not found (make setup installs it)" >&2; exit 127; }
done
reports_rel="synth/reports/$design"
reports="$root/$reports_rel"
work="$root/synth/out/work-$design"
lib="${OSU018_LIB:-/usr/share/qflow/tech/osu018/osu018_stdcells.lib}"
mkdir -p "$reports"

# 1. PFT's flow for the one flow.
PFT_TOP=$top SYNTH_WORK="synth/out/work-$design" SYNTH_REPORTS=$reports_rel SYNTH_GOWIN=0 \
    bash "$here/run.sh" "synth/out/$top.v"

# 2. Each rust-hdl block of the one flow as its own module (the DFF wrappers flattened into
#    it): which block costs what. No optimisation crosses a kept border.
keep="setattr -mod -set keep_hierarchy 1"
for b in $blocks; do keep="$keep $top\$$b"; done
(
    cd "$work"
    yosys -q -l yosys_modules.log -p "read_verilog $top.v; hierarchy -check -top $top; proc; \
        $keep; synth_ice40 -top $top; tee -q -o modules_ice40_stat.txt stat" >/dev/null
    yosys -q -l yosys_modules_asic.log -p "read_verilog $top.v; hierarchy -check -top $top; \
        proc; $keep; synth -flatten -top $top; dfflibmap -liberty $lib; abc -liberty $lib; \
        opt_clean; tee -q -o modules_asic_stat.txt stat -liberty $lib" >/dev/null
)
cp "$work/modules_ice40_stat.txt" "$work/modules_asic_stat.txt" "$reports/"
echo "yosys per module           ok  ($reports_rel/modules_{ice40,asic}_stat.txt)"

# 3. ASIC-style estimate of the one flow.
PFT_TOP=$top ASIC_REPORTS=$reports_rel bash "$here/asic.sh" "synth/out/$top.v"

# Yosys check + generic + iCE40 (flat, and with flow 0's slot kept) of one top, into $2.
cells() {
    local t="$1" dir="$2" slot="$3"
    mkdir -p "$dir"
    cp "synth/out/$t.v" "$dir/"
    (
        cd "$dir"
        sed "s/pft_injector/$t/g" "$here/yosys/common.ys" >common.ys
        yosys -q -l yosys.log -p "read_verilog $t.v; script common.ys; \
            synth -flatten -top $t; tee -q -o generic_stat.txt stat; design -reset; \
            read_verilog $t.v; hierarchy -check -top $t; proc; \
            synth_ice40 -top $t; tee -q -o ice40_stat.txt stat" >/dev/null
        if grep -q "Latch inferred" yosys.log; then
            echo "FAILED: latch inferred in $t" >&2
            exit 1
        fi
        if [[ -n "$slot" ]]; then
            yosys -q -l yosys_slot.log -p "read_verilog $t.v; hierarchy -check -top $t; proc; \
                setattr -mod -set keep_hierarchy 1 $slot; synth_ice40 -top $t; \
                tee -q -o slot_ice40_stat.txt stat" >/dev/null
        fi
    )
}

# 4. IB CC: the one flow with a random CCT (the ROM's worst case), cells only.
if [[ "$design" == ibcc ]]; then
    rt=ibcc_flow_random
    [[ -f "synth/out/$rt.v" ]] || { echo "error: synth/out/$rt.v not found (run: make synth-ibcc)" >&2; exit 2; }
    cells "$rt" "$work-random" ""
    mkdir -p "$reports/random_cct"
    cp "$work-random/ice40_stat.txt" "$work-random/generic_stat.txt" "$reports/random_cct/"
    PFT_TOP=$rt ASIC_REPORTS="$reports_rel/random_cct" bash "$here/asic.sh" "synth/out/$rt.v"
    echo "random CCT                 ok  ($reports_rel/random_cct/)"
fi

# 5. The N-flow blocks.
vlt="$work-flows.vlt"
{
    echo '`verilator_config'
    for s in $waive; do
        echo "lint_off -rule UNUSEDSIGNAL -file \"*\" -match \"Signal is not used: '$s'\""
    done
} >"$vlt"
for n in "${counts[@]}"; do
    t="${design}_flows$n"
    d="$work-flows$n"
    rm -rf "$d"
    verilator --lint-only -Wall --top-module "$t" "$here/lint/verilator_waivers.vlt" "$vlt" \
        "synth/out/$t.v" >"$work-lint$n.log" 2>&1 || { cat "$work-lint$n.log" >&2; exit 1; }
    cells "$t" "$d" "$t\$slots\$0"
    mkdir -p "$reports/flows$n"
    cp "$d/ice40_stat.txt" "$d/generic_stat.txt" "$d/slot_ice40_stat.txt" "$reports/flows$n/"
    PFT_TOP=$t ASIC_REPORTS="$reports_rel/flows$n" bash "$here/asic.sh" "synth/out/$t.v"
    echo "$t: lint, yosys ok  ($reports_rel/flows$n/)"
done

# The line through the N-flow points: per flow = slope.
python3 - "$reports" "$design" "$what" "${counts[@]}" <<'PY'
import re, sys
from pathlib import Path

reports, design, what, counts = Path(sys.argv[1]), sys.argv[2], sys.argv[3], [int(c) for c in sys.argv[4:]]

def ice40(path):
    t = path.read_text()
    # the last module section: the top (flat) or the design with a kept slot
    cells = {m.group(1): int(m.group(2)) for m in re.finditer(r"^\s+(SB_\w+)\s+(\d+)\s*$", t, re.M)}
    return (cells.get("SB_LUT4", 0), sum(v for k, v in cells.items() if k.startswith("SB_DFF")),
            cells.get("SB_CARRY", 0))

def slot(path, name):
    # the kept slot's own section of the stat report
    t = path.read_text()
    sec = t.split(f"=== {name} ===")[1].split("===")[0]
    cells = {m.group(1): int(m.group(2)) for m in re.finditer(r"^\s+(SB_\w+)\s+(\d+)\s*$", sec, re.M)}
    return (cells.get("SB_LUT4", 0), sum(v for k, v in cells.items() if k.startswith("SB_DFF")),
            cells.get("SB_CARRY", 0))

def asic(path):
    t = path.read_text()
    m = re.search(r"cells: (\d+) \(flip-flops (\d+)\), area ([\d.]+)", t)
    return int(m.group(1)), int(m.group(2)), float(m.group(3))

def fit(xs, ys):
    n = len(xs)
    mx, my = sum(xs) / n, sum(ys) / n
    b = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)
    return b, my - b * mx

rows = []
for n in counts:
    d = reports / f"flows{n}"
    l, f, c = ice40(d / "ice40_stat.txt")
    sl, sf, sc = slot(d / "slot_ice40_stat.txt", f"{design}_flows{n}$slots$0")
    ac, af, aa = asic(d / "asic_osu018_summary.txt")
    rows.append((n, l, f, c, ac, af, aa, sl, sf, sc))

one_l, one_f, one_c = ice40(reports / "ice40_stat.txt")
one_ac, one_af, one_aa = asic(reports / "asic_osu018_summary.txt")
xs = [r[0] for r in rows]
out = [
    f"# Cost per flow: {what} (generated by synth/mvcm.sh; do not edit)",
    "",
    f"One flow (`{design}_flow`, PFT's flow; details in summary.md): "
    f"{one_l} SB_LUT4, {one_f} flip-flops, {one_c} SB_CARRY; "
    f"OSU 0.18 um {one_ac} cells, {one_aa:,.0f} um^2.",
    "",
    f"N flows (`{design}_flows<N>`, measured): iCE40 flat, and flow 0's slot kept as its own module;"
    " OSU 0.18 um (synth/asic.sh).",
    "",
    "| N | SB_LUT4 | flip-flops | SB_CARRY | ASIC cells | ASIC flip-flops | ASIC area (um^2) | slot 0: LUT4 / FF / CARRY |",
    "|---|---|---|---|---|---|---|---|",
]
for n, l, f, c, ac, af, aa, sl, sf, sc in rows:
    out.append(f"| {n} | {l} | {f} | {c} | {ac} | {af} | {aa:,.0f} | {sl} / {sf} / {sc} |")
out += ["", "Least-squares line through the N points, value = shared + N x per flow; the 512-flow"
        " column is computed from the line, not synthesized:", "",
        "| metric | per flow (slope) | shared (intercept) | largest residual | 512 flows (computed) |",
        "|---|---|---|---|---|"]
for name, i in [("SB_LUT4", 1), ("flip-flops", 2), ("SB_CARRY", 3), ("ASIC cells", 4),
                ("ASIC area (um^2)", 6)]:
    ys = [r[i] for r in rows]
    b, a = fit(xs, ys)
    res = max(abs(y - (a + b * x)) for x, y in zip(xs, ys))
    out.append(f"| {name} | {b:,.2f} | {a:,.1f} | {res:,.1f} | {a + 512 * b:,.0f} |")
out.append("")
(reports / "scaling.md").write_text("\n".join(out))
print("\n".join(out))
PY
echo "reports in $reports_rel/"
