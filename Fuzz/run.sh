#!/usr/bin/env bash
# Fuzz/run.sh [SECONDS] [TARGET…]: builds the harness with libFuzzer and AddressSanitizer, then fuzzes each target
# (all of them when none is named) for SECONDS (default 60), one target per core at a time. Prints, per target, the inputs run,
# their rate, the coverage reached and whether anything was found; exits 1 when a target found something (the input
# is kept under .build/fuzz/findings/TARGET/), 2 on bad usage.
#
# Seeds come from Fuzz/TARGET/ and are never written to; what libFuzzer adds goes to .build/fuzz/corpus/TARGET/,
# kept between runs so that each run starts where the last stopped. DECLUTTER_FUZZ_SCRATCH moves the build folder.
set -uo pipefail
fuzz="$(cd "$(dirname "$0")" && pwd)"
root="$(dirname "$fuzz")"
all=(png json geojson csv plist style scene polyline mbtiles staticmap staticbody camera pmtiles screenshot)

seconds="${1:-60}"
if ! [[ "$seconds" =~ ^[1-9][0-9]*$ ]]; then
    echo "run.sh: SECONDS must be a whole number above 0, not '$seconds'" >&2
    exit 2
fi
shift $(( $# > 0 ? 1 : 0 ))
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=("${all[@]}")
for target in "${targets[@]}"; do
    if [ ! -d "$fuzz/$target" ] || ! [[ " ${all[*]} " == *" $target "* ]]; then
        echo "run.sh: no fuzz target '$target'; expected one of: ${all[*]}" >&2
        exit 2
    fi
done

scratch="${DECLUTTER_FUZZ_SCRATCH:-$root/.build/fuzz/build}"
# SwiftPM hands the compiler -sanitize=fuzzer and -sanitize=address as two flags, and the second drops the coverage
# the first asks for; the combined flag, given last, keeps both.
if ! swift build -c release --package-path "$fuzz" --scratch-path "$scratch" --product declutter-fuzz \
        --sanitize=fuzzer --sanitize=address -Xswiftc -sanitize=fuzzer,address; then
    echo "run.sh: the fuzz harness does not build" >&2
    exit 2
fi
harness="$scratch/release/declutter-fuzz"

# One target: fuzzes it, writes its summary line to .build/fuzz/TARGET.summary, and exits 1 on a finding.
fuzz_one() {
    local target="$1"
    local corpus="$root/.build/fuzz/corpus/$target" findings="$root/.build/fuzz/findings/$target"
    local log="$root/.build/fuzz/$target.log"
    mkdir -p "$corpus" "$findings"
    echo "== $target: $seconds s"
    # -timeout: an input that takes 10 s is a hang; -rss_limit_mb: an input that needs 2 GB is a finding too.
    # SWIFT_BACKTRACE: Swift's own crash handler reads memory ASan does not expect and buries the trap under a
    # report of its own; libFuzzer's handler names the failed check and the line instead.
    # LSAN_OPTIONS: the process-wide set-up that lsan-suppressions.txt names is not a leak of an input's.
    LSAN_OPTIONS="suppressions=$fuzz/lsan-suppressions.txt" SWIFT_BACKTRACE=enable=no DECLUTTER_FUZZ_TARGET="$target" "$harness" "$corpus" "$fuzz/$target" -max_total_time="$seconds" -timeout=10 \
        -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$findings/" >"$log" 2>&1
    local status=$? result
    local execs rate coverage
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
    coverage=$(grep -o 'cov: [0-9]* ft: [0-9]*' "$log" | tail -1)
    if [ "$status" -eq 0 ]; then
        result="no finding"
    else
        result="FINDING (exit $status): $(ls -t "$findings" | head -1) — see $log"
        grep -m1 -E 'ERROR|runtime failure|ALARM|out-of-memory' "$log" || tail -5 "$log"
    fi
    printf '%-9s %10s execs %7s/s  %-20s %s\n' "$target" "${execs:-?}" "${rate:-?}" "${coverage:-cov: ?}" "$result" \
        >"$root/.build/fuzz/$target.summary"
    [ "$status" -eq 0 ]
}

# Targets run side by side, one per core (DECLUTTER_FUZZ_JOBS to change): each libFuzzer process uses one.
jobs="${DECLUTTER_FUZZ_JOBS:-$(nproc)}"
mkdir -p "$root/.build/fuzz"
for target in "${targets[@]}"; do rm -f "$root/.build/fuzz/$target.summary"; done
found=0
running=0
for target in "${targets[@]}"; do
    if [ "$running" -ge "$jobs" ]; then
        wait -n || found=1
        running=$((running - 1))
    fi
    fuzz_one "$target" &
    running=$((running + 1))
done
while [ "$running" -gt 0 ]; do
    wait -n || found=1
    running=$((running - 1))
done

echo "== fuzzing, $seconds s per target"
for target in "${targets[@]}"; do cat "$root/.build/fuzz/$target.summary"; done
exit $found
