#!/usr/bin/env bash
# contrib/dev/seams.sh [ROOT] — counts the seams issue 41 measures, in a checkout (default: this one):
#   - the package types of SyncCore that `syncd` and SyncServe name (nested ones included);
#   - SyncCore's public top-level types;
#   - the SQLite-store internals SyncPostgres names;
#   - the places that mint read ETags, and the HTTP clients the sources construct.
# Names are matched as whole words in the sources, so a package type's name that is also a common word counts where
# the word stands: compare two checkouts with the same script, not with another count.
set -euo pipefail
cd "${1:-$(dirname "$0")/../..}"
types=$(mktemp)
trap 'rm -f "$types"' EXIT
grep -rhoE "^\s*package (final )?(struct|enum|class|actor|protocol|typealias) [A-Za-z]+" Sources/SyncCore \
    | awk '{print $NF}' | sort -u > "$types"
named() {
    local n=0
    while read -r type; do
        if grep -rqw --include=*.swift "$type" "$1"; then n=$((n + 1)); fi
    done < "$types"
    echo "$n"
}
echo "package types of SyncCore: $(wc -l < "$types")"
echo "  named by syncd: $(named Sources/syncd)"
echo "  named by SyncServe: $(named Sources/SyncServe)"
echo "public top-level types of SyncCore: $(grep -rhoE '^public (final )?(struct|enum|class|actor|protocol) [A-Za-z]+' \
    Sources/SyncCore | sort -u | wc -l)"
echo "SyncPostgres naming RecordTable|SyncWriter|RecordReader|Migrator|SQLiteValue:" \
    "$(grep -rhoE 'RecordTable|SyncWriter|RecordReader|Migrator|SQLiteValue' Sources/SyncPostgres | wc -l)"
echo "EntityTag.make( calls: $(grep -rn 'EntityTag.make(' Sources | wc -l)"
echo "HTTPTransport constructions: $(grep -rnE '\bHTTPTransport\(' Sources | grep -v '///' | wc -l)"
