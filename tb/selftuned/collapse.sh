#!/usr/bin/env bash
# Issue 41: which of seed 003's router and load details brings Base's collapse past
# saturation (and Tune's gain) back. Runs the `base`, `alo` and `tune` rows of
# scenarios/selftuned-bursty.toml under each variant:
#   ref      the scenario as shipped before issue 41 (2 dateline escape lanes + 1
#            adaptive, separable allocator; steady loads Bernoulli)
#   esc1     network.escape_lanes = 1 (1 escape lane + 2 adaptive, the seed's Duato)
#   central  network.allocator = "central" (one head routed per router per cycle)
#   seed     esc1 + central (the seed's router, its section 5.1; the scenario as shipped)
#   sq       network.send_queue_msgs = 1048576 (no send-queue limit; bursty only)
#   inj32, inj64  the seed's router with a NIC injection buffer of 32 or 64 flits (two or
#            four packets) instead of 16 (bursty only)
# and, for the steady loads, `fixed` (ref) and `seedfix` (seed) with fixed-rate
# arrivals (one phase, one packet per node every 16/load cycles) instead of Bernoulli.
#
#   bash tb/selftuned/collapse.sh OUT_DIR [JOBS] [SEEDS] [WHAT]
#
# WHAT: bursty, steady or both (default). VARIANTS (environment) restricts the variants
# run, e.g. VARIANTS="esc1 central"; default all of them. Writes OUT_DIR/bursty.csv (variant, seed, row,
# accepted, lat_mean, lat_p99, then per burst b1..b4 the mean accepted flits/node/cycle
# and mean flits in the network over the burst's 2,000 cycles, from series.csv) and
# OUT_DIR/steady.csv (variant, pattern, load, row, accepted, lat_mean, then the lanes:
# hops_per_flit, router-to-router hops per delivered flit over the run;
# detour_hops_per_flit, the part of them that detours add (two per hop the long way round
# a ring); link_flits, router-to-router flit hops per node per cycle over the run (the
# links' work); escape_hop_share, the share of those hops on escape lanes; escape_lane_flits, adaptive_lane_flits and
# in_network, the mean flits held in escape and adaptive switch-to-switch lanes and in
# the whole network over the window).
set -euo pipefail
out=${1:?usage: collapse.sh OUT_DIR [JOBS] [SEEDS] [WHAT]}
jobs=${2:-2}
seeds=${3:-1 2 3}
what=${4:-both}
root=$(cd "$(dirname "$0")/../.." && pwd)
if [ -e "$out" ]; then
    echo "error: $out exists; give a new directory" >&2
    exit 1
fi
mkdir -p "$out/runs"
cargo build --release -q --bin pftsim --manifest-path "$root/Cargo.toml"
bin=$(bash "$root/tb/release_dir.sh")/pftsim
# the scenario with rows base, alo, tune only (paper, paper_scaled are PFT, not asked here)
sc=$out/bursty3.toml
awk '/^\[\[cc\]\]/{n++} n<4' "$root/scenarios/selftuned-bursty.toml" >"$sc"
sets() {
    # every variant sets both router keys (the scenario ships the seed's router)
    local sep="--set 'network.allocator=\"separable\"'" cen="--set 'network.allocator=\"central\"'"
    case $1 in
    ref | fixed) echo "--set network.escape_lanes=2 $sep" ;;
    esc1) echo "--set network.escape_lanes=1 $sep" ;;
    central) echo "--set network.escape_lanes=2 $cen" ;;
    seed | seedfix) echo "--set network.escape_lanes=1 $cen" ;;
    sq) echo "--set network.escape_lanes=2 $sep --set network.send_queue_msgs=1048576" ;;
    inj32 | inj64) echo "--set network.escape_lanes=1 $cen --set network.buffer_flits=${1#inj}" ;;
    esac
}
one() {
    local name=$1
    shift
    "$bin" compare "$sc" --out "$out/runs/$name" --yes --quiet --jobs 1 "$@" >"$out/runs/$name.txt" 2>&1 ||
        { echo "error: $name failed, see $out/runs/$name.txt" >&2; return 1; }
}
# one row (steady loads: `run`, not `compare`, which would also run `off`, the same as base)
one1() {
    local row=$1 name=$2
    shift 2
    "$bin" run "$sc" --cc "$row" --out "$out/runs/$name" --yes --quiet --jobs 1 "$@" >"$out/runs/$name.txt" 2>&1 ||
        { echo "error: $name failed, see $out/runs/$name.txt" >&2; return 1; }
}
export -f one one1 sets
export bin sc out
cmds=()
if [ "$what" != steady ]; then
    for v in ref esc1 central seed sq inj32 inj64; do
        case " ${VARIANTS:-$v} " in *" $v "*) ;; *) continue ;; esac
        for s in $seeds; do
            cmds+=("one bursty-$v-$s --set seed=$s $(sets $v)")
        done
    done
fi
if [ "$what" != bursty ]; then
    for v in ref seed seedfix fixed esc1 central; do
        case " ${VARIANTS:-$v} " in *" $v "*) ;; *) continue ;; esac
        for p in uniform complement bit_reversal shuffle; do
            for l in 0.1 0.25 0.4 0.5 0.8; do
                if [ "$v" = fixed ] || [ "$v" = seedfix ]; then
                    i=$(awk "BEGIN{printf \"%d\", 16/$l + 0.5}")
                    load="--set 'workload.phases=[{cycles=60000,interval_cycles=$i,pattern={kind=\"$p\"}}]'"
                else
                    load="--set workload.phases=[] --set workload.load=$l --set 'workload.pattern={kind=\"$p\"}'"
                fi
                for row in base alo tune; do
                    cmds+=("one1 $row steady-$v-$p-$l-$row $(sets $v) $load")
                done
            done
        done
    done
fi
printf '%s\n' "${cmds[@]}" | xargs -d '\n' -P "$jobs" -I{} bash -c '{}'
python3 - "$out" <<'PY'
import csv, json, os, sys
out = sys.argv[1]
runs = os.path.join(out, "runs")
b = open(os.path.join(out, "bursty.csv"), "w", newline="")
s = open(os.path.join(out, "steady.csv"), "w", newline="")
bw, sw = csv.writer(b), csv.writer(s)
bw.writerow(["variant", "seed", "row", "accepted", "lat_mean", "lat_p99"]
            + [f"b{i}_{c}" for i in range(1, 5) for c in ("accepted", "in_network")])
sw.writerow(["variant", "pattern", "load", "row", "accepted", "lat_mean", "hops_per_flit",
             "detour_hops_per_flit", "link_flits", "escape_hop_share", "escape_lane_flits",
             "adaptive_lane_flits", "in_network"])


def lanes(d, j):
    """Router-to-router hops per delivered flit, the detours' part of them, the links' work
    and the escape lanes' share of it (whole run, `cc_counters`); mean flits held in escape and adaptive lanes and in the network
    over the window (series.csv, sampled every 250 cycles)."""
    c = j["cc_counters"]
    esc, ada = c["escape_hop_flits"], c["adaptive_hop_flits"]
    ser = list(csv.DictReader(open(os.path.join(d, "series.csv"))))
    period = int(ser[1]["cycle"]) - int(ser[0]["cycle"])
    delivered = sum(float(x["accepted"]) for x in ser) * period * j["nodes"]
    w = [x for x in ser if int(x["cycle"]) >= j["window_start"]]
    mean = lambda k: sum(float(x[k]) for x in w) / len(w)
    cycles = j["nodes"] * j["cycles_run"]
    return [f"{(esc + ada) / delivered:.3f}", f"{2 * c['detour_hop_flits'] / delivered:.3f}",
            f"{(esc + ada) / cycles:.4f}", f"{esc / (esc + ada):.3f}",
            f"{mean('escape_lane_flits'):.0f}", f"{mean('adaptive_lane_flits'):.0f}",
            f"{mean('in_network'):.0f}"]


for name in sorted(os.listdir(runs)):
    d = os.path.join(runs, name)
    if not os.path.isdir(d):
        continue
    kind, rest = name.split("-", 1)
    if kind == "steady":
        v, p, l, row = rest.split("-")
        j = json.load(open(os.path.join(d, "summary.json")))
        acc = j["throughput"]["accepted_per_node_cycle"]
        sw.writerow([v, p, l, row, f"{acc:.4f}", f"{j['victims']['latency_mean']:.1f}"]
                    + lanes(d, j))
        continue
    for r in csv.DictReader(open(os.path.join(d, "compare.csv"))):
        row = r["config"]
        if row == "off":
            continue
        acc, lat = float(r["accepted"]), float(r["lat_mean"])
        v, seed = rest.rsplit("-", 1)
        ser = list(csv.DictReader(open(os.path.join(d, row, "series.csv"))))
        per = []
        for start in (10000, 20000, 30000, 40000):
            w = [x for x in ser if start <= int(x["cycle"]) < start + 2000]
            per += [f"{sum(float(x['accepted']) for x in w) / len(w):.3f}",
                    f"{sum(float(x['in_network']) for x in w) / len(w):.0f}"]
        bw.writerow([v, seed, row, f"{acc:.4f}", f"{lat:.1f}", r["lat_p99"]] + per)
PY
echo "wrote $out/bursty.csv $out/steady.csv"
