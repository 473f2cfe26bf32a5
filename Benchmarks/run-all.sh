#!/usr/bin/env bash
# Runs every benchmark that compares syncd with an anchor, one after the other, and prints one table: what was
# measured, syncd's figure, the anchor's (measured in the same run), the ratio and issue 15's target for it. Each
# benchmark's own report goes to $OUT/NAME.txt (default: a new folder under /tmp), where the figures come from.
#
#   Benchmarks/run-all.sh                  # sync (100k), paged sync, fan-out, read API, change stream, scheduler,
#                                          # 10k endpoints, short commands on a 1 GB database, PostgreSQL first sync
#   LARGE=1 Benchmarks/run-all.sh          # and the sync benchmark again with 1M users (about 430 MB; slow)
#   ONLY="sync paged-sync" Benchmarks/run-all.sh
#
# The soaks (crash-soak, reload, read-under-sync) check behaviour under stress rather than speed against an
# anchor, and run on their own.
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-$(mktemp -d /tmp/syncd-benchmarks-XXXXXX)}
export RESULTS="$OUT/results.tsv"
: > "$RESULTS"
export DRIFT_BASE=${DRIFT_BASE:-none}  # the build before the drift journal no longer isolates it (README)
ONLY=${ONLY:-sync paged-sync fan-out read-api change-stream scheduler many-endpoints short-commands postgres}

for name in $ONLY; do
    echo "running Benchmarks/$name/run.sh (report: $OUT/$name.txt)…" >&2
    if ! bash "Benchmarks/$name/run.sh" > "$OUT/$name.txt" 2>&1; then
        echo "Benchmarks/$name/run.sh failed; its output: $OUT/$name.txt" >&2
        printf '%s\t%s\t%s\t%s\t%s\n' "$name" "failed" "-" "-" "-" >> "$RESULTS"
    fi
done
if [ -n "${LARGE:-}" ]; then
    echo "running Benchmarks/sync/run.sh with 1M users (report: $OUT/sync-1m.txt)…" >&2
    # Three runs, their median: one run of 1M users moved its ratio to the shell between 0.38 and 0.52 from one
    # run-all to the next (the kernel's writes of 600 MB vary most), the build the same.
    USERS=1000000 RUNS=${RUNS:-3} bash Benchmarks/sync/run.sh > "$OUT/sync-1m.txt" 2>&1 \
        || printf '%s\t%s\t%s\t%s\t%s\n' "sync, 1M users" "failed" "-" "-" "-" >> "$RESULTS"
fi

printf '\nsyncd benchmarks, %s, %s cores (%s)\n\n' "$(date -u +%Y-%m-%d)" "$(nproc)" "$(uname -m)"
awk -F '\t' '
    { what[NR] = $1; s[NR] = $2; a[NR] = $3; r[NR] = $4; t[NR] = $5; if (length($1) > w) w = length($1) }
    END {
        printf "| %-*s | %12s | %12s | %6s | %16s |\n", w, "what", "syncd", "anchor", "ratio", "target"
        printf "|%s|--------------|--------------|--------|------------------|\n", sprintf("%*s", w + 2, "")
        for (i = 1; i <= NR; i++) printf "| %-*s | %12s | %12s | %6s | %16s |\n", w, what[i], s[i], a[i], r[i], t[i]
    }' "$RESULTS" | sed '2s/ /-/g'
printf '\nreports: %s\n' "$OUT"
