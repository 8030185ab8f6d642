#!/bin/bash
# loop.sh DIR N CASE...: run DIR/tests/broker/run CASE N times under two busy loops
d=$1 n=$2; shift 2
cd "$d" || exit 1
B=()
for i in 1 2; do nice -n 0 sh -c 'while :; do :; done' & B+=($!); done
trap 'kill "${B[@]}"' EXIT
for i in $(seq $n); do
	echo "=== run $i $(date +%T) load $(cut -d' ' -f1 /proc/loadavg)"
	BROKER_KEEP=1 nice -n 5 tests/broker/run "$@" 2>&1
done
