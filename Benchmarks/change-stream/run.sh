#!/usr/bin/env bash
# The change feed live: STREAMS Server-Sent Events streams open on one endpoint of `syncd run`, and a sync that
# changes it every ROUNDS times. Reported: how long after each commit (the endpoint's changed_at) the last of the
# streams had its event (median and p99 over the rounds; also over every stream's event), and syncd's RSS before the
# streams opened, with them open, and at the end. The anchor, measured in the same run: the same commits seen by a
# client that polls the change feed once a second, as one without the stream would.
#
#   Benchmarks/change-stream/run.sh        # STREAMS=1000 ROUNDS=20 by default
#
# The endpoint is a file:// URL the driver (streams.py, Python's standard library only) rewrites: every rewrite is one
# sync that changes one record, polled every second.
set -euo pipefail
cd "$(dirname "$0")/../.."
HERE=$(pwd)/Benchmarks/change-stream
STREAMS=${STREAMS:-1000}
ROUNDS=${ROUNDS:-20}
PORT=${PORT:-18798}

. "$(pwd)/Benchmarks/lib/setup.sh"
. "$(pwd)/Benchmarks/lib/result.sh"
install_missing curl:curl
[ -n "${BIN:-}" ] || build_release  # BIN: a folder holding syncd (default: the release build)

WORK=$(mktemp -d /tmp/syncd-change-stream-XXXXXX)
cleanup() {
    [ -n "${SYNCD_PID:-}" ] && kill -TERM "$SYNCD_PID" 2>/dev/null && wait "$SYNCD_PID" 2>/dev/null
    rm -rf "$WORK"
}
trap cleanup EXIT

echo '[{"id": 1, "name": "user 1", "generation": 0}]' > "$WORK/users.json"
cat > "$WORK/syncd.toml" <<TOML
database = "$WORK/cache.db"
[server]
listen = "127.0.0.1:$PORT"
max_connections = $((STREAMS + 64))
max_streams = $((STREAMS + 8))
[defaults]
interval = "1s"
jitter = 0
[[endpoint]]
name = "users"
url = "file://$WORK/users.json"
records = "$"
primary_key = ["id"]
[endpoint.columns]
id = { path = "id", type = "integer" }
name = "name"
generation = { path = "generation", type = "integer" }
TOML

ulimit -n "$((STREAMS * 2 + 1024))" 2>/dev/null || true
SYNCD_LOG_LEVEL=warning "$BIN/syncd" run --config "$WORK/syncd.toml" 2> "$WORK/syncd.log" &
SYNCD_PID=$!
until curl -sf "http://127.0.0.1:$PORT/healthz" 2>/dev/null | grep -q '"stale":0}'; do sleep 0.2; done

OUT=$(python3 "$HERE/streams.py" "http://127.0.0.1:$PORT" "$WORK/cache.db" "$WORK/users.json" "$STREAMS" "$ROUNDS" \
    "$SYNCD_PID")
echo "$OUT"
last=$(awk '/^last_stream_ms/ { print $3 }' <<< "$OUT")
poll=$(awk '/^poll_ms/ { print $3 }' <<< "$OUT")
ratio=$(awk -v s="$last" -v p="$poll" 'BEGIN { printf "%.3f", s / p }')
echo
echo "commit to the last of $STREAMS streams: median $last ms; polling once a second: median $poll ms; ratio $ratio"
result "change stream: commit to the last of $STREAMS events, median" "$last ms" "$poll ms" "$ratio" \
    "-"
