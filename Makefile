# SPDX-License-Identifier: GPL-2.0
#
# spare top-level build.
#
#   make               userspace (-Werror) and spare.ko for every target kernel
#   make KVER=<ver>    spare.ko for one kernel only
#   make setup         install build/test dependencies (scripts/setup, root)
#   make check         every test tier; ends with "N passed, N failed"
#   make demo          boot the VM rig and show spare at work
#
# Outputs go to build/: build/bin (programs), build/lib, build/kmod/<kver>/spare.ko.

TOP	:= $(CURDIR)
OUT	:= $(TOP)/build
KVERS	:= $(if $(KVER),$(KVER),$(shell $(TOP)/scripts/kvers))

.PHONY: all userspace kmod check demo setup clean sparse unit fuzz

all: userspace kmod

include userspace/userspace.mk

# spare.ko is built out of tree, once per kernel, in a private copy of the
# sources so that the objects of two kernels never meet.
KMOD_SRCS := Kbuild $(shell find kmod -name '*.[ch]' -not -name '*_kunit.c')

kmod: $(foreach v,$(KVERS),$(OUT)/kmod/$(v)/spare.ko)
	@test -n "$(KVERS)" || { echo "no kernel headers found: run 'make setup'" >&2; exit 1; }

$(OUT)/kmod/%/spare.ko: $(KMOD_SRCS)
	@mkdir -p $(OUT)/kmod/$*
	@cp --parents -pu $(KMOD_SRCS) $(OUT)/kmod/$*/
	$(MAKE) -C $(OUT)/kernels/$*/usr/src/linux-headers-$* M=$(OUT)/kmod/$* $(if $(C),C=$(C)) W=$(W) modules

# sparse over the module for every kernel; any warning fails.
sparse:
	@set -e; for v in $(KVERS); do \
		rm -f $(OUT)/kmod/$$v/spare.ko; \
		$(MAKE) --no-print-directory $(OUT)/kmod/$$v/spare.ko C=2 \
			CF="-Wsparse-error" 2>&1 | tee $(OUT)/sparse-$$v.log; \
		if grep -E 'warning:|error:' $(OUT)/sparse-$$v.log | grep -v '^make' ; then \
			echo "sparse: warnings on $$v" >&2; exit 1; fi; \
	done

setup:
	$(TOP)/scripts/setup

check:
	$(TOP)/scripts/check

demo:
	$(TOP)/scripts/demo

clean:
	rm -rf $(OUT)/bin $(OUT)/lib $(OUT)/obj $(OUT)/obj-san $(OUT)/kmod $(OUT)/tests $(OUT)/vm
