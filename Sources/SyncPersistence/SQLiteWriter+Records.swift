import SyncDecoding
import SyncIngest
import SyncModel
internal import SyncSQLite

extension SQLiteWriter {
    func makeRecordWriter(_ shape: TableShape, version: Int64, now: String) throws -> SQLiteRecords {
        try SQLiteRecords(table: RecordTable(shape), database: database, endpoint: endpoint, version: version, now: now)
    }

    /// The rowids of the stored rows whose keys `seen` does not hold.
    func unseenRows(_ shape: TableShape, seen: SeenKeys) throws -> [Int64] {
        let keyNames = shape.keyNames.map(SQLIdentifier.quote).joined(separator: ", ")
        let select = try database.makeStatement("SELECT rowid, \(keyNames) FROM \(shape.quotedName)")
        var unseen: [Int64] = []
        let keyCount = shape.keyColumns.count
        while try select.step() {
            let key = (1...keyCount).map { ColumnValue(select.value(at: $0)) }
            if !seen.contains(key: key) { unseen.append(select.integer(at: 0)) }
        }
        return unseen
    }

    func delete(_ rows: [Int64], of shape: TableShape, version: Int64, now: String) throws -> Int {
        let table = RecordTable(shape)
        let delete = try database.makeStatement(
            "DELETE FROM \(table.quotedName) WHERE rowid = ? RETURNING \(table.keyJSONExpression)")
        var keys: [String] = []
        for rowid in rows {
            try delete.bind([.integer(rowid)])
            while try delete.step() {
                keys.append(delete.text(at: 0) ?? "null")
            }
        }
        let tombstone = try database.makeStatement(SQLiteRecords.tombstoneSQL)
        for key in keys {
            try tombstone.bind([.text(name), .text(key), .integer(version), .text(now)])
            try tombstone.step()
        }
        return keys.count
    }
}

/// What stores a run's records in SQLite: ``RecordUpsert``'s prepared statements bind each record's values and its
/// `_raw` bytes where they lie, and nothing waits between calls. An incremental run's deleted flags delete with
/// statements prepared once.
struct SQLiteRecords: StoreRecordWriter {
    static let writesRepeatedKeysTogether = true
    static let tombstoneSQL = """
        INSERT INTO syncd_tombstones (endpoint, key, version, deleted_at) VALUES (?, ?, ?, ?)
        ON CONFLICT (endpoint, key) DO UPDATE SET version = excluded.version, deleted_at = excluded.deleted_at
        """

    private var upsert: RecordUpsert
    private let flagged: FlaggedDeletion?
    private let table: RecordTable
    private let database: Database
    private let endpointName: String
    private let version: Int64
    private let now: String

    init(table: RecordTable, database: Database, endpoint: EndpointConfiguration, version: Int64, now: String)
        throws
    {
        upsert = try RecordUpsert(table: table, database: database, version: version, now: now)
        flagged = try endpoint.incremental.map { _ in try FlaggedDeletion(table: table, database: database) }
        self.table = table
        self.database = database
        self.endpointName = endpoint.name.name
        self.version = version
        self.now = now
    }

    mutating func store(_ positions: [Int], of batch: RecordPipeline.Batch) throws -> Int {
        guard !positions.isEmpty else { return 0 }
        return try batch.bytes.withUnsafeBytes { bytes in
            try upsert.store(positions, of: batch.records, bytes: bytes)
        }
    }

    func flush() -> Int { 0 }

    func deleteFlagged(key: [ColumnValue]) throws -> Int {
        guard let flagged else { return 0 }
        try flagged.delete.bind(key.map(SQLiteValue.init))
        var keys: [String] = []
        while try flagged.delete.step() { keys.append(flagged.delete.text(at: 0) ?? "null") }
        try flagged.delete.reset()
        for key in keys {
            try flagged.tombstone.bind([.text(endpointName), .text(key), .integer(version), .text(now)])
            try flagged.tombstone.step()
        }
        return keys.count
    }

    /// Asked first whether the endpoint has tombstones at all: the DELETE names the endpoint's table, so each
    /// endpoint prepares its own, and most never deleted anything.
    func dropTombstonesOfReturnedKeys() throws {
        guard
            try database.scalar(
                "SELECT 1 FROM syncd_tombstones WHERE endpoint = ? AND version < ? LIMIT 1",
                [.text(endpointName), .integer(version)]) != nil
        else { return }
        try database.execute(
            """
            DELETE FROM syncd_tombstones WHERE endpoint = ? AND version < ?
            AND key IN (SELECT \(table.keyJSONExpression) FROM \(table.quotedName) WHERE "_version" = ?)
            """,
            [.text(endpointName), .integer(version), .integer(version)]
        )
    }

    /// The statements that delete a flagged record's row and leave its tombstone.
    private struct FlaggedDeletion {
        let delete: Statement
        let tombstone: Statement

        init(table: RecordTable, database: Database) throws {
            let match = table.keyNames.map { "\(SQLIdentifier.quote($0)) IS ?" }.joined(separator: " AND ")
            delete = try database.makeStatement(
                "DELETE FROM \(table.quotedName) WHERE \(match) RETURNING \(table.keyJSONExpression)")
            tombstone = try database.makeStatement(SQLiteRecords.tombstoneSQL)
        }
    }
}

extension SQLiteWriter {
    func parentedRows(_ shape: TableShape, before version: Int64) throws
        -> [(row: Int64, key: [ColumnValue], parent: String?)]
    {
        let keyNames = shape.keyNames.map(SQLIdentifier.quote).joined(separator: ", ")
        let select = try database.makeStatement(
            """
            SELECT rowid, \(SQLIdentifier.quote(TableShape.parentColumn)), \(keyNames) FROM \(shape.quotedName)
            WHERE "_version" < ?
            """)
        try select.bind([.integer(version)])
        var rows: [(row: Int64, key: [ColumnValue], parent: String?)] = []
        let keyCount = shape.keyColumns.count
        while try select.step() {
            let key = (0..<keyCount).map { ColumnValue(select.value(at: 2 + $0)) }
            rows.append((select.integer(at: 0), key, select.text(at: 1)))
        }
        return rows
    }

    func replaceChildStates(_ states: [ChildState], keeping parents: Set<String>) throws {
        let stored = try database.makeStatement("SELECT parent_key FROM syncd_children WHERE endpoint = ?")
        try stored.bind([.text(name)])
        var vanished: [String] = []
        while try stored.step() {
            if let key = stored.text(at: 0), !parents.contains(key) { vanished.append(key) }
        }
        let delete = try database.makeStatement("DELETE FROM syncd_children WHERE endpoint = ? AND parent_key = ?")
        for key in vanished {
            try delete.bind([.text(name), .text(key)])
            try delete.step()
        }
        let upsert = try database.makeStatement(
            """
            INSERT INTO syncd_children (
                endpoint, parent_key, etag, last_modified, parent_version, walked_at, cursor, cursor_column
            )
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (endpoint, parent_key) DO UPDATE SET etag = excluded.etag,
            last_modified = excluded.last_modified, parent_version = excluded.parent_version,
            walked_at = excluded.walked_at, cursor = excluded.cursor, cursor_column = excluded.cursor_column
            """)
        for state in states {
            try upsert.bind([
                .text(name), .text(state.parentKey), state.etag.map(SQLiteValue.text) ?? .null,
                state.lastModified.map(SQLiteValue.text) ?? .null, .integer(state.parentVersion),
                .text(state.walkedAt), state.cursor.map(SQLiteValue.text) ?? .null,
                state.cursorColumn.map(SQLiteValue.text) ?? .null,
            ])
            try upsert.step()
        }
    }
}
