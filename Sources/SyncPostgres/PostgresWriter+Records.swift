internal import PostgresNIO
internal import SyncCore
import SyncIngest
internal import SyncSQLite

/// What stores a run's records in PostgreSQL: they wait in ``PendingRows`` for an INSERT of
/// ``PostgresWriter/rowsPerStatement``, one round trip for all. When the endpoint has tombstones, the keys stored are
/// kept, so that those that come back lose theirs.
struct PostgresRecords: StoreRecordWriter {
    /// One INSERT … ON CONFLICT cannot update a row twice.
    static let writesRepeatedKeysTogether = false

    private var pending: PendingRows
    private let table: PostgresTable
    private let writer: PostgresWriter
    private let version: Int64
    private let now: String
    /// Whether the endpoint had tombstones when the run started: only then are the keys stored collected.
    private let hasTombstones: Bool
    private var returning: Set<String> = []

    init(_ table: PostgresTable, writer: PostgresWriter, version: Int64, now: String) throws {
        pending = PendingRows(table: table, version: version, now: now)
        self.table = table
        self.writer = writer
        self.version = version
        self.now = now
        hasTombstones =
            try writer.session.scalar(
                Int32.self, "SELECT 1 FROM syncd_tombstones WHERE endpoint = $1 LIMIT 1", [.text(writer.name)])
            != nil
    }

    mutating func store(_ positions: [Int], of batch: RecordPipeline.Batch) throws -> Int {
        var written = 0
        let keyColumns = table.shape.keyColumns
        for position in positions {
            let record = batch.records[position]
            if hasTombstones { returning.insert(ColumnValue.keyJSON(keyColumns.map { record.values[$0] })) }
            pending.append(record, raw: batch.bytes[record.raw])
            if pending.count >= PostgresWriter.rowsPerStatement { written += try pending.flush(writer.session) }
        }
        return written
    }

    mutating func flush() throws -> Int {
        try pending.flush(writer.session)
    }

    func deleteFlagged(key: [ColumnValue]) throws -> Int {
        let shape = table.shape
        let types = shape.keyColumns.map { shape.columns[$0].type }
        let match = table.keyNames.enumerated().map { "\(SQLIdentifier.quote($1)) = $\($0 + 1)" }
            .joined(separator: " AND ")
        let removed = try writer.session.query(
            "DELETE FROM \(table.quotedName) WHERE \(match)", zip(key, types).map { PostgresValue($0, as: $1) }
        ).affected
        guard removed > 0 else { return 0 }
        try writer.session.query(
            """
            INSERT INTO syncd_tombstones (endpoint, key, version, deleted_at) VALUES ($1, $2, $3, $4)
            ON CONFLICT (endpoint, key) DO UPDATE SET version = EXCLUDED.version, deleted_at = EXCLUDED.deleted_at
            """,
            [.text(writer.name), .text(ColumnValue.keyJSON(key)), .integer(version), .text(now)])
        return removed
    }

    func dropTombstonesOfReturnedKeys() throws {
        guard hasTombstones, !returning.isEmpty else { return }
        let keys = try writer.session.query(
            "SELECT key FROM syncd_tombstones WHERE endpoint = $1 AND version < $2",
            [.text(writer.name), .integer(version)]
        ).rows.map { try $0[0].decode(String.self) }
        let back = keys.filter(returning.contains)
        for part in back.chunks(of: PostgresWriter.keysPerStatement) {
            let placeholders = part.indices.map { "$\($0 - part.startIndex + 2)" }.joined(separator: ", ")
            try writer.session.query(
                "DELETE FROM syncd_tombstones WHERE endpoint = $1 AND key IN (\(placeholders))",
                [.text(writer.name)] + part.map(PostgresValue.text))
        }
    }
}
