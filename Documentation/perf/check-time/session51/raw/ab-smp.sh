#!/bin/bash
# ab2.sh NAME KVER SCEN BACKEND: A (-c 2) and B (-c 1) side by side, 2 rounds
cd /work/main
k=$2; s=$3; b=${4:+-b $4}
for r in 1 2; do
  for v in A B; do
    c=2; [ $v = B ] && c=1
    ( t0=$(date +%s.%N); /work/prompts/s51/vmrun scripts/vm/run -k $k $b -c $c -t 900 tests/vm/$s.sh > /tmp/ab2-$1-$r-$v.log 2>&1; rc=$?; t1=$(date +%s.%N); echo "$1 round $r $v(cpus=$c) rc=$rc $(echo "$t1 - $t0" | bc) s" >> /tmp/ab2-results.txt ) &
    sleep 1
  done
  wait
done
