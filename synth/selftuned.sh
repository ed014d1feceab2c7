#!/usr/bin/env bash
# Synthesize the self-tuned throttle's node (seed 003; hdl/src/selftuned/, top selftuned_node,
# the seed's constants) with PFT's flow, and one node's side-band aggregation (a hand-written
# cost model, synth/sideband/sideband_node.v). Reports in synth/reports/selftuned/.
#
#   usage: bash synth/selftuned.sh [FILE.v]      (default: synth/out/selftuned_node.v)
#   make synth-selftuned  =  cargo run --release --bin pft-verilog -- --selftuned
#                            && bash synth/check_verilog.sh ... && bash synth/selftuned.sh
#
# Steps (every tool's exit status is checked; full logs under synth/out/work-selftuned/ and
# synth/out/asic/):
#   1. synth/run.sh with PFT_TOP=selftuned_node: check_verilog.sh (yosys, verilator, iverilog),
#      Yosys generic, synth_ice40 (flat and per block), nextpnr-ice40 HX8K, icetime, ABC9,
#      summary.md/json, ECP5 with .venv (Gowin skipped: its wrapper has PFT's ports)
#   2. Yosys synth_ice40 and the OSU 0.18 um mapping with each rust-hdl module kept as its own
#      module (Estimator, Tuner, BwRules): modules_ice40_stat.txt, modules_asic_stat.txt
#   3. synth/asic.sh: OSU 0.18 um cells + OpenSTA (asic_osu018_*.txt)
#   4. the side-band node: its 16 x 16 torus test under iverilog (sideband/torus_test.txt; two
#      broken copies must fail it), Yosys generic and synth_ice40 cell counts (no place and
#      route: 248 ports), asic.sh
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(dirname "$here")"
arg="${1:+$(realpath -m -- "$1")}"
cd "$root"
top=selftuned_node
verilog="${arg:-$root/synth/out/$top.v}"
if [[ ! -f "$verilog" ]]; then
    echo "error: $verilog not found (run: cargo run --release --bin pft-verilog -- --selftuned)" >&2
    exit 2
fi
for t in yosys iverilog vvp; do
    command -v "$t" >/dev/null || { echo "error: $t not found (make setup installs it)" >&2; exit 127; }
done
reports_rel=synth/reports/selftuned
reports="$root/$reports_rel"
work="$root/synth/out/work-selftuned"
lib="${OSU018_LIB:-/usr/share/qflow/tech/osu018/osu018_stdcells.lib}"
mkdir -p "$reports/sideband"

# 1. PFT's flow for this top.
PFT_TOP=$top SYNTH_WORK=synth/out/work-selftuned SYNTH_REPORTS=$reports_rel SYNTH_GOWIN=0 \
    bash "$here/run.sh" "$verilog"

# 2. Each rust-hdl module as its own module (the DFF wrappers and ConstMuls flattened into
#    it): which module costs what. No optimisation crosses a kept border.
keep="setattr -mod -set keep_hierarchy 1 $top\$estimator $top\$tuner $top\$tuner\$rules"
(
    cd "$work"
    yosys -q -l yosys_modules.log -p "read_verilog $top.v; hierarchy -check -top $top; proc; \
        $keep; synth_ice40 -top $top; tee -q -o modules_ice40_stat.txt stat" >/dev/null
    yosys -q -l yosys_modules_asic.log -p "read_verilog $top.v; hierarchy -check -top $top; \
        proc; $keep; synth -flatten -top $top; dfflibmap -liberty $lib; abc -liberty $lib; opt_clean; \
        tee -q -o modules_asic_stat.txt stat -liberty $lib" >/dev/null
)
cp "$work/modules_ice40_stat.txt" "$work/modules_asic_stat.txt" "$reports/"
echo "yosys per module           ok  ($reports_rel/modules_{ice40,asic}_stat.txt)"

# 3. ASIC-style estimate of the node.
PFT_TOP=$top ASIC_REPORTS=$reports_rel bash "$here/asic.sh" "$verilog"

# 4. The side-band node: functional check on a torus, then its cells.
sb="$root/synth/sideband"
sbw="$root/synth/out/work-sideband"
rm -rf "$sbw"
mkdir -p "$sbw"
iverilog -g2005 -Wall -o "$sbw/torus.vvp" "$sb/tb_sideband_torus.v" "$sb/sideband_node.v" \
    >"$sbw/iverilog.log" 2>&1 || { cat "$sbw/iverilog.log" >&2; exit 1; }
if [[ -s "$sbw/iverilog.log" ]]; then
    echo "FAILED: iverilog warnings on the side-band node:" >&2
    cat "$sbw/iverilog.log" >&2
    exit 1
fi
vvp -n "$sbw/torus.vvp" >"$sbw/torus_test.txt"
grep -q '^PASS' "$sbw/torus_test.txt" || { cat "$sbw/torus_test.txt" >&2; exit 1; }
# Broken copies must fail the torus test, or it proves nothing: the + side's words never
# added, and the + side's word also added at a phase's first hop (counted twice).
for m in 's/+ from_p\[W-1:FW\];/;/' 's/= first ? {W{1.b0}} : in_p_q;/= in_p_q;/'; do
    sed "$m" "$sb/sideband_node.v" >"$sbw/mutant.v"
    if cmp -s "$sb/sideband_node.v" "$sbw/mutant.v"; then
        echo "FAILED: mutation $m does not apply to sideband_node.v" >&2
        exit 1
    fi
    iverilog -g2005 -o "$sbw/mutant.vvp" "$sb/tb_sideband_torus.v" "$sbw/mutant.v"
    if vvp -n "$sbw/mutant.vvp" | grep -q '^PASS'; then
        echo "FAILED: the torus test passes a broken side-band node ($m)" >&2
        exit 1
    fi
done
cp "$sbw/torus_test.txt" "$reports/sideband/"
echo "side-band torus test       $(grep '^PASS' "$sbw/torus_test.txt"); 2 mutants caught"
cp "$sb/sideband_node.v" "$sbw/"
(
    cd "$sbw"
    yosys -q -l yosys.log -p "read_verilog sideband_node.v; hierarchy -check -top sideband_node; \
        proc; check -assert; synth -flatten -top sideband_node; tee -q -o generic_stat.txt stat; \
        design -reset; read_verilog sideband_node.v; hierarchy -check -top sideband_node; proc; \
        synth_ice40 -top sideband_node; tee -q -o ice40_stat.txt stat" >/dev/null
)
cp "$sbw/generic_stat.txt" "$sbw/ice40_stat.txt" "$reports/sideband/"
echo "side-band yosys            ok  ($reports_rel/sideband/{generic,ice40}_stat.txt)"
PFT_TOP=sideband_node ASIC_REPORTS=$reports_rel/sideband bash "$here/asic.sh" "$sb/sideband_node.v"
echo "reports in $reports_rel/"
