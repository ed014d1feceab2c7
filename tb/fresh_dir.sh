#!/usr/bin/env bash
# An empty directory for a script's results, never at the cost of earlier ones: a DIR that
# holds files (an earlier `make soak`, `make vcd`, ...) is moved aside to
# DIR.previous-<UTC time>[-N] first, and the move is said on stderr (as pftsim moves an
# earlier command's files aside: docs/bad-inputs.md). A DIR that is not a directory is
# refused (exit 1).
#   bash tb/fresh_dir.sh DIR
set -euo pipefail
dir=${1:?usage: fresh_dir.sh DIR}
dir=${dir%/}
if [ -e "$dir" ] || [ -L "$dir" ]; then
    if [ -L "$dir" ] || [ ! -d "$dir" ]; then
        echo "error: $dir exists and is not a directory (or is a symbolic link); name another" >&2
        exit 1
    fi
    if [ -n "$(ls -A "$dir")" ]; then
        aside="$dir.previous-$(date -u +%Y%m%dT%H%M%S)"
        n=1
        while [ -e "$aside" ]; do
            aside="$dir.previous-$(date -u +%Y%m%dT%H%M%S)-$n"
            n=$((n + 1))
        done
        mv -- "$dir" "$aside"
        echo "note: the earlier $dir moved to $aside" >&2
    fi
fi
mkdir -p -- "$dir"
