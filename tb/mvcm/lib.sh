# Shared by the tb/mvcm scripts and tb/selftuned/bursts.sh (`source` it): `root` is the
# repository; `new_out DIR` refuses an existing DIR (never write over another run's
# results) and creates it;
# `pftsim_bin` sets `bin` to $PFTSIM (a pftsim already built) or builds
# target/release/pftsim; `scenario_head FILE` writes scenarios/mvcm-hotspot.toml up to its
# first [[cc]] row (its network and traffic), for a script's own rows to follow;
# `cc_row NAME KIND [KEY=VALUE ...]` prints one [[cc]] row (a string VALUE keeps its quotes).
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)

new_out() {
    if [ -e "$1" ]; then
        echo "error: $1 exists; give a new directory" >&2
        exit 1
    fi
    mkdir -p "$1"
}

pftsim_bin() {
    if [ -n "${PFTSIM:-}" ]; then
        bin=$PFTSIM
    else
        cargo build --release -q --bin pftsim --manifest-path "$root/Cargo.toml"
        bin=$(bash "$root/tb/release_dir.sh")/pftsim
    fi
}

scenario_head() {
    awk '/^\[\[cc\]\]/ { exit } { print }' "$root/scenarios/mvcm-hotspot.toml" >"$1"
}

cc_row() {
    printf '[[cc]]\nname = "%s"\nkind = "%s"\n' "$1" "$2"
    local kv
    for kv in "${@:3}"; do
        printf '%s = %s\n' "${kv%%=*}" "${kv#*=}"
    done
}
