internal import NIOPosix
internal import Synchronization

/// Read-only connections for concurrent readers (the read API), so that readers never wait for each other or
/// block the writer: in WAL mode each reads its own committed snapshot while a sync writes.
///
/// Reads run on NIO's blocking thread pool, like ``DatabaseQueue``. A read takes the first idle connection, so a
/// long read (a whole table) does not hold up short ones.
package final class ReadConnectionPool: Sendable {
    private let queues: [DatabaseQueue]
    private let next = Atomic<Int>(0)
    /// A connection of its own for ``dataVersion()``, with its statement prepared once.
    private let versionProbe: Mutex<VersionProbe>

    private struct VersionProbe {
        var database: Database
        var statement: Statement
    }

    package let path: String

    /// Opens `count` read-only connections to the database at `path`, which must exist.
    ///
    /// - Throws: ``SQLiteError`` when it cannot be opened.
    package init(path: String, count: Int = 4) throws(SQLiteError) {
        var queues: [DatabaseQueue] = []
        for _ in 0..<max(1, count) {
            queues.append(try DatabaseQueue(path: path, mode: .readOnly))
        }
        self.queues = queues
        let database = try Database(path: path, mode: .readOnly)
        let statement = try database.makeStatement("PRAGMA data_version")
        self.versionProbe = Mutex(VersionProbe(database: database, statement: statement))
        self.path = path
    }

    /// Runs `body` with an idle read-only connection on the blocking thread pool.
    package func read<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        let start = next.wrappingAdd(1, ordering: .relaxed).oldValue
        let queues = self.queues
        return try await NIOThreadPool.singleton.runIfActive {
            for offset in 0..<queues.count {
                if let result = try queues[(start &+ offset) % queues.count].performBlockingIfIdle(body) {
                    return result
                }
            }
            return try queues[start % queues.count].performBlocking(body)
        }
    }

    /// A number that changes whenever any connection — this process's writer or another process's — has
    /// committed a change to the database since the previous call (`PRAGMA data_version`).
    ///
    /// Cheap (it reads the WAL index in shared memory), so it runs on the calling thread: the read API asks it on
    /// every request to know whether what it built earlier still holds.
    package func dataVersion() throws(SQLiteError) -> Int64 {
        try versionProbe.withLock { (probe: inout VersionProbe) throws(SQLiteError) -> Int64 in
            guard try probe.statement.step() else { return 0 }
            let version = probe.statement.integer(at: 0)
            // A statement left on its row keeps a read transaction open, which would stop checkpoints from
            // recycling the WAL: reset it now, not at the next call.
            try probe.statement.reset()
            return version
        }
    }
}
