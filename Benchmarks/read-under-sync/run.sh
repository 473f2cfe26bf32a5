#!/usr/bin/env bash
# Reads under sync: wrk hammers `syncd run`'s read API for DURATION seconds while large syncs commit, after a quiet
# phase of QUIET seconds with the same syncs and no readers (the anchor).
#
# The daemon keeps two endpoints fresh from a loopback upstream (`sample-upstream serve --stamped`):
#   users   USERS users from /users-alternating, interval 5s: every run rewrites every row (the "stamp" of every
#           record flips between 1 and 2), a large write transaction each time;
#   probe   the same users from /users-stamped?stamp=1, interval 1s: after its first run, a 304 each second, the
#           smallest write there is (freshness and a run record) — how long it takes is how long a write waits.
# wrk (-t2 -cCONNECTIONS, check.lua) asks for whole tables (capped by max_rows), pages of 200 and single records.
# Reported: answers other than 200/304 (must be 0), list answers that mixed two generations (must be 0), wrk's
# p50/p99 latency, and for each phase the sync durations and the schedule lag (how late a run started after the due
# time the scheduler gave it: syncd_runs.started_at - due_at), plus the daemon's peak RSS.
#
#   Benchmarks/read-under-sync/run.sh        # DURATION=60 QUIET=20 USERS=100000 CONNECTIONS=32 by default
#
# BIN: a folder holding syncd and sample-upstream (default: a release build with the static Swift runtime).
set -euo pipefail
cd "$(dirname "$0")/../.."
HERE=$(pwd)/Benchmarks/read-under-sync
DURATION=${DURATION:-60}
QUIET=${QUIET:-20}
USERS=${USERS:-100000}
CONNECTIONS=${CONNECTIONS:-32}
PORT=${PORT:-18797}

MISSING=()
for tool in wrk sqlite3 curl; do command -v "$tool" >/dev/null 2>&1 || MISSING+=("$tool"); done
if [ ${#MISSING[@]} -gt 0 ]; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${MISSING[@]}" >/dev/null
fi
if [ -z "${BIN:-}" ]; then
    echo "building (release, static Swift runtime)…" >&2
    BUILD=(swift build -c release --static-swift-stdlib --scratch-path .build-release-static)
    "${BUILD[@]}" --product syncd >&2
    "${BUILD[@]}" --product sample-upstream >&2
    BIN=$("${BUILD[@]}" --show-bin-path)
fi

WORK=$(mktemp -d /tmp/syncd-read-under-sync-XXXXXX)
coproc SERVER { "$BIN/sample-upstream" serve --users "$USERS" --stamped; }
read -r URL <&"${SERVER[0]}"
cleanup() {
    [ -n "${SYNCD_PID:-}" ] && kill -TERM "$SYNCD_PID" 2>/dev/null && wait "$SYNCD_PID" 2>/dev/null
    exec {SERVER[1]}>&- 2>/dev/null || true
    wait "$SERVER_PID" 2>/dev/null || true
    rm -rf "$WORK"
}
trap cleanup EXIT

cat > "$WORK/syncd.toml" <<TOML
database = "$WORK/cache.db"
[server]
listen = "127.0.0.1:$PORT"
[defaults]
jitter = 0
timeout = "120s"
max_body = "1GiB"
[[endpoint]]
name = "users"
url = "$URL/users-alternating"
records = "$"
primary_key = ["id"]
interval = "5s"
[endpoint.columns]
id = { path = "id", type = "integer" }
stamp = { path = "stamp", type = "integer" }
name = "name"
[[endpoint]]
name = "probe"
url = "$URL/users-stamped?stamp=1"
records = "$"
primary_key = ["id"]
interval = "1s"
[endpoint.columns]
id = { path = "id", type = "integer" }
TOML
SYNCD_LOG_LEVEL=warning "$BIN/syncd" run --config "$WORK/syncd.toml" 2>"$WORK/syncd.log" &
SYNCD_PID=$!
until [ "$(sqlite3 "$WORK/cache.db" "SELECT count(DISTINCT endpoint) FROM syncd_runs WHERE outcome = 'changed'" \
    2>/dev/null || echo 0)" -ge 2 ]; do
    sleep 0.5  # a benchmark's own pacing while the daemon starts and syncs, not a test's synchronisation
done
curl -sf "http://127.0.0.1:$PORT/v1/endpoints/users/records/1" >/dev/null

mark() { sqlite3 "$WORK/cache.db" "SELECT max(id) FROM syncd_runs"; }
QUIET_START=$(mark)
sleep "$QUIET"
LOAD_START=$(mark)
wrk -t2 -c"$CONNECTIONS" -d"${DURATION}s" --timeout 10s -s "$HERE/check.lua" "http://127.0.0.1:$PORT" \
    -- "$USERS" > "$WORK/wrk.out"
LOAD_END=$(mark)
RSS=$(awk '/VmHWM/ { print $2 }' "/proc/$SYNCD_PID/status")

# phase FROM TO ENDPOINT INTERVAL_MS: "runs failed duration_p50 duration_max lag_p50 lag_p99 lag_max on_time" (ms;
# on_time: the runs that started within 10% of the interval after their due time). A run's duration is from its start
# to its commit: with jitter 0 the scheduler makes the next run due exactly an interval after the commit, so it is
# the next run's due_at - interval - started_at (syncd_runs.duration_ms ends when the transaction begins).
phase() {
    sqlite3 -separator ' ' "$WORK/cache.db" "
        SELECT coalesce((julianday((SELECT due_at FROM syncd_runs n WHERE n.endpoint = r.endpoint AND n.id > r.id
                                    ORDER BY n.id LIMIT 1)) - julianday(started_at)) * 86400000 - $4, duration_ms),
               outcome = 'failed', (julianday(started_at) - julianday(due_at)) * 86400000
        FROM syncd_runs r WHERE endpoint = '$3' AND id > $1 AND id <= $2 AND due_at IS NOT NULL;" > "$WORK/phase"
    if [ ! -s "$WORK/phase" ]; then echo "0 0 - - - - - 0"; return; fi
    pct() { sort -n | awk -v p="$1" '{ v[NR] = $1 } END { i = int(NR * p + 0.999); if (i < 1) i = 1; printf "%.0f", v[i] }'; }
    echo "$(wc -l < "$WORK/phase") $(awk '{ f += $2 } END { print f }' "$WORK/phase")" \
        "$(cut -d' ' -f1 "$WORK/phase" | pct 0.5) $(cut -d' ' -f1 "$WORK/phase" | pct 1)" \
        "$(cut -d' ' -f3 "$WORK/phase" | pct 0.5) $(cut -d' ' -f3 "$WORK/phase" | pct 0.99)" \
        "$(cut -d' ' -f3 "$WORK/phase" | pct 1) $(awk -v i="$4" '$3 <= i / 10 { n++ } END { print n + 0 }' "$WORK/phase")"
}

grep RESULT "$WORK/wrk.out" | tr ' ' '\n' | grep = > "$WORK/result"
get() { awk -F= -v k="$1" '$1 == k { print $2 }' "$WORK/result"; }
printf '\nreads under sync (%s): %d users rewritten every 5 s; wrk -t2 -c%d for %ss, after %ss without readers\n' \
    "$(date -u +%Y-%m-%d)" "$USERS" "$CONNECTIONS" "$DURATION" "$QUIET"
printf '  wrk: %s requests (%.0f/s), answers other than 200/304: %s, socket errors: %s\n' "$(get requests)" \
    "$(awk -v r="$(get requests)" -v s="$(get seconds)" 'BEGIN { print r / s }')" "$(get unexpected)" \
    "$(get socket_errors)"
printf '  lists checked: %s, mixing two generations: %s;  latency p50 %s ms, p99 %s ms, max %s ms\n' \
    "$(get lists)" "$(get mixed)" "$(get p50)" "$(get p99)" "$(get max)"
printf '  %-22s %6s %7s %25s %30s %9s\n' "" "runs" "failed" "run to commit p50 / max" "schedule lag p50 / p99 / max" \
    "on time"
for endpoint in users:5000 probe:1000; do
    name=${endpoint%%:*}
    for which in quiet loaded; do
        if [ "$which" = quiet ]; then range=("$QUIET_START" "$LOAD_START"); else range=("$LOAD_START" "$LOAD_END"); fi
        read -r runs failed dp50 dmax lp50 lp99 lmax on_time < <(
            phase "${range[0]}" "${range[1]}" "$name" "${endpoint##*:}")
        printf '  %-22s %6s %7s %14s / %6s ms %13s / %5s / %5s ms %5s/%s\n' "$name, $which" "$runs" "$failed" \
            "$dp50" "$dmax" "$lp50" "$lp99" "$lmax" "$on_time" "$runs"
    done
done
printf '  syncd peak RSS: %d MB\n' $((RSS / 1024))
[ "$(get unexpected)" = 0 ] && [ "$(get mixed)" = 0 ] && [ "$(get socket_errors)" = 0 ]
