# SPDX-License-Identifier: GPL-2.0
#
# make install [DESTDIR=/staging] [PREFIX=/usr/local]: programs, library and
# headers, systemd units, example configs, man pages. make install-dkms puts
# the module's sources and dkms.conf under /usr/src/spare-<version>.
# make uninstall (same DESTDIR, PREFIX) removes what install put, and the
# configs in /etc/spare only where they are still the example (an admin's
# edits and key files stay).

PREFIX		?= /usr/local
SBINDIR		?= $(PREFIX)/sbin
LIBDIR		?= $(PREFIX)/lib
INCLUDEDIR	?= $(PREFIX)/include
MANDIR		?= $(PREFIX)/share/man
DOCDIR		?= $(PREFIX)/share/doc/spare
UNITDIR		?= $(PREFIX)/lib/systemd/system
# The Python binding where the system's python3 finds it: Debian's
# /usr/lib/python3/dist-packages for PREFIX=/usr, else
# PREFIX/lib/python3.X/dist-packages (on sys.path for /usr/local; other
# prefixes need PYTHONPATH). Either way two levels below PREFIX/lib, where
# spare_agg.py looks for the library first.
PYTHON3		?= $(firstword $(wildcard /usr/bin/python3) python3)
PYDIR		?= $(if $(filter /usr,$(PREFIX)),/usr/lib/python3/dist-packages,$(PREFIX)/lib/python$(shell $(PYTHON3) -c 'import sys; print("%d.%d" % sys.version_info[:2])')/dist-packages)
SYSCONFDIR	?= /etc
DKMSDIR		?= /usr/src
SPARE_VERSION	:= $(shell cat $(TOP)/VERSION)

INSTALL_PROGS	:= spared sparectl spare-ublk spare-aggd spare-aggctl spare-broker spare-tiresias
INSTALL_UNITS	:= spared.service spare-aggd.service spare-broker.service spare-ublk@.service \
		   sparectl-monitor@.service spare-swap@.service spare-tiresias.service
# Examples for /usr/share/doc/spare/examples: configs, the Prometheus
# alerting rules and the Grafana dashboard (admin guide, Metrics).
INSTALL_EXAMPLES := dist/spared.conf dist/spare-aggd.conf dist/spare-broker.conf \
		   dist/spare-swap.conf dist/spare-tiresias.conf dist/prometheus/spare-alerts.yml \
		   dist/grafana/spare-dashboard.json
MAN_SRCS	:= $(wildcard Documentation/man/*.scd)
MAN_PAGES	:= $(MAN_SRCS:Documentation/man/%.scd=$(OUT)/man/%)
# What make install copies, and nothing else: debian/rules builds this
# (make installable), not the test and bench programs of make userspace.
INSTALL_BUILT	:= $(INSTALL_PROGS:%=$(OUT)/bin/%) $(LIBSPARE_AGG_SO) $(MAN_PAGES)
DKMS_SRCS	:= Kbuild $(shell find kmod -name '*.[ch]' -not -name '*_kunit.c')

.PHONY: install installable install-dkms man uninstall

# Man pages from scdoc sources: name.N.scd -> name.N. Written to a
# temporary file first: scdoc failing half way must not leave a page that
# make takes as up to date.
$(OUT)/man/%: Documentation/man/%.scd
	@mkdir -p $(dir $@)
	scdoc <$< >$@.tmp && mv $@.tmp $@ || { rm -f $@.tmp; exit 1; }

man: $(MAN_PAGES)

installable: $(INSTALL_BUILT)

install: installable
	install -d $(DESTDIR)$(SBINDIR) $(DESTDIR)$(LIBDIR) \
		$(DESTDIR)$(INCLUDEDIR)/spare $(DESTDIR)$(UNITDIR) \
		$(DESTDIR)$(DOCDIR)/examples $(DESTDIR)$(SYSCONFDIR)/spare
	install -m 0755 $(INSTALL_PROGS:%=$(OUT)/bin/%) $(DESTDIR)$(SBINDIR)/
	@# The library under its full version, the soname link that programs
	@# and the binding load, and the link-time name for -lspare-agg.
	install -m 0644 $(LIBSPARE_AGG_SO) $(DESTDIR)$(LIBDIR)/
	ln -sf $(notdir $(LIBSPARE_AGG_SO)) \
		$(DESTDIR)$(LIBDIR)/libspare-agg.so.$(LIBSPARE_AGG_SOVERSION)
	ln -sf libspare-agg.so.$(LIBSPARE_AGG_SOVERSION) $(DESTDIR)$(LIBDIR)/libspare-agg.so
	@# The binding beside the library it loads (spare_agg.py looks in ../..).
	install -d $(DESTDIR)$(PYDIR)
	install -m 0644 userspace/python/spare_agg.py $(DESTDIR)$(PYDIR)/
	install -m 0644 userspace/libspare-agg/spare_agg.h kmod/uapi/spare.h \
		$(DESTDIR)$(INCLUDEDIR)/spare/
	@# Units with this install's program directory filled in.
	for u in $(INSTALL_UNITS); do \
		sed 's|@SBINDIR@|$(SBINDIR)|g' dist/$$u.in >$(DESTDIR)$(UNITDIR)/$$u && \
		chmod 0644 $(DESTDIR)$(UNITDIR)/$$u || exit 1; \
	done
	install -m 0644 $(INSTALL_EXAMPLES) $(DESTDIR)$(DOCDIR)/examples/
	@# Example configs go to /etc only where the admin has none yet; not
	@# spare-broker's (its unit starts once the file exists, and the
	@# example names key files the admin must make first).
	for f in spared.conf spare-aggd.conf; do \
		[ -e $(DESTDIR)$(SYSCONFDIR)/spare/$$f ] || \
			install -m 0644 dist/$$f $(DESTDIR)$(SYSCONFDIR)/spare/$$f; \
	done
	for p in $(MAN_PAGES); do \
		s=$${p##*.}; install -d $(DESTDIR)$(MANDIR)/man$$s; \
		install -m 0644 $$p $(DESTDIR)$(MANDIR)/man$$s/; \
	done

uninstall:
	rm -f $(INSTALL_PROGS:%=$(DESTDIR)$(SBINDIR)/%)
	rm -f $(DESTDIR)$(LIBDIR)/$(notdir $(LIBSPARE_AGG_SO)) \
		$(DESTDIR)$(LIBDIR)/libspare-agg.so.$(LIBSPARE_AGG_SOVERSION) \
		$(DESTDIR)$(LIBDIR)/libspare-agg.so
	rm -f $(DESTDIR)$(PYDIR)/spare_agg.py
	rm -f $(DESTDIR)$(INCLUDEDIR)/spare/spare_agg.h $(DESTDIR)$(INCLUDEDIR)/spare/spare.h
	rm -f $(INSTALL_UNITS:%=$(DESTDIR)$(UNITDIR)/%)
	rm -f $(addprefix $(DESTDIR)$(DOCDIR)/examples/,$(notdir $(INSTALL_EXAMPLES)))
	for f in spared.conf spare-aggd.conf; do \
		! cmp -s dist/$$f $(DESTDIR)$(SYSCONFDIR)/spare/$$f || \
			rm -f $(DESTDIR)$(SYSCONFDIR)/spare/$$f || exit 1; \
	done
	for p in $(MAN_SRCS:Documentation/man/%.scd=%); do \
		rm -f $(DESTDIR)$(MANDIR)/man$${p##*.}/$$p || exit 1; \
	done
	@# spare's own directories, where empty; never a shared one
	for d in $(DESTDIR)$(INCLUDEDIR)/spare $(DESTDIR)$(DOCDIR)/examples \
		 $(DESTDIR)$(DOCDIR) $(DESTDIR)$(SYSCONFDIR)/spare; do \
		[ ! -d $$d ] || rmdir --ignore-fail-on-non-empty $$d || exit 1; \
	done

install-dkms:
	install -d $(DESTDIR)$(DKMSDIR)/spare-$(SPARE_VERSION)
	cp --parents $(DKMS_SRCS) $(DESTDIR)$(DKMSDIR)/spare-$(SPARE_VERSION)/
	sed 's/@VERSION@/$(SPARE_VERSION)/' dkms.conf \
		>$(DESTDIR)$(DKMSDIR)/spare-$(SPARE_VERSION)/dkms.conf
