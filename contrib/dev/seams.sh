#!/usr/bin/env bash
# contrib/dev/seams.sh [ROOT] — counts the seams issue 41 measures, in a checkout (default: this one):
#   - the package types of SyncCore that `syncd` and SyncServe name (nested ones included);
#   - SyncCore's public top-level types (the façade's: its own and those of the modules it re-exports);
#   - the SQLite-store internals SyncPostgres names;
#   - the places that mint read ETags, and the HTTP clients the sources construct.
# Top-level names are matched as whole words in the sources, so one that is also a common word counts where the word
# stands (EndpointState in the OpenAPI document's strings): compare two checkouts with the same script, not with
# another count.
set -euo pipefail
cd "${1:-$(dirname "$0")/../..}"
types=$(mktemp)
trap 'rm -f "$types"' EXIT
# A top-level type by its name; a nested one as it must be written outside its type, Outer.Inner (the enclosing type
# or extension at the file's top level), so that a common word such as Kind or Row counts only where it names the
# type.
# SyncCore is the façade over the modules it was split into: its types are theirs too.
modules="Sources/SyncCore Sources/SyncSQLite Sources/SyncDecoding Sources/SyncModel Sources/SyncHTTP Sources/SyncIngest Sources/SyncPersistence Sources/SyncRuntime"
find $modules -name '*.swift' -exec awk '
    /^(public |package |internal |private |fileprivate )?(final )?(struct|enum|class|actor|protocol|extension) [A-Za-z.]+/ {
        for (i = 1; i <= NF; i++) if ($i ~ /^(struct|enum|class|actor|protocol|extension)$/) { outer = $(i + 1); break }
        sub(/[^A-Za-z.].*/, "", outer)
    }
    /^[ \t]*package (final )?(struct|enum|class|actor|protocol|typealias) [A-Za-z]+/ {
        for (i = 1; i <= NF; i++) if ($i ~ /^(struct|enum|class|actor|protocol|typealias)$/) { name = $(i + 1); break }
        sub(/[^A-Za-z].*/, "", name)
        print (/^[ \t]/ ? outer "." name : name)
    }' {} + | sort -u > "$types"
named() {
    local n=0
    while read -r type; do
        if [[ $type == *.* ]]; then
            grep -rqF --include=*.swift "$type" "$1" && n=$((n + 1))
        elif grep -rqw --include=*.swift "$type" "$1"; then
            n=$((n + 1))
        fi
    done < "$types"
    echo "$n"
}
echo "package types of SyncCore: $(wc -l < "$types")"
echo "  named by syncd: $(named Sources/syncd)"
echo "  named by SyncServe: $(named Sources/SyncServe)"
echo "public top-level types of SyncCore: $(grep -rhoE '^public (final )?(struct|enum|class|actor|protocol) [A-Za-z]+' \
    $modules | sort -u | wc -l)"
echo "SyncPostgres naming RecordTable|SyncWriter|RecordReader|Migrator|SQLiteValue:" \
    "$(grep -rhoE 'RecordTable|SyncWriter|RecordReader|Migrator|SQLiteValue' Sources/SyncPostgres | wc -l)"
echo "EntityTag.make( calls: $(grep -rn 'EntityTag.make(' Sources | wc -l)"
echo "HTTPTransport constructions: $(grep -rnE '\bHTTPTransport\(' Sources | grep -v '///' | wc -l)"
