#!/usr/bin/env bash
# The scheduler benchmark: `syncd run` with ENDPOINTS endpoints (default 1000) on one loopback upstream that
# answers 304, interval 1 s, no jitter, for DURATION seconds (default 30). Prints the daemon's CPU use, its peak
# RSS, and the schedule lag: how late each run started after its due time (the previous run's end + 1 s),
# from syncd_runs. Targets (issue 4): peak RSS ≤ 150 MB, p99 lag ≤ 100 ms.
set -euo pipefail
cd "$(dirname "$0")/../.."
ENDPOINTS=${ENDPOINTS:-1000}
SECONDS_TO_RUN=${DURATION:-30}  # not $SECONDS: bash sets that itself

. "$(pwd)/Benchmarks/lib/setup.sh"
install_missing sqlite3:sqlite3
build_release

WORK=$(mktemp -d /tmp/syncd-scheduler-bench-XXXXXX)
trap 'rm -rf "$WORK"' EXIT
coproc SERVER { "$BIN/sample-upstream" serve --users 10; }
read -r URL <&"${SERVER[0]}"

{
    echo "database = \"$WORK/cache.db\""
    echo "[defaults]"
    echo "interval = \"1s\""
    echo "jitter = 0"
    echo "concurrency = 64"
    echo "[server]"
    echo "listen = \"${LISTEN:-127.0.0.1:0}\""
    for i in $(seq 1 "$ENDPOINTS"); do
        printf '[[endpoint]]\nname = "e%d"\nurl = "%s/users"\nrecords = "$"\nprimary_key = ["id"]\n[endpoint.columns]\nid = { path = "id", type = "integer" }\n' "$i" "$URL"
    done
} > "$WORK/syncd.toml"

SYNCD_LOG_LEVEL=warning "$BIN/syncd" run --config "$WORK/syncd.toml" 2>"$WORK/log" &
PID=$!
ticks() { awk '{ print $14 + $15 }' "/proc/$PID/stat"; }
# The first pass syncs every endpoint's 10 users (200s); measure the steady state of 304s after it.
until [ "$(sqlite3 "$WORK/cache.db" "SELECT count(DISTINCT endpoint) FROM syncd_runs" 2>/dev/null || echo 0)" -ge "$ENDPOINTS" ]; do
    sleep 0.5  # a benchmark's own pacing, not a test's synchronisation
done
START_TICKS=$(ticks); START=$(date +%s%N)
START_RUN=$(sqlite3 "$WORK/cache.db" "SELECT max(id) FROM syncd_runs")
sleep "$SECONDS_TO_RUN"
END_TICKS=$(ticks); END=$(date +%s%N)
RSS=$(awk '/VmHWM/ { print $2 }' "/proc/$PID/status")
kill -TERM "$PID"; wait "$PID" || true
exec {SERVER[1]}>&-

HZ=$(getconf CLK_TCK)
CPU=$(awk -v t=$((END_TICKS - START_TICKS)) -v hz="$HZ" -v ns=$((END - START)) 'BEGIN { printf "%.1f", 100 * (t / hz) / (ns / 1e9) }')
sqlite3 "$WORK/cache.db" > "$WORK/lags" <<SQL
SELECT (julianday(r.started_at) - julianday(p.finished_at)) * 86400000 - 1000
FROM syncd_runs r JOIN syncd_runs p ON p.endpoint = r.endpoint
 AND p.id = (SELECT max(id) FROM syncd_runs q WHERE q.endpoint = r.endpoint AND q.id < r.id)
WHERE r.id > $START_RUN ORDER BY 1;
SQL
RUNS=$(wc -l < "$WORK/lags")
pct() { awk -v p="$1" '{ v[NR] = $1 } END { i = int(NR * p); if (i < 1) i = 1; printf "%.0f", v[i] }' "$WORK/lags"; }
printf '\nsyncd run scheduler benchmark: %d endpoints, interval 1s, 304s, %ds (%s)\n' "$ENDPOINTS" "$SECONDS_TO_RUN" "$(date -u +%Y-%m-%d)"
printf '  runs: %d (%.0f/s)   CPU: %s%% of one core   peak RSS: %d MB\n' "$RUNS" \
    "$(awk -v r="$RUNS" -v s="$SECONDS_TO_RUN" 'BEGIN { print r / s }')" "$CPU" $((RSS / 1024))
printf '  schedule lag: p50 %s ms, p99 %s ms, max %s ms\n' "$(pct 0.5)" "$(pct 0.99)" "$(pct 1.0)"

. "$(pwd)/Benchmarks/lib/result.sh"
CPU_PER_POLL=$(awk -v c="$CPU" -v s="$SECONDS_TO_RUN" -v r="$RUNS" 'BEGIN { printf "%.2f", c / 100 * s * 1000 / r }')
result "syncd run, $ENDPOINTS endpoints answering 304: CPU per poll" "$CPU_PER_POLL ms" "-" "-" "<= 0.5 ms"
result "syncd run, $ENDPOINTS endpoints answering 304: peak RSS" "$((RSS / 1024)) MB" "-" "-" "<= 150 MB"
