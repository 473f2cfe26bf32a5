#!/usr/bin/env bash
# The PostgreSQL benchmark (issue 12): a first sync of 100k jsonplaceholder-shaped users (~57 MB) from a loopback
# server into PostgreSQL, against the load a PostgreSQL user would write by hand, measured in the same run:
#
#   anchor   psql loading the same file: the records as JSON lines `\copy`'d into a staging table, then one
#            INSERT … SELECT … ON CONFLICT DO UPDATE into a table of syncd's shape, in one transaction (the
#            conversion of the JSON array into lines, by python3, is timed with it: syncd reads the array too)
#   syncd    `syncd sync` with `database = "postgresql://…"`, process start to exit
#
# Both write into the same throwaway cluster (initdb in a temporary folder, as the postgres user, on a free loopback
# port, fsync on), each into a database of its own made fresh for each run. Each figure is the median of RUNS runs
# (default 3). Target (issue 12): syncd / anchor at most 1.0.
#
# Then the cluster: 1, 2 and 3 `syncd run` nodes ([cluster], leases) on one database polling ENDPOINTS (default 300)
# endpoints every second, each answer LATENCY ms late (default 100: a real API's, which loopback lacks), each node
# with concurrency 4. Polls per second are counted in syncd_runs over WINDOW seconds (default 10) after a warm-up;
# the anchor is what the nodes could do at most (nodes × concurrency / latency), and the figure should grow with
# the nodes (issue 12).
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$(pwd)
RUNS=${RUNS:-3}
USERS=${USERS:-100000}
ENDPOINTS=${ENDPOINTS:-300}
LATENCY=${LATENCY:-100}
WINDOW=${WINDOW:-10}

. "$ROOT/Benchmarks/lib/setup.sh"
. "$ROOT/Benchmarks/lib/figures.sh"
install_missing time:time python3:python3
if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
fi
build_release
PGBIN=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)

WORK=$(mktemp -d /tmp/syncd-pgbench-XXXXXX)
chmod 0755 "$WORK"
chown postgres: "$WORK"
PORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
runuser -u postgres -- "$PGBIN/initdb" --no-locale -E UTF8 --auth=trust -U postgres -D "$WORK/data" >/dev/null
runuser -u postgres -- "$PGBIN/pg_ctl" -D "$WORK/data" -l "$WORK/server.log" -w \
    -o "-p $PORT -k $WORK -c listen_addresses=127.0.0.1" start >/dev/null
stop() {
    if [ -n "${SERVER[1]:-}" ]; then exec {SERVER[1]}>&-; fi
    if [ -n "${SLOW[1]:-}" ]; then exec {SLOW[1]}>&-; fi
    for pid in ${NODES:-}; do kill -KILL "$pid" 2>/dev/null || true; done
    runuser -u postgres -- "$PGBIN/pg_ctl" -D "$WORK/data" -m fast stop >/dev/null 2>&1 || true
    rm -rf "$WORK"
}
trap stop EXIT
PSQL=(psql -h 127.0.0.1 -p "$PORT" -U postgres -X -q -v ON_ERROR_STOP=1)

"$BIN/sample-upstream" write --users "$USERS" "$WORK/base.json" "$WORK/churned.json"
BODY=$(stat -c %s "$WORK/base.json")
coproc SERVER { "$BIN/sample-upstream" serve --users "$USERS"; }
read -r URL <&"${SERVER[0]}"

cat > "$WORK/lines.py" <<'PY'
import json, sys
for record in json.load(open(sys.argv[1])):
    sys.stdout.write(json.dumps(record, separators=(",", ":")) + "\n")
PY
cat > "$WORK/load.sql" <<'SQL'
CREATE TABLE users (id bigint NOT NULL, name text, username text, email text, city text, lat double precision,
  lng double precision, company text, "_raw" text NOT NULL, "_version" bigint NOT NULL, "_changed_at" text NOT NULL,
  "_created_version" bigint, "_row" bigint GENERATED ALWAYS AS IDENTITY, PRIMARY KEY (id),
  UNIQUE ("_version", "_row"));
CREATE TEMP TABLE staging (doc json);
\copy staging (doc) FROM pstdin WITH (FORMAT csv, QUOTE e'\x01', DELIMITER e'\x02')
BEGIN;
INSERT INTO users (id, name, username, email, city, lat, lng, company, "_raw", "_version", "_changed_at",
  "_created_version")
SELECT (doc->>'id')::bigint, doc->>'name', doc->>'username', doc->>'email', doc->'address'->>'city',
  (doc->'address'->'geo'->>'lat')::double precision, (doc->'address'->'geo'->>'lng')::double precision,
  doc->'company'->>'name', doc::text, 1, to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 1
FROM staging
ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name, username = EXCLUDED.username, email = EXCLUDED.email,
  city = EXCLUDED.city, lat = EXCLUDED.lat, lng = EXCLUDED.lng, company = EXCLUDED.company, "_raw" = EXCLUDED."_raw",
  "_version" = EXCLUDED."_version", "_changed_at" = EXCLUDED."_changed_at"
WHERE users."_raw" IS DISTINCT FROM EXCLUDED."_raw";
COMMIT;
SQL
cat > "$WORK/syncd.toml" <<TOML
database = "postgresql://postgres@127.0.0.1:$PORT/syncd_db?sslmode=disable"
[[endpoint]]
name = "users"
url = "$URL/users"
records = "\$"
primary_key = ["id"]
timeout = "120s"
max_body = "2GiB"
$(users_columns)
TOML


for _ in $(seq "$RUNS"); do
    "${PSQL[@]}" -d postgres -c "DROP DATABASE IF EXISTS syncd_db" -c "DROP DATABASE IF EXISTS anchor_db" \
        -c "CREATE DATABASE syncd_db" -c "CREATE DATABASE anchor_db" 2>/dev/null
    # syncd migrates a new database first: done before the clock starts, as the anchor's cluster needs nothing.
    "$BIN/syncd" migrate --config "$WORK/syncd.toml" >/dev/null
    measure syncd_first "$BIN/syncd" sync --config "$WORK/syncd.toml"
    measure anchor_first sh -c "python3 '$WORK/lines.py' '$WORK/base.json' | ${PSQL[*]} -d anchor_db -f '$WORK/load.sql'"
    stored=$("${PSQL[@]}" -d syncd_db -At -c "SELECT count(*) FROM users")
    anchored=$("${PSQL[@]}" -d anchor_db -At -c "SELECT count(*) FROM users")
    [ "$stored" = "$USERS" ] && [ "$anchored" = "$USERS" ] \
        || { echo "stored $stored and $anchored rows, expected $USERS" >&2; exit 1; }
done


FIRST=$(median syncd_first); ANCHOR=$(median anchor_first)
printf '\nsyncd PostgreSQL benchmark: %d users, %.1f MB body, median of %d runs (%s, PostgreSQL %s)\n\n' "$USERS" \
    "$(awk -v b="$BODY" 'BEGIN { print b / 1048576 }')" "$RUNS" "$(date -u +%Y-%m-%d)" "$(basename "$(dirname "$PGBIN")")"
printf '%-30s %16s %22s %8s\n' "" "syncd" "psql \\copy + upsert" "ratio"
printf '%-30s %9s %6s %15s %6s %8s\n' "first sync (wall, client RSS)" "$(ms "$FIRST")" "$(mb "$(median syncd_first 2)")" \
    "$(ms "$ANCHOR")" "$(mb "$(median anchor_first 2)")" "$(ratio "$FIRST" "$ANCHOR")"

. "$ROOT/Benchmarks/lib/result.sh"
result "PostgreSQL first sync, $((USERS / 1000))k users: wall vs psql \\copy + upsert" "$(ms "$FIRST")" \
    "$(ms "$ANCHOR")" "$(ratio "$FIRST" "$ANCHOR")" "<= 1.0 (issue 12)"

# The cluster. A slow upstream of its own: /users-paged?page=1 is one page of 10 users, LATENCY ms late.
exec {SERVER[1]}>&-
wait "$SERVER_PID" 2>/dev/null || true
coproc SLOW { "$BIN/sample-upstream" serve --users 10 --page-size 10 --latency "$LATENCY"; }
read -r SLOW_URL <&"${SLOW[0]}"
cluster_config() {  # NODE
    printf 'database = "postgresql://postgres@127.0.0.1:%s/cluster_db?sslmode=disable"\n' "$PORT"
    printf '[server]\nlisten = "off"\n[cluster]\nnode = "%s"\nlease = "10s"\n' "$1"
    printf '[defaults]\nconcurrency = 4\ninterval = "1s"\njitter = 0\n'
    for i in $(seq "$ENDPOINTS"); do
        printf '[[endpoint]]\nname = "e%d"\nurl = "%s/users-paged?page=1&e=%d"\nrecords = "$"\nprimary_key = ["id"]\n' \
            "$i" "$SLOW_URL" "$i"
        printf 'columns = { id = { path = "id", type = "integer" }, name = "name" }\n'
    done
}
runs() { "${PSQL[@]}" -d cluster_db -At -c "SELECT count(*) FROM syncd_runs WHERE outcome <> 'failed'"; }
declare -A POLLS
for nodes in 1 2 3; do
    "${PSQL[@]}" -d postgres -c "DROP DATABASE IF EXISTS cluster_db" -c "CREATE DATABASE cluster_db" 2>/dev/null
    cluster_config n1 > "$WORK/n1.toml"
    "$BIN/syncd" migrate --config "$WORK/n1.toml" >/dev/null
    NODES=""
    for n in $(seq "$nodes"); do
        cluster_config "n$n" > "$WORK/n$n.toml"
        "$BIN/syncd" run --config "$WORK/n$n.toml" 2>"$WORK/n$n.log" &
        NODES="$NODES $!"
    done
    sleep 5  # the warm-up: the first pass over every endpoint, which creates their rows
    before=$(runs); sleep "$WINDOW"; after=$(runs)
    for pid in $NODES; do kill -TERM "$pid"; done
    for pid in $NODES; do wait "$pid" || { echo "node $pid failed: $(cat "$WORK"/n*.log | tail -5)" >&2; exit 1; }; done
    NODES=""
    POLLS[$nodes]=$(awk -v a="$before" -v b="$after" -v w="$WINDOW" 'BEGIN { printf "%.1f", (b - a) / w }')
done

printf '\nThe cluster: %d endpoints every 1 s, answers %d ms late, concurrency 4 a node, %d s window\n\n' \
    "$ENDPOINTS" "$LATENCY" "$WINDOW"
printf '%-10s %12s %22s %8s %14s\n' "nodes" "polls/s" "most possible (n×4/lat)" "ratio" "vs 1 node"
for nodes in 1 2 3; do
    ideal=$(awk -v n="$nodes" -v l="$LATENCY" 'BEGIN { printf "%.1f", n * 4 * 1000 / l }')
    printf '%-10s %12s %22s %8s %14s\n' "$nodes" "${POLLS[$nodes]}" "$ideal" "$(ratio "${POLLS[$nodes]}" "$ideal")" \
        "$(ratio "${POLLS[$nodes]}" "${POLLS[1]}")"
    result "PostgreSQL cluster, $nodes node(s), $ENDPOINTS endpoints: polls/s vs the most possible" \
        "${POLLS[$nodes]}/s" "$ideal/s" "$(ratio "${POLLS[$nodes]}" "$ideal")" "grows with nodes (issue 12)"
done
