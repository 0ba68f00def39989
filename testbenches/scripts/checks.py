# SPDX-License-Identifier: Apache-2.0
# The named checks of the Python test scripts (test_synth.py, test_area_doc.py): each prints "ok" or
# "FAIL" with what it checks, and the script's exit code is 1 when any failed.
failures = 0


def check(what, ok):
    global failures
    print(("ok   " if ok else "FAIL ") + what)
    if not ok:
        failures += 1


def verdict():
    print(f"{failures} check(s) failed" if failures else "all checks passed")
    return 1 if failures else 0
