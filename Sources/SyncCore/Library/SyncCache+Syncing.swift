public import Foundation
public import Logging
public import ServiceLifecycle

/// Syncs endpoints into a syncd database from one's own program: once on demand, or on their schedule as a
/// service — the engine and scheduler `syncd sync` and `syncd run` use.
///
/// ```swift
/// let syncer = try Syncer(configuration: configuration, databasePath: "cache.db")
/// let summary = await syncer.sync("users")        // one run, now
/// print(summary)                                   // users: changed, 300 records (…) → version 1
/// let users = try await syncer.store.records(User.self, from: "users")
/// try await syncer.run()                           // or: keep every endpoint fresh until cancelled
/// try await syncer.shutdown()
/// ```
///
/// `Syncer` is a swift-service-lifecycle `Service`: in a `ServiceGroup`, a graceful shutdown lets running syncs
/// commit or roll back before ``run()`` returns.
public final class Syncer: Service, Sendable {
    private let configuration: Configuration
    private let transport: HTTPTransport
    private let engine: SyncEngine
    /// Reads what the syncs write.
    public let store: SyncStore

    /// Opens (or creates) the database at `databasePath` and brings it to this version of syncd.
    ///
    /// - Parameters:
    ///   - environment: Where `*_env` secrets and `$CREDENTIALS_DIRECTORY` are read; the process's by default.
    ///   - logger: Where the syncs log, at debug and below (each run's fetch, and why a run failed, with
    ///     `endpoint.name` in the metadata); the task-local `Logger.current` by default. A failed run is also in its
    ///     ``SyncSummary``.
    /// - Throws: ``SyncError/cannotOpen(_:)`` when the database cannot be opened or migrated.
    public init(
        configuration: SyncConfiguration, databasePath: String,
        environment: [String: String] = ProcessInfo.processInfo.environment, logger: Logger = .current
    ) throws(SyncError) {
        let storage: any SyncStorage
        do {
            storage = try Storage.openForWriting(databasePath)
        } catch {
            throw .cannotOpen("\(databasePath) cannot be used: \(error)")
        }
        self.configuration = configuration.configuration
        transport = HTTPTransport()
        engine = .live(storage: storage, http: transport, environment: environment, logger: logger)
        store = try SyncStore(path: databasePath)
    }

    /// Syncs one endpoint now. A failure is a summary with outcome `.failed` (the stored data kept), not a thrown
    /// error; only an unknown name throws.
    public func sync(_ endpoint: String) async throws(SyncError) -> SyncSummary {
        guard let endpoint = configuration.endpoint(named: endpoint) else { throw .unknownEndpoint(endpoint) }
        let summary = SyncSummary(await engine.sync(endpoint))
        store.signal.changed()
        return summary
    }

    /// Syncs every endpoint now, at most `concurrency` at once, in the configuration's order.
    public func syncAll() async -> [SyncSummary] {
        let endpoints = configuration.endpoints
        let width = configuration.concurrency
        var summaries = [SyncSummary?](repeating: nil, count: endpoints.count)
        await withTaskGroup(of: (Int, SyncSummary).self) { group in
            var next = 0
            func start() {
                guard next < endpoints.count else { return }
                let index = next
                next += 1
                group.addTask { [engine] in (index, SyncSummary(await engine.sync(endpoints[index]))) }
            }
            for _ in 0..<width { start() }
            for await (index, summary) in group {
                summaries[index] = summary
                start()
            }
        }
        store.signal.changed()
        return summaries.compactMap { $0 }
    }

    /// Keeps every endpoint fresh (interval ± jitter, failures backing off, next due times stored so that a
    /// restart resumes) until the task is cancelled or a graceful shutdown of its `ServiceGroup` begins.
    ///
    /// - Parameter onSync: Called after each sync.
    public func run(onSync: @escaping @Sendable (SyncSummary) -> Void) async throws {
        let endpoints = configuration.endpoints
        let persisted = try await engine.storage.schedule(of: endpoints)
        let scheduler = SyncScheduler(
            configuration: configuration, engine: engine, clock: ContinuousClock(), persisted: persisted,
            onReport: { [store] report in
                store.signal.changed()
                onSync(SyncSummary(report))
            })
        await scheduler.run()
    }

    /// ``run(onSync:)`` without a callback: the `Service` requirement.
    public func run() async throws {
        try await run(onSync: { _ in })
    }

    /// Closes the HTTP client. Call it once, when done.
    public func shutdown() async throws {
        try await transport.shutdown()
    }
}

/// What one sync of one endpoint did.
public struct SyncSummary: Sendable, Hashable, CustomStringConvertible {
    /// How a run ended.
    public enum Outcome: String, Sendable, Hashable {
        /// Records or the document changed.
        case changed
        /// A 200 with the same data.
        case unchanged
        /// A 304: nothing to fetch.
        case notModified = "not_modified"
        /// The upstream or the body failed; the stored data was kept.
        case failed
        /// The response was refused (an empty snapshot, …); the stored data was kept.
        case refused
    }

    /// The endpoint's name.
    public var endpoint: String
    /// How the run ended.
    public var outcome: Outcome
    /// The upstream's last status (200 for file://); nil when no answer came.
    public var httpStatus: Int?
    /// The records stored after the run.
    public var records: Int
    /// Rows inserted by the run.
    public var inserted: Int
    /// Rows whose JSON changed.
    public var updated: Int
    /// Rows deleted because a snapshot no longer held them (or flagged deleted).
    public var deleted: Int
    /// Records refused (a required value missing, a value of the wrong type in strict mode); see ``problems``.
    public var rejected: Int
    /// The endpoint's version after the run.
    public var version: Int64
    /// One sentence, for failed and refused runs.
    public var error: String?
    /// Each rejected or repaired record, as syncd reports it: `users[id=8] > address.geo.lat (real): found string "x"`.
    public var problems: [String]

    init(_ report: SyncReport) {
        endpoint = report.endpoint
        outcome = Outcome(rawValue: report.outcome.rawValue) ?? .failed
        httpStatus = report.httpStatus
        records = report.storedRecords
        inserted = report.inserted
        updated = report.updated
        deleted = report.deleted
        rejected = report.rejected
        version = report.version
        error = report.error
        problems = report.problems.map { "\($0)" }
    }

    /// One line: `users: changed, 300 records (…) → version 1`, or the failure's sentence.
    public var description: String {
        if let error { return "\(endpoint): \(outcome.rawValue): \(error)" }
        return "\(endpoint): \(outcome.rawValue), \(records) records (\(inserted) inserted, \(updated) updated, "
            + "\(deleted) deleted, \(rejected) rejected) → version \(version)"
    }
}
