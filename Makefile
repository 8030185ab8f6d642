# SPDX-License-Identifier: GPL-2.0
#
# spare top-level build.
#
#   make               userspace (-Werror) and spare.ko for every target kernel
#   make KVER=<ver>    spare.ko for one kernel only
#   make setup         install build/test dependencies (scripts/setup, root)
#   make check         every test tier; ends with "N passed, N failed"
#   make demo          boot the VM rig and show spare at work
#   make install       programs, library, headers, units, configs, man pages
#                      (DESTDIR, PREFIX; dist/install.mk); make install-dkms
#
# Outputs go to build/: build/bin (programs), build/lib, build/kmod/<kver>/spare.ko.

TOP	:= $(CURDIR)
OUT	:= $(TOP)/build
KVERS	:= $(if $(KVER),$(KVER),$(shell $(TOP)/scripts/kvers))

.PHONY: all userspace kmod check demo setup clean sparse unit fuzz

all: userspace kmod

include userspace/userspace.mk
include dist/install.mk

# spare.ko is built out of tree, once per kernel, in a private copy of the
# sources so that the objects of two kernels never meet. SPARE_WERROR=y:
# compiler warnings fail our builds (Kbuild); DKMS builds go without.
KMOD_SRCS := Kbuild $(shell find kmod -name '*.[ch]' -not -name '*_kunit.c')

kmod: $(foreach v,$(KVERS),$(OUT)/kmod/$(v)/spare.ko)
	@test -n "$(KVERS)" || { echo "no kernel headers found: run 'make setup'" >&2; exit 1; }

$(OUT)/kmod/%/spare.ko: $(KMOD_SRCS)
	@mkdir -p $(OUT)/kmod/$*
	@# a source moved or removed since the last copy must not shadow its
	@# new place (#include "x.h" looks beside the includer first)
	@cd $(OUT)/kmod/$* && for f in $$(find kmod -name '*.[ch]'); do \
		case " $(KMOD_SRCS) " in *" $$f "*) ;; *) rm -f $$f ;; esac; \
	done
	@cp --parents -pu $(KMOD_SRCS) $(OUT)/kmod/$*/
	$(MAKE) -C $(OUT)/kernels/$*/usr/src/linux-headers-$* M=$(OUT)/kmod/$* $(if $(C),C=$(C)) W=$(W) SPARE_WERROR=y modules

# sparse (C=2: every file) over the module for every kernel; any warning
# from sparse or the compiler fails.
sparse:
	@set -e; for v in $(KVERS); do \
		$(MAKE) --no-print-directory $(OUT)/kmod/$$v/spare.ko; \
		$(MAKE) --no-print-directory -C $(OUT)/kernels/$$v/usr/src/linux-headers-$$v \
			M=$(OUT)/kmod/$$v C=2 SPARE_WERROR=y modules >$(OUT)/sparse-$$v.log 2>&1 || \
			{ cat $(OUT)/sparse-$$v.log; exit 1; }; \
		if grep -E 'warning:|error:' $(OUT)/sparse-$$v.log; then \
			echo "sparse: warnings for $$v (full log: $(OUT)/sparse-$$v.log)" >&2; exit 1; \
		fi; \
		echo "sparse: $$v clean"; \
	done

setup:
	$(TOP)/scripts/setup

check:
	$(TOP)/scripts/check

demo:
	$(TOP)/scripts/demo

clean:
	rm -rf $(OUT)/bin $(OUT)/lib $(OUT)/obj $(OUT)/obj-san $(OUT)/obj-pic $(OUT)/agg $(OUT)/kmod $(OUT)/tests $(OUT)/vm $(OUT)/fuzz $(OUT)/check $(OUT)/man
