#!/bin/bash
# a fake /proc/stat: idle CPUs per second by phase (PHASES: "SECONDS:IDLE_HUNDREDTHS ...")
i=0 b=0 t=0
while [ $t -lt 400 ]; do
  x=0 acc=0
  for p in $PHASES; do acc=$((acc + ${p%%:*})); if [ $t -lt $acc ]; then x=${p#*:}; break; fi; done
  i=$((i + x)) b=$((b + 200 - x))
  echo "cpu  $b 0 0 $i 0 0 0 0 0 0" > "$FAKE_DIR/stat.tmp"; mv "$FAKE_DIR/stat.tmp" "$FAKE_DIR/stat"
  sleep 1; t=$((t + 1))
done
