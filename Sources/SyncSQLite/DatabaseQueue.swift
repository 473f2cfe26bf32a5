internal import NIOPosix
internal import Synchronization

/// One connection, reached from async code one closure at a time.
///
/// SQLite calls block (fsync at commit), so they run on a thread of the queue's own, never on the cooperative pool,
/// which has only two threads on a two-core machine. One thread, not a shared pool: closures for one connection
/// can only run one after another, and on a pool each waiting one held a thread blocked on the connection's lock
/// (with 10,000 endpoints syncing, waiting for that lock was about 8% of the daemon's CPU). The thread starts on the first
/// ``perform(_:)`` and stops with the queue.
package final class DatabaseQueue: Sendable {
    private let connection: Mutex<Database>
    private let thread = Mutex<NIOThreadPool?>(nil)
    /// Closures submitted to the queue's thread that have not started yet.
    private let queued = Atomic<Int>(0)
    /// Whether a checkpoint waits for the queue's thread.
    private let checkpointing = Atomic<Bool>(false)
    /// Whether the connection is in use by a closure on the queue's thread, or by one whose caller waits for it
    /// (`performBlocking`): then a commit that fills the log checkpoints at once, as SQLite would.
    private let checkpointsAtOnce = Atomic<Bool>(false)
    /// A commit that leaves the write-ahead log this long has the queue's thread checkpoint it: SQLite's own
    /// threshold, where SQLite would checkpoint in the committing thread itself.
    static let checkpointFrames = 1000
    package let path: String

    /// Opens the database at `path`.
    ///
    /// - Throws: ``SQLiteError`` when it cannot be opened.
    package init(path: String, mode: Database.Mode = .readWrite) throws(SQLiteError) {
        let database = try Database(path: path, mode: mode)
        self.connection = Mutex(database)
        self.path = path
        if mode == .readWrite {
            // A short write may run on the thread that asks for it (performHereIfIdle), an event loop say: the
            // checkpoint that its commit can bring (a copy of the log into the file, and an fsync) runs on the queue's
            // thread after it. A commit on the queue's thread checkpoints at once, as SQLite would: a `syncd sync`
            // that stored a large body leaves it in the database file when it exits.
            connection.withLock { database in
                database.onCommit { [weak self] frames in
                    guard let self, frames >= Self.checkpointFrames else { return .nothing }
                    if self.checkpointsAtOnce.load(ordering: .relaxed) { return .checkpoint }
                    self.checkpointSoon()
                    return .nothing
                }
            }
        }
    }

    /// Runs `body` so that a commit of it that fills the log checkpoints at once; called with the connection's lock
    /// held.
    private func checkpointingAtOnce<T>(_ body: () throws -> T) rethrows -> T {
        checkpointsAtOnce.store(true, ordering: .relaxed)
        defer { checkpointsAtOnce.store(false, ordering: .relaxed) }
        return try body()
    }

    /// Submits a passive checkpoint (https://sqlite.org/c3ref/wal_checkpoint_v2.html) to the queue's thread, unless
    /// one waits already.
    private func checkpointSoon() {
        guard checkpointing.compareExchange(expected: false, desired: true, ordering: .relaxed).exchanged else {
            return
        }
        executor.submit { state in
            defer { self.checkpointing.store(false, ordering: .relaxed) }
            guard case .active = state else { return }
            self.connection.withLock { database in
                // Passive: it copies what no reader still needs and waits for no one. One that fails (a reader
                // holding the log, a full disk) leaves the log as it was; the next long commit asks again.
                try? database.execute("PRAGMA wal_checkpoint(PASSIVE)")
            }
        }
    }

    deinit {
        thread.withLock { $0 }?.shutdownGracefully { _ in }
    }

    /// The queue's thread, started on first use.
    private var executor: NIOThreadPool {
        thread.withLock { thread in
            if let thread { return thread }
            let started = NIOThreadPool(numberOfThreads: 1)
            started.start()
            thread = started
            return started
        }
    }

    /// Runs `body` with the connection on the queue's thread.
    package func perform<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        queued.add(1, ordering: .relaxed)
        return try await executor.runIfActive {
            self.queued.subtract(1, ordering: .relaxed)
            return try self.connection.withLock { database in
                try self.checkpointingAtOnce { try body(database) }
            }
        }
    }

    /// Runs `body` with the connection on the queue's thread even when the calling task is cancelled: for the
    /// writes that record how a cancelled sync ended (its failure, the schedule), which ``perform(_:)`` would refuse
    /// with a `CancellationError` as the daemon stops.
    package func performEvenIfCancelled<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws
        -> T
    {
        try await withCheckedThrowingContinuation { continuation in
            submitEvenIfCancelled(body) { continuation.resume(with: $0) }
        }
    }

    /// Runs `body` with the connection on the queue's thread even when the daemon is stopping, like
    /// ``performEvenIfCancelled(_:)``, without waiting for it: `completion` gets its result on that thread.
    package func submitEvenIfCancelled<T: Sendable>(
        _ body: @escaping @Sendable (Database) throws -> T,
        completion: @escaping @Sendable (Result<T, any Error>) -> Void
    ) {
        queued.add(1, ordering: .relaxed)
        executor.submit { state in
            self.queued.subtract(1, ordering: .relaxed)
            guard case .active = state else {
                completion(.failure(CancellationError()))
                return
            }
            completion(
                Result {
                    try self.connection.withLock { database in try self.checkpointingAtOnce { try body(database) } }
                })
        }
    }

    /// Runs `body` with the connection on the calling thread when no one else is using it, and submits it to the
    /// queue's thread otherwise, like ``submitEvenIfCancelled(_:completion:)``; `completion` gets its result on
    /// whichever thread ran it.
    package func submitHereIfIdle<T: Sendable>(
        _ body: @escaping @Sendable (Database) throws -> T,
        completion: @escaping @Sendable (Result<T, any Error>) -> Void
    ) {
        guard let ran = connection.withLockIfAvailable({ database in Result { try body(database) } }) else {
            return submitEvenIfCancelled(body, completion: completion)
        }
        completion(ran)
    }

    /// Whether closures wait for the queue's thread: what a transaction that waits for the network gives way to.
    package var hasWaiting: Bool { queued.load(ordering: .relaxed) > 0 }

    /// Runs `body` with the connection on the calling thread: for commands that have nothing else to do meanwhile.
    package func performBlocking<T: Sendable>(_ body: @Sendable (Database) throws -> T) throws -> T {
        try connection.withLock { database in
            // Its caller waits anyway: a checkpoint its commit brings runs here, as on the queue's thread.
            try checkpointingAtOnce { try body(database) }
        }
    }

    /// Runs `body` with the connection on the calling thread when no one else is using it, and on the queue's thread
    /// otherwise: for short writes whose caller waits for them anyway, so that the common case costs no round trip to
    /// the queue's thread and back (two thread wake-ups). Checkpoints stay on the queue's thread (see the
    /// initializer).
    package func performHereIfIdle<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        // Boxed, so that a `T` that is itself optional is told apart from a busy connection.
        if let done = try connection.withLockIfAvailable({ database in Done(value: try body(database)) }) {
            return done.value
        }
        return try await perform(body)
    }

    private struct Done<T> {
        var value: T
    }

    /// Runs `body` with the connection on the calling thread if no one else is using it; `nil` if someone is.
    package func performBlockingIfIdle<T: Sendable>(_ body: @Sendable (Database) throws -> T) throws -> T? {
        try connection.withLockIfAvailable { database in
            try body(database)
        }
    }
}
