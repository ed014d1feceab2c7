#!/bin/bash
# The rounds of docs/img/threads-split-host-2026-12-05.csv (docs/performance.md, "Threads",
# "Where two threads' time goes on this machine"): ib648 at load 0.5 for 40,000 cycles.
# Each round: the barrier probe (us a cycle), one thread and two threads with an unpatched
# build (UNPATCHED), then with a build carrying docs/img/threads-split-timing.patch
# (PATCHED, which prints the PROF line): two threads, two threads with every chunk run by
# the calling thread (MAINONLY=1), and two one-thread processes at once (their CPU times,
# ';'-separated, in the wall_s column). Both builds `cargo build --profile fast`.
#   PATCHED=... UNPATCHED=... bash docs/img/threads-split-rounds.sh [ROUNDS] > OUT.csv
P=${PATCHED:?a build with the timing patch}
U=${UNPATCHED:-target/fast/net-bench}
F="--topo ib648 --load 0.5 --cycles 40000"
get() { echo "$1" | grep -oE "(^| )$2=[0-9.e+]+" | head -1 | cut -d= -f2; }
echo "round,kind,wall_s,cpu_s,work0_s,work1_s,take0_s,take1_s,helper_wait_s,main_wait_s,apply_s,nic_read_s,nic_eval_s,sw_read_s,sw_eval_s"
for r in $(seq "${1:-5}"); do
  o=$($U --topo single:2 --load 0 --cycles 1000000 --threads 2 2>&1)
  echo "$r,probe_us_per_cycle,$(get "$o" wall_s),,,,,,,,,,,,"
  for t in 1 2; do
    o=$($U $F --threads $t 2>&1)
    echo "$r,unpatched_threads_$t,$(get "$o" wall_s),$(get "$o" cpu_s),,,,,,,,,,,"
  done
  for kind in two_threads main_only; do
    o=$( if [ $kind = main_only ]; then MAINONLY=1 $P $F --threads 2 2>&1; else $P $F --threads 2 2>&1; fi )
    echo "$r,$kind,$(get "$o" wall_s),$(get "$o" cpu_s),$(get "$o" work0),$(get "$o" work1),$(get "$o" take0),$(get "$o" take1),$(get "$o" helperwait),$(get "$o" mainwait),$(get "$o" apply),$(get "$o" nicread),$(get "$o" niceval),$(get "$o" swread),$(get "$o" sweval)"
  done
  a=$( ( $U $F --threads 1 2>&1 | grep -oE "(^| )cpu_s=[0-9.]+" | cut -d= -f2 ) & ( $U $F --threads 1 2>&1 | grep -oE "(^| )cpu_s=[0-9.]+" | cut -d= -f2 ); wait )
  echo "$r,two_processes_cpu,$(echo $a | tr ' ' ';'),,,,,,,,,,,,"
done
