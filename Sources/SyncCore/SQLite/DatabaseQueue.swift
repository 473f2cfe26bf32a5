internal import NIOPosix
internal import Synchronization

/// One connection, reached from async code one closure at a time.
///
/// SQLite calls block (fsync at commit), so they run on NIO's blocking thread pool, never on the
/// cooperative pool, which has only two threads on a two-core machine.
package final class DatabaseQueue: Sendable {
    private let connection: Mutex<Database>
    package let path: String

    /// Opens the database at `path`.
    ///
    /// - Throws: ``SQLiteError`` when it cannot be opened.
    package init(path: String, mode: Database.Mode = .readWrite) throws(SQLiteError) {
        let database = try Database(path: path, mode: mode)
        self.connection = Mutex(database)
        self.path = path
    }

    /// Runs `body` with the connection on the blocking thread pool.
    package func perform<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await NIOThreadPool.singleton.runIfActive {
            try self.connection.withLock { database in
                try body(database)
            }
        }
    }

    /// Runs `body` with the connection on the blocking thread pool even when the calling task is cancelled: for the
    /// writes that record how a cancelled sync ended (its failure, the schedule), which ``perform(_:)`` would refuse
    /// with a `CancellationError` as the daemon stops.
    package func performEvenIfCancelled<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws
        -> T
    {
        try await withCheckedThrowingContinuation { continuation in
            NIOThreadPool.singleton.submit { state in
                guard case .active = state else {
                    continuation.resume(throwing: CancellationError())
                    return
                }
                continuation.resume(with: Result { try self.connection.withLock { database in try body(database) } })
            }
        }
    }

    /// Runs `body` with the connection on the calling thread: for commands that have nothing else to do meanwhile.
    package func performBlocking<T: Sendable>(_ body: @Sendable (Database) throws -> T) throws -> T {
        try connection.withLock { database in
            try body(database)
        }
    }

    /// Runs `body` with the connection on the calling thread if no one else is using it; `nil` if someone is.
    package func performBlockingIfIdle<T: Sendable>(_ body: @Sendable (Database) throws -> T) throws -> T? {
        try connection.withLockIfAvailable { database in
            try body(database)
        }
    }
}
