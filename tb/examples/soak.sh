#!/usr/bin/env bash
# Soak (`make soak`, not in CI): long runs with memory measured. docs/soak.md.
#  1. one PFT block, reference model, 1e8 cycles against the closed-loop credit link
#     (pft-trace; the summary counts episodes and error flags), peak RSS by /usr/bin/time;
#  2. the 648-node network with every run-time fault repeating, 1e7 cycles, the full
#     invariant checker and RSS at every 1e6-cycle checkpoint (sim/examples/net_soak.rs).
set -euo pipefail
cd "$(dirname "$0")/../.."
OUT=${1:-out/soak}
BLOCK_CYCLES=${BLOCK_CYCLES:-100000000}
NET_CYCLES=${NET_CYCLES:-10000000}
# an earlier soak's files moved aside (into $OUT/.previous-*), never overwritten
bash tb/fresh_dir.sh "$OUT" block-summary.json block-time.txt net-time.txt net.txt
cargo build --release --locked -q --bin pft-trace
cargo build --release --locked -q -p pft-sim --example net_soak
rel=$(bash tb/release_dir.sh)

# The switch drains 1 and 0.3 flit/cycle in turn, 20 k cycles each: one congestion episode
# (enter, throttle, leave) per 40 k cycles.
SCHEDULE=$(awk -v n="$BLOCK_CYCLES" 'BEGIN { s = ""; for (t = 0; t < n; t += 20000) { s = s (t ? "," : "") t ":" ((t / 20000) % 2 ? "0.3" : "1") } print s }')
echo "== block: $BLOCK_CYCLES cycles, reference model, paper AT-RI, link latency 50, drain 1 / 0.3 alternating every 20 k cycles"
/usr/bin/time -v "$rel"/pft-trace --config tb/examples/paper-at-ri.toml --engine model \
    --cycles "$BLOCK_CYCLES" --link-latency 50 --drain-schedule "$SCHEDULE" --link-seed 3 \
    --summary "$OUT/block-summary.json" 2> "$OUT/block-time.txt"
cat "$OUT/block-summary.json"; echo
grep -E "Maximum resident|Elapsed" "$OUT/block-time.txt"

echo "== network: $NET_CYCLES cycles, scenarios/soak648.toml"
/usr/bin/time -v "$rel"/examples/net_soak scenarios/soak648.toml --cycles "$NET_CYCLES" \
    2> "$OUT/net-time.txt" | tee "$OUT/net.txt"
grep -E "Maximum resident|Elapsed" "$OUT/net-time.txt"
