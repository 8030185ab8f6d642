# SPDX-License-Identifier: GPL-2.0
# libspare-agg: C client of spare-aggd, static (for our programs) and
# shared (build/lib/libspare-agg.so, for the Python binding).

LIBSPARE_AGG_SRCS := userspace/libspare-agg/spare_agg.c userspace/lib/agg_proto.c

$(OUT)/obj-pic/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(USER_CPPFLAGS) -Iuserspace/aggd $(USER_CFLAGS) -fPIC -MMD -MP -c -o $@ $<

$(OUT)/lib/libspare-agg.so: $(LIBSPARE_AGG_SRCS:%.c=$(OUT)/obj-pic/%.o)
	@mkdir -p $(dir $@)
	$(CC) -shared -Wl,-soname,libspare-agg.so -o $@ $^ -lrdmacm -libverbs -lm

userspace: $(OUT)/lib/libspare-agg.so
spare_agg_CFLAGS := -Iuserspace/aggd

-include $(shell find $(OUT)/obj-pic -name '*.d' 2>/dev/null)
