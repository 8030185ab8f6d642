#!/bin/bash
# ab.sh NAME KVER SCEN [BACKEND]: A (plain) and B (mitigations=off) side by side
cd /work/main
k=$2; s=$3; b=${4:+-b $4}
for r in 1 2; do
  for v in A B; do
    app=; [ $v = B ] && app="mitigations=off"
    ( t0=$(date +%s.%N); SPARE_VM_APPEND="$app" /work/prompts/s51/vmrun scripts/vm/run -k $k $b -t 900 tests/vm/$s.sh > /tmp/ab-$1-$r-$v.log 2>&1; rc=$?; t1=$(date +%s.%N); echo "$1 round $r $v rc=$rc $(echo "$t1 - $t0" | bc) s" >> /tmp/ab-results.txt ) &
    sleep 1
  done
  wait
done
