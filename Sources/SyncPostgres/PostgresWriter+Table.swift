internal import PostgresNIO
internal import SyncCore
import SyncIngest
internal import SyncSQLite

/// The endpoint's table in PostgreSQL: its shape, refills, counts, and a snapshot's deletions with their tombstones.
extension PostgresWriter {
    /// Creates the table, or brings an existing one to the configured columns: whether stored rows need re-reading
    /// from `_raw`.
    ///
    /// - Throws: ``StoreError`` when the table exists with another primary key or key type, or is not syncd's.
    func prepareTable(_ shape: TableShape, storedSignature: String?) throws -> Bool {
        let table = PostgresTable(shape)
        let columns = try table.storedColumns(session)
        guard !columns.isEmpty else {
            try session.query(table.createSQL)
            return false
        }
        if let refusal = try table.incompatibility(session, columns: columns) { throw refusal }
        let existing = Dictionary(columns, uniquingKeysWith: { first, _ in first })
        if existing["_created_version"] == nil {
            try session.query("ALTER TABLE \(table.quotedName) ADD COLUMN \"_created_version\" bigint")
        }
        var changed = false
        for (index, column) in shape.columns.enumerated() where !shape.keyColumns.contains(index) {
            let quoted = SQLIdentifier.quote(column.name)
            let declaration = PostgresTable.declaration(column.type)
            switch existing[column.name] {
            case nil:
                try session.query("ALTER TABLE \(table.quotedName) ADD COLUMN \(quoted) \(declaration)")
                changed = true
            case let stored? where stored != declaration:
                // Retyped: emptied and refilled from `_raw` with the rest, in the run's transaction.
                try session.query(
                    "ALTER TABLE \(table.quotedName) ALTER COLUMN \(quoted) TYPE \(declaration) USING NULL")
                changed = true
            default: break
            }
        }
        return changed || (storedSignature != nil && storedSignature != shape.columnsSignature)
    }

    /// Re-reads every stored row's configured non-key columns from its `_raw`, with the current column specs.
    func refill(_ shape: TableShape, decoder: RecordDecoder) throws {
        let table = PostgresTable(shape)
        let columns = shape.columns
        let refilled = columns.indices.filter { !shape.keyColumns.contains($0) }
        guard !refilled.isEmpty else { return }
        let keys = shape.keyColumns
        let rows = try session.query("SELECT \(table.quotedKeys), \"_raw\" FROM \(table.quotedName)").rows
        let assignments = refilled.enumerated().map { position, index in
            "\(SQLIdentifier.quote(columns[index].name)) = $\(position + 1)"
        }.joined(separator: ", ")
        let match = keys.enumerated().map { position, index in
            "\(SQLIdentifier.quote(columns[index].name)) = $\(refilled.count + position + 1)"
        }.joined(separator: " AND ")
        let update = "UPDATE \(table.quotedName) SET \(assignments) WHERE \(match)"
        for (count, row) in rows.enumerated() {
            let raw = try row[keys.count].decode(String.self)
            let record = Array(raw.utf8).withUnsafeBytes { decoder.decodeRecord($0, index: count) }
            let values = refilled.map { PostgresValue(record.values[$0], as: columns[$0].type) }
            let key = keys.indices.map { PostgresValue(cell: row[$0]) }
            try session.query(update, values + key)
        }
    }

    func count(_ shape: TableShape) throws -> Int {
        Int(try session.scalar(Int64.self, "SELECT count(*) FROM \(shape.quotedName)") ?? 0)
    }

    func makeRecordWriter(_ shape: TableShape, version: Int64, now: String) throws -> PostgresRecords {
        try PostgresRecords(PostgresTable(shape), writer: self, version: version, now: now)
    }

    /// The keys of the stored rows that `seen` does not hold.
    func unseenRows(_ shape: TableShape, seen: SeenKeys) throws -> [[PostgresValue]] {
        let table = PostgresTable(shape)
        let keyCount = shape.keyColumns.count
        var unseen: [[PostgresValue]] = []
        for row in try session.query("SELECT \(table.quotedKeys) FROM \(table.quotedName)").rows {
            let key = (0..<keyCount).map { PostgresValue(cell: row[$0]) }
            if !seen.contains(key: key.map(PostgresTable.value)) { unseen.append(key) }
        }
        return unseen
    }

    /// Deletes the rows of these keys, a statement a ``keysPerStatement``, and leaves their tombstones.
    func delete(_ rows: [[PostgresValue]], of shape: TableShape, version: Int64, now: String) throws -> Int {
        let table = PostgresTable(shape)
        let keyCount = shape.keyColumns.count
        for part in rows.chunks(of: Self.keysPerStatement) {
            var parameter = 0
            let tuples = part.map { _ in
                "("
                    + (0..<keyCount).map { _ in
                        parameter += 1
                        return "$\(parameter)"
                    }.joined(separator: ", ") + ")"
            }
            try session.query(
                "DELETE FROM \(table.quotedName) WHERE (\(table.quotedKeys)) IN (\(tuples.joined(separator: ", ")))",
                part.flatMap { $0 })
            let tombstones = part.indices.map { offset in
                let base = 4 + (offset - part.startIndex)
                return "($1, $\(base), $2, $3)"
            }
            try session.query(
                """
                INSERT INTO syncd_tombstones (endpoint, key, version, deleted_at) VALUES \
                \(tombstones.joined(separator: ", "))
                ON CONFLICT (endpoint, key) DO UPDATE SET version = EXCLUDED.version, deleted_at = EXCLUDED.deleted_at
                """,
                [.text(name), .integer(version), .text(now)]
                    + part.map { .text(ColumnValue.keyJSON($0.map(PostgresTable.value))) })
        }
        return rows.count
    }
}
