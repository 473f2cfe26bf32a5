internal import NIOCore
internal import NIOPosix
internal import Synchronization

#if canImport(Glibc)
    internal import Glibc
#endif

/// Read-only connections for concurrent readers (the read API), so that readers never wait for each other or
/// block the writer: in WAL mode each reads its own committed snapshot while a sync writes.
///
/// Reads run on threads of their own (``threads``), never on NIO's shared blocking pool, where ``DatabaseQueue``
/// runs the writer's transactions: however many reads arrive, a sync's commit never waits behind them. A read takes
/// the first idle connection, so a long read does not hold up short ones. At most ``maxWaiting`` reads wait for a
/// thread; one more fails at once with ``SQLiteError/busy`` (the read API answers 503), so a flood of readers costs memory
/// bounded by that queue, not by the flood. On Linux the read threads also run at a lower priority (nice 10), so
/// that on a busy machine the CPU goes to a sync's decoding and transaction first and to readers with what is left.
package final class ReadConnectionPool: Sendable {
    /// The threads every pool's reads run on, started on first use and kept for the life of the process (like
    /// `NIOThreadPool.singleton`): one per connection of a default pool.
    static let threads: NIOThreadPool = {
        let pool = NIOThreadPool(numberOfThreads: defaultCount)
        pool.start()
        return pool
    }()

    /// The number of connections when the caller does not say.
    package static let defaultCount = 4

    private let queues: [DatabaseQueue]
    private let next = Atomic<Int>(0)
    /// Reads running or waiting for a thread.
    private let pending = Atomic<Int>(0)
    /// The most reads that may wait for a thread beyond those running.
    package let maxWaiting: Int
    /// Connections of their own for ``dataVersion()``, each with its statement prepared once and the last
    /// `data_version` it read; several, so that the event loops asking on every request do not queue for one.
    private let versionProbes: [Probe]
    /// What ``dataVersion()`` returns: raised by one whenever a probe reads a `data_version` other than its last.
    private let commits = Atomic<Int64>(1)
    /// The database's wal-index header, when it has one: while its stamp is the one last confirmed, nothing has
    /// committed, and ``dataVersion()`` answers without a probe.
    private let walIndex: WALIndexHeader?
    /// The stamp of the header that a probe has seen everything up to (`UInt64.max` before the first).
    private let confirmedStamp = Atomic<UInt64>(.max)
    /// Cleared for good when ``auditor`` finds a commit that the header did not show.
    private let walIndexTrusted: Atomic<Bool>
    /// A connection of its own that checks, every ``auditInterval`` calls, that the header moves with `data_version`.
    private let auditor: Mutex<Audit>?

    private struct Audit {
        var probe: VersionProbe
        var stamp: UInt64?
        var version: Int64?
    }

    /// How often ``dataVersion()`` checks the wal-index header against `data_version`.
    static let auditInterval = 256

    fileprivate struct VersionProbe {
        var database: Database
        var statement: Statement
        var last: Int64?
    }

    private final class Probe: Sendable {
        let state: Mutex<VersionProbe>

        init(_ probe: sending VersionProbe) {
            state = Mutex(probe)
        }
    }

    /// How many probes: one per core the event loops may run on, at least two, at most eight.
    static let probeCount = min(max(2, System.coreCount), 8)

    package let path: String

    /// Opens `count` read-only connections to the database at `path`, which must exist.
    ///
    /// - Parameter maxWaiting: The most reads that may wait for a thread beyond those running (0 to 2^20); more fail
    ///   with ``SQLiteError/busy``.
    /// - Throws: ``SQLiteError`` when it cannot be opened.
    package convenience init(path: String, count: Int = ReadConnectionPool.defaultCount, maxWaiting: Int = 128)
        throws(SQLiteError)
    {
        try self.init(path: path, count: count, maxWaiting: maxWaiting, walIndex: nil)
    }

    /// - Parameter walIndex: The wal-index header to read, when not the database's own (tests give a copy that
    ///   stands still, to see the audit stop trusting it).
    init(path: String, count: Int, maxWaiting: Int, walIndex given: WALIndexHeader?) throws(SQLiteError) {
        // Everything that can throw comes first, and the Atomic<Bool> is set last: with it set by a default value,
        // the release build's optimiser (Swift 6.3.1) crashes on the path where this initialiser throws.
        var queues: [DatabaseQueue] = []
        for _ in 0..<max(1, count) {
            queues.append(try DatabaseQueue(path: path, mode: .readOnly))
        }
        var probes: [Probe] = []
        for _ in 0..<Self.probeCount {
            probes.append(Probe(try Self.probeConnection(path: path)))
        }
        // The auditor's connection has read, so it has the wal-index mapped if the database is in WAL mode, and the
        // mapping lasts while the pool keeps that connection.
        let audit = Audit(probe: try Self.probeConnection(path: path))
        let walIndex = given ?? WALIndexHeader(mappedBy: audit.probe.database)
        let auditor = walIndex == nil ? nil : Mutex(audit)
        self.maxWaiting = min(max(0, maxWaiting), 1 << 20)
        self.queues = queues
        self.versionProbes = probes
        self.path = path
        self.walIndex = walIndex
        self.auditor = auditor
        walIndexTrusted = Atomic(true)
    }

    /// A read-only connection with `PRAGMA data_version` prepared, and its first reading.
    private static func probeConnection(path: String) throws(SQLiteError) -> VersionProbe {
        let database = try Database(path: path, mode: .readOnly)
        let statement = try database.makeStatement("PRAGMA data_version")
        var probe = VersionProbe(database: database, statement: statement, last: nil)
        probe.last = try probe.read()
        return probe
    }

    /// Runs `body` with an idle read-only connection on the read threads; again, up to ``schemaRetries`` times,
    /// when it failed because the schema changed under it.
    ///
    /// - Throws: ``Busy`` when ``maxWaiting`` reads already wait; what `body` throws.
    package func read<T: Sendable>(_ read: @escaping @Sendable (Database) throws -> T) async throws -> T {
        let body: @Sendable (Database) throws -> T = { database in try Self.retryingSchemaChanges(read, database) }
        let running = Self.threads.numberOfThreads
        guard pending.wrappingAdd(1, ordering: .relaxed).newValue <= running + maxWaiting else {
            pending.wrappingSubtract(1, ordering: .relaxed)
            throw SQLiteError.busy
        }
        defer { pending.wrappingSubtract(1, ordering: .relaxed) }
        let start = next.wrappingAdd(1, ordering: .relaxed).oldValue
        let queues = self.queues
        return try await Self.threads.runIfActive {
            Self.yieldToWriters()
            for offset in 0..<queues.count {
                if let result = try queues[(start &+ offset) % queues.count].performBlockingIfIdle(body) {
                    return result
                }
            }
            return try queues[start % queues.count].performBlocking(body)
        }
    }

    /// How many times a read runs again after `SQLITE_SCHEMA`.
    static let schemaRetries = 3

    /// `read`, run again when it fails with `SQLITE_SCHEMA`: SQLite re-prepares a statement whose schema changed,
    /// but gives up when the writer changed the schema again each time it re-read it (with 10,000 tables, a re-read
    /// takes long enough for many changes). A read has nothing to undo, so running it again is safe.
    package static func retryingSchemaChanges<T>(_ read: (Database) throws -> T, _ database: Database) throws -> T {
        var retries = 0
        while true {
            do {
                return try read(database)
            } catch let error as SQLiteError where error.isSchemaChange && retries < schemaRetries {
                retries += 1
            }
        }
    }

    /// Lowers the calling read thread's priority to nice 10 (idempotent, unprivileged).
    ///
    /// Linux keeps a nice value per thread, and `PRIO_PROCESS` with `who` 0 sets the calling thread's alone (the kernel
    /// takes `current`, a thread): "the nice value is a per-thread attribute" (setpriority(2), BUGS). A thread may
    /// always lower its own priority. Elsewhere this does nothing.
    private static func yieldToWriters() {
        #if os(Linux)
            _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, readerNice)
        #endif
    }

    /// The nice value of the read threads on Linux.
    static let readerNice: Int32 = 10

    /// A number that changes whenever any connection — this process's writer or another process's — has
    /// committed a change to the database since the previous call.
    ///
    /// Cheap, so it runs on the calling thread: the read API asks it on every request to know whether what it built
    /// earlier still holds. While the wal-index header's stamp is the one a probe last confirmed, nothing has
    /// committed since that probe read, and the counter is returned as it is: two loads from shared memory, no
    /// lock. Otherwise a probe reads `PRAGMA data_version` (a read transaction, and so a lock on the wal-index), and
    /// the stamp read before it is confirmed; a stamp read before a commit never matches one read after it, because
    /// every commit raises the header's change counter. Every ``auditInterval`` calls, a connection of its own checks
    /// that the header still moves with `data_version`; if it ever does not, the header is not used again.
    ///
    /// `data_version` is one connection's own count, not comparable between connections, so the probes share
    /// one counter instead. A probe that reads a value other than its last first brings every idle probe up to
    /// date and holds it, then raises the counter, then lets them go; a probe busy on another thread reads the
    /// commit itself and raises the counter again (the one case where a commit moves it twice, which costs a
    /// reader one extra rebuild). So whatever probe a later call takes, it either read the commit already (and the
    /// counter was raised after that commit) or reads it now: the number returned differs from every number
    /// returned before the commit, and while nothing commits, it stays.
    package func dataVersion() throws(SQLiteError) -> Int64 {
        let call = next.wrappingAdd(1, ordering: .relaxed).oldValue
        guard let walIndex, walIndexTrusted.load(ordering: .relaxed), let stamp = walIndex.stamp() else {
            return try probedVersion(start: call)
        }
        if call % Self.auditInterval == 0 { audit(walIndex) }
        if stamp == confirmedStamp.load(ordering: .acquiring), walIndexTrusted.load(ordering: .relaxed) {
            return commits.load(ordering: .acquiring)
        }
        let version = try probedVersion(start: call)
        confirmedStamp.store(stamp, ordering: .releasing)
        return version
    }

    /// Whether `data_version` moved while the header's stamp stood still since the last audit, read between two
    /// equal stamps so that a commit in the middle cannot pass for one the header missed. It would mean the mapped
    /// file is not the wal-index SQLite uses (one replaced behind its back, say); from then on every call probes.
    private func audit(_ walIndex: WALIndexHeader) {
        _ = auditor?.withLockIfAvailable { audit in
            guard let before = walIndex.stamp(), let version = try? audit.probe.read(), walIndex.stamp() == before
            else { return }
            if audit.stamp == before, let last = audit.version, last != version {
                walIndexTrusted.store(false, ordering: .relaxed)
            }
            audit.stamp = before
            audit.version = version
        }
    }

    /// Whether ``dataVersion()`` reads the wal-index header first (a WAL database, and no audit has failed).
    var readsWALIndex: Bool { walIndex != nil && walIndexTrusted.load(ordering: .relaxed) }

    /// How many calls took a probe: the tests' view of what the header spared.
    let probedCalls = Atomic<Int>(0)

    /// The counter, from one of the probes.
    private func probedVersion(start: Int) throws(SQLiteError) -> Int64 {
        probedCalls.wrappingAdd(1, ordering: .relaxed)
        let count = versionProbes.count
        for offset in 0..<count {
            let index = (start &+ offset) % count
            if let version = try versionProbes[index].state.withLockIfAvailable({
                (probe: inout VersionProbe) throws(SQLiteError) -> Int64 in try observe(&probe, index: index)
            }) {
                return version
            }
        }
        let index = start % count
        return try versionProbes[index].state.withLock { (probe: inout VersionProbe) throws(SQLiteError) -> Int64 in
            try observe(&probe, index: index)
        }
    }

    private func observe(_ probe: inout VersionProbe, index: Int) throws(SQLiteError) -> Int64 {
        let version = try probe.read()
        guard version != probe.last else { return commits.load(ordering: .acquiring) }
        probe.last = version
        var raised: Int64 = 0
        let others = versionProbes.indices.filter { $0 != index }.map { versionProbes[$0] }
        Self.holdingIdle(others[...]) {
            raised = commits.wrappingAdd(1, ordering: .acquiringAndReleasing).newValue
        }
        return raised
    }

    /// Runs `body` with every probe of `probes` that is idle locked and brought up to date.
    private static func holdingIdle(_ probes: ArraySlice<Probe>, _ body: () -> Void) {
        guard let first = probes.first else { return body() }
        let held: Void? = first.state.withLockIfAvailable { probe in
            if let version = try? probe.read() { probe.last = version }
            holdingIdle(probes.dropFirst(), body)
        }
        if held == nil { holdingIdle(probes.dropFirst(), body) }
    }
}

extension ReadConnectionPool.VersionProbe {
    /// `PRAGMA data_version` on this probe's connection (0 if it returns no row).
    mutating func read() throws(SQLiteError) -> Int64 {
        guard try statement.step() else { return 0 }
        let version = statement.integer(at: 0)
        // A statement left on its row keeps a read transaction open, which would stop checkpoints from recycling
        // the WAL: reset it now, not at the next call.
        try statement.reset()
        return version
    }
}
