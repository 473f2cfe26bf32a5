package import SyncDecoding
package import SyncModel
internal import SyncSQLite

/// An endpoint as the database describes it — its table's columns and key, as the last sync applied them — so that
/// a program can read a syncd database without the configuration that filled it.
package enum StoredEndpoint {
    /// The endpoint's configuration, rebuilt from its row of `syncd_endpoints`; `nil` when there is no such row.
    static func load(_ name: String, _ database: Database) throws -> EndpointConfiguration? {
        guard
            let row = try database.rows(
                "SELECT kind, url, primary_key, columns FROM syncd_endpoints WHERE name = ?", [.text(name)]
            ).first
        else { return nil }
        // The key as stored: a JSON string, or an array of them for a composite key; json_each reads both.
        let keyNames = try database.rows(
            """
            SELECT json_each.value AS name FROM syncd_endpoints, json_each(syncd_endpoints.primary_key)
            WHERE syncd_endpoints.name = ?
            """, [.text(name)]
        ).compactMap { $0.text("name") }
        return configuration(
            name: name, kind: row.text("kind"), url: row.text("url") ?? "", signature: row.text("columns"),
            keyNames: keyNames)
    }

    /// An endpoint as a store's row describes it: a document, or a collection of the columns of `signature` (a
    /// ``TableShape/columnsSignature``) keyed by `keyNames`; nil for a name that is not an identifier.
    package static func configuration(
        name: String, kind: String?, url: String, signature: String?, keyNames: [String]
    ) -> EndpointConfiguration? {
        guard let identifier = try? SQLIdentifier(validating: name) else { return nil }
        guard kind == "collection" else { return EndpointConfiguration(name: identifier, url: url) }
        let columns = columns(fromSignature: signature ?? "")
        let primaryKey = keyNames.compactMap { key in columns.firstIndex { $0.name == key } }
        return EndpointConfiguration(
            name: identifier, url: url, records: .root, primaryKey: primaryKey, columns: columns)
    }

    /// The columns of a ``RecordTable/columnsSignature``: one `name type path` line per column.
    package static func columns(fromSignature signature: String) -> [ColumnSpec] {
        signature.split(separator: "\n").compactMap { line in
            let parts = line.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
            guard parts.count == 3, let type = ColumnType(rawValue: String(parts[1])),
                let path = try? JSONPath(parsing: String(parts[2]))
            else { return nil }
            return ColumnSpec(name: String(parts[0]), path: path, type: type)
        }
    }
}
