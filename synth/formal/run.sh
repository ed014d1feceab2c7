#!/usr/bin/env bash
# Formal check of the exported PftInjector Verilog (`make formal`): every property of
# synth/formal/pft_props.sv and pft_level.sv, then deliberately broken copies of the Verilog
# that must fail. Prints one table and exits non-zero if a property fails on the real design,
# if a proof that should close does not, or if a broken copy is NOT caught.
#
#   usage: bash synth/formal/run.sh [FILE.v]        (default: synth/out/pft_injector.v)
#   make formal  =  make verilog, then this script
#
# Per property, Yosys builds one SMT-LIBv2 model: pft_props.sv with -DP_<NAME> around the
# unmodified export, `flatten`, observe.ys (binds the internal signals the property reads),
# the property's cut points (see PROPERTIES), and a cone-of-influence reduction (everything
# that cannot reach an assertion, assumption or cover is deleted). Then yosys-smtbmc runs
#   BMC        from power-up for DEPTH cycles (default 30: steps 0..29), every assertion
#              checked in every step; a failure writes a counterexample VCD
#   induction  k-induction up to IND_DEPTH (default 4); "closed, k = K" means the property
#              (with its helper invariants) holds in every reachable state, for ever
#   covers     on the design without cut points: every `cover` of the property is reached
#              within DEPTH cycles (the property is not vacuous)
# level_is_f (pft_level.sv) is combinational: one check over all inputs is a full proof.
#
# Environment: DEPTH=30 IND_DEPTH=4 SOLVER=z3 CUTS=1 (0: no cut points, the whole design;
# about 3 times slower) MUTANTS=1 (0: skip the broken designs) PROPS="name ..." (only these).
# Writes only synth/formal/out/ (models, logs) and out/formal/ (summary.txt, VCD traces).
# Run from anywhere. z3 is driven with --unroll: in yosys-smtbmc's default mode (uninterpreted
# functions for the state) z3 4.8.12 does not finish even step 0 of this design.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
arg="${1:+$(realpath -m -- "$1")}"
cd "$root"

: "${YOSYS:=yosys}"
: "${SMTBMC:=yosys-smtbmc}"
: "${SOLVER:=z3}"
: "${DEPTH:=30}"
: "${IND_DEPTH:=4}"
: "${CUTS:=1}"
: "${MUTANTS:=1}"
: "${PROPS:=}"

verilog="${arg:-$root/synth/out/pft_injector.v}"
if [[ ! -f "$verilog" ]]; then
    echo "error: $verilog not found (run: make verilog)" >&2
    exit 2
fi
for t in "$YOSYS" "$SMTBMC" "$SOLVER"; do
    if ! command -v "$t" >/dev/null 2>&1; then
        echo "error: '$t' not found on PATH (Debian: apt-get install yosys z3)" >&2
        exit 127
    fi
done

work="$here/out"          # models and logs
traces="$root/out/formal" # summary and counterexample traces
rm -rf "$work" "$traces"
mkdir -p "$work" "$traces"
cp "$verilog" "$work/pft_injector.v"

# The properties of pft_props.sv, in the order of the table, each with its cut points: design
# signals replaced by a free input ($anyseq, Yosys `cutpoint`) before the check. A cut can only
# add behaviours, so a property that holds with it holds for the real design too, and says
# more: the credit and detector properties hold whatever the throttle decides (throttle_ok
# free); the throttling properties hold whatever the detector decides and whatever the
# generator produces (the next FSM state and the next r free). The cuts keep the run short:
# with the throttle logic in the cone of a 30-step unrolling z3 needs minutes per property.
# A cut model can show a counterexample the real design cannot reach; if a property fails,
# rerun it with CUTS=0. All properties are expected to close by induction; one that does not
# is reported as FAIL (the proof was lost), with its BMC result.
THROTTLE='dut.throttle_ok'
DETECTOR='dut.fsm.state$d dut.ri.state$d'
PROPERTIES=(
    "no_send_without_credit|$THROTTLE"
    "c_update|$THROTTLE"
    "c_within_limit|$THROTTLE"
    "normal_never_throttles|$DETECTOR"
    "fi_spacing|$DETECTOR"
    "fi_not_stricter|$DETECTOR"
    "ri_gate|$DETECTOR"
    "packet_body_passes|$THROTTLE"
    "shape_decoded|"
    "ft_state|$THROTTLE"
    "at_state|$THROTTLE"
    "held_normal|$THROTTLE"
    "at_counters|$THROTTLE"
    "at_within_window|$THROTTLE"
)

# Deliberately broken copies of the export: name | sed expression | property that must fail.
# They are checked on the whole design (no cut points, no reduction), so every trace is a real
# behaviour of the broken Verilog and shows every signal.
MUTANT_LIST=(
    "credit-check-dropped|s/ready = ~reset & flit_valid & credit\$credit_ok;/ready = ~reset \& flit_valid;/|no_send_without_credit"
    "fi-gap-plus-one|s/ok = ~level_ovf & (gap32 >= level);/ok = ~level_ovf \& (gap32 + 32'h1 >= level);/|fi_spacing"
    "ft-enter-ge|s/hit_now = c > th_enter;/hit_now = c >= th_enter;/|ft_state"
    "gating-dropped|s/pass = throttle_ok . (csr\$gate_packet & ~flit_head);/pass = throttle_ok;/|packet_body_passes"
    "gating-heads-too|s/pass = throttle_ok . (csr\$gate_packet & ~flit_head);/pass = throttle_ok ^ (csr\$gate_packet \& ~throttle_ok);/|fi_spacing"
    "r-width-ignored|s/masked = state\$q & mask;/masked = state\$q;/|ri_gate"
)

failed=0
rows=()
t_all=$SECONDS

now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }
wanted() { [[ -z "$PROPS" || " $PROPS " == *" $1 "* ]]; }

# build DIR MACRO VERILOG TOP SOURCE CUTS COI: write DIR/model.smt2 (Yosys log DIR/yosys.log).
# CUTS: signals to cut; COI=1: delete what cannot reach an assert, assume or cover. A model
# with COI=0 and no cuts is the whole design: its traces show every signal (in a reduced
# model, signals outside the cone are simply absent and read as 0 in a VCD).
build() {
    local dir="$1" macro="$2" v="$3" top="$4" src="$5" cuts="$6" coi="$7"
    mkdir -p "$dir"
    local defs="" observe="" cut="" reduce=""
    [[ -n "$macro" ]] && defs="-D$macro"
    [[ "$top" == pft_formal ]] && observe="script $here/observe.ys;"
    [[ "$coi" == 1 ]] && reduce="select -set coi t:\$assert t:\$assume %u t:\$cover %u %ci*; \
            select -set dead @coi %n t:* %i; delete @dead; opt_clean;"
    local w
    for w in $cuts; do
        # select -assert-count: a renamed signal must fail loudly, not leave the cut out.
        cut+="select -assert-count 1 w:$w; cutpoint w:$w; "
    done
    if ! "$YOSYS" -q -l "$dir/yosys.log" -p "read_verilog -formal -sv $defs $src; \
            read_verilog $v; hierarchy -check -top $top; proc; flatten; $observe \
            check -assert; $cut opt -keepdc -fast; $reduce \
            async2sync; dffunmap; opt_clean; stat; \
            write_smt2 -wires $dir/model.smt2" >/dev/null 2>&1; then
        echo "error: yosys failed for $dir, log $dir/yosys.log:" >&2
        grep -E 'ERROR|Warning' "$dir/yosys.log" | head -n 5 >&2
        exit 2
    fi
}

# smtbmc LOG ARGS...: run yosys-smtbmc, keep its log, echo PASSED / FAILED / ERROR.
smtbmc() {
    local log="$1"
    shift
    "$SMTBMC" -s "$SOLVER" --unroll "$@" >"$log" 2>&1 || true
    # The solver's progress spinner uses carriage returns; keep the log readable.
    sed -i 's/\r/\n/g' "$log"
    if grep -q 'Status: PASSED' "$log"; then echo PASSED
    elif grep -q 'Status: FAILED' "$log"; then echo FAILED
    else echo ERROR; fi
}

# first_failure LOG: "step N, file:line" of the first failed assertion in a BMC log.
first_failure() {
    local log="$1" step where
    step=$(grep -o 'Checking assertions in step [0-9]*' "$log" | tail -n 1 | grep -o '[0-9]*$' || true)
    where=$(grep -m1 -o 'Assert failed in [^ ]*: [^ ]*' "$log" | sed 's/.*: //; s|.*/||' || true)
    echo "step ${step:-?}, ${where:-?}"
}

printf 'formal: %s, yosys-smtbmc -s %s --unroll, BMC %s cycles, induction k <= %s, cuts %s\n' \
    "${verilog#"$root"/}" "$SOLVER" "$DEPTH" "$IND_DEPTH" "$([[ $CUTS == 1 ]] && echo on || echo off)"

# ---- level_is_f: combinational, all inputs at once -------------------------------------------
if wanted level_is_f; then
    t0=$(now)
    build "$work/level_is_f" "" "$work/pft_injector.v" pft_level_formal "$here/pft_level.sv" "" 0
    r=$(smtbmc "$work/level_is_f/bmc.log" -t 1 --dump-vcd "$traces/level_is_f.vcd" \
        "$work/level_is_f/model.smt2")
    t=$(elapsed "$t0" "$(now)")
    if [[ "$r" == PASSED ]]; then
        rows+=("level_is_f|PASS|-|all inputs|complete (combinational)|-|$t")
    else
        rows+=("level_is_f|FAIL|-|$r, $(first_failure "$work/level_is_f/bmc.log")|-|-|$t")
        failed=1
    fi
    echo "  level_is_f: $r (${t}s)"
fi

# ---- the sequential properties ---------------------------------------------------------------
for entry in "${PROPERTIES[@]}"; do
    IFS='|' read -r p cuts <<<"$entry"
    wanted "$p" || continue
    [[ "$CUTS" == 1 ]] || cuts=""
    macro="P_${p^^}"
    if ! grep -q "ifdef $macro\$" "$here/pft_props.sv"; then
        echo "error: no property $p ($macro) in pft_props.sv" >&2
        exit 2
    fi
    cut_txt="-"
    case "$cuts" in
        "$THROTTLE") cut_txt="throttle" ;;
        "$DETECTOR") cut_txt="state, r" ;;
    esac
    dir="$work/$p"
    t0=$(now)
    build "$dir" "$macro" "$work/pft_injector.v" pft_formal "$here/pft_props.sv" "$cuts" 1
    t1=$(now)
    bmc=$(smtbmc "$dir/bmc.log" -t "$DEPTH" --dump-vcd "$traces/$p.vcd" "$dir/model.smt2")
    t2=$(now)
    ind=$(smtbmc "$dir/induction.log" -i -t "$IND_DEPTH" "$dir/model.smt2")
    t3=$(now)
    # Covers, on the full design (no cut points): every one must be reached within DEPTH.
    if [[ -n "$cuts" ]]; then
        build "$dir/cover" "$macro" "$work/pft_injector.v" pft_formal "$here/pft_props.sv" "" 1
        cover_model="$dir/cover/model.smt2"
    else
        cover_model="$dir/model.smt2"
    fi
    cov=$(smtbmc "$dir/cover.log" -c -t "$DEPTH" "$cover_model")
    t4=$(now)
    n_reached=$(grep -c 'Reached cover statement' "$dir/cover.log" || true)
    n_unreached=$(grep -c 'Unreached cover statement' "$dir/cover.log" || true)
    cov_steps=$(grep -o 'Reached cover statement at .* in step [0-9]*' "$dir/cover.log" \
        | grep -o '[0-9]*$' | sort -n | tail -n 1 || true)
    cov_txt="$n_reached/$((n_reached + n_unreached)) by step ${cov_steps:-?}"
    # yosys-smtbmc -i walks back from step IND_DEPTH (where the assertions are negated) and
    # stops at the first step s where the negation becomes unsatisfiable: k = IND_DEPTH - s
    # earlier steps were needed (k = 0: the assertion holds in any state that satisfies that
    # cycle's assumptions, no induction hypothesis needed).
    last=$(grep -o 'Trying induction in step [0-9]*' "$dir/induction.log" | tail -n 1 \
        | grep -o '[0-9]*$' || true)
    if [[ "$ind" == PASSED ]]; then
        ind_txt="closed, k = $((IND_DEPTH - ${last:-0}))"
    else
        ind_txt="NOT closed (k <= $IND_DEPTH)"
    fi
    if [[ "$cov" != PASSED || "$n_unreached" -ne 0 || "$n_reached" -eq 0 ]]; then
        cov_txt="FAILED, $n_unreached unreached"
    fi
    bmc_full=""
    if [[ "$bmc" != PASSED ]]; then
        # Redo the BMC on the whole design (no cuts, no reduction): a trace of every signal,
        # and a cut-only counterexample (one the real design cannot produce) shows as such.
        build "$dir/full" "$macro" "$work/pft_injector.v" pft_formal "$here/pft_props.sv" "" 0
        bmc_full=$(smtbmc "$dir/full/bmc.log" -t "$DEPTH" --dump-vcd "$traces/$p.vcd" \
            "$dir/full/model.smt2")
        [[ "$bmc_full" == PASSED ]] && rm -f "$traces/$p.vcd"
    fi
    t_txt="$(elapsed "$t0" "$(now)") ($(elapsed "$t1" "$t2"), $(elapsed "$t2" "$t3"), $(elapsed "$t3" "$t4"))"
    if [[ "$bmc" == PASSED && "$ind" == PASSED && "$cov_txt" != FAILED* ]]; then
        result=PASS
        bmc_txt="$DEPTH, pass"
    elif [[ "$bmc" == PASSED ]]; then
        result="FAIL"
        bmc_txt="$DEPTH, pass"
        failed=1
    elif [[ "$bmc_full" == FAILED ]]; then
        result=FAIL
        bmc_txt="FAILED: $(first_failure "$dir/full/bmc.log"), out/formal/$p.vcd"
        failed=1
    else
        result=FAIL
        bmc_txt="$bmc with cuts ($(first_failure "$dir/bmc.log")), full design: $bmc_full"
        failed=1
    fi
    rows+=("$p|$result|$cut_txt|$bmc_txt|$ind_txt|$cov_txt|$t_txt")
    echo "  $p: $result (${t_txt%% *}s)"
done

# ---- broken designs: each must fail its property, with a counterexample VCD ------------------
mutant_rows=()
if [[ "$MUTANTS" == 1 ]]; then
    for m in "${MUTANT_LIST[@]}"; do
        IFS='|' read -r name expr prop <<<"$m"
        dir="$work/mutant-$name"
        mkdir -p "$dir"
        sed "$expr" "$work/pft_injector.v" >"$dir/pft_injector.v"
        diff "$work/pft_injector.v" "$dir/pft_injector.v" >"$dir/mutation.diff" || true
        if [[ ! -s "$dir/mutation.diff" ]]; then
            echo "error: mutant $name did not change the Verilog (did the export change?)" >&2
            mutant_rows+=("$name|$prop|NOT APPLIED|-|-")
            failed=1
            continue
        fi
        t0=$(now)
        build "$dir" "P_${prop^^}" "$dir/pft_injector.v" pft_formal "$here/pft_props.sv" "" 0
        r=$(smtbmc "$dir/bmc.log" -t "$DEPTH" --dump-vcd "$traces/mutant-$name.vcd" \
            "$dir/model.smt2")
        t=$(elapsed "$t0" "$(now)")
        if [[ "$r" == FAILED && -s "$traces/mutant-$name.vcd" ]]; then
            mutant_rows+=("$name|$prop|caught|$(first_failure "$dir/bmc.log")|$t")
        else
            mutant_rows+=("$name|$prop|NOT CAUGHT ($r)|-|$t")
            failed=1
        fi
        echo "  mutant $name: $r (${t}s)"
    done
fi

# ---- the table -------------------------------------------------------------------------------
{
    echo
    printf '%-23s %-6s %-9s %-11s %-24s %-15s %s\n' property result cuts "BMC cycles" \
        induction "covers" "time s (BMC, ind., covers)"
    for row in "${rows[@]}"; do
        IFS='|' read -r a b c d e f g <<<"$row"
        printf '%-23s %-6s %-9s %-11s %-24s %-15s %s\n' "$a" "$b" "$c" "$d" "$e" "$f" "$g"
    done
    if ((${#mutant_rows[@]})); then
        echo
        printf '%-21s %-23s %-11s %-35s %s\n' "broken design" "property" result \
            "first failing step, assertion" "time s"
        for row in "${mutant_rows[@]}"; do
            IFS='|' read -r a b c d e <<<"$row"
            printf '%-21s %-23s %-11s %-35s %s\n' "$a" "$b" "$c" "$d" "$e"
        done
        echo "counterexamples: out/formal/mutant-<name>.vcd; the edits: synth/formal/out/mutant-<name>/mutation.diff"
    fi
    echo
    echo "$("$YOSYS" -V); $SOLVER $("$SOLVER" --version 2>/dev/null | head -n 1 | sed 's/^Z3 version //')"
    echo "total $((SECONDS - t_all)) s; models and logs in synth/formal/out/"
    if [[ "$failed" -ne 0 ]]; then echo "FORMAL: FAILED"; else echo "FORMAL: OK"; fi
} | tee "$traces/summary.txt"

exit "$failed"
