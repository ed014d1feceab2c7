#!/usr/bin/env bash
# Synthesize one family of the design registry (hdl/src/lib.rs, read here from
# hdl/generated/designs.json) with PFT's flow: the self-tuned node (seed 003), MVCM's
# per-flow source state (seed 004), IB CC's (seed 002), and any family added to the list.
# Reports in synth/reports/<family>/.
#
#   usage: bash synth/flow.sh [--check] FAMILY   (needs the exports in synth/out/, as make writes them:)
#   make synth-FAMILY  =  bash synth/flow.sh --check FAMILY  (the family known and not one
#                         of make synth's, and nothing more: nothing written on a refusal)
#                         pft-verilog --family FAMILY --out-dir synth/out
#                         bash synth/flow.sh FAMILY
#
# The family's designs, in the list's order: the first without sizes is its main design;
# the others without sizes are variants; a design with sizes (flow counts N) gets the
# cost per flow. PFT's own family is `make synth` (synth/run.sh), not this script; so is
# the axis family (pft_axis, synth/axis/synth.sh).
#
# Steps (every tool's exit status is checked; logs under synth/out/work-<family>*/ and
# synth/out/asic/):
#   1. synth/run.sh with PFT_TOP=<main>: check_verilog.sh (yosys, verilator, iverilog),
#      Yosys generic, synth_ice40 (flat and per block), nextpnr-ice40 HX8K, icetime, ABC9,
#      summary.md/json (summarize.py takes the block roles from the list), ECP5 with .venv
#      (Gowin skipped: its wrapper has PFT's ports)
#   2. Yosys synth_ice40 and the OSU 0.18 um mapping with each block of the main design
#      (the list's blocks and keep) as its own module: modules_ice40_stat.txt,
#      modules_asic_stat.txt
#   3. synth/asic.sh: OSU 0.18 um cells + OpenSTA for the main design (asic_osu018_*.txt)
#   4. each variant (IB CC's random CCT): Yosys iCE40 and asic.sh (<variant>/)
#   5. the sized design at N = its sizes: Yosys check (no latches), Verilator lint (-Wall,
#      the project's waivers and the list's waive names), Yosys generic and synth_ice40
#      (flat; and with flow 0's slot kept as its own module), asic.sh (flows<N>/); then
#      scaling.md: the cells per N and the least-squares line through them (per flow =
#      slope), and the line's value at 512 flows (computed, not synthesized)
#   6. the main design's `extra` script, if the list names one (the self-tuned node's
#      side-band node: synth/sideband/run.sh)
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(dirname "$here")"
cd "$root"
check_only=0
if [[ "${1:-}" == --check ]]; then
    check_only=1
    shift
fi
family="${1:-}"
if [[ -z "$family" || $# -ne 1 ]]; then
    echo "usage: bash synth/flow.sh [--check] FAMILY" >&2
    exit 2
fi
if [[ "$family" == pft ]]; then
    echo "error: PFT's designs are synthesized by make synth (synth/run.sh)" >&2
    exit 2
fi
if [[ "$family" == axis ]]; then
    # pft_axis wraps PFT's block: its own flow, with its waivers and a wrapper for placing
    echo "error: pft_axis is synthesized by make synth (synth/axis/synth.sh)" >&2
    exit 2
fi
# The family's designs from the registry, as shell variables.
list="$root/hdl/generated/designs.json"
vars="$(python3 - "$list" "$family" <<'PY'
import json, shlex, sys
designs = [d for d in json.load(open(sys.argv[1])) if d["family"] == sys.argv[2]]
if not designs:
    fams = sorted({d["family"] for d in json.load(open(sys.argv[1])) if d["family"] not in ("pft", "axis")})
    print(f"error: no family {sys.argv[2]!r} in {sys.argv[1]}; families: {' '.join(fams)}", file=sys.stderr)
    sys.exit(2)
plain = [d for d in designs if not d["sizes"]]
sized = [d for d in designs if d["sizes"]]
if not plain or len(sized) > 1:
    print("error: a family needs a design without sizes and at most one with", file=sys.stderr)
    sys.exit(2)
main = plain[0]
q = lambda v: shlex.quote(v)
print(f"top={q(main['name'])}")
print(f"blocks={q(' '.join([b for b, _ in main['blocks']] + main['keep']))}")
print(f"extra={q(main['extra'])}")
print(f"variants={q(' '.join(d['name'] for d in plain[1:]))}")
if sized:
    s = sized[0]
    print(f"flows={q(s['name'])}")
    print(f"counts=({' '.join(str(n) for n in s['sizes'])})")
    print(f"waive={q(' '.join(s['waive']))}")
    print(f"what={q(s['about'])}")
else:
    print("flows=''; counts=(); waive=''; what=''")
PY
)" || exit 2
eval "$vars"
# (`make synth-FAMILY` asks first, before its export writes into synth/out/)
[[ "$check_only" == 1 ]] && exit 0
design="$family"
for f in "$top" $variants ${flows:+"${counts[@]/#/$flows}"}; do
    if [[ ! -f "synth/out/$f.v" ]]; then
        echo "error: synth/out/$f.v not found (run: make synth-$design)" >&2
        exit 2
    fi
done
for t in yosys verilator iverilog vvp; do
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

# 2. Each rust-hdl block of the main design as its own module (the DFF wrappers flattened
#    into it): which block costs what. No optimisation crosses a kept border.
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

# 3. ASIC-style estimate of the main design.
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

# 4. The variants (IB CC: the one flow with a random CCT, the ROM's worst case), cells only.
for rt in $variants; do
    cells "$rt" "$work-$rt" ""
    mkdir -p "$reports/$rt"
    cp "$work-$rt/ice40_stat.txt" "$work-$rt/generic_stat.txt" "$reports/$rt/"
    PFT_TOP=$rt ASIC_REPORTS="$reports_rel/$rt" bash "$here/asic.sh" "synth/out/$rt.v"
    echo "$rt: yosys, asic ok  ($reports_rel/$rt/)"
done

# 6. (after 5) The main design's extra script.
run_extra() {
    if [[ -n "$extra" ]]; then
        bash "$root/$extra"
    fi
}
if [[ -z "$flows" ]]; then
    run_extra
    echo "reports in $reports_rel/"
    exit 0
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
    t="$flows$n"
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
python3 - "$reports" "$top" "$flows" "$what" "${counts[@]}" <<'PY'
import re, sys
from pathlib import Path

reports, top, flows, what = Path(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
counts = [int(c) for c in sys.argv[5:]]

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
    sl, sf, sc = slot(d / "slot_ice40_stat.txt", f"{flows}{n}$slots$0")
    ac, af, aa = asic(d / "asic_osu018_summary.txt")
    rows.append((n, l, f, c, ac, af, aa, sl, sf, sc))

one_l, one_f, one_c = ice40(reports / "ice40_stat.txt")
one_ac, one_af, one_aa = asic(reports / "asic_osu018_summary.txt")
xs = [r[0] for r in rows]
out = [
    f"# Cost per flow: {what} (generated by synth/flow.sh; do not edit)",
    "",
    f"One flow (`{top}`, PFT's flow; details in summary.md): "
    f"{one_l} SB_LUT4, {one_f} flip-flops, {one_c} SB_CARRY; "
    f"OSU 0.18 um {one_ac} cells, {one_aa:,.0f} um^2.",
    "",
    f"N flows (`{flows}<N>`, measured): iCE40 flat, and flow 0's slot kept as its own module;"
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
run_extra
echo "reports in $reports_rel/"
