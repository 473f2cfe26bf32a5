#!/usr/bin/env bash
# The short-commands benchmark (issue 15, target 5): `syncd get` and `syncd query --limit 10` on a database of about
# 1 GB, wall time per command with the process's start included, against the sqlite3 shell running the same read on
# the same file in the same run (hyperfine, median of RUNS runs after 3 warm-ups; the file is in the page cache, as
# it is on a machine that uses it). `syncd --version` shows what starting the process costs.
#
#   USERS=1300000 Benchmarks/short-commands/run.sh     # about 1 GB of database (the default)
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$(pwd)
USERS=${USERS:-1300000}
RUNS=${RUNS:-30}

. "$ROOT/Benchmarks/lib/setup.sh"
install_missing sqlite3:sqlite3 hyperfine:hyperfine jq:jq time:time
build_release

WORK=$(mktemp -d /tmp/syncd-short-commands-XXXXXX)
trap 'rm -rf "$WORK"' EXIT
echo "writing $USERS users and syncing them (the database the commands read)…" >&2
"$BIN/sample-upstream" write --users "$USERS" "$WORK/users.json" "$WORK/churned.json"
rm -f "$WORK/churned.json"
cat > "$WORK/syncd.toml" <<TOML
database = "$WORK/cache.db"
[[endpoint]]
name = "users"
url = "file://$WORK/users.json"
records = "$"
primary_key = ["id"]
max_body = "2GiB"
timeout = "10m"
$(users_columns)
TOML
"$BIN/syncd" sync --config "$WORK/syncd.toml" >&2
rm -f "$WORK/users.json"
DB_BYTES=$(stat -c %s "$WORK/cache.db")
ID=$((USERS / 2 + 17))

# median_ms NAME COMMAND…: hyperfine's median wall time in ms.
median_ms() {
    local name=$1; shift
    # -N runs the command without a shell, splitting it as a shell would: each argument is quoted for that.
    hyperfine -N --warmup 3 --runs "$RUNS" --export-json "$WORK/$name.json" "$(printf '%q ' "$@")" >/dev/null
    jq '.results[0].median * 1000' "$WORK/$name.json"
}

CONFIG=(--config "$WORK/syncd.toml")
VERSION=$(median_ms version "$BIN/syncd" --version)
GET=$(median_ms get "$BIN/syncd" get users "$ID" "${CONFIG[@]}")
QUERY=$(median_ms query "$BIN/syncd" query users --limit 10 "${CONFIG[@]}")
SQLITE_GET=$(median_ms sqlite_get sqlite3 "$WORK/cache.db" "SELECT _raw FROM users WHERE id = $ID")
SQLITE_QUERY=$(median_ms sqlite_query sqlite3 "$WORK/cache.db" "SELECT id, name, username, email, city, lat, lng, company FROM users LIMIT 10")

# rss_mb COMMAND…: the median of five runs' peak resident memory, in MB (GNU time's %M, in KiB).
rss_mb() {
    for _ in 1 2 3 4 5; do /usr/bin/time -f %M "$@" 2>&1 >/dev/null | tail -1; done | sort -n | sed -n 3p \
        | awk '{ printf "%.1f", $1 / 1024 }'
}
VERSION_RSS=$(rss_mb "$BIN/syncd" --version)
GET_RSS=$(rss_mb "$BIN/syncd" get users "$ID" "${CONFIG[@]}")
SQLITE_RSS=$(rss_mb sqlite3 "$WORK/cache.db" "SELECT _raw FROM users WHERE id = $ID")

ms() { awk -v v="$1" 'BEGIN { printf "%.1f ms", v }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
printf '\nshort commands on a %.0f MB database (%d users), median of %d runs, hyperfine -N (%s, %s cores)\n' \
    "$(awk -v b="$DB_BYTES" 'BEGIN { print b / 1048576 }')" "$USERS" "$RUNS" "$(date -u +%Y-%m-%d)" "$(nproc)"
printf '  %-34s %10s %14s %8s\n' "" "syncd" "sqlite3 shell" "ratio"
printf '  %-34s %10s %14s %8s\n' "get one record by key" "$(ms "$GET")" "$(ms "$SQLITE_GET")" "$(ratio "$GET" "$SQLITE_GET")"
printf '  %-34s %10s %14s %8s\n' "query --limit 10" "$(ms "$QUERY")" "$(ms "$SQLITE_QUERY")" "$(ratio "$QUERY" "$SQLITE_QUERY")"
printf '  %-34s %10s\n' "syncd --version (process start)" "$(ms "$VERSION")"
printf '  %-34s %10s %14s %8s\n' "peak RSS of get" "$GET_RSS MB" "$SQLITE_RSS MB" "$(ratio "$GET_RSS" "$SQLITE_RSS")"
printf '  %-34s %10s\n' "peak RSS of --version" "$VERSION_RSS MB"

. "$ROOT/Benchmarks/lib/result.sh"
SIZE="$(awk -v b="$DB_BYTES" 'BEGIN { printf "%.1f GB", b / 1e9 }')"
result "syncd get on a $SIZE database (process included)" "$(ms "$GET")" "$(ms "$SQLITE_GET")" \
    "$(ratio "$GET" "$SQLITE_GET")" "<= 2x"
result "syncd query --limit 10 on a $SIZE database" "$(ms "$QUERY")" "$(ms "$SQLITE_QUERY")" \
    "$(ratio "$QUERY" "$SQLITE_QUERY")" "<= 2x"
result "syncd --version (what starting costs)" "$(ms "$VERSION")" "-" "-" "<= 3 ms"
result "peak RSS of syncd --version" "$VERSION_RSS MB" "-" "-" "<= 12 MB"
