#!/bin/bash
# pair.sh NAME KVER BACKEND SCENARIO ROUNDS VARIANT (from the top of the tree):
# the guest as make check boots it ("base") and VARIANT, side by side, ROUNDS
# times, holding both of the machine's guest slots (the lead's slot wrapper's
# lock files) so that no third guest runs beside them. Appends
# "NAME VARIANT ROUND wall= cpu= guest_end= SPARE-EXIT:" to $OUT/pairs.txt;
# cpu is QEMU's (and its wrapper's) user + system seconds.
# Variants, as measured in session 48 (before scripts/vm/run's defaults
# changed, "base" was -cpu max and no init_on_alloc=0):
#   fast: SPARE_VM_CPU=max,-erms SPARE_VM_APPEND=init_on_alloc=0
#   fasttsc: fast and tsc=reliable
# Session 49 (base: today's defaults, soft-RoCE's ICRC by crc32-generic):
#   rxepclmul: spare.rxecrc=pclmul (tests/vm/lib.sh's rxe_up loads
#   crc32-pclmul before rdma_rxe)
#   mitoff: mitigations=off (session 49, paired)
#   nostrip: SPARE_VM_STRIP=0, with session49/strip-overlay.diff applied
#   (not taken: the overlay's spare.ko and programs without debug info)
# To repeat it on today's tree, set base's SPARE_VM_CPU=max and drop
# init_on_alloc=0 from scripts/vm/run's APPEND.
n=$1 k=$2 b=$3 s=$4 r=$5 var=$6
OUT=${OUT:-/tmp/pair}
mkdir -p "$OUT"
run1() { # variant round
	local v=$1 i=$2 e u sy
	unset SPARE_VM_APPEND SPARE_VM_CPU SPARE_VM_STRIP
	case $v in
	fast) export SPARE_VM_CPU="max,-erms" SPARE_VM_APPEND="init_on_alloc=0" ;;
	fasttsc) export SPARE_VM_CPU="max,-erms" SPARE_VM_APPEND="init_on_alloc=0 tsc=reliable" ;;
	rxepclmul) export SPARE_VM_APPEND="spare.rxecrc=pclmul" ;;
	nostrip) export SPARE_VM_STRIP=0 ;;
	mitoff) export SPARE_VM_APPEND="mitigations=off" ;;
	esac
	export SPARE_VM_LOGDIR=$OUT/logs-$v
	/usr/bin/time -f "%e %U %S" -o "$OUT/t.$v" scripts/vm/run -k "$k" ${b:+-b "$b"} "$s" >"$OUT/p-$n-$v-$i.out" 2>&1
	read -r e u sy <"$OUT/t.$v"
	echo "$n $v $i wall=$e cpu=$(echo "$u + $sy" | bc) guest_end=$(grep -o '\[[0-9.]*s\]' "$OUT/p-$n-$v-$i.out" | tail -1) $(grep SPARE-EXIT "$OUT/p-$n-$v-$i.out") $(grep -m1 -o 'rxe_up: crc32 [^ ]*' "$OUT/p-$n-$v-$i.out") $(grep -m1 -o 'running .* at [0-9.]* s of uptime' "$OUT/p-$n-$v-$i.out" | sed 's/.* at /start=/; s/ s of uptime//')" >>"$OUT/pairs.txt"
}
exec 8>/tmp/spare-vm-slot-a.lock; flock 8
exec 9>/tmp/spare-vm-slot-b.lock; flock 9
for i in $(seq 1 "$r"); do
	run1 base "$i" & run1 "$var" "$i" & wait
	echo "-- load $(cut -d' ' -f1 /proc/loadavg)" >>"$OUT/pairs.txt"
done
