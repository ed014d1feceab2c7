#!/usr/bin/env bash
# Peers side by side (issue 44, part 3): net-bench, BookSim 2 and CAMINOS (crates.io
# `caminos`) on the same three networks at the same offered load, alternating runs
# (round r: for each network, net-bench, BookSim, CAMINOS), each run measured by
# `/usr/bin/time -f '%U %S %M'` (user + system CPU seconds, peak RSS). Prints, per network
# and tool, the median node-cycles per CPU second (nodes x simulated cycles / CPU seconds of
# the whole process, start-up included), the median peak RSS and the tool's own accepted
# rate (flits/node/cycle) and mean packet latency (cycles), so the reader sees that the work
# compared is the same. Results: docs/performance.md, "Peers side by side".
#
#   bash tb/peers/speed.sh [OUT_DIR [ROUNDS]]     (ROUNDS default 3; OUT_DIR must not exist;
#                                                  default out/peers-YYYYmmdd-HHMMSS, new)
#   bash tb/peers/speed.sh --summary OUT_DIR      (the table again from OUT_DIR/runs.csv,
#                                                  e.g. of a run stopped part-way)
#
# Environment: NETBENCH (a net-bench binary; default: cargo build --release here),
# BOOKSIM (a booksim binary) or BOOKSIM_DIR (built there by tb/booksim/build.sh; default
# target/booksim/booksim2), CAMINOS (a caminos binary) or CAMINOS_ROOT (`cargo install
# caminos --version 0.6.3 --locked --root` there when missing; default target/peers/caminos), WARMUP
# (default 2000) and MEASURED (default 8000) cycles, SEED (default 1), NETS (default
# "torus tree dragonfly").
#
# Networks (configs beside this script; @...@ filled in here):
#   torus      16-ary 2-cube, 256 nodes, DOR, 4 lanes of 8 flits, 16-flit packets, load 0.16
#   tree       4-ary 4-tree, 256 nodes (4 levels of 64 routers), up/down, 4 lanes of 8
#              flits, 16-flit packets, load 0.3
#   dragonfly  p = h = 4, a = 8, g = 33: 1,056 nodes, minimal routing, 3 lanes of 256 flits,
#              8-flit packets, links 10 cycles in a group, 100 between, 1 to the NICs, load 0.3
# all uniform traffic, no congestion control, WARMUP cycles of warm-up then MEASURED cycles.
# The defaults took 10.5 minutes of CPU for 3 rounds on a shared 2-core machine (BookSim's
# dragonfly half of it); run nothing else heavy meanwhile: CPU time grows under contention.
#
# What each tool counts and cannot express:
# - net-bench runs WARMUP + MEASURED cycles (no drain); accepted and latency count the
#   messages created in the measured window. Router: the BookSim mapping of docs/network.md
#   §9 (switch latency 2, head latency 3, 1-cycle links and credits; the dragonfly's local
#   and global links 10 and 100), wormhole, one packet per lane (the dragonfly: the next
#   packet once the previous tail has left, BookSim's wait_for_tail_credit = 0).
# - BookSim: `sim_type = latency`, one warm-up period and MEASURED / WARMUP sample periods
#   of WARMUP cycles (max_samples counts the warm-up period; its sample period is the
#   warm-up length, so MEASURED must be a multiple of WARMUP; stopping thresholds of 0 so
#   that it does not stop after three periods that agree), then it drains the measured
#   packets: its cycles are the "Time taken is N cycles" it prints (drain included). Its
#   torus keeps use_noc_latency = 1 (2-cycle router links); its fat tree routes up on a
#   random port (ours: destination mod k); its uniform pattern also sends to the source.
# - CAMINOS 0.6.3, Basic router: no router pipeline (a phit crosses a router in about 2
#   cycles, so its latencies are lower), input and output buffers per VC, and virtual
#   cut-through only (flit_size = the packet; wormhole with 8-phit buffers panics or
#   stalls), so its input buffers hold a whole packet: 16 phits on the tree, 256 on the
#   dragonfly. It has no dateline VCs: its torus avoids deadlock by the bubble rule, which
#   needs room for two packets (input and output buffers of 32 phits per VC). Its dragonfly
#   uses its own global-link arrangement and a VC per hop (Hops policy); its cycles are
#   WARMUP + MEASURED (no drain), its latency is over messages delivered in the window.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
here=$root/tb/peers

summary() {
    local runs=$1/runs.csv
    [ -f "$runs" ] || { echo "error: no $runs" >&2; exit 1; }
    {
        echo "network,tool,rounds,node_cycles_per_cpu_s,peak_rss_mib,accepted,latency,netbench_over_tool"
        # median per (network, tool) of speed, RSS, accepted and latency
        awk -F, 'NR > 1 { k = $2 "," $3; n[k]++; s[k, n[k]] = $8; m[k, n[k]] = $7 / 1024;
                          a[k, n[k]] = $9; l[k, n[k]] = $10; if (!(k in seen)) { seen[k] = 1; order[++K] = k } }
            function med(arr, k, c,   i, j, t, v) {
                for (i = 1; i <= c; i++) v[i] = arr[k, i]
                for (i = 2; i <= c; i++) { t = v[i]; for (j = i - 1; j >= 1 && (v[j] == "NA" ? 1e300 : v[j]) > (t == "NA" ? 1e300 : t); j--) v[j + 1] = v[j]; v[j + 1] = t }
                return (c % 2) ? v[(c + 1) / 2] : (v[c / 2] == "NA" || v[c / 2 + 1] == "NA" ? "NA" : (v[c / 2] + v[c / 2 + 1]) / 2)
            }
            END {
                for (i = 1; i <= K; i++) { k = order[i]; split(k, p, ","); sp[k] = med(s, k, n[k]) }
                for (i = 1; i <= K; i++) {
                    k = order[i]; split(k, p, ","); base = sp[p[1] ",net-bench"]
                    r = (base == "" || sp[k] == "NA" || sp[k] == 0) ? "NA" : sprintf("%.1f", base / sp[k])
                    v = sp[k]; if (v != "NA") v = sprintf("%.3e", v)
                    x = med(a, k, n[k]); if (x != "NA") x = sprintf("%.4f", x)
                    y = med(l, k, n[k]); if (y != "NA") y = sprintf("%.2f", y)
                    printf "%s,%d,%s,%.1f,%s,%s,%s\n", k, n[k], v, med(m, k, n[k]), x, y, r
                }
            }' "$runs"
    } > "$1/summary.csv"
    column -s, -t < "$1/summary.csv"
}

usage() { echo "usage: bash tb/peers/speed.sh [OUT_DIR [ROUNDS]] | --summary OUT_DIR" >&2; exit 2; }
if [ "${1:-}" = --summary ]; then
    [ -n "${2:-}" ] || usage
    summary "$2"
    exit 0
fi
case ${1:-} in -*) usage ;; esac

if [ $# -ge 1 ]; then
    [ -n "$1" ] || usage
    out=$1
else
    # a new directory of its own (as `make peers`), never another run's
    out=$root/out/peers-$(date +%Y%m%d-%H%M%S)
    n=1
    while [ -e "$out" ]; do out=$root/out/peers-$(date +%Y%m%d-%H%M%S)-$n; n=$((n + 1)); done
    echo "writing to $out"
fi
rounds=${2:-3}
for v in "ROUNDS=$rounds" "WARMUP=${WARMUP:-2000}" "MEASURED=${MEASURED:-8000}"; do
    [[ ${v#*=} =~ ^[1-9][0-9]*$ ]] || { echo "error: ${v%%=*} = ${v#*=}: must be a positive whole number" >&2; exit 2; }
done
[ -e "$out" ] && { echo "error: $out exists: give a new directory (results are never overwritten)" >&2; exit 1; }
out=$(realpath -m "$out")
warmup=${WARMUP:-2000}
measured=${MEASURED:-8000}
seed=${SEED:-1}
nets=${NETS:-torus tree dragonfly}
((measured % warmup == 0)) || { echo "error: MEASURED must be a multiple of WARMUP (BookSim's sample period)" >&2; exit 1; }
samples=$((1 + measured / warmup))

if [ -n "${NETBENCH:-}" ]; then
    netbench=$NETBENCH
else
    (cd "$root" && cargo build --release -q -p pft-sim --bin net-bench)
    netbench=$(cd "$root" && bash tb/release_dir.sh)/net-bench
fi
if [ -n "${BOOKSIM:-}" ]; then
    booksim=$BOOKSIM
else
    bdir=${BOOKSIM_DIR:-$root/target/booksim/booksim2}
    bash "$root/tb/booksim/build.sh" "$bdir"
    booksim=$bdir/src/booksim
fi
if [ -n "${CAMINOS:-}" ]; then
    caminos=$CAMINOS
else
    croot=${CAMINOS_ROOT:-$root/target/peers/caminos}
    [ -x "$croot/bin/caminos" ] || cargo install caminos --version 0.6.3 --locked --root "$croot"
    caminos=$croot/bin/caminos
fi
for t in "$netbench" "$booksim" "$caminos"; do
    [ -x "$t" ] || { echo "error: $t is not an executable" >&2; exit 1; }
done

# nodes, offered load (flits/node/cycle) and net-bench's flags per network
nodes() { case $1 in torus | tree) echo 256 ;; dragonfly) echo 1056 ;; esac; }
load() { case $1 in torus) echo 0.16 ;; *) echo 0.3 ;; esac; }
ours() {
    local lat="--link-latency 1 --credit-latency 1 --switch-latency 2 --head-latency 3"
    case $1 in
    torus) echo "--topo torus:16,2 --routing dor --vcs 4 --vc-buf 8 --packet-flits 16 $lat" ;;
    tree) echo "--topo tree:4,4 --routing updown --vcs 4 --vc-buf 8 --packet-flits 16 $lat" ;;
    dragonfly) echo "--topo dragonfly:4,8,4 --routing min --vcs 3 --vc-buf 256 --packet-flits 8 $lat
        --local-latency 10 --global-latency 100 --lane-reuse tail" ;;
    esac
}

mkdir -p "$out/logs" "$out/cfg"
runs=$out/runs.csv
echo "round,network,tool,nodes,cycles,cpu_s,peak_rss_kib,node_cycles_per_cpu_s,accepted,latency" > "$runs"
for net in $nets; do
    fill=(-e "s/@LOAD@/$(load "$net")/" -e "s/@WARMUP@/$warmup/" -e "s/@MEASURED@/$measured/"
        -e "s/@SAMPLES@/$samples/" -e "s/@SEED@/$seed/")
    sed "${fill[@]}" "$here/$net.booksim.cfg" > "$out/cfg/$net.booksim.cfg"
    sed "${fill[@]}" "$here/$net.caminos.cfg" > "$out/cfg/$net.caminos.cfg"
done
{
    echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
    echo "commit: $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)"
    echo "rounds: $rounds; warm-up $warmup, measured $measured cycles; seed $seed; networks: $nets"
    echo "net-bench: $netbench"
    echo "booksim: $booksim"
    echo "caminos: $caminos"
    echo "host: $(nproc) cores; load average: $(cut -d' ' -f1-3 /proc/loadavg)"
} > "$out/about.txt"

# one run: TOOL NET ROUND; appends a row to runs.csv
run() {
    local tool=$1 net=$2 r=$3 log=$out/logs/$3-$2-$1.log t=$out/logs/$3-$2-$1.time
    local n cyc acc lat
    n=$(nodes "$net")
    case $tool in
    net-bench)
        # shellcheck disable=SC2046 # the flags are words
        { /usr/bin/time -f '%U %S %M' -o "$t" nice -n 5 "$netbench" $(ours "$net") --cc none \
            --load "$(load "$net")" --warmup "$warmup" --cycles "$measured" --seed "$seed" || true; } > "$log" 2>&1
        cyc=$((warmup + measured))
        acc=$(tr ' ' '\n' < "$log" | sed -n 's/^accepted_flits_per_node_cycle=//p')
        lat=$(tr ' ' '\n' < "$log" | sed -n 's/^latency_mean_cycles=//p')
        ;;
    booksim)
        # BookSim exits 255 after a normal run
        { /usr/bin/time -f '%U %S %M' -o "$t" nice -n 5 "$booksim" "$out/cfg/$net.booksim.cfg" || true; } > "$log" 2>&1
        cyc=$(sed -n 's/^Time taken is \([0-9]*\) cycles.*/\1/p' "$log" | tail -1)
        acc=$(sed -n 's/^Accepted flit rate average = \([0-9.e+-]*\).*/\1/p' "$log" | tail -1)
        lat=$(sed -n 's/^Packet latency average = \([0-9.e+-]*\).*/\1/p' "$log" | tail -1)
        ;;
    caminos)
        { (cd "$out/logs" && /usr/bin/time -f '%U %S %M' -o "$t" nice -n 5 "$caminos" \
            "$out/cfg/$net.caminos.cfg" --results="$r-$net-caminos.result") || true; } > "$log" 2>&1
        local res=$out/logs/$r-$net-caminos.result
        field() { [ -f "$res" ] && awk -v f="$1:" '$1 == f { getline; gsub(/[ \t,]/, ""); print; exit }' "$res"; }
        cyc=$(field cycle || true)
        acc=$(field accepted_load || true)
        lat=$(field average_message_delay || true)
        ;;
    esac
    # the last line of the time file is "user system maxrss" (a line before it may report
    # a non-zero exit status)
    read -r u s m < <(tail -1 "$t" 2>/dev/null) || true
    awk -v r="$r" -v net="$net" -v tool="$tool" -v n="$n" -v c="${cyc:-NA}" -v u="$u" -v s="$s" \
        -v m="$m" -v a="${acc:-NA}" -v l="${lat:-NA}" 'BEGIN {
        cpu = u + s; sp = (c == "NA" || cpu == 0) ? "NA" : sprintf("%.4e", n * c / cpu)
        printf "%s,%s,%s,%d,%s,%.2f,%d,%s,%s,%s\n", r, net, tool, n, c, cpu, m, sp, a, l }' >> "$runs"
    tail -1 "$runs"
}

echo "round,network,tool,nodes,cycles,cpu_s,peak_rss_kib,node_cycles_per_cpu_s,accepted,latency"
for ((r = 0; r < rounds; r++)); do
    for net in $nets; do
        for tool in net-bench booksim caminos; do
            run "$tool" "$net" "$r"
        done
    done
done
echo
summary "$out"
