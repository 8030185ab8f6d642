# SPDX-License-Identifier: GPL-2.0
# spare-broker: placement and grants over TCP (Documentation/broker.md).
PROGS += spare-broker
BROKER_CORE_SRCS := userspace/broker/bstate.c
spare-broker_SRCS   := userspace/broker/broker_main.c $(BROKER_CORE_SRCS) $(OUT)/lib/libspare-sched.a
spare-broker_LDLIBS := -linih -lsystemd -lmicrohttpd -lsodium -lz -lm
broker_main_CFLAGS := -Iuserspace/sched
bstate_CFLAGS := -Iuserspace/sched

# The daemon built with ASan+UBSan, for tests/broker/run.
$(OUT)/broker/spare-broker-san: $(patsubst %.c,$(OUT)/obj-san/%.o,$(filter %.c,$(spare-broker_SRCS))) \
				$(OUT)/lib/libspare-sched-san.a $(OUT)/lib/libspare-san.a
	@mkdir -p $(dir $@)
	$(CC) $(USER_CFLAGS) $(SAN_FLAGS) -o $@ $^ $(spare-broker_LDLIBS) -lpthread

unit: $(OUT)/broker/spare-broker-san

# Benchmark: grant throughput and latency (tools/brokerbench,
# Documentation/perf-broker.md).
PROGS += brokerbench
brokerbench_SRCS   := tools/brokerbench/brokerbench.c $(BROKER_CORE_SRCS) $(OUT)/lib/libspare-sched.a
brokerbench_LDLIBS := -lsodium
brokerbench_CFLAGS := -Iuserspace/broker -Iuserspace/sched
PROGS += brokerbench-tcp
brokerbench-tcp_SRCS   := tools/brokerbench/tcpbench.c
brokerbench-tcp_LDLIBS := -lsodium -lz
