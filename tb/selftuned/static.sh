#!/usr/bin/env bash
# Seed 003's Fig. 6, static thresholds against the tuner, on both of its networks
# (docs/results.md, "Static thresholds against the tuner" and "The same on the Disha
# network"): the rows static250 and static50 (`kind = "selftuned"`, `tune = false`,
# `threshold = 250` or `50`) and the scenario's `tune`, each a `pftsim run` at the steady
# loads 0.25, 0.4 and 0.8 of uniform and complement traffic (`workload.phases = []`), seed
# 1, on scenarios/selftuned-bursty.toml (Duato, the seed's router) and
# scenarios/selftuned-disha.toml.
#
#   bash tb/selftuned/static.sh OUT_DIR [JOBS]   (PFTSIM=path: that pftsim; JOBS default 2)
#
# Writes OUT_DIR/<net>.toml, OUT_DIR/runs/<net>-<pattern>-<load>-<row>/, and
# OUT_DIR/duato.csv and OUT_DIR/disha.csv (pattern, load, row, accepted, lat_mean; disha.csv
# also disha_recoveries, the packets that took the token).
set -euo pipefail
out=${1:?usage: static.sh OUT_DIR [JOBS]}
jobs=${2:-2}
root=$(cd "$(dirname "$0")/../.." && pwd)
if [ -e "$out" ]; then
    echo "error: $out exists; give a new directory" >&2
    exit 1
fi
mkdir -p "$out/runs"
if [ -n "${PFTSIM:-}" ]; then
    bin=$PFTSIM
else
    cargo build --release -q --bin pftsim --manifest-path "$root/Cargo.toml"
    bin=$(bash "$root/tb/release_dir.sh")/pftsim
fi
for net in duato disha; do
    src=$root/scenarios/selftuned-bursty.toml
    [ "$net" = disha ] && src=$root/scenarios/selftuned-disha.toml
    {
        cat "$src"
        printf '\n[[cc]]\nname = "static250"\nkind = "selftuned"\ntune = false\nthreshold = 250\n'
        printf '\n[[cc]]\nname = "static50"\nkind = "selftuned"\ntune = false\nthreshold = 50\n'
    } >"$out/$net.toml"
done
cmds=()
for net in duato disha; do
    for p in complement uniform; do
        for l in 0.25 0.4 0.8; do
            for row in static250 static50 tune; do
                cmds+=("$net $p $l $row")
            done
        done
    done
done
one() {
    local net=$1 p=$2 l=$3 row=$4 name=$1-$2-$3-$4
    "$bin" run "$out/$net.toml" --cc "$row" --out "$out/runs/$name" --yes --quiet \
        --set 'workload.phases=[]' --set "workload.load=$l" \
        --set "workload.pattern={kind=\"$p\"}" >"$out/runs/$name.txt" 2>&1 ||
        { echo "error: $name failed, see $out/runs/$name.txt" >&2; return 1; }
}
export -f one
export bin out
printf '%s\n' "${cmds[@]}" | xargs -P "$jobs" -L 1 bash -c 'one $0 $1 $2 $3'
python3 - "$out" <<'PY'
import csv, json, os, sys
out = sys.argv[1]
for net in ("duato", "disha"):
    with open(os.path.join(out, f"{net}.csv"), "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["pattern", "load", "row", "accepted", "lat_mean"]
                   + (["disha_recoveries"] if net == "disha" else []))
        for p in ("complement", "uniform"):
            for l in ("0.25", "0.4", "0.8"):
                for row in ("static250", "static50", "tune"):
                    j = json.load(open(os.path.join(out, "runs", f"{net}-{p}-{l}-{row}", "summary.json")))
                    acc = j["throughput"]["accepted_per_node_cycle"]
                    line = [p, l, row, f"{acc:.4f}", f"{j['victims']['latency_mean']:.1f}"]
                    if net == "disha":
                        line.append(j["cc_counters"]["disha_recoveries"])
                    w.writerow(line)
PY
echo "wrote $out/duato.csv and $out/disha.csv"
