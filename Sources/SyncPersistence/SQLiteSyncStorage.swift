internal import FoundationEssentials
package import NIOCore
package import SyncIngest
package import SyncModel
package import SyncSQLite
import SyncSupport
internal import Synchronization

/// ``SyncStorage`` in an SQLite file: every call is one transaction on the writer connection of a
/// ``DatabaseQueue`` (``SyncApply`` decides what a run writes, through ``SQLiteWriter``; ``StoredSchedule`` writes the
/// schedule), so runs of several endpoints take turns, and WAL readers on other connections see each run whole or
/// not at all.
package struct SQLiteSyncStorage: SyncStorage {
    let database: DatabaseQueue
    /// Where a run reads its endpoint's state while the writer is in another run's transaction.
    private let stateReader: StateReader
    /// The database's folder: the same disk, and a folder syncd may write. Worked out once: every run asks.
    package let spoolDirectory: String

    package init(database: DatabaseQueue) {
        self.database = database
        self.stateReader = StateReader(path: database.path)
        let directory = FilePathText.directory(of: database.path)
        self.spoolDirectory = directory.isEmpty ? "." : directory
    }

    /// Opens (or creates) the database at `path` for writing and brings it to this version of syncd: migrated, and
    /// any URL an older version stored with its secret rewritten.
    ///
    /// - Throws: ``SQLiteError`` when it cannot be opened or migrated.
    package static func open(path: String) throws -> SQLiteSyncStorage {
        try migrating(path: path).storage
    }

    /// ``open(path:)``, and the migrations it applied, oldest first (none for a database that was up to date).
    package static func migrating(path: String) throws -> (storage: SQLiteSyncStorage, applied: [SchemaMigration]) {
        let database = try DatabaseQueue(path: path, mode: .readWrite)
        let applied = try database.performBlocking { database in
            let applied = try Migrator.embedded.migrate(database)
            try StoredURLRedaction.apply(database)
            return applied
        }
        return (SQLiteSyncStorage(database: database), applied)
    }

    package func state(of endpoint: String) async throws -> EndpointState? {
        // One indexed read, which in WAL mode never waits for a lock: on the calling thread when the connection is
        // free, rather than a round trip to the queue's thread and back (two thread wake-ups, each 304 poll).
        let read: @Sendable (Database) throws -> EndpointState? = { try EndpointState.named(endpoint, $0) }
        // Outer nil: the connection was busy; an inner nil is an endpoint with no state yet, returned as it is.
        if let inline = try database.performBlockingIfIdle(read) { return inline }
        // The writer is in another run's transaction: this run's fetch need not wait for it to end. A read connection
        // sees what the endpoint's previous run committed, as the writer would (one endpoint never runs twice at
        // once). In a cold start of 10,000 endpoints, where every fetch had waited here behind a transaction, the
        // first pass took 4.6–5.4 s against 5.5–6.4 s (three each, alternating).
        if let committed = stateReader.readIfIdle(read) { return committed }
        return try await database.perform(read)
    }

    package func applyCollection(
        _ body: DecodedBody, run: SyncRun, facts: @escaping @Sendable () -> RunFacts
    ) async throws -> SyncSummary {
        // A transaction that waits for the network gives way to every other write of the process.
        body.giveWay { [database] in database.hasWaiting }
        return try await database.perform { database in
            try SyncApply(run).applyCollection(body, facts: facts(), database: database)
        }
    }

    package func prepareTables(for endpoints: [EndpointConfiguration]) async throws {
        let tables = endpoints.filter { !$0.isDocument }.map(RecordTable.init)
        guard !tables.isEmpty else { return }
        try await database.perform { database in
            let missing = try tables.filter { try !database.tableExists($0.name.name) }
            guard !missing.isEmpty else { return }
            // Each CREATE reads the whole schema table (SQLite finds the new table's rows by a scan), and once that
            // outgrows the page cache (2 MB by default; 10,000 tables make 3 MB), every scan reads it back from the
            // file: a cache of about three times the schema keeps it in memory for this transaction (10,000 tables in
            // the sqlite3 shell: 1.1 -> 0.3 s of system time, 9.6 -> 7.7 s in all). Restored after.
            let cacheSize = try database.scalar("PRAGMA cache_size")
            let schemaKiB = min(64 << 10, max(2000, tables.count))
            try database.execute("PRAGMA cache_size = -\(schemaKiB)")
            defer {
                if case .integer(let size)? = cacheSize { try? database.execute("PRAGMA cache_size = \(size)") }
            }
            try database.transaction(.immediate) {
                for table in missing { try database.execute(table.createSQL) }
            }
            // Made as configured: their first runs need not check them (SQLiteWriter.prepareTable).
            let version = try database.schemaVersion()
            for table in missing {
                database.checkedShapes[table.name.name] = Database.CheckedShape(
                    schemaVersion: version, shape: table.createSQL, storedSignature: nil)
            }
        }
    }

    package func applyNotModified(run: SyncRun, facts: @escaping @Sendable () -> RunFacts) async throws -> SyncSummary {
        // Inline when the connection is free, as state(of:) is: a 304 writes two rows, in tens of microseconds.
        try await database.performHereIfIdle { database in
            try SyncApply(run).applyNotModified(facts: facts(), database: database)
        }
    }

    package func applyDocument(
        _ body: ByteBuffer, contentType: String?, run: SyncRun, facts: @escaping @Sendable () -> RunFacts
    ) async throws -> SyncSummary {
        try await database.perform { database in
            try SyncApply(run).applyDocument(
                body: body, contentType: contentType, facts: facts(), database: database)
        }
    }

    package func recordFailure(
        _ message: String, outcome: SyncSummary.Outcome, run: SyncRun, facts: RunFacts
    ) async throws -> SyncSummary {
        try await database.performEvenIfCancelled { database in
            try SyncApply(run).recordFailure(message, outcome: outcome, facts: facts, database: database)
        }
    }

    package func schedule(of endpoints: [EndpointConfiguration]) async throws -> [String: StoredSchedule] {
        try await database.perform { database in try StoredSchedule.load(database, endpoints: endpoints) }
    }

    package func storeNextDue(
        _ rows: [NextDue], completion: @escaping @Sendable ((any Error)?) -> Void
    ) {
        // On the scheduler's thread when the connection is free: a batch of small UPDATEs, without a wake-up of the
        // writer's thread and another of the scheduler's to say it is done.
        database.submitHereIfIdle({ database in try StoredSchedule.storeNextDue(rows, database) }) { result in
            if case .failure(let error) = result { completion(error) } else { completion(nil) }
        }
    }

    package func resource(_ key: String) async throws -> StoredResource? {
        try await database.perform { database in try StoredResource.load(key, database) }
    }

    package func storeResource(_ resource: StoredResource, _ key: String) async throws {
        try await database.perform { database in try resource.save(key, database) }
    }

    package func touchResource(_ key: String, validatedAt time: Double) async throws {
        try await database.perform { database in try StoredResource.touch(key, at: time, database) }
    }
}

/// A read-only connection for ``SQLiteSyncStorage/state(of:)``, opened on first use, taken only when no other read
/// holds it.
private final class StateReader: Sendable {
    private let path: String
    private let connection = Mutex<Connection>(.unopened)

    private enum Connection {
        case unopened
        case open(Database)
        /// It could not be opened: every read goes to the writer, as before there was a reader.
        case unavailable
    }

    init(path: String) {
        self.path = path
    }

    /// `body`'s result on this connection; nil when another read holds it, when it cannot be opened, or when the read
    /// failed (the caller then reads on the writer, which says why if it fails there too).
    func readIfIdle<T: Sendable>(_ body: @Sendable (Database) throws -> T) -> T? {
        let result: T?? = connection.withLockIfAvailable { connection -> T? in
            if case .unopened = connection {
                connection = (try? Database(path: path, mode: .readOnly)).map(Connection.open) ?? .unavailable
            }
            guard case .open(let database) = connection else { return nil }
            return try? body(database)
        }
        return result ?? nil
    }
}
