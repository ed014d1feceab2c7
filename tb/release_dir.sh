#!/usr/bin/env bash
# Prints the absolute directory cargo builds this workspace's release binaries into:
# target/release, or under CARGO_TARGET_DIR or a cargo config's build.target-dir (as
# cargo itself resolves them), so that a script runs the binary it has just built and
# never a stale one left in target/release.
#   bin=$(bash tb/release_dir.sh)/pftsim
# Run it from the directory the script runs cargo from (a relative CARGO_TARGET_DIR is
# taken from there, as cargo takes it).
set -euo pipefail
cargo metadata --format-version 1 --no-deps --offline --manifest-path "$(dirname "$0")/../Cargo.toml" |
    python3 -c 'import json, sys; print(json.load(sys.stdin)["target_directory"] + "/release")'
