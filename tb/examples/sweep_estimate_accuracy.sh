#!/usr/bin/env bash
# How far `pftsim sweep`'s estimate is from the time the sweep then takes, on the shipped
# grids (scenarios/grids/*.toml), one sweep after the other: the whole sweep's `about`
# against its wall time, and the longest run's `about` against the longest run's own
# `wall_seconds` (summary.json; the Slurm script's `--time` comes from that estimate,
# docs/sweeps.md). With OTHER_PFTSIM set, that build's estimate of the same sweep too
# (`--emit parallel` into a scratch directory: nothing run), to read an estimate's change
# against the same runs. Writes OUT/sweep-estimates.csv:
#   grid,scenario,jobs,runs,estimate_s,actual_s,ratio,longest_estimate_s,longest_actual_s,
#   longest_ratio,other_estimate_s,other_ratio,load1_before
# (ratio = estimate / actual; load1_before = the 1-minute load average before the sweep).
# Measure on an idle machine: the estimate calibrates when the sweep starts.
#
#   bash tb/examples/sweep_estimate_accuracy.sh OUT [GRID ...]
# GRID: a file stem of scenarios/grids/ (default: all but paper-map, which takes about
# an hour; name it to include it). Each grid runs on the scenario its first comment's
# `pftsim sweep` line names. JOBS: runs at once (default 2).
set -euo pipefail
out=${1:?usage: sweep_estimate_accuracy.sh OUT [grid ...]}
shift
root=$(cd "$(dirname "$0")/../.." && pwd)
pftsim=${PFTSIM:-$(cd "$root" && bash tb/release_dir.sh)/pftsim}
jobs=${JOBS:-2}
if [ -e "$out" ] && [ -n "$(ls -A "$out" 2>/dev/null)" ]; then
    echo "error: $out exists and is not empty; give a new directory" >&2
    exit 1
fi
[ -x "$pftsim" ] || { echo "error: $pftsim not built (cargo build --release -p pft-sim)" >&2; exit 1; }
if [ -n "${OTHER_PFTSIM:-}" ] && [ ! -x "$OTHER_PFTSIM" ]; then
    echo "error: OTHER_PFTSIM=$OTHER_PFTSIM is not an executable" >&2
    exit 1
fi
grids=("$@")
if [ ${#grids[@]} -eq 0 ]; then
    for g in "$root"/scenarios/grids/*.toml; do
        n=$(basename "$g" .toml)
        [ "$n" = paper-map ] || grids+=("$n")
    done
fi
mkdir -p "$out/sweeps" "$out/other"
out=$(cd "$out" && pwd)

# seconds of the first `about N unit` after PREFIX in a line
to_seconds() {
    python3 -c '
import re, sys
m = re.search(sys.argv[1] + r"about ([0-9.]+) (s|min|h|days)\b", sys.stdin.read())
if not m: sys.exit("no `about N unit` in the estimate line")
print(float(m.group(1)) * {"s": 1, "min": 60, "h": 3600, "days": 86400}[m.group(2)])' "$1"
}

csv="$out/sweep-estimates.csv"
echo "grid,scenario,jobs,runs,estimate_s,actual_s,ratio,longest_estimate_s,longest_actual_s,longest_ratio,other_estimate_s,other_ratio,load1_before" >"$csv"
cd "$root"
for g in "${grids[@]}"; do
    grid=scenarios/grids/$g.toml
    [ -f "$grid" ] || { echo "error: no $grid" >&2; exit 1; }
    sc=$(grep -m1 -o 'pftsim sweep [^ ]*' "$grid" | awk '{print $3}')
    [ -f "$sc" ] || { echo "error: $grid names no scenario in its \`pftsim sweep\` comment" >&2; exit 1; }
    other=""
    if [ -n "${OTHER_PFTSIM:-}" ]; then
        said=$("$OTHER_PFTSIM" sweep "$sc" --grid "$grid" --out "$out/other/$g" --emit parallel 2>&1) ||
            { echo "$said" >&2; exit 1; }
        line=$(grep -m1 '^estimate:' <<<"$said") ||
            { echo "error: OTHER_PFTSIM printed no estimate for $g" >&2; exit 1; }
        other=$(to_seconds '; ' <<<"$line")
    fi
    load=$(cut -d' ' -f1 /proc/loadavg)
    t0=$(date +%s.%N)
    "$pftsim" sweep "$sc" --grid "$grid" --out "$out/sweeps/$g" --jobs "$jobs" --yes \
        >"$out/sweeps/$g.log" 2>&1
    t1=$(date +%s.%N)
    line=$(grep -m1 '^estimate:' "$out/sweeps/$g.log") ||
        { echo "error: the sweep of $g printed no estimate (too small to calibrate?)" >&2; exit 1; }
    est=$(to_seconds '; ' <<<"$line")
    longest=$(to_seconds 'the longest run ' <<<"$line")
    python3 - "$g" "$sc" "$jobs" "$est" "$t0" "$t1" "$longest" "$other" "$load" \
        "$out/sweeps/$g/runs" >>"$csv" <<'EOF'
import glob, json, sys
g, sc, jobs, est, t0, t1, longest, other, load, runs = sys.argv[1:]
actual = float(t1) - float(t0)
walls = [json.load(open(f))["wall_seconds"] for f in glob.glob(runs + "/*/summary.json")]
top = max(walls)
o = f"{float(other):.1f},{float(other) / actual:.2f}" if other else ","
print(f"{g},{sc},{jobs},{len(walls)},{float(est):.1f},{actual:.1f},{float(est) / actual:.2f},"
      f"{float(longest):.1f},{top:.1f},{float(longest) / top:.2f},{o},{load}")
EOF
    tail -n 1 "$csv"
done
echo "wrote $csv"
