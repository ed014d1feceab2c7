#!/usr/bin/env bash
# Issue 41: seed 003's bursty load with another burst length. The seed's Fig. 8 (the
# offered load) is missing from its text; the shipped scenarios use 2,000-cycle bursts at
# cycles 10 k, 20 k, 30 k and 40 k. The seed's section 5.2.4 says its Disha network
# "absorbs the heavy offered load ... approximately between 20,000 and 21,000 cycles" and
# then drains "between 21,000 and 27,000": a reading of 1,000-cycle bursts. This runs the
# rows `base`, `alo` and `tune` of scenarios/selftuned-bursty.toml (Duato) and
# scenarios/selftuned-disha.toml with each burst BURST cycles long (same start cycles,
# the low phases filling the rest), at each seed.
#
#   bash tb/selftuned/bursts.sh OUT_DIR [BURST] [SEEDS] [JOBS]   (defaults 1000, "1 2 3 4 5 6", 2)
#
# Writes OUT_DIR/<net>.toml, OUT_DIR/runs/<net>-<seed>/ and OUT_DIR/bursts.csv: net, burst,
# seed, row, accepted, lat_mean, lat_p99, packets (the window's packets the mean is over).
set -euo pipefail
out=${1:?usage: bursts.sh OUT_DIR [BURST] [SEEDS] [JOBS]}
burst=${2:-1000}
seeds=${3:-1 2 3 4 5 6}
jobs=${4:-2}
source "$(dirname "$0")/../mvcm/lib.sh"
if ! [[ $burst =~ ^[0-9]+$ ]] || [ "$burst" -lt 1 ] || [ "$burst" -gt 9999 ]; then
    echo "error: BURST must be a whole number of cycles in 1..=9999, not '$burst'" >&2
    exit 1
fi
new_out "$out"
mkdir "$out/runs"
pftsim_bin
for net in duato disha; do
    src=$root/scenarios/selftuned-bursty.toml
    [ "$net" = disha ] && src=$root/scenarios/selftuned-disha.toml
    # rows base, alo, tune only; each burst BURST cycles, each low phase after it the rest
    # of its 10,000 (the shipped files write them as 2_000 and 8_000)
    grep -q '^cycles = 2_000$' "$src" && grep -q '^cycles = 8_000$' "$src" || {
        echo "error: $src no longer has 2_000-cycle bursts and 8_000-cycle gaps" >&2
        exit 1
    }
    awk '/^\[\[cc\]\]/{n++} n<4' "$src" |
        sed -e "s/^cycles = 2_000\$/cycles = $burst/" -e "s/^cycles = 8_000\$/cycles = $((10000 - burst))/" \
            >"$out/$net.toml"
done
one() {
    "$bin" compare "$out/$1.toml" --out "$out/runs/$1-$2" --yes --quiet --jobs 1 --set seed="$2" \
        >"$out/runs/$1-$2.txt" 2>&1 || { echo "error: $1 seed $2 failed, see $out/runs/$1-$2.txt" >&2; return 1; }
}
export -f one
export bin out
for net in duato disha; do for s in $seeds; do echo "$net $s"; done; done |
    xargs -P "$jobs" -L 1 bash -c 'one "$0" "$1"'
python3 - "$out" "$burst" $seeds <<'PY'
import csv, json, os, sys
out, burst, seeds = sys.argv[1], sys.argv[2], sys.argv[3:]
w = csv.writer(open(os.path.join(out, "bursts.csv"), "w", newline=""))
w.writerow(["net", "burst", "seed", "row", "accepted", "lat_mean", "lat_p99", "packets"])
for net in ("duato", "disha"):
    for seed in seeds:
        d = os.path.join(out, "runs", f"{net}-{seed}")
        for r in csv.DictReader(open(os.path.join(d, "compare.csv"))):
            row = r["config"]
            if row == "off":
                continue
            j = json.load(open(os.path.join(d, row, "summary.json")))
            packets = j["throughput"]["message_latency"][0]["total"]["count"]
            w.writerow([net, burst, seed, row, f"{float(r['accepted']):.4f}",
                        f"{float(r['lat_mean']):.1f}", r["lat_p99"], packets])
PY
echo "wrote $out/bursts.csv"
