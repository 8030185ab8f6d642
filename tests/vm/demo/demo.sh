# SPDX-License-Identifier: GPL-2.0
#
# make demo. Until the remote-swap data path lands, the demo shows the rig
# that every spare test runs on: it runs the rig scenario and says so.
cat <<'TXT'

spare demo: the test rig
------------------------
This guest is Debian's own kernel under QEMU. Two simulated hosts, each with
its own NIC and soft-RoCE device, talk real RDMA verbs through a bridge.
The demo measures RDMA latency and bandwidth between them, cuts and heals
the link with netfilter, loads and unloads spare.ko, and swaps a workload
four times larger than its cgroup's memory.max onto zram, verifying every
page. The remote-swap story replaces this once spare.ko's data path works.

TXT
. /spare/tests/vm/rig-smoke.sh
