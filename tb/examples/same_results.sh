#!/usr/bin/env bash
# Proves that a change kept results bit-identical: builds `pftsim` at git revision REV (in a
# temporary worktree) and at the working tree, runs every shipped scenario that existed at
# REV with both (`pftsim compare --jobs 1`), and compares the outputs file by file
# (same_results.py: every CSV row and JSON value equal; wall times, the echoed config and
# fields that only the new version writes are ignored).
#
#   bash tb/examples/same_results.sh REV OUT_DIR [SCENARIO_NAME ...]
# NEW_FLAGS: extra flags for the new binary only, e.g. NEW_FLAGS="--threads 2" (a run on
# several threads must give what one thread gave before).
# Exit status 0 when everything matches. Every scenario took 1-2 hours on 2 cores on
# 2026-11-29 against c9563ac (3,320 s of `compare` for the old binary, 3,542 s for the new,
# mvcm-hotspot about a third of it) and 30 minutes of runs at 7a0aca5 (2026-11-30); name
# scenarios to run fewer.
set -euo pipefail
rev=${1:?usage: same_results.sh REV OUT_DIR [scenario ...]}
out=${2:?usage: same_results.sh REV OUT_DIR [scenario ...]}
shift 2
root=$(cd "$(dirname "$0")/../.." && pwd)
if [ -e "$out" ] && [ -n "$(ls -A "$out" 2>/dev/null)" ]; then
    echo "error: $out exists and is not empty; give a new directory" >&2
    exit 1
fi
# REV and the scenarios named are checked before anything is written
git -C "$root" rev-parse --verify -q "$rev^{commit}" >/dev/null ||
    { echo "error: $rev is not a revision of this repository" >&2; exit 2; }
for s in "$@"; do
    # both versions run REV's file: a scenario REV does not have cannot be compared
    git -C "$root" cat-file -e "$rev:scenarios/$s.toml" 2>/dev/null ||
        { echo "error: scenarios/$s.toml does not exist at $rev" >&2; exit 2; }
done
mkdir -p "$out/old" "$out/new"
out=$(cd "$out" && pwd)
wt=$(mktemp -d)
trap 'git -C "$root" worktree remove --force "$wt" >/dev/null 2>&1 || true' EXIT
rmdir "$wt"
git -C "$root" worktree add --detach "$wt" "$rev" >/dev/null
scenarios=("$@")
if [ ${#scenarios[@]} -eq 0 ]; then
    # every scenario both versions have, except the long soak
    for f in "$wt"/scenarios/*.toml; do
        s=$(basename "$f" .toml)
        [ "$s" = soak648 ] && continue
        [ -f "$root/scenarios/$s.toml" ] && scenarios+=("$s")
    done
fi
(cd "$wt" && CARGO_TARGET_DIR="$root/target/same-results" cargo build --release -q --bin pftsim)
cp "$root/target/same-results/release/pftsim" "$out/pftsim-old"
(cd "$root" && cargo build --release -q --bin pftsim)
cp "$(cd "$root" && bash tb/release_dir.sh)/pftsim" "$out/pftsim-new"
# `--yes` (run whatever the estimate says) exists from 2a4eea1 on: an older binary gets none
yes_flag() { "$1" compare --help 2>/dev/null | grep -q -- '--yes' && echo --yes; }
for s in "${scenarios[@]}"; do
    for v in old new; do
        flags=()
        [ "$v" = new ] && read -r -a flags <<<"${NEW_FLAGS:-}"
        read -r -a yes <<<"$(yes_flag "$out/pftsim-$v")"
        (cd "$wt" && "$out/pftsim-$v" compare "scenarios/$s.toml" --out "$out/$v/$s" --jobs 1 --quiet "${yes[@]}" \
            "${flags[@]}" > "$out/$v/$s.log" 2>&1) || { echo "error: $v $s failed, see $out/$v/$s.log" >&2; exit 1; }
    done
    echo "ran $s"
done
python3 "$root/tb/examples/same_results.py" "$out/old" "$out/new"
