# SPDX-License-Identifier: GPL-2.0
# spare-aggd: the shared gradient-aggregation pool (Documentation/aggd.md).

# Pure-logic core shared by the daemon, libspare-agg, tests and benchmarks.
AGG_CORE_SRCS := userspace/aggd/agg_sum.c \
		 userspace/aggd/agg_sched.c userspace/aggd/agg_job.c

PROGS += spare-aggd
# The daemon's rooms (aggd_main.c says which calls which).
AGGD_SRCS := $(addprefix userspace/aggd/,aggd_conn.c aggd_jobs.c aggd_migrate.c \
		aggd_dispatch.c aggd_reclaim.c aggd_rdma_cb.c aggd_report.c aggd_tenants.c)
# aggd_jobs.h carries each job's FlowCon state (aggd_report_state.h,
# userspace/sched/flowcon.h).
$(foreach f,aggd_main $(basename $(notdir $(AGGD_SRCS))),$(eval $(f)_CFLAGS := -Iuserspace/sched))
spare-aggd_SRCS   := userspace/aggd/aggd_main.c $(AGGD_SRCS) userspace/aggd/agg_pool.c \
		     userspace/aggd/agg_rdma.c userspace/aggd/agg_state_rdma.c $(AGG_CORE_SRCS)
spare-aggd_LDLIBS := $(OUT)/lib/libspare-sched.a -luring -lrdmacm -libverbs -linih -lmicrohttpd -lsystemd -lsodium -lz -lm

# agg_sched.c orders jobs through libspare-sched (userspace/sched/order.h).
agg_sched_CFLAGS := -Iuserspace/sched
$(OUT)/bin/spare-aggd $(OUT)/agg/spare-aggd-san: $(OUT)/lib/libspare-sched.a
# tests/unit/agg.mk builds agg_sched.c into these (it is included first).
test_agg_proto_SRCS += $(OUT)/lib/libspare-sched-san.a
test_agg_sum_SRCS   += $(OUT)/lib/libspare-sched-san.a
test_agg_sched_SRCS += $(OUT)/lib/libspare-sched-san.a

# Host integration driver for tests/agg/run.
PROGS += spare-agg-itest
spare-agg-itest_SRCS   := tests/agg/agg_itest.c userspace/libspare-agg/spare_agg.c \
			  userspace/aggd/agg_sum.c userspace/aggd/agg_state_rdma.c
spare-agg-itest_LDLIBS := -lrdmacm -libverbs -lsodium -lz -lm
agg_itest_CFLAGS := -Iuserspace/aggd -Iuserspace/libspare-agg

# The daemon built with ASan+UBSan, for tests/agg/run.
$(OUT)/agg/spare-aggd-san: $(spare-aggd_SRCS:%.c=$(OUT)/obj-san/%.o) $(OUT)/lib/libspare-san.a
	@mkdir -p $(dir $@)
	$(CC) $(USER_CFLAGS) $(SAN_FLAGS) -o $@ $^ $(spare-aggd_LDLIBS) -lpthread

unit: $(OUT)/agg/spare-aggd-san

# Benchmarks (tools/aggbench, Documentation/perf-aggd.md).
PROGS += aggbench-sum aggbench-pool
aggbench-sum_SRCS    := tools/aggbench/sumbench.c userspace/aggd/agg_sum.c
aggbench-sum_LDLIBS  := -lm
sumbench_CFLAGS      := -Iuserspace/aggd
aggbench-pool_SRCS   := tools/aggbench/poolbench.c userspace/libspare-agg/spare_agg.c
aggbench-pool_LDLIBS := -lrdmacm -libverbs -lsodium -lz -lm
poolbench_CFLAGS     := -Iuserspace/aggd -Iuserspace/libspare-agg
