#!/usr/bin/env bash
# contrib/dev/seams.sh [ROOT] — counts the seams issue 41 measures, in a checkout (default: this one):
#   - the package types of SyncCore that `syncd` and SyncServe name (nested ones included), and apart those of
#     SyncSupport, the helpers module they depend on by name;
#   - SyncCore's public top-level types (the façade's: its own and those of the modules it re-exports);
#   - the SQLite-store internals SyncPostgres names;
#   - the places that mint read ETags, and the HTTP clients the sources construct.
# Top-level names are matched as whole words in the sources, so one that is also a common word counts where the word
# stands (EndpointState in the OpenAPI document's strings): compare two checkouts with the same script, not with
# another count.
set -euo pipefail
cd "${1:-$(dirname "$0")/../..}"
types=$(mktemp)
support_types=$(mktemp)
trap 'rm -f "$types" "$support_types"' EXIT
# A top-level type by its name; a nested one as it must be written outside its type, Outer.Inner (the enclosing type
# or extension at the file's top level), so that a common word such as Kind or Row counts only where it names the
# type.
# SyncCore is the façade over the modules it was split into: its types are theirs too. SyncSupport, the helpers below
# them all (dates, durations, byte counts), is a module the binary and the read API depend on by name, as they do on
# swift-log: its types are counted apart. (An older checkout has fewer of these folders, and its SyncCore held the
# helpers: the folders it lacks are skipped, so that two checkouts compare.)
layers() {
    for module in SyncCore "$@" SyncSQLite SyncDecoding SyncModel SyncHTTP SyncIngest SyncPersistence SyncRuntime; do
        if [ -d "Sources/$module" ]; then echo "Sources/$module"; fi
    done
}
package_types() {
    find "$@" -name '*.swift' -exec awk '
        /^(public |package |internal |private |fileprivate )?(final )?(struct|enum|class|actor|protocol|extension) [A-Za-z.]+/ {
            for (i = 1; i <= NF; i++) if ($i ~ /^(struct|enum|class|actor|protocol|extension)$/) { outer = $(i + 1); break }
            sub(/[^A-Za-z.].*/, "", outer)
        }
        /^[ \t]*package (final )?(struct|enum|class|actor|protocol|typealias) [A-Za-z]+/ {
            for (i = 1; i <= NF; i++) if ($i ~ /^(struct|enum|class|actor|protocol|typealias)$/) { name = $(i + 1); break }
            sub(/[^A-Za-z].*/, "", name)
            print (/^[ \t]/ ? outer "." name : name)
        }' {} + | sort -u
}
modules=$(layers)
package_types $modules > "$types"
if [ -d Sources/SyncSupport ]; then package_types Sources/SyncSupport > "$support_types"; fi
named() {
    local n=0
    while read -r type; do
        if [[ $type == *.* ]]; then
            grep -rqF --include=*.swift "$type" "$1" && n=$((n + 1))
        elif grep -rqw --include=*.swift "$type" "$1"; then
            n=$((n + 1))
        fi
    done < "${2:-$types}"
    echo "$n"
}
echo "package types of SyncCore: $(wc -l < "$types")"
echo "  named by syncd: $(named Sources/syncd)"
echo "  named by SyncServe: $(named Sources/SyncServe)"
echo "package types of SyncSupport: $(wc -l < "$support_types")"
echo "  named by syncd: $(named Sources/syncd "$support_types")"
echo "  named by SyncServe: $(named Sources/SyncServe "$support_types")"
echo "public top-level types of SyncCore: $(grep -rhoE '^public (final )?(struct|enum|class|actor|protocol) [A-Za-z]+' \
    $(layers SyncSupport) | sort -u | wc -l)"
echo "SyncPostgres naming RecordTable|SyncWriter|RecordReader|Migrator|SQLiteValue:" \
    "$(grep -rhoE 'RecordTable|SyncWriter|RecordReader|Migrator|SQLiteValue' Sources/SyncPostgres | wc -l)"
echo "EntityTag.make( calls: $(grep -rn 'EntityTag.make(' Sources | wc -l)"
echo "HTTPTransport constructions: $(grep -rnE '\bHTTPTransport\(' Sources | grep -v '///' | wc -l)"
