# Sourced by the benchmarks: `result WHAT SYNCD ANCHOR RATIO TARGET` appends one row to $RESULTS when it is set (by
# Benchmarks/run-all.sh), so that every benchmark's figures end up in one table. Fields are separated by tabs:
#   WHAT     what was measured, e.g. "first sync, 100k users: wall vs the sqlite3 shell"
#   SYNCD    syncd's figure with its unit; ANCHOR the anchor's, measured in the same run ("-" when there is none)
#   RATIO    syncd / anchor as the target reads it; TARGET e.g. "<= 0.50" (issue 15), "-" for none
result() {
    [ -n "${RESULTS:-}" ] || return 0
    printf '%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" "$5" >> "$RESULTS"
}
