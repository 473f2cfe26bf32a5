package import SyncDecoding
package import SyncModel
package import SyncSQLite

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

    /// The table of `endpoint`; a child endpoint's has one more column after the configured ones, ``parentColumn``.
    package init(_ endpoint: EndpointConfiguration) {
        var columns = endpoint.columns
        if endpoint.declared.parent != nil {
            columns.append(ColumnSpec(name: Self.parentColumn, path: .root, type: .text, required: false))
        }
        self.init(name: endpoint.name, columns: columns, keyColumns: endpoint.primaryKey)
    }

    /// The hidden column of a child endpoint's table: the key of the parent row a child row came from, as JSON
    /// (``ColumnValue/keyJSON(_:)``).
    package static let parentColumn = "_parent"

    /// The shape whose stored rows are re-read from `_raw` (``StoreTransaction/refill(_:decoder:)``): the first
    /// `count` columns, those read from records, then the key columns after them (a child endpoint's parent column
    /// in its key), which find each row and are never re-read.
    package func recordColumns(_ count: Int) -> TableShape {
        let parentKeys = keyColumns.filter { $0 >= count }
        let kept = Array(columns.prefix(count)) + parentKeys.map { columns[$0] }
        let keys = keyColumns.map { $0 < count ? $0 : count + (parentKeys.firstIndex(of: $0) ?? 0) }
        return TableShape(name: name, columns: kept, keyColumns: keys)
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
