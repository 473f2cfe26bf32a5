internal import FoundationEssentials
package import NIOCore
internal import NIOPosix
package import SyncIngest
package import SyncModel
internal import SyncSQLite
import SyncSupport
internal import Synchronization

/// A store held in memory — ``SyncStorage`` and ``ReadStorage`` over one ``MemoryData`` value — for tests and for
/// programs that want no file: `SyncStore.memory()`. ``SyncApply`` decides what a run writes, as in every store
/// (``MemoryTransaction``); reads evaluate queries in Swift with the SQL stores' meaning (``MemoryQuery``).
///
/// A transaction changes a copy of the committed value and commits by swapping it in: one that throws stores
/// nothing, and a reader, who takes the committed value as it is, never sees half a run. Transactions take turns
/// (on a thread of NIO's pool, off the cooperative threads, as a streamed body's waits block); reads never wait for
/// them. The data lives as long as the store; one process owns it (no leases).
package final class MemoryStore: SyncStorage, ReadStorage {
    /// What readers read: the value the last transaction committed.
    private let committed: Mutex<MemoryData>
    /// Held by the one transaction that runs, from its copy to its commit.
    private let writing = Mutex<Void>(())
    /// Transactions submitted that have not started: a streamed one gives way to them.
    private let waiting = Atomic<Int>(0)

    /// Whether another write waits for the store: a transaction that waits for the network gives way to it.
    var hasWaitingWrites: Bool { waiting.load(ordering: .relaxed) > 0 }
    /// Where fetched bodies wait for their transaction.
    package let spoolDirectory: String
    /// Whether the store made ``spoolDirectory``, and so removes it when it goes.
    private let madeSpoolDirectory: Bool

    /// The sentence of `syncd sql` on this store.
    package static let noSQL = "an in-memory store has no SQL: syncd sql reads SQLite and PostgreSQL databases"

    /// An empty store.
    ///
    /// - Parameter spoolDirectory: Where fetched bodies wait; nil for a temporary folder the store makes, and
    ///   removes when it goes.
    /// - Throws: Foundation's error when the temporary folder cannot be made.
    package init(spoolDirectory: String? = nil) throws {
        if let spoolDirectory {
            self.spoolDirectory = spoolDirectory
            madeSpoolDirectory = false
        } else {
            let folder = FilePathText.appending(
                "syncd-memory-\(UUID().uuidString)", to: FilePathText.temporaryDirectory)
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            self.spoolDirectory = folder
            madeSpoolDirectory = true
        }
        committed = Mutex(MemoryData())
    }

    deinit {
        if madeSpoolDirectory { try? FileManager.default.removeItem(atPath: spoolDirectory) }
    }

    /// The committed data, whole.
    var snapshot: MemoryData {
        committed.withLock { $0 }
    }

    // MARK: - Transactions

    /// Runs `body` on a copy of the committed data on a thread of NIO's pool, after the transactions before it, and
    /// commits the copy when `body` returns (not when it throws); runs even when the calling task is cancelled.
    private func transaction<T: Sendable>(_ body: @escaping @Sendable (MemoryWorkingCopy) throws -> T) async throws
        -> T
    {
        waiting.add(1, ordering: .relaxed)
        return try await withCheckedThrowingContinuation { continuation in
            NIOThreadPool.singleton.submit { _ in continuation.resume(with: Result { try self.commit(body) }) }
        }
    }

    /// Runs `body` on a copy of the committed data once the transaction before it ended, and swaps the copy in when
    /// `body` returns.
    private func commit<T: Sendable>(_ body: (MemoryWorkingCopy) throws -> T) throws -> T {
        try writing.withLock { _ in
            waiting.subtract(1, ordering: .relaxed)
            let working = MemoryWorkingCopy(snapshot)
            let result = try body(working)
            working.data.generation &+= 1
            committed.withLock { $0 = working.data }
            return result
        }
    }

    /// One ``SyncApply`` step of `run` in a transaction.
    func apply(
        _ run: SyncRun, _ step: @escaping @Sendable (SyncApply, inout MemoryTransaction) throws -> SyncSummary
    ) async throws -> SyncSummary {
        try await transaction { working in
            var transaction = MemoryTransaction(working: working, endpoint: run.endpoint)
            return try step(SyncApply(run), &transaction)
        }
    }

    // MARK: - SyncStorage

    package func state(of endpoint: String) async throws -> EndpointState? {
        snapshot.endpoints[endpoint]?.state
    }

    package func applyCollection(
        _ body: DecodedBody, run: SyncRun, facts: @escaping @Sendable () -> RunFacts
    ) async throws -> SyncSummary {
        // A transaction that waits for the network gives way to every other write.
        body.giveWay { [self] in hasWaitingWrites }
        return try await apply(run) { try $0.applyCollection(body, facts: facts(), in: &$1) }
    }

    package func prepareTables(for endpoints: [EndpointConfiguration]) async throws {
        let shapes = endpoints.filter { !$0.isDocument }.map(TableShape.init)
        guard !shapes.isEmpty else { return }
        try await transaction { working in
            for shape in shapes where working.data.tables[shape.name.name] == nil {
                working.data.tables[shape.name.name] = MemoryTable(shape)
            }
        }
    }

    package func applyNotModified(run: SyncRun, facts: @escaping @Sendable () -> RunFacts) async throws -> SyncSummary {
        try await apply(run) { try $0.applyNotModified(facts: facts(), in: &$1) }
    }

    package func applyDocument(
        _ body: ByteBuffer, contentType: String?, run: SyncRun, facts: @escaping @Sendable () -> RunFacts
    ) async throws -> SyncSummary {
        try await apply(run) { try $0.applyDocument(body: body, contentType: contentType, facts: facts(), in: &$1) }
    }

    package func recordFailure(
        _ message: String, outcome: SyncSummary.Outcome, run: SyncRun, facts: RunFacts
    ) async throws -> SyncSummary {
        try await apply(run) { try $0.recordFailure(message, outcome: outcome, facts: facts, in: &$1) }
    }

    /// As ``StoredSchedule/load(_:endpoints:)`` reads SQLite's: an endpoint whose stored columns differ from its
    /// configured ones is due at once.
    package func schedule(of endpoints: [EndpointConfiguration]) async throws -> [String: StoredSchedule] {
        let signatures = Dictionary(
            endpoints.filter { !$0.isDocument }.map { ($0.name.name, TableShape($0).columnsSignature) },
            uniquingKeysWith: { first, _ in first })
        return snapshot.endpoints.mapValues { row in
            let stale = row.columnsSignature.map { $0 != signatures[row.state.name] } ?? false
            return StoredSchedule(
                nextDue: stale ? nil : row.state.nextDueAt.flatMap(Timestamp.parse),
                consecutiveFailures: row.state.consecutiveFailures, reason: stale ? nil : row.state.scheduleReason)
        }
    }

    package func storeNextDue(
        _ rows: [NextDue], completion: @escaping @Sendable ((any Error)?) -> Void
    ) {
        let rows = rows.map { (name: $0.name, nextDue: $0.due.map(Timestamp.format), reason: $0.reason) }
        waiting.add(1, ordering: .relaxed)
        NIOThreadPool.singleton.submit { _ in
            do {
                try self.commit { working in
                    for (name, nextDue, reason) in rows {
                        working.data.endpoints[name]?.state.nextDueAt = nextDue
                        working.data.endpoints[name]?.state.scheduleReason = reason
                    }
                }
                completion(nil)
            } catch {
                completion(error)
            }
        }
    }

    package func resource(_ key: String) async throws -> StoredResource? {
        snapshot.resources[key]
    }

    package func storeResource(_ resource: StoredResource, _ key: String) async throws {
        var resource = resource
        resource.validatedAt = Self.stored(resource.validatedAt)
        try await transaction { [resource] in $0.data.resources[key] = resource }
    }

    package func touchResource(_ key: String, validatedAt time: Double) async throws {
        try await transaction { $0.data.resources[key]?.validatedAt = Self.stored(time) }
    }

    /// A time as the SQL stores keep it: a ``Timestamp``, to the millisecond.
    private static func stored(_ time: Double) -> Double {
        Timestamp.parse(Timestamp.format(time)) ?? time
    }

    // MARK: - ReadStorage

    package func generation() throws -> Int64 {
        snapshot.generation
    }

    package func read<T: Sendable>(_ body: @escaping @Sendable (any StorageReader) throws -> T) async throws -> T {
        try body(MemoryReader(data: snapshot))
    }

    /// - Throws: ``SQLScriptError/refused(_:)``, always: the store has no SQL.
    package func runScript(_ sql: String) async throws -> [SQLResult] {
        throw SQLScriptError.refused(Self.noSQL)
    }
}
