# SPDX-License-Identifier: GPL-2.0
# spare-aggd unit tests: wire codec, summation kernels, policies and the
# partition state machine (userspace/aggd).

AGG_UNIT_CORE := userspace/aggd/agg_sum.c \
		 userspace/aggd/agg_sched.c userspace/aggd/agg_job.c

UNIT_TESTS += test_agg_proto test_agg_sum test_agg_sched test_agg_arrival
test_agg_proto_SRCS := tests/unit/test_agg_proto.c $(AGG_UNIT_CORE)
test_agg_proto_LDLIBS := -lm
test_agg_proto_CFLAGS := -Iuserspace/aggd
test_agg_sum_SRCS := tests/unit/test_agg_sum.c $(AGG_UNIT_CORE)
test_agg_sum_LDLIBS := -lm
test_agg_sum_CFLAGS := -Iuserspace/aggd
test_agg_arrival_SRCS := tests/unit/test_agg_arrival.c userspace/aggd/agg_sum.c \
			 userspace/aggd/agg_job.c
test_agg_arrival_LDLIBS := -lm
test_agg_arrival_CFLAGS := -Iuserspace/aggd
test_agg_sched_SRCS := tests/unit/test_agg_sched.c $(AGG_UNIT_CORE)
test_agg_sched_LDLIBS := -lm
test_agg_sched_CFLAGS := -Iuserspace/aggd

# The daemon's hold-and-replay of requests while a job moves, over the
# message transport (tests/agg/aggd_harness.h: the daemon's own code).
UNIT_TESTS += test_aggd_hold
test_aggd_hold_SRCS := tests/unit/test_aggd_hold.c
test_aggd_hold_LDLIBS := -lsodium -lz -lm
test_aggd_hold_CFLAGS := -Iuserspace/aggd -Iuserspace/sched

# RDMA pushes lent or copied, and their counters, through the daemon's own
# dispatch (tests/agg/aggd_harness.h, its transport stub lending).
UNIT_TESTS += test_aggd_lend
test_aggd_lend_SRCS := tests/unit/test_aggd_lend.c
test_aggd_lend_LDLIBS := -lsodium -lz -lm
test_aggd_lend_CFLAGS := -Iuserspace/aggd -Iuserspace/sched

# Over RDMA a pull is done at its reply's send completion (sends held in
# flight through tests/agg/aggd_harness.h), and a close with one in flight;
# the reply sent from the registered output in place (read at completion),
# its job pinned until then, the copy when registration fails.
UNIT_TESTS += test_aggd_reply
test_aggd_reply_SRCS := tests/unit/test_aggd_reply.c
test_aggd_reply_LDLIBS := -lsodium -lz -lm
test_aggd_reply_CFLAGS := -Iuserspace/aggd -Iuserspace/sched

# A job's buffers made off the event loop: REGISTERs wait and their
# requests are held, a close cancels, an allocation failure answers
# AGG_ENOMEM (tests/agg/aggd_harness.h, the creation test hook).
UNIT_TESTS += test_aggd_create
test_aggd_create_SRCS := tests/unit/test_aggd_create.c
test_aggd_create_LDLIBS := -lsodium -lz -lm
test_aggd_create_CFLAGS := -Iuserspace/aggd -Iuserspace/sched

# REPORT handling and FlowCon's weights through the daemon's own dispatch
# (tests/agg/aggd_harness.h).
UNIT_TESTS += test_aggd_report
test_aggd_report_SRCS := tests/unit/test_aggd_report.c
test_aggd_report_LDLIBS := -lsodium -lz -lm
test_aggd_report_CFLAGS := -Iuserspace/aggd -Iuserspace/sched

# spare-aggctl's metrics reader and cgroup path checks.
UNIT_TESTS += test_aggctl
test_aggctl_SRCS := tests/unit/test_aggctl.c userspace/aggctl/aggctl_util.c \
		    userspace/aggctl/aggctl_json.c
test_aggctl_LDLIBS := -ljson-c -lm
test_aggctl_CFLAGS := -Iuserspace/aggctl

# Tenants: the tenants file, the proof, names scoped to tenants, caps
# (tests/agg/aggd_harness.h).
UNIT_TESTS += test_aggd_tenants
test_aggd_tenants_SRCS := tests/unit/test_aggd_tenants.c
test_aggd_tenants_LDLIBS := -lsodium -lz -lm
test_aggd_tenants_CFLAGS := -Iuserspace/aggd -Iuserspace/sched

# An RDMA worker connection's set-up off the event loop: agg_rdma.c
# against a fake rdma_cm/verbs layer, the helper held by the test (events
# while it runs, the daemon stopping, a failed registration, the cap).
UNIT_TESTS += test_aggd_rdma_setup
test_aggd_rdma_setup_SRCS := tests/unit/test_aggd_rdma_setup.c
test_aggd_rdma_setup_LDLIBS := -lsodium -lz -lm
test_aggd_rdma_setup_CFLAGS := -Iuserspace/aggd
