#!/usr/bin/env bash
# Fuzz/run.sh TARGET|all SECONDS — runs a fuzz target (decoder, config, query, headers, database-url, postgres-sql,
# request-head, oauth2-token, proxy, parent-template, webhook-signature) under libFuzzer for SECONDS, or every target for `all` (one per core at once), on a copy of its seed corpus in
# Fuzz/corpus/TARGET with the words of Fuzz/dictionaries/TARGET.dict (README "Fuzzing").
#
# Builds syncd-fuzz in release with SYNCD_FUZZ_BUILD=1: this package's modules with -sanitize=fuzzer,address and
# FUZZING, its dependencies plain (Package.swift), in a scratch path of its own (FUZZ_SCRATCH, default .build-fuzz) so
# that the normal build is untouched. It links the Swift runtime in, as the release build does, because
# --static-swift-stdlib changes how every module is compiled: so in CI, which passes the scratch path of its release
# build (having packaged that build's syncd first), the dependencies are reused and only syncd's modules are compiled
# again. Prints each target's executions and exit status. A crash
# fails the run; its input is kept in SCRATCH/crashes/TARGET-crash-<sha1>: replay it with
# `swift run syncd-fuzz TARGET FILE`, and once fixed, commit it to Fuzz/corpus/TARGET/ as a regression seed.
set -euo pipefail
cd "$(dirname "$0")/.."

targets=(decoder config query headers database-url postgres-sql request-head oauth2-token proxy parent-template webhook-signature)
usage="usage: Fuzz/run.sh decoder|config|query|headers|database-url|postgres-sql|request-head|oauth2-token|proxy|parent-template|webhook-signature|all SECONDS"
[ $# -eq 2 ] || { echo "$usage" >&2; exit 64; }
target=$1
seconds=$2
[[ "$seconds" =~ ^[0-9]+$ ]] && [ "$seconds" -gt 0 ] || { echo "$usage" >&2; exit 64; }
if [ "$target" = all ]; then
    chosen=("${targets[@]}")
else
    [[ " ${targets[*]} " == *" $target "* ]] || { echo "$usage" >&2; exit 64; }
    chosen=("$target")
fi

scratch=${FUZZ_SCRATCH:-.build-fuzz}
echo "--- building syncd-fuzz for libFuzzer ($scratch)"
set +e
SYNCD_FUZZ_BUILD=1 swift build -c release --static-swift-stdlib --scratch-path "$scratch" --product syncd-fuzz
status=$?
set -e
[ "$status" -eq 0 ] || { echo "the build failed (above)" >&2; exit 1; }
binary=$scratch/release/syncd-fuzz
crashes=$scratch/crashes
mkdir -p "$crashes"

# One target per core at once (FUZZ_JOBS, default: the cores): libFuzzer runs on one thread, so on two cores two
# targets take the time of one. Each target's report is printed whole, in the list's order.
jobs=${FUZZ_JOBS:-$(nproc)}
[[ "$jobs" =~ ^[0-9]+$ ]] && [ "$jobs" -gt 0 ] || { echo "FUZZ_JOBS must be a whole number above 0" >&2; exit 64; }
reports=$(mktemp -d)
trap 'rm -rf "$reports"' EXIT

# fuzz NAME: runs one target, writes its report to $reports/NAME and its exit status to $reports/NAME.status.
fuzz() {
    local name=$1 work status executions rate
    work=$(mktemp -d)
    mkdir "$work/corpus"
    cp Fuzz/corpus/"$name"/* "$work/corpus/"
    {
        echo "--- fuzzing $name for $seconds s"
        set +e
        # symbolize=0: after a trap the symbolizer can take minutes. Leak checks are off: the Swift runtime's caches
        # look like leaks to it. The outer timeout only guards against a hang libFuzzer's own limits miss.
        SYNCD_FUZZ_TARGET=$name ASAN_OPTIONS=symbolize=0:detect_leaks=0 SWIFT_BACKTRACE=enable=no \
            timeout -s KILL $((seconds + 300)) "$binary" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
            -print_final_stats=1 -artifact_prefix="$crashes/$name-" -dict="Fuzz/dictionaries/$name.dict" \
            "$work/corpus" > "$work/log" 2>&1
        status=$?
        set -e
        executions=$(grep -Eo 'stat::number_of_executed_units: +[0-9]+' "$work/log" | grep -o '[0-9]*$' || echo "?")
        rate=$(grep -Eo 'stat::average_exec_per_sec: +[0-9]+' "$work/log" | grep -o '[0-9]*$' || echo "?")
        if [ "$status" -ne 0 ]; then
            grep -v "^#[0-9]" "$work/log" | tail -40 || true
            echo "$name: FAILED with exit status $status after $executions executions; a crash's input is in $crashes/"
        else
            echo "$name: $executions executions in $seconds s ($rate/s), exit status 0"
        fi
    } > "$reports/$name" 2>&1
    echo "$status" > "$reports/$name.status"
    rm -rf "$work"
}

running=0
for name in "${chosen[@]}"; do
    if [ "$running" -ge "$jobs" ]; then
        wait -n || true
        running=$((running - 1))
    fi
    fuzz "$name" &
    running=$((running + 1))
done
wait || true

failed=0
for name in "${chosen[@]}"; do
    cat "$reports/$name"
    [ "$(cat "$reports/$name.status" 2>/dev/null || echo 1)" = 0 ] || failed=1
done
exit "$failed"
