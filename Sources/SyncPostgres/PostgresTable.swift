internal import PostgresNIO
package import SyncCore
internal import SyncSQLite

/// The PostgreSQL table of one collection endpoint, its ``TableShape`` in PostgreSQL's declarations: the configured
/// columns, `_raw` (the record's JSON text as received), `_version`, `_changed_at` and `_created_version`, keyed by the
/// configured primary key, and `_row` in place of SQLite's rowid, with the index change feeds read by version.
///
/// Each column takes one PostgreSQL type: `integer` and `boolean` BIGINT (booleans stored as 1 or 0, as in SQLite),
/// `real` DOUBLE PRECISION, and `text`, `json` and `timestamp` TEXT. Every name is a validated ``SQLIdentifier`` and is
/// quoted.
package struct PostgresTable: Sendable {
    package var shape: TableShape

    package init(_ shape: TableShape) {
        self.shape = shape
    }

    package init(_ endpoint: EndpointConfiguration) {
        self.init(TableShape(endpoint))
    }

    var quotedName: String { shape.quotedName }
    var keyNames: [String] { shape.keyNames }
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
        for (index, column) in shape.columns.enumerated() {
            let notNull = shape.keyColumns.contains(index) ? " NOT NULL" : ""
            definitions.append("\(SQLIdentifier.quote(column.name)) \(Self.declaration(column.type))\(notNull)")
        }
        // `_row` is SQLite's rowid: set when a row is first stored and kept through its updates, it orders the change
        // feed within a version, and the index on (_version, _row) is the one the feed walks.
        definitions += [
            "\"_raw\" text NOT NULL", "\"_version\" bigint NOT NULL", "\"_changed_at\" text NOT NULL",
            "\"_created_version\" bigint", "\"_row\" bigint GENERATED ALWAYS AS IDENTITY",
            "PRIMARY KEY (\(quotedKeys))", "UNIQUE (\"_version\", \"_row\")",
        ]
        return "CREATE TABLE IF NOT EXISTS \(quotedName) (\(definitions.joined(separator: ", ")))"
    }

    /// The columns syncd adds to every table, besides the configured ones.
    static let systemColumns = ["_raw", "_version", "_changed_at", "_created_version", "_row"]

    /// The table's columns and their types as `information_schema` names them, in order; empty when there is no
    /// such table.
    func storedColumns(_ session: PostgresSession) throws -> [(name: String, type: String)] {
        try session.query(
            """
            SELECT column_name, data_type FROM information_schema.columns
            WHERE table_schema = current_schema() AND table_name = $1 ORDER BY ordinal_position
            """,
            [.text(shape.name.name)]
        ).rows.map { (try $0[0].decode(String.self), try $0[1].decode(String.self)) }
    }

    /// Why the stored table cannot take this configuration without losing its records: another primary key, or a
    /// key column of another type; nil when it can, or when there is no table.
    ///
    /// - Throws: ``StoreError/notSyncdTable(_:)`` for a table of that name that is not syncd's.
    func incompatibility(_ session: PostgresSession) throws -> StoreError? {
        try incompatibility(session, columns: storedColumns(session))
    }

    func incompatibility(_ session: PostgresSession, columns: [(name: String, type: String)]) throws -> StoreError? {
        guard !columns.isEmpty else { return nil }
        let existing = Dictionary(columns, uniquingKeysWith: { first, _ in first })
        guard existing["_raw"] != nil, existing["_version"] != nil, existing["_changed_at"] != nil else {
            throw StoreError.notSyncdTable(shape.name.name)
        }
        let storedKeys = try session.query(
            """
            SELECT a.attname FROM pg_index i
            JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY(i.indkey)
            WHERE i.indrelid = to_regclass($1) AND i.indisprimary
            ORDER BY array_position(i.indkey, a.attnum)
            """,
            [.text(quotedName)]
        ).rows.map { try $0[0].decode(String.self) }
        if storedKeys != keyNames {
            return StoreError.primaryKeyChanged(table: shape.name.name, stored: storedKeys, configured: keyNames)
        }
        for index in shape.keyColumns {
            let column = shape.columns[index]
            let stored = existing[column.name] ?? ""
            if stored != Self.declaration(column.type) {
                return StoreError.primaryKeyTypeChanged(
                    table: shape.name.name, column: column.name, stored: stored,
                    configured: Self.declaration(column.type))
            }
        }
        return nil
    }

    /// The upsert of `rows` records in one statement (``TableShape/upsertSQL(rows:parameter:isDistinctFrom:)``) in
    /// PostgreSQL's words. `$1` is the run's version, `$2` its time; each record binds its configured columns and
    /// `_raw` after them. A row whose `_raw` did not change is not rewritten and not counted.
    func upsertSQL(rows: Int) -> String {
        shape.upsertSQL(rows: rows, parameter: { "$\($0)" }, isDistinctFrom: "IS DISTINCT FROM")
    }

    /// A column's value as read back from PostgreSQL, as the decoder made it.
    static func value(_ cell: PostgresValue) -> ColumnValue {
        switch cell {
        case .null, .bytes, .texts: .null
        case .integer(let integer): .integer(integer)
        case .real(let real): .real(real)
        case .text(let text): .text(text)
        }
    }
}
