#!/usr/bin/env bash
# The CPU of a 304 poll in two syncd binaries, run at the same time against one upstream:
#
#   Benchmarks/many-endpoints/side-by-side.sh OLD_SYNCD NEW_SYNCD   # ENDPOINTS=1000 ROUNDS=4 WINDOW=15 by default
#
# Run one after the other, the same binary's CPU a poll moved by a fifth within an hour on this 2-core machine, more
# than most changes to the poll. Run side by side, each `syncd run` with ENDPOINTS endpoints polled every 2 s, both
# measured over the same WINDOW seconds, whatever else the machine does falls on both: the same binary against
# itself came out at 0.99–1.05 in four rounds, so a change of less than about 5% needs more rounds than the default.
# Each round swaps which binary starts first. Prints each round's CPU a poll of both and the ratio NEW / OLD, then
# the median ratio.
set -euo pipefail
cd "$(dirname "$0")/../.."
[ $# -eq 2 ] || { echo "usage: $0 OLD_SYNCD NEW_SYNCD" >&2; exit 64; }
OLD=$(realpath "$1"); NEW=$(realpath "$2")
ENDPOINTS=${ENDPOINTS:-1000}
ROUNDS=${ROUNDS:-4}
WINDOW=${WINDOW:-15}
SETTLE=${SETTLE:-5}

. "$(pwd)/Benchmarks/lib/setup.sh"
install_missing sqlite3:sqlite3 curl:curl
build_release  # for sample-upstream

WORK=$(mktemp -d /tmp/syncd-side-by-side-XXXXXX)
PIDS=()
cleanup() {
    [ ${#PIDS[@]} -eq 0 ] || kill -INT "${PIDS[@]}" 2>/dev/null || true
    rm -rf "$WORK"
}
trap cleanup EXIT

coproc SERVER { "$BIN/sample-upstream" serve --users 10; }
read -r URL <&"${SERVER[0]}"

# start NAME BINARY PORT: a daemon with its own database and ENDPOINTS endpoints; sets STARTED to its pid
start() {
    mkdir -p "$WORK/$1"
    {
        printf 'database = "%s"\n[defaults]\ninterval = "2s"\n[server]\nlisten = "127.0.0.1:%d"\n' "$WORK/$1/cache.db" "$3"
        for i in $(seq 1 "$ENDPOINTS"); do
            printf '[[endpoint]]\nname = "e%d"\nurl = "%s/users"\nrecords = "$"\nprimary_key = ["id"]\n' "$i" "$URL"
            printf '[endpoint.columns]\nid = { path = "id", type = "integer" }\n'
        done
    } > "$WORK/$1/syncd.toml"
    SYNCD_LOG_LEVEL=warning "$2" run --config "$WORK/$1/syncd.toml" 2> "$WORK/$1/log" &
    STARTED=$!
}

ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }
hz=$(getconf CLK_TCK)
runs() { sqlite3 "$WORK/$1/cache.db" "SELECT count(*) FROM syncd_runs"; }

ratios=()
printf '%-7s %16s %16s %8s\n' "round" "old ms/poll" "new ms/poll" "ratio"
for round in $(seq "$ROUNDS"); do
    rm -rf "$WORK/old" "$WORK/new"
    if [ $((round % 2)) -eq 1 ]; then
        start old "$OLD" 18791; pid_old=$STARTED; start new "$NEW" 18792; pid_new=$STARTED
    else
        start new "$NEW" 18791; pid_new=$STARTED; start old "$OLD" 18792; pid_old=$STARTED
    fi
    PIDS=("$pid_old" "$pid_new")
    for port in 18791 18792; do
        until curl -sf "http://127.0.0.1:$port/healthz" 2>/dev/null | grep -q '"stale":0}'; do sleep 0.2; done
    done
    sleep "$SETTLE"  # past the first pass's crowd
    c_old=$(ticks "$pid_old"); c_new=$(ticks "$pid_new"); r_old=$(runs old); r_new=$(runs new)
    sleep "$WINDOW"
    c_old=$(( $(ticks "$pid_old") - c_old )); c_new=$(( $(ticks "$pid_new") - c_new ))
    r_old=$(( $(runs old) - r_old )); r_new=$(( $(runs new) - r_new ))
    kill -INT "$pid_old" "$pid_new"
    while kill -0 "$pid_old" 2>/dev/null || kill -0 "$pid_new" 2>/dev/null; do sleep 0.1; done
    PIDS=()
    line=$(awk -v co="$c_old" -v cn="$c_new" -v ro="$r_old" -v rn="$r_new" -v hz="$hz" 'BEGIN {
        o = co * 1000 / hz / ro; n = cn * 1000 / hz / rn; printf "%.3f %.3f %.3f", o, n, n / o }')
    read -r per_old per_new ratio <<< "$line"
    printf '%-7s %16s %16s %8s\n' "$round" "$per_old" "$per_new" "$ratio"
    ratios+=("$ratio")
done
exec {SERVER[1]}>&-
median=$(printf '%s\n' "${ratios[@]}" | sort -n | awk '{ a[NR] = $1 } END { printf "%.3f", (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }')
printf '\nCPU a 304 poll, new / old, side by side (%d endpoints each, %d s windows): median %s of %d rounds (%s)\n' \
    "$ENDPOINTS" "$WINDOW" "$median" "$ROUNDS" "$(date -u +%Y-%m-%d)"
