# SPDX-License-Identifier: GPL-2.0
#
# Where direct reclaim's swap writes reach spare's ->queue_rq(): inside
# submit_bio() (a plug flushed because the next bio found it full) or at
# the plug's final flush; and the swap time. Not run by make check. Needs
# spare.ko built with Documentation/perf/reclaim-dispatch/instr-*.patch
# (module parameters instr_in_submit, instr_outside, instr_waits); the
# README there has the commands and the figures.
. /spare/tests/vm/lib.sh
. /spare/tests/vm/spare.inc
set -u
watchdog 600
rxe_up 3
donor_start 2 --budget 256M --slab-size 16M
donor_start 3 --budget 256M --slab-size 16M
spare_load
disk=$(spare_create swap0 size=256M slab_size=16M replicas=2 \
	donors=10.0.0.2:18515,10.0.0.3:18515 source=10.0.0.1)
mkswap "/dev/$disk" >/dev/null; swapon "/dev/$disk"
cg_new work 48M
for i in 1 2; do
cg_run work spare-memtest -p 2 192m || why_died work
for f in instr_in_submit instr_outside instr_waits; do echo "INSTR $i $f $(cat /sys/module/spare/parameters/$f 2>/dev/null)"; done
done
echo "lru_gen $(cat /sys/kernel/mm/lru_gen/enabled)"
pass done
