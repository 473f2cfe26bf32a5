/// The shape of one collection endpoint's table, whatever the store: its name, its configured columns and their
/// types, which of them make the primary key, and the signature that tells when stored rows must be re-read from
/// `_raw`. Each store gives it its own declarations (SQLite's ``RecordTable``, SyncPostgres' `PostgresTable`); an
/// in-memory store needs nothing more.
///
/// Every table also holds `_raw` (the record's JSON text as received), `_version` (the endpoint version at which the
/// row last changed), `_changed_at`, and `_created_version` (the version that first stored the row).
package struct TableShape: Sendable, Hashable {
    package var name: SQLIdentifier
    package var columns: [ColumnSpec]
    /// Indices into ``columns``.
    package var keyColumns: [Int]

    package init(name: SQLIdentifier, columns: [ColumnSpec], keyColumns: [Int]) {
        self.name = name
        self.columns = columns
        self.keyColumns = keyColumns
    }

    package init(_ endpoint: EndpointConfiguration) {
        self.init(name: endpoint.name, columns: endpoint.columns, keyColumns: endpoint.primaryKey)
    }

    /// The table's name, quoted for SQL.
    package var quotedName: String { name.quoted }

    /// The names of the key columns, in key order.
    package var keyNames: [String] { keyColumns.map { columns[$0].name } }

    /// A fingerprint of the column specs: when it changes, stored rows are re-read from `_raw`.
    package var columnsSignature: String {
        columns.map { "\($0.name) \($0.type.rawValue) \($0.path)" }.joined(separator: "\n")
    }

    /// The key columns' names as a JSON array, as syncd_endpoints.primary_key keeps them.
    package var primaryKeyJSON: String { ColumnValue.keyJSON(keyNames.map { .text($0) }) }

    /// The UPSERT of `rows` records in one statement, in the SQL every SQL store takes, with its own parameters
    /// (`parameter(n)`: `?n` in SQLite, `$n` in PostgreSQL) and comparison of `_raw` (`IS NOT`, `IS DISTINCT FROM`).
    ///
    /// The first parameter is the run's version (`_created_version` takes it again, and an update leaves that as it
    /// was), the second its time; each record binds its configured columns and `_raw` after them, from
    /// ``upsertParameter(row:)``. A row whose `_raw` did not change is not rewritten.
    package func upsertSQL(rows: Int, parameter: (Int) -> String, isDistinctFrom: String) -> String {
        let names = columns.map { SQLIdentifier.quote($0.name) } + ["\"_raw\""]
        var values: [String] = []
        values.reserveCapacity(rows)
        for row in 0..<rows {
            let first = upsertParameter(row: row)
            let placeholders = (0..<names.count).map { parameter(first + $0) }.joined(separator: ", ")
            values.append("(\(placeholders), \(parameter(1)), \(parameter(2)), \(parameter(1)))")
        }
        let keys = Set(keyNames.map(SQLIdentifier.quote))
        let updates = (names + ["\"_version\"", "\"_changed_at\""]).filter { !keys.contains($0) }
            .map { "\($0) = excluded.\($0)" }
        return """
            INSERT INTO \(quotedName) (\(names.joined(separator: ", ")), "_version", "_changed_at", "_created_version")
            VALUES \(values.joined(separator: ", "))
            ON CONFLICT (\(keyNames.map(SQLIdentifier.quote).joined(separator: ", "))) DO UPDATE SET
            \(updates.joined(separator: ", "))
            WHERE \(quotedName)."_raw" \(isDistinctFrom) excluded."_raw"
            """
    }

    /// The parameter of the first configured column of record `row` (from 0) in
    /// ``upsertSQL(rows:parameter:isDistinctFrom:)``; `_raw` follows the columns.
    package func upsertParameter(row: Int) -> Int {
        3 + row * (columns.count + 1)
    }
}
