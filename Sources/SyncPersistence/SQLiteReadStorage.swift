import SyncDecoding
import SyncModel
package import SyncSQLite

/// ``ReadStorage`` over an SQLite file: a ``ReadConnectionPool`` of read-only connections on their own threads, and
/// ``RecordReader`` for the reads. WAL lets them read while a sync writes.
package struct SQLiteReadStorage: ReadStorage {
    package let pool: ReadConnectionPool

    package init(pool: ReadConnectionPool) {
        self.pool = pool
    }

    /// Opens `count` read-only connections to the database at `path`, which must exist.
    ///
    /// - Throws: ``SQLiteError`` when it cannot be opened.
    package init(path: String, count: Int = ReadConnectionPool.defaultCount) throws(SQLiteError) {
        self.init(pool: try ReadConnectionPool(path: path, count: count))
    }

    /// `PRAGMA data_version`.
    package func generation() throws -> Int64 {
        try pool.dataVersion()
    }

    package func read<T: Sendable>(_ body: @escaping @Sendable (any StorageReader) throws -> T) async throws -> T {
        do {
            return try await pool.read { database in try body(SQLiteStorageReader(database: database)) }
        } catch let error as SQLiteError where error == .busy {
            throw StoreError.busy
        }
    }
}

/// ``StorageReader`` on one read-only connection.
struct SQLiteStorageReader: StorageReader {
    let database: Database

    func instance() throws -> String {
        try RecordReader.instance(of: database)
    }

    func states() throws -> [EndpointState] {
        try EndpointState.all(database)
    }

    func drift(endpoint: String?) throws -> [SchemaDrift] {
        // A database written by a syncd before the journal has none.
        guard try database.tableExists("syncd_drift") else { return [] }
        let rows = try database.rows(
            """
            SELECT endpoint, kind, path, detail, first_seen, last_seen, count, example FROM syncd_drift
            WHERE ?1 IS NULL OR endpoint = ?1 ORDER BY endpoint, kind, path
            """, [endpoint.map { .text($0) } ?? .null])
        return rows.compactMap { row in
            guard let name = row.text("endpoint"), let kind = row.text("kind").flatMap(SchemaDrift.Kind.init),
                let path = row.text("path")
            else { return nil }
            return SchemaDrift(
                endpoint: name, kind: kind, path: path, detail: row.text("detail"),
                firstSeen: row.text("first_seen") ?? "", lastSeen: row.text("last_seen") ?? "",
                count: Int(row.integer("count") ?? 0), example: row.text("example"))
        }
    }

    func recentRuns(of endpoints: [String], limit: Int) throws -> [RecentRun] {
        let limit = min(max(0, limit), RecentRun.readLimit)
        var runs: [RecentRun] = []
        // One indexed read of at most `limit` rows per endpoint (syncd_runs_endpoint), on one cached statement:
        // a window over every kept run would read up to 1,000 rows of each.
        for endpoint in endpoints where limit > 0 {
            let rows = try database.rows(
                """
                SELECT started_at, duration_ms, outcome, records FROM syncd_runs WHERE endpoint = ?1
                ORDER BY id DESC LIMIT ?2
                """, [.text(endpoint), .integer(Int64(limit))])
            runs += rows.reversed().compactMap { row in
                guard let outcome = row.text("outcome").flatMap(SyncSummary.Outcome.init) else { return nil }
                return RecentRun(
                    endpoint: endpoint, startedAt: row.text("started_at") ?? "",
                    durationMilliseconds: row.integer("duration_ms") ?? 0, outcome: outcome,
                    records: row.integer("records") ?? 0)
            }
        }
        return runs
    }

    func state(of name: String) throws -> EndpointState? {
        try EndpointState.named(name, database)
    }

    func storedEndpoint(named name: String) throws -> EndpointConfiguration? {
        try StoredEndpoint.load(name, database)
    }

    func incompatibility(with endpoint: EndpointConfiguration) throws -> StoreError? {
        guard !endpoint.isDocument else { return nil }
        var signature: String?
        if try database.tableExists("syncd_endpoints"),
            case .text(let text)? = try database.scalar(
                "SELECT columns FROM syncd_endpoints WHERE name = ?", [.text(endpoint.name.name)])
        {
            signature = text
        }
        return try RecordTable(endpoint).incompatibility(database, storedSignature: signature)
    }

    func unconfiguredColumns(of endpoint: EndpointConfiguration) throws -> [String] {
        guard !endpoint.isDocument, try database.tableExists(endpoint.name.name) else { return [] }
        let configured = Set(endpoint.columns.map(\.name) + RecordTable.systemColumns)
        return try database.columnNames(ofTable: endpoint.name.name).filter { !configured.contains($0) }
    }

    func records(of endpoint: EndpointConfiguration, _ query: RecordQuery, countingAll: Bool, maxBytes: Int) throws
        -> RecordPage
    {
        try RecordReader(database: database, endpoint: endpoint).records(
            query, countingAll: countingAll, maxBytes: maxBytes)
    }

    func record(of endpoint: EndpointConfiguration, key: [String]) throws -> StoredRecord? {
        try RecordReader(database: database, endpoint: endpoint).record(key: key)
    }

    func document(of endpoint: EndpointConfiguration) throws -> StoredDocument? {
        try RecordReader(database: database, endpoint: endpoint).document()
    }

    func changes(
        of endpoint: EndpointConfiguration, since: Int64, after: ChangePosition?, limit: Int?, maxBytes: Int
    ) throws -> ChangeBatch {
        try RecordReader(database: database, endpoint: endpoint).changes(
            since: since, after: after, limit: limit, maxBytes: maxBytes)
    }
}

extension SQLiteReadStorage {
    /// One read of the database at `path` on the calling thread, on a read-only connection opened for it and closed
    /// after: no pool and no thread, for a program that reads once and exits (`syncd get`). `body` is also given the
    /// newest migration the database holds (0 for none), read on the same connection, so that the caller can refuse
    /// a database of another version without opening it twice.
    ///
    /// - Throws: ``SQLiteError`` when the file cannot be opened or read; what `body` throws.
    package static func readOnce<T>(
        path: String, _ body: (_ reader: any StorageReader, _ migration: Int) throws -> T
    ) throws -> T {
        let database = try Database(path: path, mode: .readOnly)
        let migration = try Migrator.embedded.appliedVersions(database).last ?? 0
        return try ReadConnectionPool.retryingSchemaChanges(
            { database in try body(SQLiteStorageReader(database: database), migration) }, database)
    }
}
