#!/usr/bin/env bash
# A directory for a script's results that keeps earlier ones: DIR is made if missing, and
# the files an earlier run left there are moved into DIR/.previous-<UTC time>[-N]/ first,
# said on stderr (as pftsim moves an earlier command's files aside: docs/bad-inputs.md).
#   bash tb/fresh_dir.sh DIR FILE...   moves the FILEs (names in DIR) that exist: a
#                                      directory the user names keeps everything else
#   bash tb/fresh_dir.sh DIR           moves every entry but earlier .previous-*: only for
#                                      the fixed directories of make targets (out/...)
# DIR itself is never moved or replaced (it may be the current directory or a link). A
# pftsim result directory (one holding .pftsim.lock) is refused: it belongs to its run.
set -euo pipefail
dir=${1:?usage: fresh_dir.sh DIR [FILE...]}
shift
case $dir in -*) dir=./$dir ;; esac # (not an option to find, ls or mv)
if [ -e "$dir" ] && [ ! -d "$dir" ]; then
    echo "error: $dir exists and is not a directory; name another" >&2
    exit 1
fi
if [ -e "$dir/.pftsim.lock" ]; then
    echo "error: $dir is a pftsim result directory (it holds .pftsim.lock); name another" >&2
    exit 1
fi
mkdir -p -- "$dir"
if [ $# -gt 0 ]; then
    names=("$@")
else
    names=()
    while IFS= read -r -d '' e; do
        n=${e##*/}
        case $n in .previous-*) ;; *) names+=("$n") ;; esac
    done < <(find "$dir/" -mindepth 1 -maxdepth 1 -print0)
fi
present=()
for n in ${names[@]+"${names[@]}"}; do
    if [ -e "$dir/$n" ] || [ -L "$dir/$n" ]; then
        present+=("$n")
    fi
done
[ ${#present[@]} -eq 0 ] && exit 0
aside="$dir/.previous-$(date -u +%Y%m%dT%H%M%S)"
k=1
while [ -e "$aside" ]; do
    aside="$dir/.previous-$(date -u +%Y%m%dT%H%M%S)-$k"
    k=$((k + 1))
done
mkdir -- "$aside"
for n in "${present[@]}"; do
    mv -- "$dir/$n" "$aside/"
done
echo "note: ${#present[@]} earlier file(s) of $dir moved to $aside" >&2
