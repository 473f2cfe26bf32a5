package import NIOCore
package import SyncIngest
package import SyncModel

/// Where the sync engine and the scheduler keep what they fetch: the one interface between a run and a database.
///
/// A run reads its endpoint's state (validators, cursor, version), fetches, then ends in exactly one of the four
/// `apply…`/`record…` calls, each one atomic: readers see the stored data before it or after it, never a mix, and
/// when a call throws, nothing of it is stored. The scheduler stores each endpoint's next due time, so that a
/// restart resumes. ``SQLiteSyncStorage`` is syncd's implementation; `StorageConformanceTests` state what any
/// implementation must do, and run against each.
package protocol SyncStorage: Sendable {
    /// A folder on the same disk as the data, where fetched bodies wait for the transaction that applies them.
    var spoolDirectory: String { get }

    /// The endpoint's state after its last run; nil before its first.
    func state(of endpoint: String) async throws -> EndpointState?

    /// Applies a 200 of a collection: upserts the records, deletes (with tombstones) what a snapshot no longer
    /// holds, and records the run.
    ///
    /// A body that ``DecodedBody/isStreamed`` is still arriving: the records are stored as its pipeline yields them,
    /// the run's status, validators, bytes and pages are its ``DecodedBody/finalFacts``, and when its fetch fails or
    /// it gives way the pipeline throws, and so does the call, storing nothing. An implementation whose writes would
    /// hold up others while it waits should give way through ``DecodedBody/giveWay(when:)``.
    ///
    /// - Parameter facts: The run's facts, asked for when the transaction starts (so that its finish time is then).
    /// - Throws: ``StoreError`` (an empty snapshot, more deletions than `max_delete` allows, a changed primary key),
    ///   or the database's error; nothing is stored.
    func applyCollection(_ body: DecodedBody, run: SyncRun, facts: @escaping @Sendable () -> RunFacts) async throws
        -> SyncSummary

    /// Creates the tables of `endpoints` that do not exist yet, all in one transaction, before their first syncs:
    /// otherwise each first sync changes the schema on its own, and every change makes every reader re-read the
    /// whole schema (with 10,000 endpoints, most of a cold start). All or none: when one cannot be made, none is,
    /// and each sync then makes its own and reports its own error.
    func prepareTables(for endpoints: [EndpointConfiguration]) async throws

    /// What a run of a child endpoint starts from: its parent's rows (none while the parent's table does not exist),
    /// in key order, with the columns its requests and parent columns need (``FanOutPlan/parentColumns``), and its
    /// state per parent.
    func fanOutInputs(for endpoint: EndpointConfiguration) async throws -> FanOutInputs

    /// Applies a child endpoint's run, every parent's answer in one transaction (``SyncApply/applyFanOut(_:facts:in:)``).
    ///
    /// A body that ``FanOutBody/streams`` is still being walked: the records are stored as its walks deliver them,
    /// as for ``applyCollection(_:run:facts:)``, and the call throws (storing nothing) when a walk fails or it gives
    /// way; an implementation whose writes would hold up others while it waits should give way through
    /// ``FanOutRun/giveWay(when:)``.
    ///
    /// - Throws: ``StoreError`` (an empty snapshot, more deletions than `max_delete` allows, a changed primary key),
    ///   or the database's error; nothing is stored.
    func applyFanOut(_ body: FanOutBody, run: SyncRun, facts: @escaping @Sendable () -> RunFacts) async throws
        -> SyncSummary

    /// Applies a 304: the data stays, freshness moves.
    func applyNotModified(run: SyncRun, facts: @escaping @Sendable () -> RunFacts) async throws -> SyncSummary

    /// Applies a 200 of a document endpoint: the body is stored when it differs from the stored one.
    func applyDocument(
        _ body: ByteBuffer, contentType: String?, run: SyncRun, facts: @escaping @Sendable () -> RunFacts
    ) async throws -> SyncSummary

    /// Records a run that stored nothing; completes even when the calling task is cancelled (a daemon stopping
    /// records how its runs ended).
    func recordFailure(_ message: String, outcome: SyncSummary.Outcome, run: SyncRun, facts: RunFacts) async throws
        -> SyncSummary

    /// Each endpoint's stored next due time and failure count (see ``StoredSchedule/load(_:endpoints:)``).
    func schedule(of endpoints: [EndpointConfiguration]) async throws -> [String: StoredSchedule]

    /// Stores next due times (`nil`: due at once) together, then calls `completion` with the error, if any; completes
    /// even when the daemon is stopping. `completion` is called from the thread that wrote: the caller's own, before
    /// this returns, when the write was quick to do at once (SQLite's connection was free), or a thread of the
    /// implementation's later, without a task in between (with 10,000 endpoints a task and its wake-ups for each
    /// batch were a tenth of the daemon's thread switches).
    func storeNextDue(
        _ rows: [NextDue], completion: @escaping @Sendable ((any Error)?) -> Void)

    /// The claims through which the `syncd run` nodes sharing this storage take turns at its endpoints, for a node
    /// of this name holding each claim for `lease` seconds; nil for storage that one process owns (SQLite).
    func leasing(node: String, lease: Double) -> (any EndpointLeasing)?

    // MARK: Cached resources (`SyncCache.fetch`)

    /// The resource cached under `key` (a URL without its secrets); nil when there is none.
    func resource(_ key: String) async throws -> StoredResource?

    /// Caches a resource under `key`, replacing what was there.
    func storeResource(_ resource: StoredResource, _ key: String) async throws

    /// Records that the upstream confirmed the resource under `key` at `time` (seconds since 1970).
    func touchResource(_ key: String, validatedAt time: Double) async throws
}

/// One run of one endpoint, as the storage records it.
package struct SyncRun: Sendable {
    package var endpoint: EndpointConfiguration
    /// When the scheduler wanted the run to start, in seconds since 1970; `nil` for a run nobody scheduled
    /// (`syncd sync`, a library's sync).
    package var dueAt: Double?
    /// The claim the run holds on its endpoint (``EndpointLeasing/holder``), when nodes share the storage: the run
    /// stores its result only while the claim is still its own.
    package var claim: String?
    /// What a failed run of a child endpoint did per parent before its failed walk, recorded with the failure
    /// (``SyncStorage/recordFailure(_:outcome:run:facts:)``); nil for any other run (a successful one's counts come
    /// with its report).
    package var failedFanOut: SyncSummary.FanOut?
    /// For a child endpoint, the parents this run walks, by key (their `_parent`): a webhook named them. The others
    /// keep their children. nil walks the parents `children` and `max_parents` choose.
    package var parents: Set<String>?

    package init(
        endpoint: EndpointConfiguration, dueAt: Double? = nil, claim: String? = nil, parents: Set<String>? = nil
    ) {
        self.endpoint = endpoint
        self.dueAt = dueAt
        self.claim = claim
        self.parents = parents
    }
}

extension SyncStorage {
    /// One process owns the storage: there is nothing to share.
    package func leasing(node: String, lease: Double) -> (any EndpointLeasing)? { nil }

    /// Stores next due times (`nil`: due at once) together, and returns once they are stored.
    package func storeNextDue(_ rows: [NextDue]) async throws {
        let error = await withCheckedContinuation { continuation in
            storeNextDue(rows) { continuation.resume(returning: $0) }
        }
        if let error { throw error }
    }
}
