#!/usr/bin/env bash
# The workspace's Rust tests, the same ones `cargo test --workspace` runs (every test binary,
# then the doctests), but two test binaries at a time.
#
# Why: `cargo test` runs its test binaries one after another, and the longest ones (the
# lockstep equivalence runs, the Verilator harnesses) are single-threaded, so one core idles
# for most of `make test`. Running whole binaries side by side is safe here because every test
# binary keeps its files in a directory of its own (under CARGO_TARGET_TMPDIR, or named by its
# process id) and the Verilator engine's cache is built in a per-process directory and renamed
# into place. Tests inside one binary still share that binary's process, as under cargo.
#
# Usage: bash tb/run_tests.sh [JOBS]   (JOBS defaults to $TEST_JOBS, else 2)
# Prints each binary's output when it ends, then a table of every binary's exit status and
# wall seconds; exits non-zero when any binary failed (all of them run regardless).
set -euo pipefail
cd "$(dirname "$0")/.."
CARGO=${CARGO:-cargo}
JOBS=${1:-${TEST_JOBS:-2}}
case "$JOBS" in '' | *[!0-9]* | 0) echo "error: JOBS must be a whole number >= 1, got '$JOBS'" >&2; exit 2 ;; esac
command -v parallel >/dev/null || { echo "error: GNU parallel not found (.ci/install-deps installs it)" >&2; exit 2; }

work=$(mktemp -d "${TMPDIR:-/tmp}/pft-tests.XXXXXX")
trap 'rm -rf "$work"' EXIT

# Build every test binary; cargo's JSON names each one with its package's directory (cargo runs
# a test binary from there, and so do we).
$CARGO test --release --workspace --locked --no-run --message-format=json-render-diagnostics \
    >"$work/build.json"
python3 - "$work/build.json" >"$work/jobs" <<'EOF'
import json, os, sys
# The longest binaries first (measured by this script's table), so that the two lanes end
# together; any binary not named here runs after them, in cargo's order.
FIRST = ["tb_equivalence", "tb_verilog", "prop_rtl_model", "selftuned_verilog",
         "scenario_seeds", "net_scale", "net_dragonfly", "fuzz_inputs", "net_threads"]
jobs = []
for line in open(sys.argv[1]):
    m = json.loads(line)
    if m.get("reason") != "compiler-artifact" or not m.get("executable"):
        continue
    if not m["profile"]["test"]:
        continue
    t = m["target"]
    name = t["name"] if "test" in t["kind"] else f'{t["name"]}:{t["kind"][0]}'
    jobs.append((name, os.path.dirname(m["manifest_path"]), m["executable"]))
def rank(j):
    base = j[0].split(":")[0]
    return FIRST.index(base) if base in FIRST else len(FIRST)
for name, cwd, exe in sorted(jobs, key=rank):   # sorted() is stable: cargo's order otherwise
    print(f"{name}\t{cwd}\t{exe}")
print(f"doctests\t{os.getcwd()}\t-")
EOF

# One job: run the binary from its package's directory (the doctests through cargo).
run_one() {
    local name=$1 cwd=$2 exe=$3 t0 rc=0
    t0=$(date +%s.%N)
    echo "=== $name"
    if [ "$exe" = - ]; then
        ${CARGO:-cargo} test --release --workspace --locked --doc 2>&1 || rc=$?
    else
        (cd "$cwd" && "$exe" 2>&1) || rc=$?
    fi
    awk -v a="$t0" -v b="$(date +%s.%N)" -v rc="$rc" -v n="$name" \
        'BEGIN { printf "%.1f\t%s\t%s\n", b - a, rc, n }' >>"$TIMES"
    return "$rc"
}
export -f run_one
export CARGO TIMES="$work/times"

set +e
parallel --will-cite --jobs "$JOBS" --group --colsep '\t' run_one {1} {2} {3} <"$work/jobs"
status=$?
set -e

echo
echo "test binaries: exit status and wall seconds (longest first)"
sort -rn "$work/times" | awk -F'\t' '{ printf "%7.1f s  exit %s  %s\n", $1, $2, $3 }'
total=$(wc -l <"$work/times")
failed=$(awk -F'\t' '$2 != 0 { n++ } END { print n + 0 }' "$work/times")
echo "$total test binaries (doctests included), $failed failed"
[ "$status" -eq 0 ] && [ "$failed" -eq 0 ]
