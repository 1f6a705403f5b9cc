#!/usr/bin/env bash
# Runs the package's test suite under AddressSanitizer with LeakSanitizer (issue 6).
#
#   scripts/asan.sh [extra swift test args, e.g. --filter InviteKitNostrTests]    (make asan)
#
# Builds in .build-asan (never the default .build). Exits non-zero when a test fails, on any
# AddressSanitizer error and on any unsuppressed direct leak (see the LSan policy below); the
# full log is .build-asan/asan-test.log, suppressions are scripts/lsan.supp.
# Environment: ASAN_SCRATCH (default .build-asan), ASAN_JOBS (build jobs, default 2).
set -uo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
SCRATCH="${ASAN_SCRATCH:-$ROOT/.build-asan}"
SUPP="$ROOT/scripts/lsan.supp"
LOG="$SCRATCH/asan-test.log"
cd "$ROOT"

# The sanitizer runtime. swiftc links the one in its own clang resource directory; Debian's
# libclang-rt-14-dev is the fallback the issue names, installed only when the toolchain's is
# missing.
TOOLCHAIN_RT="$(dirname "$(dirname "$(readlink -f "$(command -v swiftc)")")")/lib/clang"
if ! ls "$TOOLCHAIN_RT"/*/lib/linux/libclang_rt.asan-x86_64.a >/dev/null 2>&1; then
    if ! dpkg -s libclang-rt-14-dev >/dev/null 2>&1; then
        echo "== installing libclang-rt-14-dev (ASan/LSan runtime)"
        apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libclang-rt-14-dev >/dev/null || exit 1
    fi
fi

echo "== building tests with -sanitize=address in $SCRATCH"
swift build --build-tests --sanitize=address --scratch-path "$SCRATCH" -j "${ASAN_JOBS:-2}" 2>&1 \
    | grep -v "ld.gold: warning: Cannot export local symbol"
if [[ ${PIPESTATUS[0]} -ne 0 ]]; then
    echo "asan build failed" >&2
    exit 1
fi

# ASan: halt_on_error + exitcode=23 make the first memory error end the run with status 23, so
# it can never pass as a test failure or hide among passing tests. detect_stack_use_after_return
# catches pointers escaping withUnsafeBytes into dead frames.
# LSan: runs at exit (detect_leaks=1, the x86_64 default, explicit here) but with exitcode=0:
# its verdict is taken from the log below, because swift-corelibs-xctest keeps every test case
# in a strong cycle (XCTest.testRun <-> XCTestRun.test, never broken), so each test case and
# whatever it stores are *indirect* leaks at exit; with a non-zero LSan exit code they would
# also fail the tests that run the test binary as a helper process (ConsumedTagRaceTests).
# Policy: any ASan error fails; any unsuppressed *direct* leak fails; indirect leaks are listed
# by allocation site (first InviteKit frame) for review; ASAN_STRICT_LEAKS=1 fails on those too.
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:detect_stack_use_after_return=1:check_initialization_order=1:strict_init_order=1:halt_on_error=1:exitcode=23:symbolize=1}"
export LSAN_OPTIONS="${LSAN_OPTIONS:-suppressions=$SUPP:print_suppressions=1:exitcode=0}"
# Swift's crash backtracer would inspect memory itself and race ASan's report.
export SWIFT_BACKTRACE="enable=no"
# Child processes of the CLI tests run sanitized too, several times slower: their watchdogs scale.
export INVITEKIT_TEST_TIMEOUT_SCALE="${INVITEKIT_TEST_TIMEOUT_SCALE:-5}"
# The Python interop peers (scripts/peer) are not ASan's business; tests skip them when the
# venv is missing, and run them when make asan built it.
echo "== swift test under ASan/LSan (ASAN_OPTIONS=$ASAN_OPTIONS)"
CI="${CI:-1}" swift test --skip-build --sanitize=address --scratch-path "$SCRATCH" "$@" 2>&1 | tee "$LOG"
rc=${PIPESTATUS[0]}

asan_errors=$(grep -c "ERROR: AddressSanitizer" "$LOG" || true)
direct=$(grep -c "^Direct leak of" "$LOG" || true)
indirect=$(grep -c "^Indirect leak of" "$LOG" || true)
echo
echo "== ASan/LSan summary"
echo "AddressSanitizer errors: $asan_errors"
echo "LeakSanitizer: $direct unsuppressed direct leak(s), $indirect indirect leak record(s)"
grep -A12 "Suppressions used:" "$LOG" | grep -E "^ +[0-9]+ +[0-9]+ " | sed 's/^/suppressed (count bytes pattern):/' | sort | uniq -c
if [[ $indirect -gt 0 ]]; then
    echo "indirect leaks by allocation site (bytes, first InviteKit frame; test-case state held by the XCTest cycle):"
    python3 - "$LOG" <<'PY'
import collections, re, sys
log = open(sys.argv[1], errors="replace").read()
sites = collections.Counter()
for block in re.split(r"\n(?=(?:Direct|Indirect) leak of)", log):
    m = re.match(r"Indirect leak of (\d+)", block)
    if not m:
        continue
    frames = re.findall(r"#\d+ 0x[0-9a-f]+ in (\S+)", block)
    ours = [f for f in frames if "InviteKit" in f]
    sites[(ours[0] if ours else "(no InviteKit frame) " + (frames[3] if len(frames) > 3 else "?"))[:140]] += int(m.group(1))
for site, n in sites.most_common(12):
    print(f"  {n:>9}  {site}")
PY
fi
if [[ $rc -eq 23 || $asan_errors -gt 0 ]]; then
    echo "FAILED: AddressSanitizer reported memory errors (see $LOG)" >&2
    exit 1
fi
if [[ $direct -gt 0 ]]; then
    echo "FAILED: LeakSanitizer found unsuppressed direct leaks (see $LOG)" >&2
    exit 1
fi
if [[ "${ASAN_STRICT_LEAKS:-0}" == 1 && $indirect -gt 0 ]]; then
    echo "FAILED: indirect leaks with ASAN_STRICT_LEAKS=1 (see $LOG)" >&2
    exit 1
fi
if [[ $rc -ne 0 ]]; then
    echo "FAILED: swift test exited $rc (test failures, not sanitizer reports; see $LOG)" >&2
    exit "$rc"
fi
echo "clean: tests passed under ASan; no memory errors, no unsuppressed direct leaks"
