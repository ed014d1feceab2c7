#!/usr/bin/env bash
# Synthesize IB CC's per-flow source state (seed 002, Table I; hdl/src/ibcc/): one flow with
# the port's CCT and CCTI timer (and with a random CCT), and N = 1, 4, 16, 64 flows, with
# PFT's flow, and fit the cost per flow. The steps are synth/mvcm.sh's (FLOW_DESIGN=ibcc);
# reports in synth/reports/ibcc/.
#
#   usage: bash synth/ibcc.sh      (needs the exports in synth/out/, as `make synth-ibcc` writes:)
#   make synth-ibcc  =  pft-verilog --ibcc synth/out/ibcc_flow.v
#                       pft-verilog --ibcc --cct random synth/out/ibcc_flow_random.v
#                       pft-verilog --ibcc --flows N synth/out/ibcc_flowsN.v   (N = 1 4 16 64)
#                       bash synth/ibcc.sh
set -euo pipefail
FLOW_DESIGN=ibcc exec bash "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/mvcm.sh" "$@"
