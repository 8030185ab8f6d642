# SPDX-License-Identifier: GPL-2.0
#
# spare top-level build.
#
#   make               userspace (-Werror) and, when the running kernel's
#                      headers are there (/lib/modules/$(uname -r)/build),
#                      spare.ko for it, as any out-of-tree driver; without
#                      them the rig's kernels (make setup), or userspace
#                      only and a note
#   make KDIR=<dir>    spare.ko against that kernel build tree
#   make KVER=<ver>    spare.ko for one kernel (the rig's unpacked headers,
#                      else /lib/modules/<ver>/build)
#   make deps          install what building needs, nothing more (root)
#   make setup         install the rig: build and test dependencies (root)
#   make check         every test tier; ends with "N passed, N failed"
#   make demo          boot the VM rig and show spare at work
#   make install       programs, library, headers, units, configs, man pages
#                      (DESTDIR, PREFIX; dist/install.mk); make install-dkms;
#                      make uninstall takes them away again
#   CPPFLAGS, CFLAGS, LDFLAGS (environment or command line) are added to
#   the project's flags for the programs and the library (userspace.mk).
#
# Outputs go to build/: build/bin (programs), build/lib, build/kmod/<kver>/spare.ko.

TOP	:= $(CURDIR)
OUT	:= $(TOP)/build
UNAME_R	:= $(shell uname -r)

# The kernels to build spare.ko for, and each one's build tree (kdir).
ifneq ($(KDIR),)
KVERS	:= $(or $(shell cat $(KDIR)/include/config/kernel.release 2>/dev/null),kdir)
kdir	= $(KDIR)
else
ifneq ($(KVER),)
KVERS	:= $(KVER)
else ifneq ($(wildcard /lib/modules/$(UNAME_R)/build/Makefile),)
KVERS	:= $(UNAME_R)
else
KVERS	:= $(shell $(TOP)/scripts/kvers)
endif
kdir	= $(firstword $(wildcard $(OUT)/kernels/$(1)/usr/src/linux-headers-$(1)) \
		      $(wildcard /lib/modules/$(1)/build) \
		      $(OUT)/kernels/$(1)/usr/src/linux-headers-$(1))
endif

.PHONY: all userspace kmod check demo setup deps clean sparse unit fuzz uninstall

all: userspace
ifneq ($(strip $(KVERS)),)
all: kmod
else
	@echo "note: no kernel headers for $(UNAME_R) (/lib/modules/$(UNAME_R)/build): built userspace only; for spare.ko install linux-headers-$(UNAME_R) or give KDIR=<kernel build tree>"
endif

include userspace/userspace.mk
include dist/install.mk

# spare.ko is built out of tree, once per kernel, in a private copy of the
# sources so that the objects of two kernels never meet. SPARE_WERROR=y:
# compiler warnings fail our builds (Kbuild); DKMS builds go without.
KMOD_SRCS := Kbuild $(shell find kmod -name '*.[ch]' -not -name '*_kunit.c')

kmod: $(foreach v,$(KVERS),$(OUT)/kmod/$(v)/spare.ko)
	@test -n "$(KVERS)" || { echo "no kernel headers for $(UNAME_R) (/lib/modules/$(UNAME_R)/build): install linux-headers-$(UNAME_R), give KDIR=<kernel build tree>, or run 'make setup' for the rig's kernels" >&2; exit 1; }

$(OUT)/kmod/%/spare.ko: $(KMOD_SRCS)
	@mkdir -p $(OUT)/kmod/$*
	@# a source moved or removed since the last copy must not shadow its
	@# new place (#include "x.h" looks beside the includer first)
	@cd $(OUT)/kmod/$* && for f in $$(find kmod -name '*.[ch]'); do \
		case " $(KMOD_SRCS) " in *" $$f "*) ;; *) rm -f $$f ;; esac; \
	done
	@cp --parents -pu $(KMOD_SRCS) $(OUT)/kmod/$*/
	$(MAKE) -C $(call kdir,$*) M=$(OUT)/kmod/$* $(if $(C),C=$(C)) W=$(W) SPARE_WERROR=y modules

# sparse (C=2: every file) over the module for every kernel; any warning
# from sparse or the compiler fails.
sparse:
	@set -e; for v in $(KVERS); do \
		$(MAKE) --no-print-directory $(OUT)/kmod/$$v/spare.ko; \
		$(MAKE) --no-print-directory -C $(call kdir,$$v) \
			M=$(OUT)/kmod/$$v C=2 SPARE_WERROR=y modules >$(OUT)/sparse-$$v.log 2>&1 || \
			{ cat $(OUT)/sparse-$$v.log; exit 1; }; \
		if grep -E 'warning:|error:' $(OUT)/sparse-$$v.log; then \
			echo "sparse: warnings for $$v (full log: $(OUT)/sparse-$$v.log)" >&2; exit 1; \
		fi; \
		echo "sparse: $$v clean"; \
	done

setup:
	$(TOP)/scripts/setup

deps:
	$(TOP)/scripts/setup --deps

check:
	$(TOP)/scripts/check

demo:
	$(TOP)/scripts/demo

clean:
	rm -rf $(OUT)/bin $(OUT)/lib $(OUT)/obj $(OUT)/obj-san $(OUT)/obj-pic $(OUT)/agg $(OUT)/kmod $(OUT)/tests $(OUT)/vm $(OUT)/fuzz $(OUT)/check $(OUT)/man
