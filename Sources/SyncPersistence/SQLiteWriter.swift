internal import NIOCore
import SyncDecoding
import SyncModel
internal import SyncSQLite

/// A run's ``StoreTransaction`` in SQLite: the statements of one endpoint's run on the writer connection, inside
/// the IMMEDIATE transaction ``SQLiteSyncStorage`` opened for it. ``SyncApply`` decides what they write.
///
/// The endpoint's row is read first and written after the records (``storeEndpointRow(kind:)`` says why).
struct SQLiteWriter: StoreTransaction {
    let database: Database
    let endpoint: EndpointConfiguration

    init(database: Database, endpoint: EndpointConfiguration) {
        self.database = database
        self.endpoint = endpoint
    }

    var name: String { endpoint.name.name }

    // MARK: - The endpoint's row

    /// Reads the endpoint's row; an endpoint without one reads as new (version 0, nothing stored). The row is made
    /// later, by ``storeEndpointRow(kind:)``.
    func openEndpoint(kind: String) throws -> EndpointRow {
        let row = try database.rows(
            "SELECT version, record_count, columns, cursor, cursor_column FROM syncd_endpoints WHERE name = ?",
            [.text(name)])
        return EndpointRow(
            version: row.first?.integer("version") ?? 0,
            recordCount: Int(row.first?.integer("record_count") ?? 0),
            columnsSignature: row.first?.text("columns"),
            cursor: row.first?.text("cursor"),
            cursorColumn: row.first?.text("cursor_column")
        )
    }

    /// Writes the endpoint's kind and URL into its row, making the row when there is none; a row that already says
    /// the same is not written.
    ///
    /// Not written when unchanged, and written after the records by a sync that stores many: a page written at a
    /// transaction's start and again at its end is one SQLite has likely spilled into the WAL in between, and
    /// writing a spilled page again makes the commit re-read and re-checksum every WAL frame written after it
    /// (100,000 records: 20,000 reads of 4 KiB and as many header writes).
    func storeEndpointRow(kind: String) throws {
        try database.execute(
            """
            INSERT INTO syncd_endpoints (name, kind, url) VALUES (?, ?, ?)
            ON CONFLICT (name) DO UPDATE SET kind = excluded.kind, url = excluded.url
            WHERE syncd_endpoints.kind IS NOT excluded.kind OR syncd_endpoints.url IS NOT excluded.url
            """,
            // The URL as URLRedaction shows it: a password or key written in it is never stored.
            [.text(name), .text(kind), .text(endpoint.redactedURL)]
        )
    }

    func storeCursor(_ cursor: String, column: String) throws {
        try database.execute(
            "UPDATE syncd_endpoints SET cursor = ?, cursor_column = ? WHERE name = ?",
            [.text(cursor), .text(column), .text(name)])
    }

    func finishEndpoint(_ success: EndpointSuccess) throws {
        let assignments = success.assignments
        // Appended into one string rather than mapped and joined: every run ends here.
        var sql = "UPDATE syncd_endpoints SET "
        var arguments: [SQLiteValue] = []
        arguments.reserveCapacity(assignments.count + 1)
        for (index, assignment) in assignments.enumerated() {
            if index > 0 { sql += ", " }
            sql += assignment.column
            sql += " = ?"
            arguments.append(SQLiteValue(assignment.value))
        }
        sql += " WHERE name = ?"
        arguments.append(.text(name))
        try database.execute(sql, arguments)
    }

    func failEndpoint(at time: String, httpStatus: Int?, error: String, parents: SyncSummary.FanOut?) throws {
        try database.execute(
            """
            UPDATE syncd_endpoints SET last_attempt_at = ?, last_status = ?, last_error = ?, parents = ?,
            consecutive_failures = consecutive_failures + (consecutive_failures < 9223372036854775807) WHERE name = ?
            """,
            [
                .text(time), httpStatus.map { .integer(Int64($0)) } ?? .null, .text(error),
                parents.map { .text($0.storedJSON) } ?? .null, .text(name),
            ]
        )
    }

    // MARK: - The table

    /// Brings the endpoint's table to the configured columns (``RecordTable/prepare(_:storedSignature:)``): whether
    /// stored rows need re-reading from `_raw`.
    ///
    /// Once this connection found the table as configured, the check is skipped while the schema version, the
    /// configuration and the stored signature hold (``Database/checkedShapes``): it reads the table's columns, and
    /// each endpoint's run did that for nothing almost every time.
    func prepareTable(_ shape: TableShape, storedSignature: String?) throws -> Bool {
        let table = RecordTable(shape)
        let checked = Database.CheckedShape(
            schemaVersion: try database.schemaVersion(), shape: table.createSQL, storedSignature: storedSignature)
        // A stored signature that differs from the configured one asks for a refill: never skipped.
        if storedSignature == nil || storedSignature == table.columnsSignature,
            database.checkedShapes[table.name.name] == checked
        {
            return false
        }
        let changed = try table.prepare(database, storedSignature: storedSignature)
        // Kept only when the check changed nothing in the schema: then no rollback can undo it.
        if try database.schemaVersion() == checked.schemaVersion { database.checkedShapes[table.name.name] = checked }
        return changed
    }

    func refill(_ shape: TableShape, decoder: RecordDecoder) throws {
        _ = try RecordTable(shape).refill(database, decoder: decoder)
    }

    func count(_ shape: TableShape) throws -> Int {
        guard case .integer(let count) = try database.scalar("SELECT count(*) FROM \(shape.quotedName)") else {
            return 0
        }
        return Int(count)
    }

    // MARK: - Documents

    func storedDocument(equals body: ByteBuffer) throws -> Bool {
        let stored = try database.scalar("SELECT body FROM syncd_documents WHERE endpoint = ?", [.text(name)])
        return stored == .blob([UInt8](body.readableBytesView))
    }

    func storeDocument(_ body: ByteBuffer, contentType: String?, version: Int64, changedAt: String) throws {
        try database.execute(
            """
            INSERT INTO syncd_documents (endpoint, body, content_type, version, changed_at) VALUES (?, ?, ?, ?, ?)
            ON CONFLICT (endpoint) DO UPDATE SET body = excluded.body, content_type = excluded.content_type,
            version = excluded.version, changed_at = excluded.changed_at
            """,
            [
                .text(name), .blob([UInt8](body.readableBytesView)), contentType.map(SQLiteValue.text) ?? .null,
                .integer(version), .text(changedAt),
            ]
        )
    }
}
