#!/usr/bin/env bash
# Fuzzes every parser of user input with libFuzzer (the targets are listed by
# `dualcam-fuzz --list`; Sources/DualcamFuzzing/FuzzTargets.swift).
#
#   scripts/fuzz.sh [SECONDS] [TARGET...]
#
# SECONDS per target (default 20; CI runs 20 each, docs/hardening.md has the
# 10-minute runs). Builds the dualcam-fuzz product with -sanitize=fuzzer,address
# into .build-fuzz/ (git-ignored), starts each target from its seed corpus
# Fuzz/corpus/<target>, the past findings Fuzz/regressions/<target> and what
# earlier runs found (.build-fuzz/corpus/<target>),
# and stops a target at its first finding: a crash (any error that is not one
# dualcam line counts), an input slower than 2 s, or more than 2048 MB.
# The input that found it is left in .build-fuzz/artifacts/<target>/; add it to
# Fuzz/regressions/<target>/ with the fix (the tests replay that directory).
# Prints one line per target (runs, result) and exits 1 if any target failed.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds="${1:-20}"
shift || true
[[ "$seconds" =~ ^[0-9]+$ ]] && [ "$seconds" -gt 0 ] || { echo "fuzz.sh: SECONDS must be a positive integer, got '$seconds'" >&2; exit 64; }

scratch=.build-fuzz
echo "fuzz.sh: building dualcam-fuzz with libFuzzer and AddressSanitizer in $scratch" >&2
mkdir -p "$scratch"
# (gold warns about every ASan helper symbol it cannot export: noise, filtered.)
if ! swift build -c debug --product dualcam-fuzz --scratch-path "$scratch" \
        -Xswiftc -sanitize=fuzzer,address -Xswiftc -DDUALCAM_FUZZ >"$scratch/build.log" 2>&1; then
    grep -v "Cannot export local symbol" "$scratch/build.log" | tail -40 >&2
    echo "fuzz.sh: the fuzz build failed" >&2
    exit 1
fi
binary="$scratch/debug/dualcam-fuzz"

if [ $# -gt 0 ]; then
    targets=("$@")
else
    targets=()
    for dir in Fuzz/corpus/*/; do targets+=("$(basename "$dir")"); done
fi

failed=0
for target in "${targets[@]}"; do
    [ -d "Fuzz/corpus/$target" ] || { echo "fuzz.sh: no seed corpus Fuzz/corpus/$target" >&2; exit 64; }
    work="$scratch/corpus/$target"
    artifacts="$scratch/artifacts/$target"
    log="$scratch/logs/$target.log"
    mkdir -p "$work" "$artifacts" "$(dirname "$log")"
    status=0
    # -timeout 2 s per input, -rss_limit_mb 2048, a finding stops the run;
    # new coverage goes to $work (the seeds are read, never written).
    regressions=()
    [ -d "Fuzz/regressions/$target" ] && regressions=("Fuzz/regressions/$target")
    # The format's tokens (Fuzz/dictionaries) help mutations reach past the first checks.
    dictionary=()
    case "$target" in
        calibration-yaml|calibration-any) dictionary=(-dict=Fuzz/dictionaries/yaml.dict) ;;
        suite) dictionary=(-dict=Fuzz/dictionaries/suite.dict) ;;
        ply) dictionary=(-dict=Fuzz/dictionaries/ply.dict) ;;
        samples-csv|xyz|fusion-samples|timestamps-csv|intrinsics-csv) dictionary=(-dict=Fuzz/dictionaries/csv.dict) ;;
    esac
    # SWIFT_BACKTRACE=enable=no: after a Swift trap, Swift's own backtracer reads
    # the stack and AddressSanitizer reports that as a stack-buffer-underflow,
    # hiding the trap; without it libFuzzer prints the trapping frames.
    DUALCAM_FUZZ_TARGET="$target" SWIFT_BACKTRACE=enable=no "$binary" "$work" "Fuzz/corpus/$target" "${regressions[@]}" \
        -max_total_time="$seconds" -timeout=2 -rss_limit_mb=2048 -print_final_stats=1 \
        -artifact_prefix="$artifacts/" "${dictionary[@]}" >"$log" 2>&1 || status=$?
    stat() { grep -o "stat::$1: *[0-9]*" "$log" | grep -o '[0-9]*$' | tail -1 || true; }
    runs=$(stat number_of_executed_units)
    rss=$(stat peak_rss_mb)
    slowest=$(stat slowest_unit_time_sec)
    if [ "$status" -eq 0 ]; then
        result="ok"
    else
        failed=1
        finding=$(grep -o -m1 'ERROR: libFuzzer: [a-z-]*\|ERROR: [A-Za-z]*Sanitizer: [a-z -]*\|Fatal error: .*\|deadly signal' "$log" | head -1 | cut -c1-160 || true)
        result="FAILED (${finding:-exit status $status}; input in $artifacts/, log $log)"
    fi
    printf 'fuzz %-16s %10s runs in %ss, peak RSS %s MB, slowest input %s s: %s\n' \
        "$target" "${runs:-?}" "$seconds" "${rss:-?}" "${slowest:-?}" "$result"
done
exit "$failed"
