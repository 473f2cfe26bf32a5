#!/usr/bin/env bash
# The fan-out benchmark (issue 43): a GitHub-shaped tree of PARENTS repositories with CHILDREN issues each, served by
# loopback nginx as static files with ETags, synced as a child endpoint (`parent = "repos"`, one request per
# repository) against the same issues served as one body, in the same run.
#
#   first walk   `syncd sync issues` into a database that holds the repositories and no issue: wall time of the
#                process; the target is at most 1.5x the one body's.
#   re-walk      the same again, every child answering 304 (nginx compares the ETag the walk stored): the CPU time
#                (user + system) of the process per child, the target at most 0.5 ms; the anchor is curl sending the
#                same PARENTS conditional requests on one connection (`curl --parallel` off, keep-alive), the least a
#                client can spend on them.
#
# Each figure is the median of RUNS runs (default 5). Both walks of a run start from the same database of
# repositories, copied, so that only the issues' sync is measured.
set -euo pipefail
cd "$(dirname "$0")/../.."
RUNS=${RUNS:-5}
PARENTS=${PARENTS:-1000}
CHILDREN=${CHILDREN:-100}
NGINX_PORT=${NGINX_PORT:-18790}

. "$(pwd)/Benchmarks/lib/setup.sh"
. "$(pwd)/Benchmarks/lib/figures.sh"  # median, ms, mb, ratio (its own measure follows)
install_missing sqlite3:sqlite3 time:time curl:curl nginx:nginx python3:python3
build_release

WORK=$(mktemp -d /tmp/syncd-fanout-bench-XXXXXX)
cleanup() {
    [ -f "$WORK/nginx.pid" ] && kill -QUIT "$(cat "$WORK/nginx.pid")" 2>/dev/null
    rm -rf "$WORK"
}
trap cleanup EXIT

# The tree: /orgs/acme/repos.json (the parents), /repos/acme/rN/issues.json (the children of each), and
# /issues.json (every issue, in one body). Each issue carries its repository's id, as the one body must say it.
python3 - "$WORK/www" "$PARENTS" "$CHILDREN" <<'PY'
import json, os, sys
root, parents, children = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
os.makedirs(f"{root}/orgs/acme", exist_ok=True)
repos = [{"id": r, "name": f"r{r}", "full_name": f"acme/r{r}", "private": False,
          "description": f"Repository number {r}", "pushed_at": "2026-11-30T12:00:00Z"} for r in range(1, parents + 1)]
with open(f"{root}/orgs/acme/repos.json", "w") as f:
    json.dump(repos, f)
with open(f"{root}/issues.json", "w") as every:
    every.write("[")
    for r in range(1, parents + 1):
        issues = [{"id": r * 100000 + n, "number": n, "repo_id": r, "title": f"Issue {n} of acme/r{r}",
                   "state": "open" if n % 3 else "closed", "comments": n % 7,
                   "user": {"login": f"user{n % 50}", "id": n % 50},
                   "labels": [{"name": "bug"}] if n % 5 == 0 else [],
                   "created_at": "2026-11-01T08:00:00Z", "updated_at": "2026-11-29T17:30:00Z",
                   "body": "Steps to reproduce: run the thing, watch it fail. " * 3}
                  for n in range(1, children + 1)]
        os.makedirs(f"{root}/repos/acme/r{r}", exist_ok=True)
        with open(f"{root}/repos/acme/r{r}/issues.json", "w") as f:
            json.dump(issues, f)
        text = json.dumps(issues)[1:-1]
        every.write(("," if r > 1 else "") + text)
    every.write("]")
PY
start_nginx "$WORK" "$NGINX_PORT" 1
URL="http://127.0.0.1:$NGINX_PORT"
until curl -sf "$URL/orgs/acme/repos.json" >/dev/null 2>&1; do sleep 0.1; done

config() { # $1: the issues endpoint's keys, $2: its extra columns
    cat > "$WORK/syncd.toml" <<TOML
database = "$WORK/syncd.db"
[[endpoint]]
name = "repos"
url = "$URL/orgs/acme/repos.json"
records = "$"
primary_key = ["id"]
[endpoint.columns]
id = { path = "id", type = "integer" }
full_name = "full_name"

[[endpoint]]
name = "issues"
records = "$"
primary_key = ["id"]
timeout = "120s"
max_body = "512MiB"
$1
[endpoint.columns]
id = { path = "id", type = "integer" }
number = { path = "number", type = "integer" }
title = "title"
state = "state"
user = "user.login"
updated_at = { path = "updated_at", type = "timestamp" }
${2:-}
TOML
}
FAN_OUT_KEYS="parent = \"repos\"
url = \"$URL/repos/{parent.full_name:path}/issues.json\"
parent_columns = { repo_id = \"id\" }
max_parents = $PARENTS"
ONE_BODY_KEYS="url = \"$URL/issues.json\""
# The one body's issues say their repository themselves; the fan-out's get it from their parent (parent_columns).
ONE_BODY_COLUMNS='repo_id = { path = "repo_id", type = "integer" }'

# The database both walks start from: the repositories, synced once.
config "$FAN_OUT_KEYS"
"$BIN/syncd" sync --config "$WORK/syncd.toml" repos >/dev/null
cp "$WORK/syncd.db" "$WORK/repos.db"

# walk NAME KEYS COLUMNS [KEEP]: syncs the issues with KEYS, from the repositories' database (or, with KEEP, from the
# database the last walk left); appends "wall_microseconds cpu_microseconds peak_kilobytes" to $WORK/NAME.
walk() {
    local name=$1 keys=$2 columns=$3 keep=${4:-}
    config "$keys" "$columns"
    if [ -z "$keep" ]; then rm -f "$WORK"/syncd.db*; cp "$WORK/repos.db" "$WORK/syncd.db"; fi
    sync
    local start end
    start=$(date +%s%N)
    /usr/bin/time -f "%U %S %M" -o "$WORK/time" "$BIN/syncd" sync --config "$WORK/syncd.toml" issues >/dev/null
    end=$(date +%s%N)
    local rows outcome
    rows=$(sqlite3 "$WORK/syncd.db" "SELECT count(*) FROM issues")
    outcome=$(sqlite3 "$WORK/syncd.db" "SELECT outcome FROM syncd_runs WHERE endpoint = 'issues' ORDER BY id DESC LIMIT 1")
    echo "$name: $outcome, $rows issues" >&2
    [ "$rows" = $((PARENTS * CHILDREN)) ] || { echo "$name stored $rows issues, not $((PARENTS * CHILDREN))" >&2; exit 1; }
    awk -v w=$(( (end - start) / 1000 )) '{ printf "%d %.0f %d\n", w, ($1 + $2) * 1000000, $3 }' "$WORK/time" \
        >> "$WORK/$name"
}

# The anchor of the re-walk: curl asks for every child with the ETag nginx gives it, on one connection.
for r in $(seq 1 "$PARENTS"); do
    # nginx's ETag: the file's modification time and length, in hexadecimal.
    etag=$(stat -c '%Y %s' "$WORK/www/repos/acme/r$r/issues.json" | awk '{ printf "%x-%x", $1, $2 }')
    [ "$r" = 1 ] || echo next
    printf 'url = "%s/repos/acme/r%d/issues.json"\nheader = "If-None-Match: \\"%s\\""\noutput = "/dev/null"\n' \
        "$URL" "$r" "$etag"
    printf 'write-out = "%%{http_code}\\n"\n'
done > "$WORK/curl.conf"
curl_walk() {
    /usr/bin/time -f "%U %S" -o "$WORK/time" curl -s -K "$WORK/curl.conf" > "$WORK/codes"
    [ "$(grep -c '^304$' "$WORK/codes")" = "$PARENTS" ] || { echo "curl's requests were not all 304" >&2; exit 1; }
    awk '{ printf "%.0f\n", ($1 + $2) * 1000000 }' "$WORK/time" >> "$WORK/curl"
}

for _ in $(seq "$RUNS"); do
    walk fan-out "$FAN_OUT_KEYS" ""
    walk rewalk "$FAN_OUT_KEYS" "" keep
    walk one-body "$ONE_BODY_KEYS" "$ONE_BODY_COLUMNS"
    curl_walk
done
# The re-walk stored nothing new: every child answered 304.
[ "$(sqlite3 "$WORK/syncd.db" "SELECT count(*) FROM syncd_runs WHERE endpoint = 'issues'")" -ge 1 ]

per_child() { awk -v u="$1" -v n="$PARENTS" 'BEGIN { printf "%.3f ms", u / n / 1000 }'; }
printf '\nsyncd fan-out benchmark: %d repositories x %d issues from loopback nginx, median of %d runs (%s)\n\n' \
    "$PARENTS" "$CHILDREN" "$RUNS" "$(date -u +%Y-%m-%d)"
printf '%-28s %12s %12s %10s\n' "" "wall" "CPU" "peak RSS"
for name in fan-out one-body rewalk; do
    printf '%-28s %12s %12s %10s\n' "$name" "$(ms "$(median "$name")")" "$(ms "$(median "$name" 2)")" \
        "$(mb "$(median "$name" 3)")"
done
f=$(median fan-out); o=$(median one-body); rc=$(median rewalk 2); cc=$(median curl)
printf '\nfirst walk / one body (wall): %s (target <= 1.50)\n' "$(ratio "$f" "$o")"
printf 're-walk CPU per child: syncd %s, curl %s, ratio %s (target <= 0.500 ms)\n' "$(per_child "$rc")" \
    "$(per_child "$cc")" "$(ratio "$rc" "$cc")"
walls() { awk '{ printf "%s%.0f", (NR > 1 ? ", " : ""), $1 / 1000 }' "$WORK/$1"; }
printf '\nwall times (ms): fan-out %s; one body %s; re-walk %s\n' "$(walls fan-out)" "$(walls one-body)" \
    "$(walls rewalk)"

. "$(pwd)/Benchmarks/lib/result.sh"
result "fan-out, $PARENTS x $CHILDREN children vs one body (wall)" "$(ms "$f")" "$(ms "$o")" "$(ratio "$f" "$o")" \
    "<= 1.50"
result "fan-out re-walk, all 304: CPU per child vs curl" "$(per_child "$rc")" "$(per_child "$cc")" \
    "$(ratio "$rc" "$cc")" "syncd <= 0.500 ms"
