#!/usr/bin/env bash
# Directed congestion episodes for GTKWave (`make vcd`): one FT-FI and one AT-RI run of the
# rust-hdl RTL against the credit link, each entering and leaving Congested once.
# Usage: bash tb/examples/episodes.sh [OUT_DIR]   (default out/vcd)
# Then:  gtkwave OUT_DIR/episode-ft-fi.vcd tb/pft.gtkw
# The link and the drain schedule are explained in docs/trace.md ("Directed episodes").
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
# OUT_DIR from where the script is run (default: the repository's out/vcd)
out=$(realpath -m "${1:-$root/out/vcd}")
cd "$root"
# earlier episodes moved aside (into $out/.previous-*), never overwritten
bash tb/fresh_dir.sh "$out" episode-ft-fi.vcd episode-ft-fi.csv episode-ft-fi.json \
    episode-at-ri.vcd episode-at-ri.csv episode-at-ri.json
for mode in ft-fi at-ri; do
    cargo run --release --locked --quiet --bin pft-trace -- \
        --config "tb/examples/episode-$mode.toml" --engine rtl \
        --cycles 8000 --link-latency 8 --drain-schedule 0:1,2000:0.25,5000:1 \
        --vcd "$out/episode-$mode.vcd" --out "$out/episode-$mode.csv" \
        --summary "$out/episode-$mode.json"
done
echo "view: gtkwave $out/episode-ft-fi.vcd tb/pft.gtkw"
