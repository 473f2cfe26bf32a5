#!/usr/bin/env bash
# Crash soak: SIGKILL `syncd sync` at random moments of large syncs, N times, and check after every kill that the
# database is intact and shows exactly one generation of the data.
#
# The loopback upstream (`sample-upstream serve --stamped`) serves the same USERS users as two generations, every
# record stamped with its generation ("stamp": 1 or 2, also a configured column). Each round syncs the generation
# the database does not hold, so the sync rewrites every row, and kills it after a random delay between 0 and 1.2×
# an uninterrupted sync's duration (some kills land after the commit, most before or during it). Then, with the
# sqlite3 shell, as any reader would open the file:
#   - PRAGMA integrity_check says "ok";
#   - the table holds exactly USERS rows, every one with the same stamp, in its column and in its _raw: all rows of
#     one generation and none of the other;
#   - the endpoint's stored ETag ("stamp-N") names that same generation: the state was committed with the rows.
#
#   N=1000 USERS=200000 Benchmarks/crash-soak/run.sh     # the defaults (about 50 minutes on 2 cores)
#   N=20 USERS=5000 BIN=.build/debug Benchmarks/crash-soak/run.sh   # CI's short run, with the debug binaries
#
# BIN: a folder holding syncd and sample-upstream (default: a release build with the static Swift runtime, as the
# other benchmarks use). SEED seeds the delays (default: the clock); the seed is printed, so a failure can be re-run.
set -euo pipefail
cd "$(dirname "$0")/../.."
N=${N:-1000}
USERS=${USERS:-200000}
SEED=${SEED:-$(date +%s)}
RANDOM=$SEED

if ! command -v sqlite3 >/dev/null 2>&1; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq sqlite3 >/dev/null
fi
if [ -z "${BIN:-}" ]; then
    echo "building (release, static Swift runtime)…" >&2
    BUILD=(swift build -c release --static-swift-stdlib --scratch-path .build-release-static)
    "${BUILD[@]}" --product syncd >&2
    "${BUILD[@]}" --product sample-upstream >&2
    BIN=$("${BUILD[@]}" --show-bin-path)
fi

WORK=$(mktemp -d /tmp/syncd-crash-soak-XXXXXX)
coproc SERVER { "$BIN/sample-upstream" serve --users "$USERS" --stamped; }
read -r URL <&"${SERVER[0]}"
cleanup() {
    exec {SERVER[1]}>&- 2>/dev/null || true
    wait "$SERVER_PID" 2>/dev/null || true
    rm -rf "$WORK"
}
trap cleanup EXIT

DB="$WORK/syncd.db"
for stamp in 1 2; do
    cat > "$WORK/stamp-$stamp.toml" <<TOML
database = "$DB"
[[endpoint]]
name = "users"
url = "$URL/users-stamped?stamp=$stamp"
records = "$"
primary_key = ["id"]
timeout = "120s"
max_body = "1GiB"
[endpoint.columns]
id = { path = "id", type = "integer" }
stamp = { path = "stamp", type = "integer" }
name = "name"
TOML
done

# The generation the database shows, or a line saying what is wrong with it.
check() {
    local integrity
    integrity=$(sqlite3 -batch "$DB" "PRAGMA integrity_check;" 2>&1)
    if [ "$integrity" != "ok" ]; then
        echo "integrity_check: $integrity"
        return
    fi
    sqlite3 -batch -separator ' ' "$DB" "
        SELECT count(*), count(DISTINCT stamp), min(stamp),
               sum(json_extract(_raw, '\$.stamp') IS NOT stamp),
               (SELECT etag FROM syncd_endpoints WHERE name = 'users')
        FROM users;" 2>&1 | {
        read -r rows stamps stamp mismatched etag || true
        if [ "$rows" != "$USERS" ] || [ "$stamps" != 1 ] || [ "$mismatched" != 0 ] || [ "$etag" != "\"stamp-$stamp\"" ]
        then
            echo "rows=$rows distinct_stamps=$stamps stamp=$stamp raw_mismatches=$mismatched etag=$etag"
        else
            echo "$stamp"
        fi
    }
}

now_ms() { echo $(( $(date +%s%N) / 1000000 )); }

# Two uninterrupted syncs: the database starts with a generation, and they time a whole sync.
longest=0
for stamp in 1 2; do
    start=$(now_ms)
    "$BIN/syncd" sync --config "$WORK/stamp-$stamp.toml" >/dev/null
    took=$(( $(now_ms) - start ))
    [ "$took" -gt "$longest" ] && longest=$took
    [ "$(check)" = "$stamp" ] || { echo "the uninterrupted sync of stamp $stamp is not visible: $(check)"; exit 1; }
done
echo "crash soak: N=$N, USERS=$USERS, an uninterrupted sync takes ${longest} ms, SEED=$SEED" >&2

held=2
during=0
after=0
committed=0
kept=0
for round in $(seq "$N"); do
    target=$(( 3 - held ))
    delay=$(( (RANDOM * 32768 + RANDOM) % (longest * 12 / 10 + 1) ))
    "$BIN/syncd" sync --config "$WORK/stamp-$target.toml" >/dev/null 2>&1 &
    pid=$!
    sleep "$(awk -v d="$delay" 'BEGIN { printf "%.3f", d / 1000 }')"
    # A process that already exited is a zombie until waited for: tell the two cases apart.
    if [ "$(awk '{ print $3 }' "/proc/$pid/stat" 2>/dev/null)" = Z ]; then
        after=$((after + 1))
    else
        during=$((during + 1))
    fi
    kill -KILL "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
    shown=$(check)
    case "$shown" in
        "$target") committed=$((committed + 1)); held=$shown ;;
        "$held") kept=$((kept + 1)) ;;
        *)
            cp "$DB"* /tmp/ 2>/dev/null || true
            echo "round $round (killed after ${delay} ms, syncing stamp $target): $shown (database copied to /tmp)"
            exit 1
            ;;
    esac
    if [ $((round % 50)) -eq 0 ]; then echo "  $round kills, no corruption so far" >&2; fi
done

printf 'crash soak (%s): %d kills of `syncd sync` (%d during a sync, %d after it had exited), %d users per sync\n' \
    "$(date -u +%Y-%m-%d)" "$N" "$during" "$after" "$USERS"
printf '  after every kill: integrity_check ok and exactly one generation visible: the new one %d times (killed\n' \
    "$committed"
printf '  after its commit), the old one %d times (killed before it: rolled back)\n' "$kept"
printf '  corruptions: 0, mixed generations: 0\n'
