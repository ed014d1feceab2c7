#!/usr/bin/env bash
# ASIC-style estimate of the exported block (issue 11, item 6): Yosys maps it onto the OSU
# 0.18 um standard cells of Debian's qflow-tech-osu018 (a Liberty library with table-lookup
# timing, typical corner, 1.8 V) and OpenSTA times the netlist: cell area and the worst
# register-to-register path. No placement, no wires: an estimate, not a signoff.
#
#   bash synth/asic.sh [FILE.v]        (default: synth/out/pft_injector.v; `make asic`)
#   PFT_TOP=pft_injector_pipelined bash synth/asic.sh synth/out/pft_injector_pipelined.v
# Reports: synth/reports/asic_osu018_stat.txt, asic_osu018_sta.txt, asic_osu018_summary.txt
# (for another top than pft_injector: synth/reports/<top>/asic_osu018_*.txt, or the directory
# ASIC_REPORTS names, relative to the repository root; synth/flow.sh sets it)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(dirname "$here")"
top="${PFT_TOP:-pft_injector}"
verilog="$(realpath -m -- "${1:-$root/synth/out/$top.v}")"
lib="${OSU018_LIB:-/usr/share/qflow/tech/osu018/osu018_stdcells.lib}"
period_ns="${ASIC_PERIOD_NS:-10}"
for t in yosys sta; do
    command -v "$t" >/dev/null || { echo "error: $t not found (make setup installs it)" >&2; exit 127; }
done
[[ -f "$lib" ]] || { echo "error: $lib not found (make setup installs qflow-tech-osu018)" >&2; exit 2; }
[[ -f "$verilog" ]] || { echo "error: $verilog not found (run make verilog)" >&2; exit 2; }
work="$root/synth/out/asic/$top"
reports="$root/synth/reports"
[[ "$top" == pft_injector ]] || reports="$reports/${top#pft_injector_}"
[[ -z "${ASIC_REPORTS:-}" ]] || reports="$root/$ASIC_REPORTS"
rm -rf "$work"
mkdir -p "$work" "$reports"
cp "$verilog" "$work/$top.v"
cd "$work"
sed "s/pft_injector/$top/g" "$here/yosys/common.ys" >common.ys
yosys -q -l yosys.log -p "read_verilog $top.v; script common.ys; \
    synth -top $top -flatten; dfflibmap -liberty $lib; abc -liberty $lib; \
    opt_clean; setundef -zero; splitnets -ports; opt_clean; \
    tee -o asic_osu018_stat.txt stat -liberty $lib; write_verilog -noattr -noexpr netlist.v"
cat >sta.tcl <<TCL
read_liberty $lib
read_verilog netlist.v
link_design $top
create_clock -name clk -period $period_ns [get_ports clock]
set_input_delay 0 -clock clk [delete_from_list [all_inputs] [get_ports clock]]
set_output_delay 0 -clock clk [all_outputs]
report_checks -path_delay max -from [all_registers -clock_pins] -to [all_registers -data_pins] -digits 3
report_checks -path_delay max -digits 3
exit
TCL
sta -no_splash sta.tcl >asic_osu018_sta.txt 2>&1
cp asic_osu018_stat.txt asic_osu018_sta.txt "$reports/"
area=$(grep -E "Chip area" asic_osu018_stat.txt | awk '{print $NF}')
cells=$(grep -E "^ +Number of cells:|^ +[0-9]+ cells$" asic_osu018_stat.txt | head -n 1 | grep -oE "[0-9]+")
ffs=$(grep -E "DFF" asic_osu018_stat.txt | awk '{s+=$NF} END {print s}')
slack=$(grep -m1 "slack" asic_osu018_sta.txt | awk '{print $1}')
path=$(awk -v p="$period_ns" -v s="$slack" 'BEGIN {printf "%.3f", p - s}')
fmax=$(awk -v d="$path" 'BEGIN {printf "%.1f", 1000 / d}')
{
    echo "library: $(basename "$lib") (OSU 0.18 um, typical corner), yosys $(yosys -V | cut -d' ' -f2), OpenSTA $(sta -version 2>/dev/null || echo '?')"
    echo "cells: $cells (flip-flops $ffs), area $area (library units, um^2)"
    echo "worst register-to-register path: $path ns incl. setup (slack $slack ns at $period_ns ns): about $fmax MHz, no wire load"
} | tee asic_osu018_summary.txt
cp asic_osu018_summary.txt "$reports/"
