#!/usr/bin/env bash
# Speed of the network model before and after a change, measured alternating in one run:
# builds `net-bench` at git revision REV (in a temporary worktree) and at the working tree,
# then runs each benchmark ROUNDS times, old and new in turn, and prints every run's CPU
# speed (node-cycles per CPU second, from /proc/self/schedstat: less sensitive to other load
# than wall time), the median of each, and new / old.
#
#   bash tb/examples/bench_ab.sh REV [ROUNDS]
#
# The benchmarks: PFT (the paper's configuration) on the 128-node fat tree at load 0.5, and
# IB CC with VOQ on the same tree (issue 21's "within 3 %" pair). docs/performance.md.
set -euo pipefail
rev=${1:?usage: bench_ab.sh REV [ROUNDS]}
rounds=${2:-5}
root=$(cd "$(dirname "$0")/../.." && pwd)
wt=$(mktemp -d)
trap 'git -C "$root" worktree remove --force "$wt" >/dev/null 2>&1 || true' EXIT
rmdir "$wt"
git -C "$root" worktree add --detach "$wt" "$rev" >/dev/null
(cd "$wt" && CARGO_TARGET_DIR="$root/target/bench-ab" cargo build --release -q --bin net-bench)
(cd "$root" && cargo build --release -q --bin net-bench)
old="$root/target/bench-ab/release/net-bench"
new="$(cd "$root" && bash tb/release_dir.sh)/net-bench"
benches=("--topo ft128 --load 0.5 --cycles 100000" "--topo ft128 --load 0.5 --cycles 100000 --voq --cc ibcc")
speed() { "$@" | tr ' ' '\n' | sed -n 's/^node_cycles_per_cpu_s=//p'; }
for b in "${benches[@]}"; do
    echo "net-bench $b"
    o=(); n=()
    for ((i = 0; i < rounds; i++)); do
        # shellcheck disable=SC2086
        o+=("$(speed "$old" $b)")
        # shellcheck disable=SC2086
        n+=("$(speed "$new" $b)")
        echo "  round $i: old ${o[-1]} new ${n[-1]}"
    done
    python3 - "${o[*]}" "${n[*]}" <<'PY'
import statistics, sys
o = [float(x) for x in sys.argv[1].split()]
n = [float(x) for x in sys.argv[2].split()]
mo, mn = statistics.median(o), statistics.median(n)
print(f"  median old {mo:.4g} new {mn:.4g} node-cycles/CPU-s: new/old = {mn / mo:.3f}")
PY
done
