#!/usr/bin/env bash
# How far `pftsim check`'s time estimate is from the time `pftsim compare` then takes, on
# every shipped scenario (scenarios/*.toml) and on the readings of issue 36: paper.toml at
# `network.mtu_bytes=64`, whole and reduced to its `r19_escape` entry. For each case it runs
# `check`, reads the first `about N s|min|h|days` it prints (the whole command's wall time),
# then times `compare --yes --quiet` with the same --set values, one case after the other.
# Writes OUT/estimates.csv:
#   scenario,set,estimate_s,actual_s,ratio,load1_before
# (ratio = estimate_s / actual_s; load1_before = the 1-minute load average before the case,
# so a reading taken on a busy machine shows as one). Measure on an idle machine: the
# estimate calibrates at the check's moment, the run meets whatever load comes after.
#
#   bash tb/examples/estimate_accuracy.sh OUT [SCENARIO_NAME ...]
# SCENARIO_NAME: a file stem of scenarios/ (default: all of them, then the two readings).
# Takes about 15 minutes on 2 cores for all (13 min 34 s on 2026-12-05).
# `make estimate-accuracy` runs it into $(OUT)/estimate-accuracy-<time>/.
set -euo pipefail
out=${1:?usage: estimate_accuracy.sh OUT [scenario ...]}
shift
root=$(cd "$(dirname "$0")/../.." && pwd)
pftsim=${PFTSIM:-$(cd "$root" && bash tb/release_dir.sh)/pftsim}
if [ -e "$out" ] && [ -n "$(ls -A "$out" 2>/dev/null)" ]; then
    echo "error: $out exists and is not empty; give a new directory" >&2
    exit 1
fi
[ -x "$pftsim" ] || { echo "error: $pftsim not built (cargo build --release -p pft-sim)" >&2; exit 1; }
mkdir -p "$out/inputs" "$out/runs"
out=$(cd "$out" && pwd)

# paper.toml reduced to its r19_escape entry (the head and that [[pft]] table)
python3 - "$root/scenarios/paper.toml" "$out/inputs/paper-r19_escape.toml" <<'EOF'
import re, sys
text = open(sys.argv[1]).read()
parts = re.split(r'(?m)^(?=\[\[pft\]\]|\[\[cc\]\])', text)
keep = [p for p in parts[1:] if re.search(r'(?m)^name = "r19_escape"\s', p)]
assert len(keep) == 1, "paper.toml has no single r19_escape entry"
open(sys.argv[2], "w").write(parts[0] + keep[0])
EOF

cases=()
if [ $# -eq 0 ]; then
    for f in "$root"/scenarios/*.toml; do cases+=("$(basename "$f" .toml)|$f|"); done
    cases+=("paper@mtu64|$root/scenarios/paper.toml|network.mtu_bytes=64")
    cases+=("paper-r19_escape@mtu64|$out/inputs/paper-r19_escape.toml|network.mtu_bytes=64")
else
    for s in "$@"; do
        case "$s" in
            paper@mtu64) cases+=("$s|$root/scenarios/paper.toml|network.mtu_bytes=64") ;;
            paper-r19_escape@mtu64)
                cases+=("$s|$out/inputs/paper-r19_escape.toml|network.mtu_bytes=64") ;;
            *) [ -f "$root/scenarios/$s.toml" ] || { echo "error: no scenarios/$s.toml" >&2; exit 1; }
               cases+=("$s|$root/scenarios/$s.toml|") ;;
        esac
    done
fi

# seconds of the first `about N unit` in a line
to_seconds() {
    python3 -c '
import re, sys
m = re.search(r"about ([0-9.]+) (s|min|h|days)\b", sys.stdin.read())
if not m: sys.exit("no `about N unit` in the check output")
print(float(m.group(1)) * {"s": 1, "min": 60, "h": 3600, "days": 86400}[m.group(2)])'
}

csv="$out/estimates.csv"
echo "scenario,set,estimate_s,actual_s,ratio,load1_before" >"$csv"
for c in "${cases[@]}"; do
    IFS='|' read -r name file set <<<"$c"
    args=()
    [ -n "$set" ] && args+=(--set "$set")
    load=$(cut -d' ' -f1 /proc/loadavg)
    check=$("$pftsim" check "$file" "${args[@]}" 2>&1) || { echo "$check" >&2; exit 1; }
    est=$(grep -m1 'estimate for `compare`' <<<"$check" | to_seconds)
    t0=$(date +%s.%N)
    "$pftsim" compare "$file" "${args[@]}" --out "$out/runs/$name" --quiet --yes >"$out/runs/$name.log" 2>&1
    t1=$(date +%s.%N)
    python3 - "$name" "$set" "$est" "$t0" "$t1" "$load" >>"$csv" <<'EOF'
import sys
name, s, est, t0, t1, load = sys.argv[1:]
actual = float(t1) - float(t0)
print(f"{name},{s},{float(est):.1f},{actual:.1f},{float(est) / actual:.2f},{load}")
EOF
    tail -n 1 "$csv"
done
echo "wrote $csv"
