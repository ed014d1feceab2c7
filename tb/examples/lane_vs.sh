#!/usr/bin/env bash
# The lane router against older builds, one command (issue 44: "the lane router on the
# 16-ary 2-cube >= 2x today's", d5c02e4's; docs/performance.md, "Ready lanes without a
# scan"). Builds `net-bench` (release) at each REV, in temporary worktrees, and at the
# working tree ("new"), then runs the 16-ary 2-cube with lanes at its two points ROUNDS
# times, the order of the builds rotated each round, and prints per point each build's
# median CPU seconds and the first REV's median over it (with the range of that ratio
# round by round). Every run of a point must print the same accepted rate and mean
# latency (else exit 1: the builds would not be doing the same work).
#
#   bash tb/examples/lane_vs.sh OUT_DIR REV [REV ...]
#
# The points (`--topo torus:16,2 --routing dor --vcs 4 --vc-buf 8 --packet-flits 16
# --cc none`, 40,000 cycles, 0.16 flits a NIC-cycle offered):
#   peers  the peers' latencies (tb/peers/speed.sh's torus: --link-latency 1
#          --credit-latency 1 --switch-latency 2 --head-latency 3), accepting 0.16;
#   sat    the default latencies, saturated (accepting about 0.127).
# Environment: ROUNDS (default 7); INSTR=1 also counts each build's instructions with
# cachegrind, as the difference of two runs so that the build of the network and the
# first cycles drop out (peers: 5,000 less 1,000 cycles; sat: 15,000 less 5,000; a few
# minutes a build), and its simulated branch mispredicts (`--branch-sim=yes`: a model of
# two-bit counters, not this CPU's predictor).
# Writes OUT_DIR/runs.csv (round,point,build,cpu_s,accepted,latency), OUT_DIR/summary.csv
# and, with INSTR=1, OUT_DIR/instructions.csv. OUT_DIR must be new or empty.
set -euo pipefail
out=${1:?usage: lane_vs.sh OUT_DIR REV [REV ...]}
shift
[ $# -ge 1 ] || { echo "usage: lane_vs.sh OUT_DIR REV [REV ...]" >&2; exit 2; }
rounds=${ROUNDS:-7}
case $rounds in
'' | *[!0-9]* | 0) echo "error: ROUNDS=$rounds: must be a whole number from 1" >&2; exit 2 ;;
esac
root=$(cd "$(dirname "$0")/../.." && pwd)
if [ -e "$out" ] && [ -n "$(ls -A "$out" 2>/dev/null)" ]; then
    echo "error: $out exists and is not empty; give a new directory" >&2
    exit 1
fi
# every revision known, and each named once, before anything is written or built
seen=" "
for rev in "$@"; do
    c=$(git -C "$root" rev-parse --verify -q "$rev^{commit}") ||
        { echo "error: $rev is not a revision of this repository" >&2; exit 2; }
    case $seen in
    *" $c "*) echo "error: $rev names a revision already given" >&2; exit 2 ;;
    esac
    seen="$seen$c "
done
if [ "${INSTR:-0}" = 1 ] && ! command -v valgrind >/dev/null; then
    echo "error: INSTR=1 needs valgrind (apt-get install valgrind)" >&2
    exit 2
fi
mkdir -p "$out/bin" "$out/logs"
out=$(cd "$out" && pwd)

wt=
trap '[ -z "$wt" ] || git -C "$root" worktree remove --force "$wt" >/dev/null 2>&1 || true' EXIT
names=()
for rev in "$@"; do
    name=$(git -C "$root" rev-parse --short "$rev")
    wt=$(mktemp -d)
    rmdir "$wt"
    git -C "$root" worktree add --detach "$wt" "$rev" >/dev/null
    (cd "$wt" && CARGO_TARGET_DIR="$root/target/lane-vs" cargo build --release -q --bin net-bench) ||
        { echo "error: $rev did not build" >&2; exit 1; }
    git -C "$root" worktree remove --force "$wt"
    wt=
    cp "$root/target/lane-vs/release/net-bench" "$out/bin/$name"
    names+=("$name")
done
(cd "$root" && CARGO_TARGET_DIR="$root/target" cargo build --release -q --bin net-bench)
cp "$root/target/release/net-bench" "$out/bin/new"
names+=(new)

base="--topo torus:16,2 --routing dor --vcs 4 --vc-buf 8 --packet-flits 16 --cc none --load 0.16"
flags() {
    case $1 in
    peers) echo "$base --link-latency 1 --credit-latency 1 --switch-latency 2 --head-latency 3" ;;
    sat) echo "$base" ;;
    esac
}
field() { tr ' ' '\n' <"$1" | sed -n "s/^$2=//p"; }

runs=$out/runs.csv
echo "round,point,build,cpu_s,accepted,latency" >"$runs"
n=${#names[@]}
for r in $(seq 1 "$rounds"); do
    for k in $(seq 0 $((n - 1))); do
        b=${names[$(((k + r) % n))]}
        for pt in peers sat; do
            log=$out/logs/$pt-$b-r$r.out
            # shellcheck disable=SC2046
            "$out/bin/$b" $(flags $pt) --cycles 40000 >"$log"
            echo "$r,$pt,$b,$(field "$log" cpu_s),$(field "$log" accepted_flits_per_node_cycle),$(field "$log" latency_mean_cycles)" >>"$runs"
        done
    done
done

if [ "${INSTR:-0}" = 1 ]; then
    ins=$out/instructions.csv
    echo "point,build,cycles,instructions,mispredicts_simulated" >"$ins"
    count() {
        # shellcheck disable=SC2046
        valgrind --tool=cachegrind --cache-sim=no --branch-sim=yes --cachegrind-out-file=/dev/null \
            "$out/bin/$1" $(flags "$2") --cycles "$3" 2>&1 >/dev/null |
            sed -n 's/.*\(I *refs\|Mispredicts\): *\([0-9,]*\).*/\2/p' | tr -d , | tr '\n' ' '
    }
    for b in "${names[@]}"; do
        for pt in peers sat; do
            if [ $pt = peers ]; then lo=1000 hi=5000; else lo=5000 hi=15000; fi
            read -r i0 m0 <<<"$(count "$b" $pt $lo)"
            read -r i1 m1 <<<"$(count "$b" $pt $hi)"
            echo "$pt,$b,$hi less $lo,$((i1 - i0)),$((m1 - m0))" >>"$ins"
        done
    done
fi

python3 - "$runs" "$out/summary.csv" "$out/instructions.csv" "${names[@]}" <<'EOF'
import csv, os, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1])))
# the builds in the order given, the working tree ("new") last
order = sys.argv[4:]
first = order[0]
bad = False
with open(sys.argv[2], "w") as f:
    f.write("point,build,runs,median_cpu_s,first_over_build,round_min,round_max\n")
    for pt in ("peers", "sat"):
        pr = [r for r in rows if r["point"] == pt]
        if len({(r["accepted"], r["latency"]) for r in pr}) != 1:
            print(f"error: the {pt} runs printed different accepted rates or latencies", file=sys.stderr)
            bad = True
        builds = [b for b in order if any(r["build"] == b for r in pr)]
        cpu = {b: [float(r["cpu_s"]) for r in pr if r["build"] == b] for b in builds}
        by_round = {}
        for r in pr:
            by_round.setdefault(r["round"], {})[r["build"]] = float(r["cpu_s"])
        for b in builds:
            m = statistics.median(cpu[b])
            ratio = statistics.median(cpu[first]) / m
            per = [d[first] / d[b] for d in by_round.values()]
            line = f"{pt},{b},{len(cpu[b])},{m:.3f},{ratio:.3f},{min(per):.3f},{max(per):.3f}"
            f.write(line + "\n")
            print(line)
if os.path.exists(sys.argv[3]):
    ins = list(csv.DictReader(open(sys.argv[3])))
    for r in ins:
        ref = next(x for x in ins if x["point"] == r["point"] and x["build"] == first)
        print(f"{r['point']},{r['build']},instructions {r['instructions']} "
              f"({first}'s over it {int(ref['instructions']) / int(r['instructions']):.3f}), "
              f"simulated mispredicts {r['mispredicts_simulated']}")
sys.exit(1 if bad else 0)
EOF
