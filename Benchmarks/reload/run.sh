#!/usr/bin/env bash
# Reload soak: sends N SIGHUPs to `syncd run`, one at a time, each after the previous reload was logged, and prints
# the daemon's resident memory along the way. Every reload reads and validates the whole configuration (16 lines, two
# endpoints) and hands it to the scheduler and the read API: memory must stay flat, whatever N.
#
# The anchor is the daemon itself after its first reload: the ratio is the last figure over it (1.00 is flat).
#
#   N=4000 Benchmarks/reload/run.sh                    # the default
#   N=4000 BIN=.build/debug Benchmarks/reload/run.sh   # with the debug binary
#
# BIN: a folder holding syncd (default: a release build with the static Swift runtime, as the other benchmarks use).
set -euo pipefail
cd "$(dirname "$0")/../.."
N=${N:-4000}

if [ -z "${BIN:-}" ]; then
    echo "building (release, static Swift runtime)…" >&2
    BUILD=(swift build -c release --static-swift-stdlib --scratch-path .build-release-static)
    "${BUILD[@]}" --product syncd >&2
    BIN=$("${BUILD[@]}" --show-bin-path)
fi

WORK=$(mktemp -d /tmp/syncd-reload-XXXXXX)
trap 'kill "$PID" 2>/dev/null || true; wait "$PID" 2>/dev/null || true; rm -rf "$WORK"' EXIT
printf '[{"id": 1, "name": "a"}, {"id": 2, "name": "b"}]\n' > "$WORK/users.json"
cat > "$WORK/syncd.toml" <<TOML
database = "cache.db"
[server]
listen = "off"
[defaults]
interval = "1d"
[[endpoint]]
name = "users"
url = "file://$WORK/users.json"
records = "\$"
primary_key = "id"
[endpoint.columns]
id = { path = "id", type = "integer" }
name = "name"
[[endpoint]]
name = "people"
url = "file://$WORK/users.json"
TOML

SYNCD_LOG_LEVEL=info "$BIN/syncd" run --config "$WORK/syncd.toml" 2> "$WORK/log" &
PID=$!

rss() { awk '/^VmRSS/ { print int($2 / 1024) }' "/proc/$PID/status"; }
# Waits (at most 10 s) until the log holds $1 reload lines.
await_reloads() {
    for _ in $(seq 1 1000); do
        [ "$(grep -c "Reloaded the configuration" "$WORK/log" || true)" -ge "$1" ] && return 0
        kill -0 "$PID" 2>/dev/null || { echo "syncd exited:" >&2; cat "$WORK/log" >&2; exit 1; }
        sleep 0.01
    done
    echo "reload $1 was not logged within 10 s" >&2
    exit 1
}
for _ in $(seq 1 1000); do grep -q "Synced" "$WORK/log" && break; sleep 0.01; done
kill -0 "$PID" 2>/dev/null || { echo "syncd exited:" >&2; cat "$WORK/log" >&2; exit 1; }

kill -HUP "$PID"
await_reloads 1
first=$(rss)
echo "after reload 1: ${first} MiB RSS"
for i in $(seq 2 "$N"); do
    kill -HUP "$PID"
    await_reloads "$i"
    if [ $((i % (N / 4))) -eq 0 ]; then echo "after reload $i: $(rss) MiB RSS"; fi
done
last=$(rss)
awk -v a="$first" -v b="$last" -v n="$N" \
    'BEGIN { printf "%d reloads: %d MiB RSS after the first, %d MiB after the last: ratio %.2f\n", n, a, b, b / a }'
