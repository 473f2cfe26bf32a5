import SyncDecoding
package import SyncSQLite

extension RecordTable {
    /// Why the stored table cannot take the configured columns without losing its rows: another primary key, or
    /// a primary-key column whose type changed (every stored key would stop matching its record, and a snapshot
    /// would delete every row). Nil when the table is compatible or does not exist.
    ///
    /// ``prepare(_:storedSignature:)`` throws this error; `syncd check-config` reports it.
    ///
    /// - Parameter storedSignature: the ``columnsSignature`` of the last successful run, if any.
    package func incompatibility(_ database: Database, storedSignature: String?) throws -> StoreError? {
        guard try database.tableExists(name.name) else { return nil }
        let info = try database.rows(
            "SELECT name, type, pk FROM pragma_table_info(?) ORDER BY cid", [.text(name.name)])
        return incompatibility(tableInfo: info, storedSignature: storedSignature)
    }

    /// - Parameter info: the table's `pragma_table_info` rows: name, type, pk.
    func incompatibility(tableInfo info: [Row], storedSignature: String?) -> StoreError? {
        let existingKey = info.filter { ($0.integer("pk") ?? 0) > 0 }
            .sorted { ($0.integer("pk") ?? 0) < ($1.integer("pk") ?? 0) }
            .compactMap { $0.text("name") }
        guard existingKey == keyNames else {
            return StoreError.primaryKeyChanged(table: name.name, stored: existingKey, configured: keyNames)
        }
        let storedTypes = Self.columnTypes(inSignature: storedSignature)
        let declared = Self.declaredTypes(info)
        for index in keyColumns {
            let column = columns[index]
            // The type the last run stored; for tables from before signatures, the declared SQLite type.
            if let stored = storedTypes[column.name] {
                if stored != column.type.rawValue {
                    return StoreError.primaryKeyTypeChanged(
                        table: name.name, column: column.name, stored: stored, configured: column.type.rawValue)
                }
            } else if let stored = declared[column.name], stored != column.type.sqliteDeclaration {
                return StoreError.primaryKeyTypeChanged(
                    table: name.name, column: column.name, stored: stored.lowercased(),
                    configured: column.type.rawValue)
            }
        }
        return nil
    }

    /// The configured non-key columns that exist in the table with another declared SQLite type.
    func retypedColumns(tableInfo info: [Row]) -> [ColumnSpec] {
        let declared = Self.declaredTypes(info)
        return columns.indices.filter { !keyColumns.contains($0) }.map { columns[$0] }.filter { column in
            guard let type = declared[column.name] else { return false }
            return type != column.type.sqliteDeclaration
        }
    }

    /// Column name to declared type, upper-cased, from `pragma_table_info` rows.
    private static func declaredTypes(_ info: [Row]) -> [String: String] {
        var types: [String: String] = [:]
        for row in info {
            guard let name = row.text("name") else { continue }
            types[name] = (row.text("type") ?? "").uppercased()
        }
        return types
    }

    /// Column name to type, from a ``columnsSignature``: one `name type path` line per column.
    static func columnTypes(inSignature signature: String?) -> [String: String] {
        var types: [String: String] = [:]
        for line in signature?.split(separator: "\n") ?? [] {
            let parts = line.split(separator: " ", maxSplits: 2)
            guard parts.count >= 2 else { continue }
            types[String(parts[0])] = String(parts[1])
        }
        return types
    }
}
