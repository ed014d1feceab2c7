#!/usr/bin/env bash
# BookSim 2 at the revision every side-by-side script uses: cloned into DIR when DIR has no
# source, built when it has no binary (DIR/src/booksim).
#
#   bash tb/booksim/build.sh DIR
set -euo pipefail
dir=${1:?usage: build.sh DIR}
rev=28f43299
if [ ! -x "$dir/src/booksim" ]; then
    if [ ! -d "$dir/src" ]; then
        mkdir -p "$(dirname "$dir")"
        git clone -q https://github.com/booksim/booksim2 "$dir"
        git -C "$dir" checkout -q "$rev"
    fi
    make -C "$dir/src" -j2 >/dev/null
fi
