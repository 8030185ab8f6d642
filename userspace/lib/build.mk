# SPDX-License-Identifier: GPL-2.0
# userspace/lib is built into libspare.a by userspace/userspace.mk; this file
# only gives the metrics writer the version it reports in spare_build_info.
SPARE_METRICS_VERSION := $(shell cat VERSION 2>/dev/null || echo unknown)
spare_metrics_CFLAGS := -DSPARE_METRICS_VERSION='"$(SPARE_METRICS_VERSION)"'
$(OUT)/obj/userspace/lib/spare_metrics.o $(OUT)/obj-san/userspace/lib/spare_metrics.o: VERSION
