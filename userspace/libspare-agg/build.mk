# SPDX-License-Identifier: GPL-2.0
# libspare-agg: C client of spare-aggd, static (for our programs) and
# shared (build/lib/libspare-agg.so.$(LIBSPARE_AGG_VERSION), soname
# libspare-agg.so.$(LIBSPARE_AGG_SOVERSION), for the Python binding and C clients).
#
# LIBSPARE_AGG_SOVERSION changes when the ABI breaks (a removed or changed
# function or struct); the Debian package name follows it (libspare-agg0).
# LIBSPARE_AGG_VERSION is the full version of the file.
LIBSPARE_AGG_SOVERSION := 0
LIBSPARE_AGG_VERSION   := $(LIBSPARE_AGG_SOVERSION).1.0
LIBSPARE_AGG_SO        := $(OUT)/lib/libspare-agg.so.$(LIBSPARE_AGG_VERSION)

LIBSPARE_AGG_SRCS := userspace/libspare-agg/spare_agg.c userspace/lib/agg_proto.c \
		     userspace/lib/spare_rdma.c userspace/lib/agg_auth.c \
		     userspace/lib/spare_auth.c userspace/lib/spare_keyfile.c \
		     userspace/lib/spare_log.c kmod/core/spare_proto.c

$(OUT)/obj-pic/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(USER_CPPFLAGS) $(CPPFLAGS) -Iuserspace/aggd $(USER_CFLAGS) $(CFLAGS) -fPIC -MMD -MP -c -o $@ $<

$(LIBSPARE_AGG_SO): $(LIBSPARE_AGG_SRCS:%.c=$(OUT)/obj-pic/%.o) userspace/libspare-agg/libspare-agg.map
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(LDFLAGS) -shared -Wl,-soname,libspare-agg.so.$(LIBSPARE_AGG_SOVERSION) \
		-Wl,--version-script=userspace/libspare-agg/libspare-agg.map \
		-Wl,--as-needed -Wl,-z,defs -o $@ $(filter %.o,$^) -lrdmacm -libverbs -lsodium -lz -lm

# The soname link (what programs and the binding load) and the link-time
# name (what -lspare-agg finds; only the -dev package ships it), chained
# as installed: .so -> .so.0 -> .so.0.1.0. Making the .so makes both.
$(OUT)/lib/libspare-agg.so.$(LIBSPARE_AGG_SOVERSION): $(LIBSPARE_AGG_SO)
	ln -sf $(notdir $<) $@
$(OUT)/lib/libspare-agg.so: $(OUT)/lib/libspare-agg.so.$(LIBSPARE_AGG_SOVERSION)
	ln -sf $(notdir $<) $@

userspace: $(OUT)/lib/libspare-agg.so.$(LIBSPARE_AGG_SOVERSION) $(OUT)/lib/libspare-agg.so
spare_agg_CFLAGS := -Iuserspace/aggd

-include $(shell find $(OUT)/obj-pic -name '*.d' 2>/dev/null)
