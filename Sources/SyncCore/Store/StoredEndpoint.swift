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
        let identifier: SQLIdentifier
        do {
            identifier = try SQLIdentifier(validating: name)
        } catch {
            return nil
        }
        let url = row.text("url") ?? ""
        guard row.text("kind") == "collection" else {
            return EndpointConfiguration(name: identifier, url: url)
        }
        let columns = Self.columns(fromSignature: row.text("columns") ?? "")
        // The key as stored: a JSON string, or an array of them for a composite key; json_each reads both.
        let keyNames = try database.rows(
            """
            SELECT json_each.value AS name FROM syncd_endpoints, json_each(syncd_endpoints.primary_key)
            WHERE syncd_endpoints.name = ?
            """, [.text(name)]
        ).compactMap { $0.text("name") }
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
