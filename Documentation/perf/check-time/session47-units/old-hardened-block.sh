#!/bin/bash
# session 46's units-check hardened-build block, verbatim (git show c3f76c3:scripts/units-check, lines 214-245), on TOP=$1
set -uo pipefail
TOP=$1
T=$(mktemp -d /tmp/spare-units.XXXXXX)
trap 'rm -rf "$T"' EXIT
rc=0
# A packager's build: dpkg-buildflags with hardening=+all (and -O1 after
# its -O2), in a scratch build directory. The flags must reach the daemons
# and the library: PIE, BIND_NOW, RELRO, fortified calls (__*_chk), the
# stack protector, read from the ELF files by scripts/elf-hardening (which
# scripts/deb-check runs on every ELF file of the packages too). Then make
# install and make uninstall into one DESTDIR leave no file behind.
H=$T/hardened
if (
	eval "$(DEB_BUILD_MAINT_OPTIONS=hardening=+all dpkg-buildflags --export=sh)"
	export CFLAGS="$CFLAGS -O1"
	nice make -s -j2 -C "$TOP" OUT="$H" "$H/bin/spared" "$H/bin/spare-broker" "$H/bin/spare-aggd" \
		"$H/bin/sparectl" "$H/lib/libspare-agg.so.0"
) >"$T/hardened.log" 2>&1; then
	bad=$("$TOP/scripts/elf-hardening" "$H/bin/spared" "$H/bin/spare-broker" "$H/bin/spare-aggd" \
		"$H/bin/sparectl" "$H/lib/libspare-agg.so.0")
	st=$?
	[ $st = 0 ] || bad=" $(echo $bad) (elf-hardening: exit $st)"
	# CFLAGS come after the project's: the compiler saw -O2, then -O1
	readelf --debug-dump=info "$H/bin/spared" >"$T/elf.dw" 2>/dev/null
	grep -m 1 DW_AT_producer "$T/elf.dw" | grep -q -- '-O2 .*-O1' ||
		bad="$bad spared:not-built-with-CFLAGS(-O1)"
	if [ -z "$bad" ]; then
		echo "PASS: hardened build (dpkg-buildflags hardening=+all, CFLAGS -O1): PIE, BIND_NOW, RELRO, __*_chk, stack protector in 5 ELF files (scripts/elf-hardening)"
	else
		echo "FAIL: hardened build:$bad"
		rc=1
	fi
else
	tail -20 "$T/hardened.log" | sed 's/^/    | /'
	echo "FAIL: hardened build (make with dpkg-buildflags' CFLAGS, CPPFLAGS, LDFLAGS)"
	rc=1
fi
exit $rc
