# SPDX-License-Identifier: GPL-2.0
"""check() for spare's Python test scripts, written once.

check(ok, what) counts a failed check and prints "FAIL-CHECK: what" (the
line the tier runners show); verdict(name) prints "name: ok" or the count
and returns the script's exit status (0, or 1 if any check failed).
"""

failures = 0


def check(ok, what):
    global failures
    if not ok:
        failures += 1
        print("FAIL-CHECK: " + what)
    return ok


def verdict(name=None):
    if name is not None:
        print("%s: %s" % (name, "ok" if not failures else "%d checks failed" % failures))
    return 1 if failures else 0
