#!/usr/bin/env bash
# Issue 41 part 2: seed 003's bursty load with Disha deadlock recovery, rows `base`, `alo`
# and `tune` of scenarios/selftuned-disha.toml at several seeds.
#
#   bash tb/selftuned/disha.sh OUT_DIR [JOBS] [SEEDS]
#
# SETS (environment): more `--set` options for every run, e.g.
#   SETS='--set network.disha_timeout_cycles=32' bash tb/selftuned/disha.sh OUT
#
# Writes OUT_DIR/disha-seeds.csv: seed, row, accepted, lat_mean, lat_p99, packets (the
# window's packets the mean is over), disha_recoveries (packets that took the recovery
# path over the run), then per burst b1..b4 the mean flits in the network over the burst's
# 2,000 cycles and drain (cycles from the burst's end until fewer than 500 flits are in the
# network, from series.csv; empty if not within the next 8,000).
set -euo pipefail
out=${1:?usage: disha.sh OUT_DIR [JOBS] [SEEDS]}
jobs=${2:-2}
seeds=${3:-1 2 3 4 5 6}
root=$(cd "$(dirname "$0")/../.." && pwd)
if [ -e "$out" ]; then
    echo "error: $out exists; give a new directory" >&2
    exit 1
fi
mkdir -p "$out/runs"
cargo build --release -q --bin pftsim --manifest-path "$root/Cargo.toml"
bin=$(bash "$root/tb/release_dir.sh")/pftsim
# the scenario with rows base, alo, tune only (paper, paper_scaled are PFT)
sc=$out/disha3.toml
awk '/^\[\[cc\]\]/{n++} n<4' "$root/scenarios/selftuned-disha.toml" >"$sc"
one() {
    # shellcheck disable=SC2086 # SETS is a list of options
    "$bin" compare "$sc" --out "$out/runs/$1" --yes --quiet --jobs 1 --set seed="$1" ${SETS:-} \
        >"$out/runs/$1.txt" 2>&1 || { echo "error: seed $1 failed, see $out/runs/$1.txt" >&2; return 1; }
}
export -f one
export bin sc out SETS
printf '%s\n' $seeds | xargs -P "$jobs" -I{} bash -c 'one {}'
python3 - "$out" $seeds <<'PY'
import csv, json, os, sys
out, seeds = sys.argv[1], sys.argv[2:]
w = csv.writer(open(os.path.join(out, "disha-seeds.csv"), "w", newline=""))
w.writerow(["seed", "row", "accepted", "lat_mean", "lat_p99", "packets", "disha_recoveries"]
           + [f"b{i}_{c}" for i in range(1, 5) for c in ("in_network", "drain")])
for seed in seeds:
    d = os.path.join(out, "runs", seed)
    for r in csv.DictReader(open(os.path.join(d, "compare.csv"))):
        row = r["config"]
        if row == "off":
            continue
        j = json.load(open(os.path.join(d, row, "summary.json")))
        packets = j["throughput"]["message_latency"][0]["total"]["count"]
        rec = j["cc_counters"]["disha_recoveries"]
        ser = [(int(x["cycle"]), float(x["in_network"]))
               for x in csv.DictReader(open(os.path.join(d, row, "series.csv")))]
        per = []
        for start in (10000, 20000, 30000, 40000):
            burst = [f for c, f in ser if start <= c < start + 2000]
            end = start + 2000
            drained = [c for c, f in ser if end <= c < end + 8000 and f < 500]
            per += [f"{sum(burst) / len(burst):.0f}", str(drained[0] - end) if drained else ""]
        w.writerow([seed, row, f"{float(r['accepted']):.4f}", f"{float(r['lat_mean']):.1f}",
                    r["lat_p99"], packets, rec] + per)
PY
echo "wrote $out/disha-seeds.csv"
