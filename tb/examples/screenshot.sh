#!/usr/bin/env bash
# Screenshot a VCD in GTKWave with tb/pft.gtkw, zoomed to the whole run, as PNG (for the docs).
# Needs: gtkwave xvfb x11-apps imagemagick (apt). Usage: screenshot.sh IN.vcd OUT.png
set -euo pipefail
vcd="$1"; png="$2"
tcl="$(mktemp --suffix .tcl)"; xwd="$(mktemp --suffix .xwd)"
trap 'rm -f "$tcl" "$xwd"' EXIT
echo 'gtkwave::/Time/Zoom/Zoom_Full' > "$tcl"
cd "$(dirname "$0")/../.."
xvfb-run -a -s "-screen 0 1400x900x24" bash -c \
    "gtkwave -S '$tcl' '$vcd' tb/pft.gtkw >/dev/null 2>&1 & sleep 8; xwd -root -silent > '$xwd'; kill %1"
convert "$xwd" "$png"
echo "wrote $png"
