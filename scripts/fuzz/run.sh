#!/usr/bin/env bash
# Builds every libFuzzer target in Fuzz/ with AddressSanitizer and runs each for SECONDS seconds
# on its seed corpus. Exits non-zero when any target crashes, leaks, times out or breaks an
# invariant; the reproducer is left in .build-fuzz/artifacts/<target>/.
#
#   scripts/fuzz/run.sh SECONDS [TARGET...]       (make fuzz SECONDS=N)
#
# Environment: FUZZ_SCRATCH (default .build-fuzz), FUZZ_JOBS (build jobs, default 2),
# FUZZ_SKIP_BUILD=1 (reuse the last build).
#
# Reproduce a crash:  .build-fuzz/debug/<target> .build-fuzz/artifacts/<target>/crash-<sha1>
set -uo pipefail

SECS="${1:-}"
if [[ -z "$SECS" || ! "$SECS" =~ ^[0-9]+$ || "$SECS" -lt 1 ]]; then
    echo "usage: $0 SECONDS [TARGET...]" >&2
    exit 2
fi
shift
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
SCRATCH="${FUZZ_SCRATCH:-$ROOT/.build-fuzz}"
BIN="$SCRATCH/debug"
CORPUS="$ROOT/Fuzz/corpus"          # committed seeds (vectors + fixtures)
WORK="$SCRATCH/corpus"              # what the fuzzer finds; not committed
ARTIFACTS="$SCRATCH/artifacts"
LOGS="$SCRATCH/logs"

EXPLICIT_TARGETS=0
if [[ $# -gt 0 ]]; then
    TARGETS=("$@")
    EXPLICIT_TARGETS=1
else
    mapfile -t TARGETS < <(cd "$ROOT/Fuzz/Sources" && ls -d fuzz-* | sort)
fi

# 1. Seeds from vectors/.
python3 "$ROOT/scripts/fuzz/extract-seeds.py" --root "$ROOT" || exit 1

# 2. Build. Two Swift 6.3 quirks shape the flags:
#    - SwiftPM keeps sanitizers in a Set and emits one -sanitize= flag each, in the order of the
#      Set's per-process hash seed. With `-sanitize=fuzzer -sanitize=address` in that order the
#      driver links libFuzzer but drops the coverage instrumentation (the fuzzer runs blind: "no
#      interesting inputs were found"). A last, combined `-sanitize=address,fuzzer` restores it,
#      and SWIFT_DETERMINISTIC_HASHING fixes the order so flags (and the build) stay stable.
#    - SwiftPM's own `--sanitize=fuzzer` is still needed: without it SwiftPM renames the
#      executables' entry point (`--defsym main=<module>_main`), which a libFuzzer target lacks.
#    Each target's log must show "inline 8-bit counters" (checked below).
if [[ "${FUZZ_SKIP_BUILD:-0}" != 1 ]]; then
    echo "== building ${#TARGETS[@]} fuzz targets (ASan + libFuzzer) in $SCRATCH"
    # SwiftPM can keep a stale source list for the path dependency (files another engineer
    # just added to ../Sources are "not in scope"); a newer Fuzz/Package.swift forces a re-plan.
    touch "$ROOT/Fuzz/Package.swift"
    # All targets in one build; with targets named on the command line, only their products
    # (so a layer that does not compile right now does not block fuzzing the others).
    products=("")
    [[ ${EXPLICIT_TARGETS:-0} == 1 ]] && products=("${TARGETS[@]}")
    for p in "${products[@]}"; do
        SWIFT_DETERMINISTIC_HASHING=1 swift build --package-path "$ROOT/Fuzz" --scratch-path "$SCRATCH" -c debug \
            --sanitize=address --sanitize=fuzzer -Xswiftc -sanitize=address,fuzzer -j "${FUZZ_JOBS:-2}" \
            ${p:+--product "$p"} 2>&1 | grep -v "ld.gold: warning: Cannot export local symbol"
        if [[ ${PIPESTATUS[0]} -ne 0 ]]; then
            echo "fuzz build failed${p:+ ($p)}" >&2
            exit 1
        fi
    done
    for t in "${TARGETS[@]}"; do
        [[ -x "$BIN/$t" ]] || { echo "no such fuzz target: $t" >&2; exit 1; }
    done
fi

# libFuzzer handles the crash report; ASan must abort (not just exit) so the input is saved.
# Leak checking stays on (libFuzzer's -detect_leaks=1 runs LSan when an input's mallocs and
# frees do not balance).
export ASAN_OPTIONS="${ASAN_OPTIONS:-abort_on_error=1:detect_leaks=1:symbolize=1:allocator_may_return_null=1}"
# Swift's own crash backtracer reads memory ASan reports as an "unknown-crash"; libFuzzer and
# ASan already print the stack.
export SWIFT_BACKTRACE="enable=no"
mkdir -p "$WORK" "$ARTIFACTS" "$LOGS"

failed=()
summary=()
for t in "${TARGETS[@]}"; do
    mkdir -p "$CORPUS/$t" "$WORK/$t" "$ARTIFACTS/$t"
    # 3. Fixture seeds (deterministic; written only by targets that have them).
    INVITEKIT_FUZZ_EMIT_SEEDS="$CORPUS/$t" "$BIN/$t" -runs=0 >/dev/null 2>&1 || true
    log="$LOGS/$t.log"
    echo "== $t: ${SECS}s"
    "$BIN/$t" "$WORK/$t" "$CORPUS/$t" \
        -max_total_time="$SECS" -timeout=20 -rss_limit_mb=2560 -max_len=8192 \
        -artifact_prefix="$ARTIFACTS/$t/" -print_final_stats=1 >"$log" 2>&1
    rc=$?
    if ! grep -q "inline 8-bit counters" "$log"; then
        echo "   $t is not instrumented for coverage (see the build flags)" >&2
        rc=1
    fi
    done_line="$(grep -E '^#[0-9]+[[:space:]]+DONE' "$log" | tail -1)"
    execs="$(grep -m1 'stat::number_of_executed_units' "$log" | awk '{print $2}')"
    rate="$(grep -m1 'stat::average_exec_per_sec' "$log" | awk '{print $2}')"
    cov="$(sed -nE 's/.*cov: ([0-9]+) ft: ([0-9]+) corp: ([0-9]+)\/.*/cov \1, ft \2, corpus \3/p' <<<"$done_line")"
    [[ -n "$cov" ]] || cov="$(grep -E 'cov: [0-9]+' "$log" | tail -1 | sed -nE 's/.*cov: ([0-9]+) ft: ([0-9]+) corp: ([0-9]+)\/.*/cov \1, ft \2, corpus \3/p')"
    if [[ $rc -ne 0 ]]; then
        failed+=("$t")
        echo "   FAILED (exit $rc); log: $log"
        grep -m3 -E "ERROR: |INVARIANT BROKEN|Fatal error|SUMMARY" "$log" | sed 's/^/   /'
        ls -t "$ARTIFACTS/$t" 2>/dev/null | head -1 | sed "s|^|   reproducer: $ARTIFACTS/$t/|"
        summary+=("$(printf '%-24s FAILED  execs %-9s %s' "$t" "${execs:-?}" "$cov")")
    else
        summary+=("$(printf '%-24s ok      execs %-9s %6s exec/s  %s' "$t" "${execs:-?}" "${rate:-?}" "$cov")")
    fi
done

echo
echo "== fuzz summary (${SECS}s per target)"
printf '%s\n' "${summary[@]}"
if [[ ${#failed[@]} -gt 0 ]]; then
    echo "FAILED: ${failed[*]}" >&2
    exit 1
fi
echo "all ${#TARGETS[@]} targets ran clean"
