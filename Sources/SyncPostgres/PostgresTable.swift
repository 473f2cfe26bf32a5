package import SyncCore

/// The PostgreSQL table of one collection endpoint, the same shape as SQLite's (``RecordTable``): the configured
/// columns, `_raw` (the record's JSON text as received), `_version`, `_changed_at` and `_created_version`, keyed by the
/// configured primary key, with the index change feeds read by version.
///
/// Each column takes one PostgreSQL type: `integer` and `boolean` BIGINT (booleans stored as 1 or 0, as in SQLite),
/// `real` DOUBLE PRECISION, and `text`, `json` and `timestamp` TEXT. Every name is a validated ``SQLIdentifier`` and is
/// quoted.
package struct PostgresTable: Sendable {
    package var table: RecordTable

    package init(_ endpoint: EndpointConfiguration) {
        table = RecordTable(endpoint)
    }

    var quotedName: String { table.quotedName }
    var keyNames: [String] { table.keyNames }
    var quotedKeys: String { keyNames.map(SQLIdentifier.quote).joined(separator: ", ") }

    /// The PostgreSQL type of a column of `type`, as `information_schema.columns.data_type` names it.
    static func declaration(_ type: ColumnType) -> String {
        switch type {
        case .integer, .boolean: "bigint"
        case .real: "double precision"
        case .text, .json, .timestamp: "text"
        }
    }

    var createSQL: String {
        var definitions: [String] = []
        for (index, column) in table.columns.enumerated() {
            let notNull = table.keyColumns.contains(index) ? " NOT NULL" : ""
            definitions.append("\(SQLIdentifier.quote(column.name)) \(Self.declaration(column.type))\(notNull)")
        }
        definitions += [
            "\"_raw\" text NOT NULL", "\"_version\" bigint NOT NULL", "\"_changed_at\" text NOT NULL",
            "\"_created_version\" bigint", "PRIMARY KEY (\(quotedKeys))", "UNIQUE (\"_version\", \(quotedKeys))",
        ]
        return "CREATE TABLE IF NOT EXISTS \(quotedName) (\(definitions.joined(separator: ", ")))"
    }

    /// The upsert of `rows` records in one statement. `$1` is the run's version, `$2` its time; each record binds its
    /// configured columns and `_raw` after them. A row whose `_raw` did not change is not rewritten and not counted.
    func upsertSQL(rows: Int) -> String {
        let names = table.columns.map { SQLIdentifier.quote($0.name) } + ["\"_raw\""]
        var values: [String] = []
        values.reserveCapacity(rows)
        var parameter = 3
        for _ in 0..<rows {
            let placeholders = (0..<names.count).map { "$\(parameter + $0)" }.joined(separator: ", ")
            parameter += names.count
            values.append("(\(placeholders), $1, $2, $1)")
        }
        let keys = Set(keyNames.map(SQLIdentifier.quote))
        let updates = (names + ["\"_version\"", "\"_changed_at\""]).filter { !keys.contains($0) }
            .map { "\($0) = EXCLUDED.\($0)" }
        return """
            INSERT INTO \(quotedName) (\(names.joined(separator: ", ")), "_version", "_changed_at", "_created_version")
            VALUES \(values.joined(separator: ", "))
            ON CONFLICT (\(quotedKeys)) DO UPDATE SET \(updates.joined(separator: ", "))
            WHERE \(quotedName)."_raw" IS DISTINCT FROM EXCLUDED."_raw"
            """
    }

    /// A column's value as read back from PostgreSQL, as the decoder made it.
    static func value(_ cell: PostgresValue) -> ColumnValue {
        switch cell {
        case .null, .bytes: .null
        case .integer(let integer): .integer(integer)
        case .real(let real): .real(real)
        case .text(let text): .text(text)
        }
    }
}
