#!/usr/bin/env bash
# The study (issue 45, `make study`): every scheme on every fabric of scenarios/study/, for
# every victim motif of scenarios/study/motifs.toml beside a GPCNeT-style incast aggressor,
# 3 seeds. One `pftsim sweep` per fabric (its grid: motifs.toml plus an `entry` axis over
# the fabric's [[cc]] entries), then the study's table and figures (tb/examples/study.rs):
# OUT_DIR/study.csv, OUT_DIR/study_<fabric>.svg and the tables on standard output
# (docs/results.md, "The study").
#
#   bash tb/study/run.sh OUT_DIR                 run it here (all cores; OUT_DIR must not exist)
#   EMIT=parallel bash tb/study/run.sh OUT_DIR   write the sweeps for GNU parallel (or
#   EMIT=slurm    bash tb/study/run.sh OUT_DIR   Slurm), run nothing; run each fabric's
#                                                parallel.sh or submit.sh, then:
#   bash tb/study/run.sh --collect OUT_DIR       collect every fabric and make the table
#
# Environment: PFTSIM (a pftsim binary; default: cargo build --release here), FABRICS
# (default "fat_tree torus butterfly dragonfly"), JOBS (runs at once; default all cores),
# MOTIFS (the grid of victims and aggressor; default scenarios/study/motifs.toml, the incast;
# scenarios/study/motifs-alltoall.toml has an all-to-all aggressor instead).
# Run here, `pftsim check` prints each fabric's cost (of one `compare`) before its sweep (an
# upper bound: a jobs run stops when the victim's iterations end, far below `cycles.max`);
# with EMIT, `pftsim sweep --emit` prints the estimate of the fabric's sweep instead.
set -euo pipefail
collect=0
if [ "${1:-}" = "--collect" ]; then
    collect=1
    shift
fi
# OUT_DIR and PFTSIM are taken from the caller's directory, then the script works from the
# repository's root
out=$(realpath -m "${1:?usage: bash tb/study/run.sh [--collect] OUT_DIR}")
case "${PFTSIM:-}" in
    */*) PFTSIM=$(realpath -m "$PFTSIM") ;;
esac
cd "$(dirname "$0")/../.."
fabrics=${FABRICS:-"fat_tree torus butterfly dragonfly"}
motifs=${MOTIFS:-scenarios/study/motifs.toml}
if [ -z "${PFTSIM:-}" ]; then
    cargo build --release -q -p pft-sim --bin pftsim
    PFTSIM=$(bash tb/release_dir.sh)/pftsim
fi
table() {
    cargo run --release -q -p pft-tb --example study -- "$out"
}
if [ "$collect" = 1 ]; then
    for f in $fabrics; do
        "$PFTSIM" sweep --collect --out "$out/$f"
    done
    table
    exit 0
fi
if [ -e "$out" ]; then
    echo "error: $out exists: give a new directory (nothing is overwritten)" >&2
    exit 1
fi
mkdir -p "$out/grids"
for f in $fabrics; do
    sc=scenarios/study/$f.toml
    [ -f "$sc" ] || { echo "error: no fabric $f ($sc)" >&2; exit 1; }
    # the grid: the motifs, then every [[cc]] entry of the fabric's scenario
    entries=$(python3 -c 'import sys, tomllib
print(", ".join("\"%s\"" % e["name"] for e in tomllib.load(open(sys.argv[1], "rb"))["cc"]))' "$sc")
    { cat "$motifs"; printf '\n[[axis]]\nkey = "entry"\nvalues = [%s]\n' "$entries"; } \
        > "$out/grids/$f.toml"
    # with EMIT, validate only: the sweep prints the study's own estimate; a local study
    # shows check's estimate of one `compare` (its sweeps run --quiet)
    if [ -n "${EMIT:-}" ]; then
        "$PFTSIM" check "$sc" --no-estimate
    else
        "$PFTSIM" check "$sc"
    fi
    if [ -n "${EMIT:-}" ]; then
        "$PFTSIM" sweep "$sc" --grid "$out/grids/$f.toml" --out "$out/$f" --emit "$EMIT"
    else
        "$PFTSIM" sweep "$sc" --grid "$out/grids/$f.toml" --out "$out/$f" --quiet --yes \
            ${JOBS:+--jobs "$JOBS"}
    fi
done
if [ -n "${EMIT:-}" ]; then
    echo "wrote the sweeps of $fabrics into $out; run each one's scripts, then: bash tb/study/run.sh --collect $out"
    exit 0
fi
table
