#!/usr/bin/env bash
# Speed-up of one simulation on several threads (issue 44, part 1; docs/performance.md,
# "Threads"): `net-bench` on three networks at 1..N threads, ROUNDS rounds with the thread
# counts alternating, the whole process's wall time each (`/usr/bin/time`). Prints, per
# network and thread count, the median wall time and the speed-up against one thread, and
# checks that every run of a network printed the same results (every field but the ones
# that measure time or memory: `*_s=`, `*_per_s=`, `*_per_cpu_s=`, `peak_rss_mib=`).
#
#   bash tb/examples/threads.sh OUT_DIR [MAX_THREADS]    (MAX_THREADS: default nproc)
#
# Environment: ROUNDS (default 3), NETS (default "ib648 torus dragonfly16k"; also
# "barrier": one switch and two NICs, no load, 10^6 cycles, so that a thread count's extra
# time over one thread is its per-cycle barrier; "ib648idle": ib648 with no load, 200,000
# cycles, the barrier and the chunks' fixed costs),
# DF_CYCLES (the 16,512-NIC dragonfly's cycles, default 3000), NETBENCH (a net-bench binary;
# default: built here with `--profile fast`, as `make bench` does). Writes OUT_DIR/runs.csv
# (one row per run), OUT_DIR/speedup.csv and OUT_DIR/barrier-probe.csv (each round's probes
# of the hand-over between cores, below).
set -euo pipefail
out=${1:?usage: threads.sh OUT_DIR [MAX_THREADS]}
max=${2:-$(nproc)}
rounds=${ROUNDS:-3}
nets=${NETS:-ib648 torus dragonfly16k}
df_cycles=${DF_CYCLES:-3000}
case "$max" in '' | *[!0-9]* | 0) echo "error: MAX_THREADS must be a whole number >= 1, got '$max'" >&2; exit 2 ;; esac
case "$rounds" in '' | *[!0-9]* | 0) echo "error: ROUNDS must be a whole number >= 1, got '$rounds'" >&2; exit 2 ;; esac
if [ -e "$out" ] && [ -n "$(ls -A "$out" 2>/dev/null)" ]; then
    echo "error: $out exists and is not empty; give a new directory" >&2
    exit 1
fi

flags() {
    case $1 in
    ib648) echo "--topo ib648 --load 0.5 --cycles 40000" ;;
    torus) echo "--topo torus:16,2 --routing dor --vcs 4 --vc-buf 8 --packet-flits 16 --link-latency 1
        --credit-latency 1 --switch-latency 2 --head-latency 3 --load 0.16 --cycles 20000 --cc none" ;;
    dragonfly16k) echo "--topo dragonfly:8,16,8 --vcs 3 --routing ugal --lane-reuse tail --vc-buf 64
        --load 0.3 --cycles $df_cycles --cc none" ;;
    barrier) echo "--topo single:2 --load 0 --cycles 1000000" ;;
    ib648idle) echo "--topo ib648 --load 0 --cycles 200000" ;;
    *) echo "error: unknown network $1 (ib648, torus, dragonfly16k, barrier, ib648idle)" >&2; exit 2 ;;
    esac
}

# every name known before anything runs or builds (inside `$(flags ...)` its exit would
# leave only the subshell, and net-bench would run without the network's flags)
for net in $nets; do
    flags "$net" >/dev/null
done

root=$(cd "$(dirname "$0")/../.." && pwd)
if [ -z "${NETBENCH:-}" ]; then
    # the benchmarks' build (Cargo.toml's `fast` profile: whole-program LTO)
    (cd "$root" && cargo build --profile fast -q -p pft-sim --bin net-bench)
    NETBENCH=$root/target/fast/net-bench
fi
mkdir -p "$out/logs"

runs=$out/runs.csv
echo "network,threads,round,wall_s" >"$runs"
# Each round starts with a probe of the hand-over between cores: the barrier network for
# 10^6 cycles on two threads, net-bench's own wall time per cycle (0.15-0.25 us in this
# machine's normal hours, about 0.6-0.8 us in its slow spells: docs/performance.md, "What a
# slow spell is"). Not with MAX_THREADS 1.
# Beside it, with a C compiler, the host's own reading: two threads handing a value back and
# forth through two cache lines (docs/img/core-pingpong.c), nanoseconds a round trip (on a
# KVM machine of 2026-12-07, 97-132 ns in its fast hours and 344-562 ns in its slow ones,
# with nothing of ours in it); empty without a compiler.
probe=$out/barrier-probe.csv
echo "round,barrier_us_per_cycle,pingpong_round_trip_ns" >"$probe"
pingpong=
# (only with two cores or more: it spins, and on one core each round trip would wait for
# the scheduler)
if [ "$max" -ge 2 ] && [ "$(nproc)" -ge 2 ] && command -v cc >/dev/null &&
    cc -O2 -pthread -o "$out/core-pingpong" "$root/docs/img/core-pingpong.c" 2>"$out/core-pingpong.log"; then
    pingpong=$out/core-pingpong
fi
for r in $(seq 1 "$rounds"); do
    if [ "$max" -ge 2 ]; then
        # (10^6 cycles: seconds of wall time are microseconds a cycle)
        w=$("$NETBENCH" --topo single:2 --load 0 --cycles 1000000 --threads 2 |
            grep -o ' wall_s=[0-9.]*' | cut -d= -f2)
        p=
        if [ -n "$pingpong" ]; then
            # (an optional column: a failed or hung probe leaves it empty, not the run)
            p=$(timeout 60 "$pingpong" | grep -o '[0-9.]* ns' | cut -d' ' -f1) || p=
        fi
        echo "$r,$w,$p" >>"$probe"
    fi
    for net in $nets; do
        for t in $(seq 1 "$max"); do
            log=$out/logs/$net-t$t-r$r
            # shellcheck disable=SC2046
            /usr/bin/time -f "%e" -o "$log.time" "$NETBENCH" $(flags "$net") --threads "$t" >"$log.out" 2>"$log.err"
            echo "$net,$t,$r,$(cat "$log.time")" >>"$runs"
        done
    done
done

bad=0
for net in $nets; do
    ref=$(sed -E 's/ [a-z_]*(_s|_per_s|_per_cpu_s|peak_rss_mib)=[^ ]*//g' "$out/logs/$net-t1-r1.out")
    for f in "$out"/logs/"$net"-t*-r*.out; do
        got=$(sed -E 's/ [a-z_]*(_s|_per_s|_per_cpu_s|peak_rss_mib)=[^ ]*//g' "$f")
        if [ "$got" != "$ref" ]; then
            echo "error: $f printed other results than $net at 1 thread" >&2
            bad=1
        fi
    done
done

python3 - "$runs" "$out/speedup.csv" <<'EOF'
import csv, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1])))
med = {}
for r in rows:
    med.setdefault((r["network"], int(r["threads"])), []).append(float(r["wall_s"]))
with open(sys.argv[2], "w") as f:
    f.write("network,threads,runs,median_wall_s,speedup\n")
    for (net, t), v in sorted(med.items()):
        m, one = statistics.median(v), statistics.median(med[(net, 1)])
        line = f"{net},{t},{len(v)},{m:.3f},{one / m:.3f}"
        f.write(line + "\n")
        print(line)
EOF
if [ "$max" -ge 2 ]; then
    echo "barrier probe, us per cycle at two threads, round by round: $(tail -n +2 "$probe" |
        cut -d, -f2 | paste -sd' ') (0.15-0.25 in normal hours on 2026-12-05; 0.6 or more, a slow spell)"
    if [ -n "$pingpong" ]; then
        echo "core ping-pong, ns a round trip, round by round: $(tail -n +2 "$probe" |
            cut -d, -f3 | paste -sd' ') (97-132 in the fast hours of a KVM machine on 2026-12-07, 344-562 in its slow ones)"
    fi
fi
exit "$bad"
