#!/usr/bin/env bash
# The sync benchmark: 100k jsonplaceholder-shaped users (~57 MB) from a loopback server into SQLite.
#
#   first sync     a fresh database
#   changed        the same users after 5% changed, 1% deleted, 1% added (a snapshot: deletions included)
#   304            a re-sync the upstream answers 304
#
# Anchor, measured in the same run: the sqlite3 shell loading the same file into the same table shape with
# json_each/json_extract in one transaction (an UPSERT plus the deletion of absent keys for "changed").
# Floor: SQLite's bare insert of the same rows (INSERT … SELECT from a staged copy of those syncd stored, into a table
# made by syncd's own CREATE TABLE, in a database of syncd's page size, one transaction). Also shown, not an anchor:
# the shell's load into a database of syncd's page size.
# Every table has syncd's shape: the key, eight columns, _raw, _version (indexed, for the change feed), _changed_at.
# Each figure is the median of RUNS runs (default 3). Wall time and peak RSS are per process.
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$(pwd)
RUNS=${RUNS:-3}
USERS=${USERS:-100000}

. "$ROOT/Benchmarks/lib/setup.sh"
. "$ROOT/Benchmarks/lib/figures.sh"
install_missing sqlite3:sqlite3 time:time
build_release

# The schema-drift journal's cost (issue 13: at most 5% of a first sync): the build before the journal, from
# DRIFT_BASE (default: the parent of the commit that added it; "none" skips it), syncs the same first body in each run.
DRIFT_BASE=${DRIFT_BASE:-$(git log --diff-filter=A --format=%H -- migrations/0007_schema_drift.sql | tail -1)^}
if [ "$DRIFT_BASE" != none ] && [ "$DRIFT_BASE" != "^" ]; then
    BASE_SRC="$ROOT/.build-drift-base-src"
    if [ "$(git -C "$BASE_SRC" rev-parse HEAD 2>/dev/null)" != "$(git rev-parse "$DRIFT_BASE")" ]; then
        rm -rf "$BASE_SRC"; git worktree prune
        git worktree add --detach "$BASE_SRC" "$DRIFT_BASE" >&2
    fi
    echo "building the build before the drift journal ($DRIFT_BASE)…" >&2
    (cd "$BASE_SRC" && swift build -c release --static-swift-stdlib --scratch-path "$ROOT/.build-drift-base" \
        --product syncd >&2)
    BASE_BIN=$(cd "$BASE_SRC" && swift build -c release --static-swift-stdlib --scratch-path "$ROOT/.build-drift-base" \
        --show-bin-path)
fi

WORK=$(mktemp -d /tmp/syncd-bench-XXXXXX)
trap 'rm -rf "$WORK"' EXIT
"$BIN/sample-upstream" write --users "$USERS" "$WORK/base.json" "$WORK/churned.json"
BODY=$(stat -c %s "$WORK/base.json")

coproc SERVER { "$BIN/sample-upstream" serve --users "$USERS"; }
read -r URL <&"${SERVER[0]}"

COLUMNS_SQL='id INTEGER NOT NULL, name TEXT, username TEXT, email TEXT, city TEXT, lat REAL, lng REAL, company TEXT,
  _raw TEXT NOT NULL, _version INTEGER NOT NULL, _changed_at TEXT NOT NULL, PRIMARY KEY (id)'
extract() { # $1: the file
    cat <<SQL
SELECT json_extract(value, '\$.id'), json_extract(value, '\$.name'), json_extract(value, '\$.username'),
  json_extract(value, '\$.email'), json_extract(value, '\$.address.city'),
  CAST(json_extract(value, '\$.address.geo.lat') AS REAL), CAST(json_extract(value, '\$.address.geo.lng') AS REAL),
  json_extract(value, '\$.company.name'), value, 1, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
FROM json_each(readfile('$1'))
SQL
}
cat > "$WORK/load.sql" <<SQL
PRAGMA journal_mode = WAL;
PRAGMA synchronous = NORMAL;
CREATE TABLE users ($COLUMNS_SQL);
CREATE INDEX users_version ON users (_version);
BEGIN IMMEDIATE;
INSERT INTO users $(extract "$WORK/base.json");
COMMIT;
SQL
cat > "$WORK/upsert.sql" <<SQL
PRAGMA synchronous = NORMAL;
BEGIN IMMEDIATE;
INSERT INTO users $(extract "$WORK/churned.json") WHERE true
ON CONFLICT (id) DO UPDATE SET name = excluded.name, username = excluded.username, email = excluded.email,
  city = excluded.city, lat = excluded.lat, lng = excluded.lng, company = excluded.company, _raw = excluded._raw,
  _version = 2, _changed_at = excluded._changed_at
WHERE users._raw IS NOT excluded._raw;
DELETE FROM users WHERE id NOT IN (SELECT json_extract(value, '\$.id') FROM json_each(readfile('$WORK/churned.json')));
COMMIT;
SQL

config() { # $1: the path on the upstream
    cat > "$WORK/syncd.toml" <<TOML
database = "$WORK/syncd.db"
[[endpoint]]
name = "users"
url = "$URL$1"
records = "$"
primary_key = ["id"]
timeout = "120s"
max_body = "2GiB"
$(users_columns)
TOML
}


for _ in $(seq "$RUNS"); do
    rm -f "$WORK"/syncd.db* "$WORK"/anchor.db*
    config /users
    if [ -n "${BASE_BIN:-}" ]; then
        measure base_first "$BASE_BIN/syncd" sync --config "$WORK/syncd.toml"
        rm -f "$WORK"/syncd.db*
    fi
    measure syncd_first "$BIN/syncd" sync --config "$WORK/syncd.toml"
    # The floor's rows are the ones syncd just stored, each `_raw` with the bytes the upstream sent (json_each's
    # `value`, which the shell's load stores, is re-serialised without the spaces: 383 bytes a user against 535), in
    # syncd's own table, index included.
    # Its database has syncd's page size (8 KiB where SQLite's default is 4).
    rm -f "$WORK"/floor.db*
    PAGE_SIZE=$(sqlite3 "$WORK/syncd.db" "PRAGMA page_size")
    sqlite3 "$WORK/floor.db" "PRAGMA page_size = $PAGE_SIZE; PRAGMA journal_mode = WAL; ATTACH '$WORK/syncd.db' AS s;
        CREATE TABLE staged AS SELECT * FROM s.users;
        $(sqlite3 "$WORK/syncd.db" "SELECT sql FROM sqlite_schema WHERE name = 'users'");" >/dev/null
    measure sqlite_first sh -c "sqlite3 '$WORK/anchor.db' < '$WORK/load.sql'"
    # Not the anchor (the shell as one would run it, SQLite's defaults), but what the page size alone does for it.
    rm -f "$WORK"/paged.db*
    measure sqlite_first_paged sh -c "{ echo 'PRAGMA page_size = $PAGE_SIZE;'; cat '$WORK/load.sql'; } | sqlite3 '$WORK/paged.db'"
    rm -f "$WORK"/paged.db*
    config /users-churned
    measure syncd_changed "$BIN/syncd" sync --config "$WORK/syncd.toml"
    measure sqlite_changed sh -c "sqlite3 '$WORK/anchor.db' < '$WORK/upsert.sql'"
    measure syncd_304 "$BIN/syncd" sync --config "$WORK/syncd.toml"
    sqlite3 "$WORK/syncd.db" "SELECT duration_ms * 1000 FROM syncd_runs ORDER BY id DESC LIMIT 1" >> "$WORK/syncd_304_run"
    # The floor: the same rows, already extracted, inserted in one transaction.
    floor=$(printf '.timer on\nPRAGMA synchronous = NORMAL;\nBEGIN;\nINSERT INTO users SELECT * FROM staged;\nCOMMIT;\n' \
        | sqlite3 "$WORK/floor.db" | awk '/Run Time/ { s += $4 } END { printf "%d", s * 1000000 }')
    echo "$floor 0" >> "$WORK/floor"
done

exec {SERVER[1]}>&-
wait "$SERVER_PID" 2>/dev/null || true


printf '\nsyncd sync benchmark: %d users, %.1f MB body, median of %d runs (%s)\n\n' "$USERS" "$(awk -v b="$BODY" 'BEGIN { print b / 1048576 }')" "$RUNS" "$(date -u +%Y-%m-%d)"
printf '%-26s %16s %16s %8s\n' "" "syncd" "sqlite3 shell" "ratio"
for step in first changed; do
    s=$(median "syncd_$step"); q=$(median "sqlite_$step")
    printf '%-26s %9s %6s %9s %6s %8s\n' "$step sync (wall, RSS)" "$(ms "$s")" "$(mb "$(median "syncd_$step" 2)")" \
        "$(ms "$q")" "$(mb "$(median "sqlite_$step" 2)")" "$(ratio "$s" "$q")"
done
printf '%-26s %9s %6s   (inside syncd: %s for the run itself)\n' "304 re-sync (process)" "$(ms "$(median syncd_304)")" \
    "$(mb "$(median syncd_304 2)")" "$(ms "$(median syncd_304_run)")"
printf '%-26s %16s\n' "floor: bare insert" "$(ms "$(median floor)")"
printf '%-26s %16s   (the shell with syncd'"'"'s %d-byte pages; the anchor keeps SQLite'"'"'s default)\n' \
    "first sync, shell" "$(ms "$(median sqlite_first_paged)")" "$PAGE_SIZE"
if [ -n "${BASE_BIN:-}" ]; then
    printf '%-26s %9s %6s   (the build before the drift journal; ratio %s)\n' "first sync, no journal" \
        "$(ms "$(median base_first)")" "$(mb "$(median base_first 2)")" "$(ratio "$(median syncd_first)" "$(median base_first)")"
fi
printf '%-26s %16s\n' "peak RSS / body (first)" "$(ratio "$(( $(median syncd_first 2) * 1024 ))" "$BODY")"

. "$ROOT/Benchmarks/lib/result.sh"
USERS_LABEL="$(awk -v u="$USERS" 'BEGIN { if (u % 1000000 == 0) print u / 1000000 "M"; else print u / 1000 "k" }') users"
FIRST=$(median syncd_first); SHELL_FIRST=$(median sqlite_first); FLOOR=$(median floor)
result "first sync, $USERS_LABEL: wall vs the sqlite3 shell" "$(ms "$FIRST")" "$(ms "$SHELL_FIRST")" \
    "$(ratio "$FIRST" "$SHELL_FIRST")" "<= 0.50"
result "first sync, $USERS_LABEL: wall vs the floor (bare insert)" "$(ms "$FIRST")" "$(ms "$FLOOR")" \
    "$(ratio "$FIRST" "$FLOOR")" "<= 1.60"
if [ -n "${BASE_BIN:-}" ]; then
    result "first sync, $USERS_LABEL: with the drift journal vs the build before it" "$(ms "$FIRST")" \
        "$(ms "$(median base_first)")" "$(ratio "$FIRST" "$(median base_first)")" "<= 1.05"
fi
result "re-sync 5% changed, 1% deleted, 1% added, $USERS_LABEL" "$(ms "$(median syncd_changed)")" \
    "$(ms "$(median sqlite_changed)")" "$(ratio "$(median syncd_changed)" "$(median sqlite_changed)")" "<= 0.40"
result "first sync, $USERS_LABEL: peak RSS" "$(mb "$(median syncd_first 2)")" "$(mb "$(median sqlite_first 2)")" \
    "$(ratio "$(median syncd_first 2)" "$(median sqlite_first 2)")" "<= 64 MiB at 1M"
