package import SyncDecoding
package import SyncModel
package import SyncSQLite

/// The SQLite table of one collection endpoint: its ``TableShape`` in SQLite's declarations, with `_raw` (the
/// record's JSON as received), `_version` (the endpoint version at which the row last changed), `_changed_at`, and
/// `_created_version` (the version that first stored the row; NULL for rows stored before syncd kept it), which tells
/// change sets' inserts from updates.
///
/// Every name in the SQL below is a validated ``SQLIdentifier`` or one of syncd's own, and is quoted.
package struct RecordTable: Sendable {
    package var shape: TableShape

    package init(_ shape: TableShape) {
        self.shape = shape
    }

    package init(name: SQLIdentifier, columns: [ColumnSpec], keyColumns: [Int]) {
        self.init(TableShape(name: name, columns: columns, keyColumns: keyColumns))
    }

    package init(_ endpoint: EndpointConfiguration) {
        self.init(TableShape(endpoint))
    }

    package var name: SQLIdentifier { shape.name }
    package var columns: [ColumnSpec] { shape.columns }
    /// Indices into ``columns``.
    package var keyColumns: [Int] { shape.keyColumns }
    package var quotedName: String { shape.quotedName }
    package var keyNames: [String] { shape.keyNames }
    /// A fingerprint of the column specs: when it changes, stored rows are re-read from `_raw`.
    package var columnsSignature: String { shape.columnsSignature }

    /// The columns syncd adds to every table, besides the configured ones.
    static let systemColumns = ["_raw", "_version", "_changed_at", "_created_version"]

    /// The key of a row as JSON, computed by SQLite: `8`, `"abc"`, or `[1,"x"]` for a composite key. The read side's
    /// expression (``SQLDialect/keyJSON(_:)``), so that tombstones and change feeds name a key alike.
    var keyJSONExpression: String {
        SQLDialect.sqlite.keyJSON(keyNames) ?? ""
    }

    package var createSQL: String {
        var definitions: [String] = []
        for (index, column) in columns.enumerated() {
            let notNull = keyColumns.contains(index) ? " NOT NULL" : ""
            definitions.append("\(SQLIdentifier.quote(column.name)) \(column.type.sqliteDeclaration)\(notNull)")
        }
        definitions.append("\"_raw\" TEXT NOT NULL")
        definitions.append("\"_version\" INTEGER NOT NULL")
        definitions.append("\"_changed_at\" TEXT NOT NULL")
        definitions.append("\"_created_version\" INTEGER")
        let quotedKeys = keyNames.map(SQLIdentifier.quote).joined(separator: ", ")
        definitions.append("PRIMARY KEY (\(quotedKeys))")
        // The index that change feeds and `?since=` read by version. Declared as a constraint, it is made by the CREATE
        // TABLE itself: each schema change has SQLite walk every table it holds (sqlite3FkClearTriggerCache), so one
        // statement a table instead of two halves the creation of many tables (10,000: 9.1 -> 4.8 s in the sqlite3
        // shell). It can never be violated (the key alone is unique) and cost no measurable time per insert; tables
        // created before keep their `syncd_idx_<table>_version` index, which serves the same reads.
        definitions.append("UNIQUE (\"_version\", \(quotedKeys))")
        return """
            CREATE TABLE \(quotedName) (
                \(definitions.joined(separator: ",\n    "))
            );
            """
    }

    /// The UPSERT of `rows` records in one statement (``TableShape/upsertSQL(rows:parameter:isDistinctFrom:)``): a
    /// row whose `_raw` did not change is not rewritten, and returns no row. `?1` is the run's version, `?2` its time;
    /// each record binds its configured columns and `_raw` after them, from ``upsertParameter(row:)``.
    /// Whether rows were written is `Database.changes` after the step: 0 for a row whose stored `_raw` is the same.
    /// (RETURNING would say it too, but makes SQLite run the statement to its end and buffer the result on the first
    /// step, every row.)
    func upsertSQL(rows: Int) -> String {
        shape.upsertSQL(rows: rows, parameter: { "?\($0)" }, isDistinctFrom: "IS NOT")
    }

    /// The parameter of the first configured column of record `row` (from 0) in ``upsertSQL(rows:)``.
    func upsertParameter(row: Int) -> Int {
        shape.upsertParameter(row: row)
    }

    /// Creates the table, or brings an existing one up to the configured columns.
    ///
    /// A non-key column whose type now has another SQLite declaration is dropped and added again, so that its
    /// values take the new affinity when they are refilled.
    ///
    /// - Returns: Whether columns were added or changed, so that stored rows need re-reading from `_raw`.
    /// - Throws: ``StoreError`` when the table exists with another primary key or primary-key type, or is not
    ///   syncd's.
    func prepare(_ database: Database, storedSignature: String?) throws -> Bool {
        guard try database.tableExists(name.name) else {
            try database.execute(createSQL)
            return false
        }
        let info = try database.rows(
            "SELECT name, type, pk FROM pragma_table_info(?) ORDER BY cid", [.text(name.name)])
        let existing = info.compactMap { $0.text("name") }
        guard existing.contains("_raw"), existing.contains("_version"), existing.contains("_changed_at") else {
            throw StoreError.notSyncdTable(name.name)
        }
        if !existing.contains("_created_version") {
            // A table from before syncd kept it: its rows' first versions are unknown (NULL), later ones are kept.
            try database.execute("ALTER TABLE \(quotedName) ADD COLUMN \"_created_version\" INTEGER")
        }
        if let refusal = incompatibility(tableInfo: info, storedSignature: storedSignature) { throw refusal }
        var changed = false
        for column in retypedColumns(tableInfo: info) {
            // SQLite has no ALTER COLUMN: the column is dropped and added with its new type (and so its new
            // affinity), then refilled from `_raw` with the rest, in the run's transaction.
            try database.execute("ALTER TABLE \(quotedName) DROP COLUMN \(SQLIdentifier.quote(column.name))")
            try database.execute(
                "ALTER TABLE \(quotedName) ADD COLUMN \(SQLIdentifier.quote(column.name)) \(column.type.sqliteDeclaration)"
            )
            changed = true
        }
        for column in columns where !existing.contains(column.name) {
            try database.execute(
                "ALTER TABLE \(quotedName) ADD COLUMN \(SQLIdentifier.quote(column.name)) \(column.type.sqliteDeclaration)"
            )
            changed = true
        }
        return changed || (storedSignature != nil && storedSignature != columnsSignature)
    }

    /// Re-reads every stored row's configured columns from its `_raw`, with the current column specs.
    ///
    /// Key columns keep their values, except `timestamp` ones, which are re-read too so that keys stored before
    /// timestamps had one width take it; a row whose re-read key would collide with another's (two keys that
    /// differed only past the millisecond) keeps its row as it was.
    ///
    /// - Returns: The number of rows re-read.
    func refill(_ database: Database, decoder: RecordDecoder) throws -> Int {
        // A key column the records do not hold (a child endpoint's parent column) is never re-read: the decoder's
        // column at its place is another (an incremental deleted flag, read after the record's own columns).
        let readFromRecords = { (index: Int) in
            index < decoder.columns.count && decoder.columns[index].name == self.columns[index].name
        }
        let refilled = columns.indices.filter {
            !keyColumns.contains($0) || (columns[$0].type == .timestamp && readFromRecords($0))
        }
        guard !refilled.isEmpty else { return 0 }
        let assignments = refilled.map { index in
            let name = SQLIdentifier.quote(columns[index].name)
            return keyColumns.contains(index) ? "\(name) = coalesce(?, \(name))" : "\(name) = ?"
        }.joined(separator: ", ")
        let orIgnore = refilled.contains(where: keyColumns.contains) ? " OR IGNORE" : ""
        let update = try database.makeStatement(
            "UPDATE\(orIgnore) \(quotedName) SET \(assignments) WHERE rowid = ?")
        let select = try database.makeStatement("SELECT rowid, \"_raw\" FROM \(quotedName)")
        var count = 0
        while try select.step() {
            let rowid = select.integer(at: 0)
            let record = select.withBytes(at: 1) { bytes in decoder.decodeRecord(bytes, index: count) }
            try update.reset()
            for (position, column) in refilled.enumerated() {
                try update.bind(record.values[column], at: Int32(position + 1))
            }
            try update.bind(SQLiteValue.integer(rowid), at: Int32(refilled.count + 1))
            try update.step()
            count += 1
        }
        return count
    }
}
