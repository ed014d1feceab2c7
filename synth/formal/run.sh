#!/usr/bin/env bash
# Formal check of the exported PftInjector Verilog (`make formal`): every property of
# synth/formal/pft_props.sv and pft_level.sv, then deliberately broken copies of the Verilog
# that must fail. Prints one table and exits non-zero if a property fails on the real design,
# if a proof that should close does not, or if a broken copy is NOT caught.
#
#   usage: bash synth/formal/run.sh [FILE.v]        (default: synth/out/pft_injector.v)
#   make formal  =  make verilog, then this script
#
# Two builds: the default (top pft_injector) and the pipelined build (top
# pft_injector_pipelined, synth/out/pft_injector_pipelined.v, `make verilog-pipelined`). The
# top is the first module of FILE.v, or $PFT_TOP when set (then FILE.v defaults to
# synth/out/$PFT_TOP.v). The pipelined build gets the same properties with -DPIPELINED: the
# throttle properties restated for its delayed level (pft_props.sv, "The pipelined build"),
# level_is_f as a sequential property of the running design (its level register is f(c) of
# two cycles earlier), and its own broken designs. Its export computes compares, detector
# flags and the RI verdict a cycle ahead in registers of their own; their invariants are
# proved first (lookahead_*) and assumed by the other properties.
#
# Per property, Yosys builds one SMT-LIBv2 model: pft_props.sv (after the register map's
# generated package, hdl/generated/pft_regs_pkg.sv) with -DP_<NAME> around the
# unmodified export, `flatten`, observe.ys (binds the internal signals the property reads),
# the property's cut points (see PROPERTIES), and a cone-of-influence reduction (everything
# that cannot reach an assertion, assumption or cover is deleted). Then yosys-smtbmc runs
#   BMC        from power-up for DEPTH cycles (default 30: steps 0..29), every assertion
#              checked in every step; a failure writes a counterexample VCD
#   induction  k-induction up to IND_DEPTH (default 4); "closed, k = K" means the property
#              (with its helper invariants) holds in every reachable state, for ever
#   covers     on the design without cut points: every `cover` of the property is reached
#              within DEPTH cycles (the property is not vacuous)
# level_is_f (pft_level.sv) is combinational: one check over all inputs is a full proof
# (default build; in the pipelined build it is sequential and runs like the others).
#
# Environment: DEPTH=30 IND_DEPTH=4 SOLVER=z3 (`make formal`: yices, about 4x less CPU here)
# LEVEL_SOLVER=z3 (the solver of level_is_f: the shifter against its arithmetic definition,
# which Yices 2.6.5 takes minutes over where z3 takes two seconds) CUTS=1 (0: no cut points, the whole design;
# about 3 times slower) MUTANTS=1 (0: skip the broken designs) PROPS="name ..." (only these)
# JOBS=1 (checks run at once; 2 on a 2-core machine halves the wall time) PFT_TOP (the top).
# Writes only synth/formal/out/ (models, logs) and out/formal/ (summary.txt, VCD traces) for
# the default top, synth/formal/out/<top>/ and out/formal/<top>/ for another top; a run of the
# default top leaves those subdirectories alone (they hold a file .formal-top). Run from
# anywhere. z3 is driven with --unroll: in yosys-smtbmc's default mode (uninterpreted
# functions for the state) z3 4.8.12 does not finish even step 0 of this design.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
arg="${1:+$(realpath -m -- "$1")}"
cd "$root"

: "${YOSYS:=yosys}"
: "${SMTBMC:=yosys-smtbmc}"
: "${SOLVER:=z3}"
: "${LEVEL_SOLVER:=z3}"
: "${DEPTH:=30}"
: "${IND_DEPTH:=4}"
: "${CUTS:=1}"
: "${MUTANTS:=1}"
: "${PROPS:=}"
: "${JOBS:=1}"

if [[ -n "${PFT_TOP:-}" ]]; then
    verilog="${arg:-$root/synth/out/$PFT_TOP.v}"
else
    verilog="${arg:-$root/synth/out/pft_injector.v}"
fi
if [[ ! -f "$verilog" ]]; then
    echo "error: $verilog not found (run: make verilog, or make verilog-pipelined)" >&2
    exit 2
fi
# The top: $PFT_TOP, else the first module of the file (the exporter writes the top first).
pft_top="${PFT_TOP:-$(sed -n 's/^module \([A-Za-z_][A-Za-z0-9_]*\)(.*/\1/p' "$verilog" | head -n 1)}"
if ! grep -q "^module $pft_top(" "$verilog"; then
    echo "error: no module '$pft_top' in $verilog" >&2
    exit 2
fi
case "$pft_top" in
    pft_injector) pipelined=0 ;;
    pft_injector_pipelined) pipelined=1 ;;
    *)
        echo "error: top '$pft_top': the properties know pft_injector and pft_injector_pipelined" >&2
        exit 2
        ;;
esac
for t in "$YOSYS" "$SMTBMC" "$SOLVER" "$LEVEL_SOLVER"; do
    if ! command -v "$t" >/dev/null 2>&1; then
        echo "error: '$t' not found on PATH (Debian: apt-get install yosys z3; yices comes from" \
            "synth/setup-venv.sh, and \`make formal\` puts .venv/bin on the PATH)" >&2
        exit 127
    fi
done

# Output directories: models and logs, and the summary with the counterexample traces.
if [[ "$pft_top" == pft_injector ]]; then
    work="$here/out"
    traces="$root/out/formal"
else
    work="$here/out/$pft_top"
    traces="$root/out/formal/$pft_top"
fi
# clean DIR: empty DIR, except the subdirectories of other tops' runs (marked .formal-top).
clean() {
    local e
    [[ -d "$1" ]] || return 0
    for e in "$1"/* "$1"/.[!.]*; do
        [[ -e "$e" ]] || continue
        [[ -f "$e/.formal-top" ]] && continue
        rm -rf "$e"
    done
}
if [[ "$pft_top" == pft_injector ]]; then
    clean "$work"
    clean "$traces"
else
    rm -rf "$work" "$traces"
fi
mkdir -p "$work" "$traces"
if [[ "$pft_top" != pft_injector ]]; then
    echo "$pft_top" >"$work/.formal-top"
    echo "$pft_top" >"$traces/.formal-top"
fi
rel_work="${work#"$root"/}"
rel_traces="${traces#"$root"/}"
design="$work/$pft_top.v"
cp "$verilog" "$design"

# The macros of this build, and its extra bindings. The pipelined export may have look-ahead
# registers for c's compares (instances cmp_*: CreditCompare), in its RI generator
# (ri.ahead_masked) and in its detector (fsm registers win_p1 ... ge1_q: CongestionFsmFast);
# their helper invariants (H_CMP, H_RMASK, H_FSM in pft_props.sv) are used when they are
# there. Without them the inductions across those registers cannot close.
BUILD_DEFS=""
OBSERVE_EXTRA=""
lookahead=""
if [[ "$pipelined" == 1 ]]; then
    BUILD_DEFS="PIPELINED"
    if grep -q "^module $pft_top\$cmp_limit(" "$design"; then
        BUILD_DEFS+=" LOOKAHEAD_CMP"
        OBSERVE_EXTRA+=" script $here/observe_lookahead_cmp.ys;"
        lookahead+=" compares"
    fi
    if grep -q "^module $pft_top\$ri\$ahead_masked(" "$design"; then
        BUILD_DEFS+=" LOOKAHEAD_RI"
        OBSERVE_EXTRA+=" script $here/observe_lookahead_ri.ys;"
        lookahead+=" generator"
    fi
    if grep -q "^module $pft_top\$fsm\$win_p1(" "$design"; then
        BUILD_DEFS+=" LOOKAHEAD_FSM"
        OBSERVE_EXTRA+=" script $here/observe_lookahead_fsm.ys;"
        lookahead+=" detector"
    fi
fi

# Cut groups (the second field of PROPERTIES), and the signals each one cuts:
#   throttle   throttle_ok
#   detector   the next FSM state and the generator's next value (default build: ri.state$d;
#              pipelined build: the xorshift output ri.x3, which feeds ri.ahead and the masked
#              look-ahead register its RI verdict is computed from)
#   level      (pipelined) the input of the level register L: the throttling properties
#              compare with the design's L, so they hold whatever L holds; level_is_f proves
#              L = f(c) of two cycles earlier. Takes the barrel shifter out of their cone.
#   cmp        (pipelined, look-ahead compares) the inputs of the three compare flags; the
#              property assumes H_CMP (each flag = its compare of c), proved by lookahead_*
#   fsm        (pipelined, look-ahead detector) the inputs of the detector's precomputed
#              counters and flags; the AT properties assume H_FSM, proved by lookahead_fsm
#   compares   (pipelined, look-ahead detector) the detector's inputs c > TH_ENTER and
#              c < TH_ESCAPE (lookahead_fsm holds whatever they say)
# pft_props.sv assumes H_CMP and H_FSM in exactly the properties that get `cmp` and `fsm` here.
cut_wires() {
    local g
    for g in $1; do
        case "$g" in
            throttle) echo 'dut.throttle_ok' ;;
            detector)
                if [[ "$lookahead" == *generator* ]]; then echo 'dut.fsm.state$d dut.ri.x3'
                elif [[ "$pipelined" == 1 ]]; then echo 'dut.fsm.state$d dut.ri.r_next'
                else echo 'dut.fsm.state$d dut.ri.state$d'; fi ;;
            level) echo 'dut.level_pipe.level_q$d dut.level_pipe.level_ovf_q$d' ;;
            cmp) echo 'dut.cmp_limit.lt_q$d dut.cmp_enter.gt_q$d dut.cmp_escape.lt_q$d' ;;
            fsm) local r
                for r in win_p1 win_p2 hit_p1 hit_p2 wrap_q end_q tp0_q ge0_q ge1_q; do
                    echo "dut.fsm.$r\$d"
                done ;;
            compares) echo 'dut.fsm$above dut.fsm$below' ;;
            *) echo "error: unknown cut group $g" >&2; exit 2 ;;
        esac
    done
}
cut_label() {
    case "$1" in
        "") echo "-" ;;
        throttle) echo "throttle" ;;
        detector) echo "state, r" ;;
        *) echo "${1// /,}" ;;
    esac
}

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
#
# The pipelined build: the throttling properties also cut the level; with look-ahead
# registers, `cmp` and `fsm` are added below, and their invariants come first.
DET="detector"
[[ "$pipelined" == 1 ]] && DET="detector level"
PROPERTIES=()
if [[ "$lookahead" == *compares* ]]; then
    # lookahead_*: asserted in every step of a 30-step BMC, the compares' arithmetic costs z3
    # about 50 s per step; their BMC runs IND_DEPTH + 1 steps (with the closed induction, the
    # same proof).
    PROPERTIES+=("lookahead_limit|throttle|$((IND_DEPTH + 1))"
        "lookahead_enter|throttle|$((IND_DEPTH + 1))"
        "lookahead_escape|throttle|$((IND_DEPTH + 1))")
fi
[[ "$lookahead" == *detector* ]] && PROPERTIES+=("lookahead_fsm|compares|$((IND_DEPTH + 1))")
# level_is_f of the pipelined build compares the design's barrel shifter with the exact 48-bit
# f(c) in every checked step, about 4 s per step in a 30-step unrolling (2 min): its BMC runs
# IND_DEPTH steps, which with the closed induction (k <= IND_DEPTH) is the same proof. (A
# third field sets a property's BMC depth; a property fails if its BMC is shorter than the k
# its induction needed.) The default build's level_is_f is combinational (pft_level.sv).
[[ "$pipelined" == 1 ]] && PROPERTIES+=("level_is_f|throttle|$IND_DEPTH")
PROPERTIES+=(
    "no_send_without_credit|throttle"
    "c_update|throttle"
    "c_within_limit|throttle"
    "normal_never_throttles|$DET"
    "fi_spacing|$DET"
    "fi_not_stricter|$DET"
    "ri_gate|$DET"
    "packet_body_passes|throttle"
    "shape_decoded|"
    "ft_state|throttle"
    "at_state|throttle"
    "held_normal|throttle"
    "at_counters|throttle"
    "at_within_window|throttle"
)
if [[ -n "$lookahead" ]]; then
    for i in "${!PROPERTIES[@]}"; do
        IFS='|' read -r p g d <<<"${PROPERTIES[$i]}"
        case "$p" in
            lookahead_* | level_is_f | shape_decoded | held_normal) ;;
            at_*)
                [[ "$lookahead" == *compares* ]] && g+=" cmp"
                [[ "$lookahead" == *detector* ]] && g+=" fsm" ;;
            *) [[ "$lookahead" == *compares* ]] && g+=" cmp" ;;
        esac
        PROPERTIES[$i]="$p|$g|$d"
    done
fi

# Deliberately broken copies of the export: name | sed expression | property that must fail.
# They are checked on the whole design (no cut points, no reduction), so every trace is a real
# behaviour of the broken Verilog and shows every signal.
if [[ "$pipelined" == 0 ]]; then
    MUTANT_LIST=(
        "credit-check-dropped|s/ready = ~reset & flit_valid & credit\$credit_ok;/ready = ~reset \& flit_valid;/|no_send_without_credit"
        "fi-gap-plus-one|s/operand = ((gap) & 32'hffffffff);/operand = ((gap) \& 32'hffffffff) + 32'h1;/|fi_spacing"
        "ft-enter-ge|s/hit_now = c > th_enter;/hit_now = c >= th_enter;/|ft_state"
        "gating-dropped|s/pass = throttle_ok . (csr\$gate_packet & ~flit_head);/pass = throttle_ok;/|packet_body_passes"
        "gating-heads-too|s/pass = throttle_ok . (csr\$gate_packet & ~flit_head);/pass = throttle_ok ^ (csr\$gate_packet \& ~throttle_ok);/|fi_spacing"
        "r-width-ignored|s/operand = r & mask;/operand = r;/|ri_gate"
    )
else
    # The pipelined build's own: the precomputed FI compare off by one (gap + 1 >= L); the FI
    # verdict from this cycle's gap instead of the next one (stricter: fi_not_stricter); the RI
    # verdict from this cycle's r instead of the next one; the second level stage skipped (L
    # takes the shifter's output: f(c(t-1)), a cycle early); the level's overflow flag a cycle
    # early (the spill of the shifter, not of the shift register). Then the default build's
    # mutants that apply unchanged.
    MUTANT_LIST=(
        "fi-ok-plus-one|s/idle_ok = hi_zero & (gap_inc\$q >= lvl_lo);/idle_ok = hi_zero \& (gap_inc\$q + 32'h1 >= lvl_lo);/|fi_spacing"
        "fi-verdict-gap-now|s/idle_ok = hi_zero & (gap_inc\$q >= lvl_lo);/idle_ok = hi_zero \& (count\$q >= lvl_lo);/|fi_not_stricter"
        "ri-verdict-r-now|s/ahead_masked\$d = x3 & mask_next;/ahead_masked\$d = r_next \& mask_next;/|ri_gate"
        "level-stage-skipped|s/level_q\$d = shift_q\$q + /level_q\$d = shifter\$level + /|level_is_f"
        "level-ovf-early|s/level_ovf_q\$d = shift_ovf_q\$q /level_ovf_q\$d = shifter\$level_ovf /|level_is_f"
        "credit-check-dropped|s/ready = ~reset & flit_valid & credit\$credit_ok;/ready = ~reset \& flit_valid;/|no_send_without_credit"
        "gating-dropped|s/pass = throttle_ok . (csr\$gate_packet & ~flit_head);/pass = throttle_ok;/|packet_body_passes"
        "gating-heads-too|s/pass = throttle_ok . (csr\$gate_packet & ~flit_head);/pass = throttle_ok ^ (csr\$gate_packet \& ~throttle_ok);/|fi_spacing"
        "r-width-ignored|s/ahead_masked\$d = x3 & mask_next;/ahead_masked\$d = x3;/|ri_gate"
    )
    if [[ "$lookahead" == *compares* ]]; then
        # c > TH_ENTER is a look-ahead flag there: c' - x - 1 >= 0 becomes c' - x >= 0 (in a
        # cycle without a send or a write), i.e. c >= TH_ENTER.
        MUTANT_LIST+=("ft-enter-ge|/^module $pft_top\$cmp_enter(/,/^endmodule/s/gt_q\$d = ~fast_m1\[/gt_q\$d = ~fast_idle[/|ft_state")
    else
        MUTANT_LIST+=("ft-enter-ge|s/hit_now = c > th_enter;/hit_now = c >= th_enter;/|ft_state")
    fi
fi

failed=0
t_all=$SECONDS

now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }
wanted() { [[ -z "$PROPS" || " $PROPS " == *" $1 "* ]]; }

# The register map's SystemVerilog package (generated from hdl/src/regs.rs, kept current by
# `make docs` and a test): the properties take addresses, bit positions and field widths from
# it, so it is read before them.
REGS_PKG="$root/hdl/generated/pft_regs_pkg.sv"
[[ -f "$REGS_PKG" ]] || { echo "error: $REGS_PKG not found" >&2; exit 2; }

# build DIR MACRO VERILOG TOP SOURCE CUTS COI [DIR2]: write DIR/model.smt2 (Yosys log
# DIR/yosys.log). CUTS: signals to cut; COI=1: delete what cannot reach an assert, assume or
# cover. A model with COI=0 and no cuts is the whole design: its traces show every signal (in
# a reduced model, signals outside the cone are simply absent and read as 0 in a VCD). DIR2:
# the same Yosys run also writes DIR2/model.smt2, the model without the cuts.
build() {
    local dir="$1" macro="$2" v="$3" top="$4" src="$5" cuts="$6" coi="$7" dir2="${8:-}"
    mkdir -p "$dir"
    local defs="" observe="" cut="" reduce="" d
    for d in $macro $BUILD_DEFS; do defs+=" -D$d"; done
    [[ "$top" == pft_formal ]] && observe="script $here/observe.ys; script $here/observe_$pft_top.ys;$OBSERVE_EXTRA"
    [[ "$coi" == 1 ]] && reduce="select -set coi t:\$assert t:\$assume %u t:\$cover %u %ci*; \
            select -set dead @coi %n t:* %i; delete @dead; opt_clean;"
    local w
    for w in $cuts; do
        # select -assert-count: a renamed signal must fail loudly, not leave the cut out.
        cut+="select -assert-count 1 w:$w; cutpoint w:$w; "
    done
    local save="" second=""
    if [[ -n "$dir2" ]]; then
        mkdir -p "$dir2"
        save="design -save base;"
        second="design -load base; opt -keepdc -fast; $reduce \
            async2sync; dffunmap; opt_clean; stat; write_smt2 -wires $dir2/model.smt2"
    fi
    if ! "$YOSYS" -q -l "$dir/yosys.log" -p "read_verilog -formal -sv $defs $REGS_PKG $src; \
            read_verilog $v; hierarchy -check -top $top; proc; flatten; $observe \
            check -assert; $save $cut opt -keepdc -fast; $reduce \
            async2sync; dffunmap; opt_clean; stat; \
            write_smt2 -wires $dir/model.smt2; $second" >/dev/null 2>&1; then
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

printf 'formal: %s (top %s), yosys-smtbmc -s %s (level_is_f: %s) --unroll, BMC %s cycles, induction k <= %s, cuts %s\n' \
    "${verilog#"$root"/}" "$pft_top" "$SOLVER" "$LEVEL_SOLVER" "$DEPTH" "$IND_DEPTH" "$([[ $CUTS == 1 ]] && echo on || echo off)"
[[ -n "$lookahead" ]] && echo "  look-ahead registers found:$lookahead (helper invariants H_CMP, H_FSM on)"

# Each check below is a function that writes its table row to a file (ROWS/<index>) and a
# progress line to stdout; with JOBS > 1 up to JOBS of them run at once.
ROWS="$work/.rows"
mkdir -p "$ROWS"

# ---- level_is_f: combinational, all inputs at once -------------------------------------------
# (default build; the pipelined build's level_is_f is sequential, in PROPERTIES)
check_level_comb() {
    local row="$1" t0 r t
    t0=$(now)
    build "$work/level_is_f" "" "$design" pft_level_formal "$here/pft_level.sv" "" 0
    r=$(SOLVER="$LEVEL_SOLVER" smtbmc "$work/level_is_f/bmc.log" -t 1 --dump-vcd "$traces/level_is_f.vcd" \
        "$work/level_is_f/model.smt2")
    t=$(elapsed "$t0" "$(now)")
    if [[ "$r" == PASSED ]]; then
        echo "level_is_f|PASS|-|all inputs|complete (combinational)|-|$t" >"$row"
    else
        echo "level_is_f|FAIL|-|$r, $(first_failure "$work/level_is_f/bmc.log")|-|-|$t" >"$row"
    fi
    echo "  level_is_f: $r (${t}s)"
}

# ---- the sequential properties ---------------------------------------------------------------
check_prop() {
    local row="$1" entry="$2"
    local p groups pdepth cuts macro cut_txt dir t0 t1 t2 t3 t4 bmc ind cov cover_model
    local n_reached n_unreached cov_steps cov_txt last kk ind_txt bmc_full t_txt result bmc_txt
    IFS='|' read -r p groups pdepth <<<"$entry"
    local SOLVER="$SOLVER"
    [[ "$p" == level_is_f ]] && SOLVER="$LEVEL_SOLVER"
    pdepth="${pdepth:-$DEPTH}"
    [[ "$CUTS" == 1 ]] || groups=""
    cuts="$(cut_wires "$groups" | tr '\n' ' ')"
    macro="P_${p^^}"
    cut_txt="$(cut_label "$groups")"
    dir="$work/$p"
    t0=$(now)
    # with cut points, the same Yosys run writes the model for the covers (no cut points)
    if [[ -n "$cuts" ]]; then
        build "$dir" "$macro" "$design" pft_formal "$here/pft_props.sv" "$cuts" 1 "$dir/cover"
        cover_model="$dir/cover/model.smt2"
    else
        build "$dir" "$macro" "$design" pft_formal "$here/pft_props.sv" "" 1
        cover_model="$dir/model.smt2"
    fi
    t1=$(now)
    bmc=$(smtbmc "$dir/bmc.log" -t "$pdepth" --dump-vcd "$traces/$p.vcd" "$dir/model.smt2")
    t2=$(now)
    ind=$(smtbmc "$dir/induction.log" -i -t "$IND_DEPTH" "$dir/model.smt2")
    t3=$(now)
    # Covers, on the full design (no cut points): every one must be reached within DEPTH.
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
        kk=$((IND_DEPTH - ${last:-0}))
        ind_txt="closed, k = $kk"
        if ((pdepth < kk)); then
            # the induction step assumes k good steps; the BMC must have shown the first k
            ind="SHORT"
            ind_txt="closed, k = $kk > BMC"
        fi
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
        build "$dir/full" "$macro" "$design" pft_formal "$here/pft_props.sv" "" 0
        bmc_full=$(smtbmc "$dir/full/bmc.log" -t "$pdepth" --dump-vcd "$traces/$p.vcd" \
            "$dir/full/model.smt2")
        [[ "$bmc_full" == PASSED ]] && rm -f "$traces/$p.vcd"
    fi
    t_txt="$(elapsed "$t0" "$(now)") ($(elapsed "$t1" "$t2"), $(elapsed "$t2" "$t3"), $(elapsed "$t3" "$t4"))"
    if [[ "$bmc" == PASSED && "$ind" == PASSED && "$cov_txt" != FAILED* ]]; then
        result=PASS
        bmc_txt="$pdepth, pass"
    elif [[ "$bmc" == PASSED ]]; then
        result="FAIL"
        bmc_txt="$pdepth, pass"
    elif [[ "$bmc_full" == FAILED ]]; then
        result=FAIL
        bmc_txt="FAILED: $(first_failure "$dir/full/bmc.log"), $rel_traces/$p.vcd"
    else
        result=FAIL
        bmc_txt="$bmc with cuts ($(first_failure "$dir/bmc.log")), full design: $bmc_full"
    fi
    echo "$p|$result|$cut_txt|$bmc_txt|$ind_txt|$cov_txt|$t_txt" >"$row"
    echo "  $p: $result (${t_txt%% *}s)"
}

# ---- broken designs: each must fail its property, with a counterexample VCD ------------------
check_mutant() {
    local row="$1" m="$2" name expr prop dir t0 r t
    IFS='|' read -r name expr prop <<<"$m"
    dir="$work/mutant-$name"
    mkdir -p "$dir"
    sed "$expr" "$design" >"$dir/$pft_top.v"
    diff "$design" "$dir/$pft_top.v" >"$dir/mutation.diff" || true
    if [[ ! -s "$dir/mutation.diff" ]]; then
        echo "error: mutant $name did not change the Verilog (did the export change?)" >&2
        echo "$name|$prop|NOT APPLIED|-|-" >"$row"
        return 0
    fi
    t0=$(now)
    # Without the look-ahead invariants (H_CMP, H_FSM, and the RI one): proved for the real
    # design, they need not hold for a broken one, and a BMC does not need them.
    local BUILD_DEFS="$BUILD_DEFS" OBSERVE_EXTRA="$OBSERVE_EXTRA"
    if [[ "$prop" != lookahead_* ]]; then
        BUILD_DEFS="${BUILD_DEFS/ LOOKAHEAD_CMP/}"
        BUILD_DEFS="${BUILD_DEFS/ LOOKAHEAD_FSM/}"
        BUILD_DEFS="${BUILD_DEFS/ LOOKAHEAD_RI/}"
        OBSERVE_EXTRA=""
    fi
    build "$dir" "P_${prop^^}" "$dir/$pft_top.v" pft_formal "$here/pft_props.sv" "" 0
    r=$(smtbmc "$dir/bmc.log" -t "$DEPTH" --dump-vcd "$traces/mutant-$name.vcd" \
        "$dir/model.smt2")
    t=$(elapsed "$t0" "$(now)")
    if [[ "$r" == FAILED && -s "$traces/mutant-$name.vcd" ]]; then
        echo "$name|$prop|caught|$(first_failure "$dir/bmc.log")|$t" >"$row"
    else
        echo "$name|$prop|NOT CAUGHT ($r)|-|$t" >"$row"
    fi
    echo "  mutant $name: $r (${t}s)"
}

# ---- run them -------------------------------------------------------------------------------
# spawn FUNCTION ARGS...: run it now (JOBS = 1), or in the background once fewer than JOBS
# checks are running. An interrupted run stops its running checks.
trap 'kill $(jobs -p) 2>/dev/null; exit 130' INT TERM
spawn() {
    if ((JOBS <= 1)); then
        "$@"
        return
    fi
    while (($(jobs -rp | wc -l) >= JOBS)); do wait -n || true; done
    "$@" &
}
prop_rows=()
mutant_rows_files=()
n=0
if [[ "$pipelined" == 0 ]] && wanted level_is_f; then
    prop_rows+=("$ROWS/$n")
    spawn check_level_comb "$ROWS/$n"
    n=$((n + 1))
fi
for entry in "${PROPERTIES[@]}"; do
    p="${entry%%|*}"
    wanted "$p" || continue
    if ! grep -q "ifdef P_${p^^}\$" "$here/pft_props.sv"; then
        echo "error: no property $p (P_${p^^}) in pft_props.sv" >&2
        exit 2
    fi
    prop_rows+=("$ROWS/$n")
    spawn check_prop "$ROWS/$n" "$entry"
    n=$((n + 1))
done
if [[ "$MUTANTS" == 1 ]]; then
    for m in "${MUTANT_LIST[@]}"; do
        mutant_rows_files+=("$ROWS/$n")
        spawn check_mutant "$ROWS/$n" "$m"
        n=$((n + 1))
    done
fi
wait || true

# Collect the rows in order; a missing one means its check stopped on an error.
rows=()
mutant_rows=()
for f in "${prop_rows[@]}" "${mutant_rows_files[@]}"; do
    if [[ ! -s "$f" ]]; then
        echo "error: a check did not finish (see the logs in $rel_work/)" >&2
        exit 2
    fi
done
for f in "${prop_rows[@]}"; do
    row="$(cat "$f")"
    rows+=("$row")
    IFS='|' read -r _ result _ <<<"$row"
    [[ "$result" == PASS ]] || failed=1
done
for f in "${mutant_rows_files[@]}"; do
    row="$(cat "$f")"
    mutant_rows+=("$row")
    IFS='|' read -r _ _ result _ <<<"$row"
    [[ "$result" == caught ]] || failed=1
done

# ---- the table -------------------------------------------------------------------------------
{
    echo
    cw=9 # the cuts column: 9 wide, or its longest entry
    for row in "${rows[@]}"; do
        IFS='|' read -r a b c d e f g <<<"$row"
        ((${#c} > cw)) && cw=${#c}
    done
    printf "%-23s %-6s %-${cw}s %-11s %-24s %-15s %s\n" property result cuts "BMC cycles" \
        induction "covers" "time s (BMC, ind., covers)"
    for row in "${rows[@]}"; do
        IFS='|' read -r a b c d e f g <<<"$row"
        printf "%-23s %-6s %-${cw}s %-11s %-24s %-15s %s\n" "$a" "$b" "$c" "$d" "$e" "$f" "$g"
    done
    if ((${#mutant_rows[@]})); then
        echo
        printf '%-21s %-23s %-11s %-35s %s\n' "broken design" "property" result \
            "first failing step, assertion" "time s"
        for row in "${mutant_rows[@]}"; do
            IFS='|' read -r a b c d e <<<"$row"
            printf '%-21s %-23s %-11s %-35s %s\n' "$a" "$b" "$c" "$d" "$e"
        done
        echo "counterexamples: $rel_traces/mutant-<name>.vcd; the edits: $rel_work/mutant-<name>/mutation.diff"
    fi
    echo
    solvers=""
    for s in $(printf '%s\n' "$SOLVER" "$LEVEL_SOLVER" | sort -u); do
        solvers+="; $s $("$s" --version 2>/dev/null | head -n 1 | sed 's/^Z3 version //; s/^Yices //')"
    done
    echo "$("$YOSYS" -V)$solvers"
    echo "total $((SECONDS - t_all)) s; models and logs in $rel_work/"
    if [[ -n "$lookahead" && -n "$PROPS" ]]; then
        for p in lookahead_limit lookahead_enter lookahead_escape lookahead_fsm; do
            if ! wanted "$p"; then
                echo "note: PROPS left out $p; results that assume its invariant are conditional"
                break
            fi
        done
    fi
    if [[ "$failed" -ne 0 ]]; then echo "FORMAL: FAILED"; else echo "FORMAL: OK"; fi
} | tee "$traces/summary.txt"

exit "$failed"
