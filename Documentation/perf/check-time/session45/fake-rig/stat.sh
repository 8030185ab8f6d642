#!/bin/bash
i=0 b=0 t=0
while [ $t -lt 200 ]; do
  if [ $t -lt 40 ]; then i=$((i+140)) b=$((b+60)); else i=$((i+20)) b=$((b+180)); fi
  echo "cpu  $b 0 0 $i 0 0 0 0 0 0" > /tmp/time31-fake/stat.tmp; mv /tmp/time31-fake/stat.tmp /tmp/time31-fake/stat
  sleep 1; t=$((t+1))
done
