#!/bin/bash
# The rounds of docs/img/threads-split-host-2026-12-05.csv (docs/performance.md, "Threads",
# "Where two threads' time goes on this machine"): the barrier probe, ib648 on one thread,
# on two threads, on two threads with every chunk run by the calling thread (MAINONLY), and
# two one-thread processes at once. PATCHED: a `fast` build with
# docs/img/threads-split-timing.patch applied (it prints the PROF line); PROBE: any build.
P=${PATCHED:-target/fast/net-bench}
F="--topo ib648 --load 0.5 --cycles 40000"
echo "round,kind,wall_s,cpu_s,work0_s,work1_s,take0_s,take1_s,helper_wait_s,main_wait_s,apply_s"
for r in 1 2 3 4 5; do
  pr=$(${PROBE:-target/fast/net-bench} --topo single:2 --load 0 --cycles 1000000 --threads 2 2>&1 | grep -oE 'wall_s=[0-9.]+' | cut -d= -f2)
  echo "$r,probe_us_per_cycle,$pr,,,,,,,,"
  o=$($P $F --threads 1 2>&1); echo "$r,one_thread,$(echo "$o" | grep -oE 'wall_s=[0-9.]+' | cut -d= -f2),$(echo "$o" | grep -oE "(^| )cpu_s=[0-9.]+" | cut -d= -f2),,,,,,,"
  for kind in two_threads main_only; do
    if [ $kind = main_only ]; then export MAINONLY=1; else unset MAINONLY; fi
    o=$($P $F --threads 2 2>&1)
    g() { echo "$o" | grep -oE "(^| )$1=[0-9.]+" | head -1 | cut -d= -f2; }
    echo "$r,$kind,$(g wall_s),$(g cpu_s),$(g work0),$(g work1),$(g take0),$(g take1),$(g helperwait),$(g mainwait),$(g apply)"
  done
  unset MAINONLY
  a=$( ( $P $F --threads 1 2>&1 | grep -oE "(^| )cpu_s=[0-9.]+" | cut -d= -f2 ) & ( $P $F --threads 1 2>&1 | grep -oE "(^| )cpu_s=[0-9.]+" | cut -d= -f2 ); wait )
  echo "$r,two_processes_cpu,$(echo $a | tr ' ' ';'),,,,,,,,"
done
