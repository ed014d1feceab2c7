#!/usr/bin/env bash
# Screenshot a VCD in GTKWave with tb/pft.gtkw, zoomed to the whole run, as PNG (for the docs).
# Needs: gtkwave xvfb x11-apps imagemagick (apt). Usage: screenshot.sh IN.vcd OUT.png
set -euo pipefail
# both paths from where the script is run
vcd=$(realpath -m "$1"); png=$(realpath -m "$2")
tcl="$(mktemp --suffix .tcl)"; xwd="$(mktemp --suffix .xwd)"
trap 'rm -f "$tcl" "$xwd"' EXIT
echo 'gtkwave::/Time/Zoom/Zoom_Full' > "$tcl"
cd "$(dirname "$0")/../.."
# (the paths as arguments, not inside the command: any character in them is safe)
xvfb-run -a -s "-screen 0 1400x900x24" bash -c \
    'gtkwave -S "$1" "$2" tb/pft.gtkw >/dev/null 2>&1 & sleep 8; xwd -root -silent > "$3"; kill %1' \
    _ "$tcl" "$vcd" "$xwd"
convert "$xwd" "$png"
echo "wrote $png"
