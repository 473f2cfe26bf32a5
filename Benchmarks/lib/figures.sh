# Sourced by the benchmarks that time whole processes: each run's figures go to a file under $WORK, one line per run.

# measure NAME COMMAND…: runs COMMAND (its output dropped) and appends "microseconds peak-RSS-kilobytes" to $WORK/NAME.
measure() {
    local name=$1; shift
    local start end
    # What the steps before wrote is on disk first: no measurement pays for the writeback of another's files.
    [ "${FLUSH:-1}" = 0 ] || sync
    start=$(date +%s%N)
    /usr/bin/time -f "%M" -o "$WORK/rss" "$@" >/dev/null
    end=$(date +%s%N)
    echo "$(( (end - start) / 1000 )) $(cat "$WORK/rss")" >> "$WORK/$name"
}

# median NAME [COLUMN]: the median of a column (default 1) of $WORK/NAME.
median() { sort -n -k"${2:-1}" "$WORK/$1" | awk -v c="${2:-1}" '{ v[NR] = $c } END { print v[int((NR + 1) / 2)] }'; }
# ms MICROSECONDS, mb KILOBYTES, ratio A B: as the reports print them.
ms() { awk -v u="$1" 'BEGIN { printf "%.0f ms", u / 1000 }'; }
mb() { awk -v k="$1" 'BEGIN { printf "%.0f MB", k / 1024 }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
