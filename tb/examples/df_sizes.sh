#!/usr/bin/env bash
# Balanced dragonflies of several sizes against ib648 (issue 43, docs/performance.md,
# "Scale", "Balanced dragonflies of six sizes"): does a NIC-cycle cost more as the network
# grows? `dragonfly:K,2K,K` (p = h = K, a = 2K, every global port used: g = 2K^2 + 1, so
# each NIC has the same share of global links at every size; K = 8 is make bench's
# 16,512-NIC network). Per size, `net-bench` under make bench's dragonfly flags (`--cc
# none`, load 0.3) runs the same number of node-cycles (BUDGET, after a warm-up of 2,000
# cycles that the speed does not count), ROUNDS rounds with the sizes' order rotated each
# round, and ib648 (make bench's flags, 50,000 cycles) in every round as the yardstick.
# With INSTR=1 it also counts instructions per NIC-cycle under callgrind: the difference
# of two run lengths (IN_LONG and IN_SHORT cycles, both past the first fill of the
# network), so that the build and the start drop out; those counts do not depend on the
# machine's speed or load.
#
#   bash tb/examples/df_sizes.sh OUT_DIR
#
# Environment: KS (default "3 4 5 6 7 8"), ROUNDS (default 3), BUDGET
# (node-cycles a run, default 200000000), INSTR (0 or 1, default 0), IN_LONG and IN_SHORT
# (cycles of the two callgrind runs, defaults 2500 and 1500), NETBENCH (a net-bench
# binary; default: built here). Writes OUT_DIR/runs.csv and, with INSTR=1, OUT_DIR/instr.csv.
set -euo pipefail
out=${1:?usage: df_sizes.sh OUT_DIR}
rounds=${ROUNDS:-3}
ks=${KS:-3 4 5 6 7 8}
budget=${BUDGET:-200000000}
instr=${INSTR:-0}
in_long=${IN_LONG:-2500}
in_short=${IN_SHORT:-1500}
# whole numbers >= 1 without a leading zero (which bash's arithmetic reads as octal)
for v in "$rounds" "$budget" "$in_long" "$in_short" $ks; do
    case "$v" in '' | *[!0-9]* | 0*) echo "error: ROUNDS, BUDGET, IN_LONG, IN_SHORT and KS take whole numbers >= 1 (no leading zero), got '$v'" >&2; exit 2 ;; esac
done
for k in $ks; do
    if [ "$k" -lt 2 ] || [ "$k" -gt 8 ]; then
        echo "error: KS: $k; this script takes 2..=8 (K = 8: 16,512 NICs)" >&2
        exit 2
    fi
done
case "$instr" in 0 | 1) ;; *) echo "error: INSTR must be 0 or 1, got '$instr'" >&2; exit 2 ;; esac
# every size runs at least one measured cycle
for k in $ks; do
    nodes=$((k * 2 * k * (2 * k * k + 1)))
    if [ "$budget" -lt "$nodes" ]; then
        echo "error: BUDGET = $budget node-cycles is less than one cycle of dragonfly:$k,$((2 * k)),$k ($nodes NICs)" >&2
        exit 2
    fi
done
if [ "$in_long" -le "$in_short" ]; then
    echo "error: IN_LONG ($in_long) must be above IN_SHORT ($in_short)" >&2
    exit 2
fi
if [ -e "$out" ] && [ -n "$(ls -A "$out" 2>/dev/null)" ]; then
    echo "error: $out exists and is not empty; give a new directory" >&2
    exit 1
fi
if [ "$instr" = 1 ] && ! command -v valgrind >/dev/null; then
    echo "error: INSTR=1 needs valgrind (apt-get install valgrind)" >&2
    exit 1
fi

root=$(cd "$(dirname "$0")/../.." && pwd)
if [ -z "${NETBENCH:-}" ]; then
    (cd "$root" && cargo build --release -q -p pft-sim --bin net-bench)
    NETBENCH=$(cd "$root" && bash tb/release_dir.sh)/net-bench
fi
mkdir -p "$out/logs"

df="--vcs 3 --routing ugal --lane-reuse tail --vc-buf 64 --load 0.3 --cc none"
field() { grep -o " $1=[^ ]*" | cut -d= -f2; }

runs=$out/runs.csv
echo "round,network,k,nodes,cycles,cpu_s,node_cycles_per_cpu_s,accepted,latency_mean,peak_rss_mib" >"$runs"
nets=("ib648" $ks)
n=${#nets[@]}
for r in $(seq 1 "$rounds"); do
    k=$(((r - 1) % n))
    for net in "${nets[@]:$k}" "${nets[@]:0:$k}"; do
        if [ "$net" = ib648 ]; then
            flags="--topo ib648 --load 0.5 --cycles 50000"
            g=""
        else
            nodes=$((net * 2 * net * (2 * net * net + 1)))
            flags="--topo dragonfly:$net,$((2 * net)),$net $df --warmup 2000 --cycles $((budget / nodes))"
            g=$net
        fi
        log=$out/logs/r$r-$net.txt
        # shellcheck disable=SC2086
        if ! "$NETBENCH" $flags >"$log" 2>&1; then
            echo "error: net-bench $flags failed; its output: $log" >&2
            exit 1
        fi
        line=$(tail -1 "$log")
        echo "$r,$( [ -z "$g" ] && echo ib648 || echo dragonfly),$g,$(echo "$line" | field nodes),$(echo "$line" | field cycles),$(echo "$line" | field cpu_s),$(echo "$line" | field node_cycles_per_cpu_s),$(echo "$line" | field accepted_flits_per_node_cycle),$(echo "$line" | field latency_mean_cycles),$(echo "$line" | field peak_rss_mib)" >>"$runs"
        echo "round $r: $net $(echo "$line" | field node_cycles_per_cpu_s) node-cycles per CPU-second"
    done
done

if [ "$instr" = 1 ]; then
    ins=$out/instr.csv
    echo "network,k,nodes,cycles_long,cycles_short,instructions_long,instructions_short,instructions_per_nic_cycle" >"$ins"
    for net in ib648 $ks; do
        if [ "$net" = ib648 ]; then
            nodes=648
            base="--topo ib648 --load 0.5"
        else
            nodes=$((net * 2 * net * (2 * net * net + 1)))
            base="--topo dragonfly:$net,$((2 * net)),$net $df"
        fi
        cl=$in_long
        cs=$in_short
        count=()
        for c in $cl $cs; do
            cg=$out/logs/callgrind-$net-$c.out
            txt=$out/logs/callgrind-$net-$c.txt
            # shellcheck disable=SC2086
            if ! valgrind --tool=callgrind --callgrind-out-file="$cg" "$NETBENCH" $base --cycles "$c" \
                >/dev/null 2>"$txt"; then
                echo "error: callgrind of net-bench $base --cycles $c failed; its output: $txt" >&2
                exit 1
            fi
            n=$(grep -o 'Collected : [0-9]*' "$txt" | grep -o '[0-9]*$' || true)
            if [ -z "$n" ]; then
                echo "error: no instruction count in $txt" >&2
                exit 1
            fi
            count+=("$n")
        done
        per=$(awk -v a="${count[0]}" -v b="${count[1]}" -v n="$nodes" -v l="$cl" -v s="$cs" \
            'BEGIN { printf "%.1f", (a - b) / (n * (l - s)) }')
        echo "$( [ "$net" = ib648 ] && echo ib648 || echo dragonfly),$( [ "$net" = ib648 ] || echo "$net"),$nodes,$cl,$cs,${count[0]},${count[1]},$per" >>"$ins"
        echo "$net: $per instructions per NIC-cycle"
    done
fi

# per network, the median node-cycles per CPU-second and its ratio to ib648's median
python3 - "$runs" <<'PY'
import csv, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1])))
med = {}
for key in dict.fromkeys(r["k"] or "ib648" for r in rows):
    med[key] = statistics.median(float(r["node_cycles_per_cpu_s"]) for r in rows if (r["k"] or "ib648") == key)
for key, m in med.items():
    name = "ib648" if key == "ib648" else f"dragonfly:{key},{2 * int(key)},{key}"
    print(f"{name}: median {m:.3g} node-cycles per CPU-second, {m / med['ib648']:.2f} of ib648")
PY
