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
swap_setup 2
echo 48M >/sys/fs/cgroup/work/memory.max
for i in 1 2; do
cg_run work spare-memtest -p 2 192m || why_died work
for f in instr_in_submit instr_outside instr_waits; do echo "INSTR $i $f $(cat /sys/module/spare/parameters/$f 2>/dev/null)"; done
done
echo "lru_gen $(cat /sys/kernel/mm/lru_gen/enabled)"
pass done
