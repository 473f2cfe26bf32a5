#!/usr/bin/env bash
# The paged sync benchmark: 100k jsonplaceholder-shaped users (~57 MB) from a loopback server into SQLite, served
# as 1,000 pages of 100 records with Link rel="next" headers (pagination = { type = "link" }), against the same
# users in one response, in the same run.
#
# Both are first syncs into a fresh database (a snapshot: one transaction applies every page). Reported: wall time
# and peak RSS of the `syncd sync` process, the run's own time from syncd_runs, requests per second of the paged
# sync, and the ratio paged / single (the target is at most 1.15).
# Each figure is the median of RUNS runs (default 7: eleven paged runs of one build spread over 569–723 ms on 2 cores,
# against 468–579 ms for one response, so a median of 3 moved the ratio between 1.15 and 1.29).
#
# The upstream is nginx (UPSTREAM=nginx, the default), serving the pages and the single body as static files that
# sample-upstream wrote, each page's Link field from a map: its CPU shares the two cores with syncd's, and nginx's is
# the least a server costs (76 ms for the 1,000 pages where sample-upstream's NIO server took 100–130 ms), so that
# the ratio is syncd's own. UPSTREAM=sample-upstream serves both from sample-upstream instead, as does LATENCY_MS.
set -euo pipefail
cd "$(dirname "$0")/../.."
RUNS=${RUNS:-7}
USERS=${USERS:-100000}
PAGE_SIZE=${PAGE_SIZE:-100}
# Milliseconds each page waits on the server before it is answered, as an upstream across a network would (loopback
# answers at once): LATENCY_MS=2 shows how much of a paged sync is waiting.
LATENCY_MS=${LATENCY_MS:-0}
UPSTREAM=${UPSTREAM:-nginx}
[ "$LATENCY_MS" != 0 ] && UPSTREAM=sample-upstream  # nginx adds no latency
NGINX_PORT=${NGINX_PORT:-18789}
PAGES=$(( (USERS + PAGE_SIZE - 1) / PAGE_SIZE ))

. "$(pwd)/Benchmarks/lib/setup.sh"
. "$(pwd)/Benchmarks/lib/figures.sh"  # median, ms, mb, ratio (its own measure follows)
install_missing sqlite3:sqlite3 time:time curl:curl
[ "$UPSTREAM" = nginx ] && install_missing nginx:nginx
build_release

WORK=$(mktemp -d /tmp/syncd-paged-bench-XXXXXX)
cleanup() {
    [ -f "$WORK/nginx.pid" ] && kill -QUIT "$(cat "$WORK/nginx.pid")" 2>/dev/null
    rm -rf "$WORK"
}
trap cleanup EXIT

coproc SERVER { "$BIN/sample-upstream" serve --users "$USERS" --page-size "$PAGE_SIZE" --latency "$LATENCY_MS"; }
read -r URL <&"${SERVER[0]}"
stop_upstream() { # sample-upstream ends with its stdin
    exec {SERVER[1]}>&-
    wait "$SERVER_PID" 2>/dev/null || true
}
PAGED_PATH="/users-paged?page=1"
SINGLE_PATH="/users"

if [ "$UPSTREAM" = nginx ]; then
    # The same bytes as sample-upstream's, as files: the pages in one curl (its URL globbing), the body, and a map
    # from each page's number to its Link field.
    mkdir -p "$WORK/www/pages"
    curl -sf "$URL/users-paged?page=[1-$PAGES]" -o "$WORK/www/pages/#1.json"
    curl -sf "$URL/users" -o "$WORK/www/users.json"
    stop_upstream
    {
        echo 'map $arg_page $next_link { default "";'
        for page in $(seq 1 $((PAGES - 1))); do printf '  %d "</users-paged?page=%d>; rel=\\"next\\"";\n' "$page" $((page + 1)); done
        echo '}'
    } > "$WORK/map.conf"
    start_nginx "$WORK" "$NGINX_PORT" 1 "include $WORK/map.conf;" \
        'location = /users-paged { add_header Link $next_link; try_files /pages/$arg_page.json =404; }
        location = /users { try_files /users.json =404; }'
    URL="http://127.0.0.1:$NGINX_PORT"
    until curl -sf "$URL/users-paged?page=1" >/dev/null 2>&1; do sleep 0.1; done
    # Every page as sample-upstream serves it, Link fields included.
    [ "$(curl -sfI "$URL/users-paged?page=2" | tr -d '\r' | awk -F': ' 'tolower($1) == "link" { print $2 }')" \
        = '</users-paged?page=3>; rel="next"' ] || { echo "nginx does not serve the pages' Link fields" >&2; exit 1; }
fi

config() { # $1: the path on the upstream, $2: extra endpoint keys
    cat > "$WORK/syncd.toml" <<TOML
database = "$WORK/syncd.db"
[[endpoint]]
name = "users"
url = "$URL$1"
records = "$"
primary_key = ["id"]
timeout = "120s"
max_body = "512MiB"
$2
$(users_columns)
TOML
}

# measure NAME: syncs into a fresh database; appends "microseconds kilobytes run_microseconds" to $WORK/NAME
measure() {
    local name=$1 start end
    rm -f "$WORK"/syncd.db*
    sync  # the previous run's writes are on disk first, as figures.sh's measure does
    start=$(date +%s%N)
    /usr/bin/time -f "%M" -o "$WORK/rss" "$BIN/syncd" sync --config "$WORK/syncd.toml" >/dev/null
    end=$(date +%s%N)
    local check
    check=$(sqlite3 "$WORK/syncd.db" "SELECT outcome || ' ' || pages || ' ' || (SELECT count(*) FROM users) FROM syncd_runs ORDER BY id DESC LIMIT 1")
    echo "$name: $check" >&2
    echo "$(( (end - start) / 1000 )) $(cat "$WORK/rss") $(sqlite3 "$WORK/syncd.db" "SELECT duration_ms * 1000 FROM syncd_runs ORDER BY id DESC LIMIT 1")" >> "$WORK/$name"
}

for _ in $(seq "$RUNS"); do
    config "$PAGED_PATH" "pagination = { type = \"link\", max_pages = $PAGES }"
    measure paged
    config "$SINGLE_PATH" ""
    measure single
done

[ "$UPSTREAM" = nginx ] || stop_upstream

rate() { awk -v n="$1" -v u="$2" 'BEGIN { printf "%.0f", n / (u / 1000000) }'; }

printf '\nsyncd paged sync benchmark: %d users in %d pages of %d (link, %d ms latency a page) vs one response, from %s, median of %d runs (%s)\n\n' \
    "$USERS" "$PAGES" "$PAGE_SIZE" "$LATENCY_MS" "$UPSTREAM" "$RUNS" "$(date -u +%Y-%m-%d)"
printf '%-10s %12s %10s %14s %12s\n' "" "wall" "peak RSS" "run (syncd)" "requests/s"
p=$(median paged); s=$(median single)
printf '%-10s %12s %10s %14s %12s\n' "paged" "$(ms "$p")" "$(mb "$(median paged 2)")" "$(ms "$(median paged 3)")" "$(rate "$PAGES" "$p")"
printf '%-10s %12s %10s %14s %12s\n' "single" "$(ms "$s")" "$(mb "$(median single 2)")" "$(ms "$(median single 3)")" "$(rate 1 "$s")"
printf '%-10s %12s %10s %14s\n' "ratio" "$(ratio "$p" "$s")" "$(ratio "$(median paged 2)" "$(median single 2)")" \
    "$(ratio "$(median paged 3)" "$(median single 3)")"
# Each run's wall time, in the order run, so that the spread behind the medians shows.
walls() { awk '{ printf "%s%.0f", (NR > 1 ? ", " : ""), $1 / 1000 }' "$WORK/$1"; }
printf '\nwall times (ms): paged %s; single %s\n' "$(walls paged)" "$(walls single)"

. "$(pwd)/Benchmarks/lib/result.sh"
result "$PAGES pages of $PAGE_SIZE vs the same users in one response" "$(ms "$p")" "$(ms "$s")" "$(ratio "$p" "$s")" \
    "<= 1.15"
