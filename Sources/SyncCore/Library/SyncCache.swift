public import FoundationEssentials
public import Logging
public import ServiceLifecycle
import SyncHTTP
package import SyncPersistence
import SyncRuntime
internal import SyncSQLite
internal import Synchronization

/// The front door: a syncd database, kept fresh from the endpoints it is configured with, and read back typed —
/// the engine, scheduler and storage `syncd sync` and `syncd run` use.
///
/// ```swift
/// let cache = try SyncCache(path: "cache.db", configuration: configuration)
/// print(try await cache.sync("users"))                     // users: changed, 300 records (…) → version 1
/// let oslo = try await cache.records(User.self, from: "users", where: [.equal("city", "Oslo")])
/// for try await change in cache.changeSets("users") { … }  // one ChangeSet per sync that changed it
/// try await cache.run()                                     // keep every endpoint fresh until cancelled
/// try await cache.shutdown()
/// ```
///
/// One type does what the cache does:
/// - **Sync**: ``sync(_:)`` one endpoint now, ``syncAll(onSync:)``, or ``run(onSync:)`` on their schedule. `SyncCache` is a
///   swift-service-lifecycle `Service`: in a `ServiceGroup`, a graceful shutdown lets running syncs commit or roll
///   back before ``run()`` returns.
/// - **Read**: ``records(_:from:where:order:limit:offset:decoder:)``, ``record(_:from:key:decoder:)``,
///   ``document(_:from:decoder:)``, ``isModified(_:since:)``, and the changes: ``changes(_:since:)``,
///   ``changeSets(_:since:every:)``, ``values(_:from:where:order:every:decoder:)``.
/// - **Read as stored** — what the CLI and the read API serve: ``table(from:where:order:limit:offset:)``,
///   ``recordJSON(from:key:)``, ``documentBody(from:)``, ``statuses()``, ``drift(_:)`` and read-only
///   ``sql(_:)``; several reads of one committed state in ``read(_:)``, kept while ``generation()`` holds still,
///   with ``Freshness`` and ``etag(instance:version:)`` for the headers.
/// - **Fetch any URL offline-first** into the same database: ``fetch(_:headers:maxAge:timeout:decode:)``; and any
///   typed request through ``client``, the HTTP client the cache syncs with (one pool of connections a process).
///
/// ``init(readingFrom:configuration:connections:)-(String,_,_)`` opens a database that another process keeps fresh (a `syncd run` daemon)
/// for reading only: it never writes, never blocks the writer (WAL), and needs no write permission.
public final class SyncCache: Service, Sendable {
    /// What writing needs; nil when the cache was opened for reading only.
    struct Writer: Sendable {
        var storage: any SyncStorage
        var engine: SyncEngine
        /// Fetches resources (``SyncCache/fetch(_:headers:maxAge:timeout:decode:)``), as the engine does.
        var transport: any Transport
        var now: @Sendable () -> Double
        /// Where the scheduler's runs report how far they have come (``SyncCache/running``), on the cache's clock.
        var progress: SyncProgress.Sink

        /// Creates the missing tables of `endpoints` in one transaction before their first syncs. Best effort: when
        /// that fails (a table's name taken by an index, say), each sync makes its own and reports its own error.
        func prepareTables(for endpoints: [EndpointConfiguration]) async {
            do {
                try await storage.prepareTables(for: endpoints)
            } catch {
                // Nothing was created; the syncs say what is wrong, endpoint by endpoint.
            }
        }
    }

    /// Where the reads go.
    let storage: any ReadStorage
    /// The storage the reads go through, for the read API and the CLI, which serve what is stored as stored.
    package var readStorage: any ReadStorage { storage }

    /// Process-wide SQLite settings for a program that owns its process, to call before it opens any SQLite
    /// database; the `syncd` binary calls it first thing. Afterwards it does nothing.
    ///
    /// - SQLite stops counting the memory it allocates (a process-wide mutex on each allocation, about 5% of a
    ///   large sync), so `sqlite3_memory_used` and a soft heap limit no longer work in the process.
    /// - A statement's journal stays in memory up to 1 MiB instead of 64 KiB: storing 100k records no longer writes
    ///   a temporary file page by page (a tenth less time).
    ///
    /// Neither changes what is stored or what a crash or power loss can lose.
    public static func configureProcess() {
        Database.configureProcess()
    }
    /// Tells the change streams (and the read API's event streams and long polls) of each commit: at once when this
    /// cache committed, else at their next look.
    let notifier: CommitNotifier
    /// The readers waiting for a run the schedule was asked for (``refresh(_:olderThan:within:)``).
    let reports = ReportWaiters()
    let writer: Writer?
    /// The configuration syncs use, which ``reload(_:)`` replaces, and the scheduler while ``run(onSync:)`` runs.
    let live: Mutex<Live>

    struct Live: Sendable {
        var configuration: SyncConfiguration
        var scheduler: SyncScheduler<ContinuousClock>?
        /// Called with each configuration ``reload(_:)`` applies (the read API's, which serves its endpoints).
        var observers: [@Sendable (SyncConfiguration) -> Void] = []
    }
    /// Where the data is kept.
    let store: SyncStore
    /// The client of ``client``, once there is one, and whether the cache made it (and so closes it).
    private let shared: Mutex<(client: APIClient?, owned: Bool)>

    /// The HTTP client the cache syncs and fetches with, for the program's own typed fetches
    /// (``APIClient/fetch(_:as:decoder:)``): one pool of connections in the process. A client given to the cache's
    /// initializer is this one; otherwise the cache made it, and ``shutdown()`` closes it. A cache opened for reading
    /// only makes it when it is first asked for.
    public var client: APIClient {
        shared.withLock { shared in
            if let client = shared.client { return client }
            let client = APIClient()
            shared = (client, true)
            return client
        }
    }

    /// Opens (or creates) the database at `path`, brings it to this version of syncd, and syncs the endpoints of
    /// `configuration` into it: ``init(store:configuration:connections:client:environment:logger:)`` with
    /// ``SyncStore/sqlite(path:)``.
    public convenience init(
        path: String, configuration: SyncConfiguration? = nil, connections: Int = 2,
        environment: [String: String] = ProcessInfo.processInfo.environment, logger: Logger = .current
    ) throws(SyncError) {
        try self.init(
            store: .sqlite(path: path), configuration: configuration, connections: connections,
            environment: environment, logger: logger)
    }

    /// Opens (or creates) the store, brings it to this version of syncd, and syncs the endpoints of
    /// `configuration` into it.
    ///
    /// - Parameters:
    ///   - store: Where the data is kept: ``SyncStore/sqlite(path:)``, or SyncPostgres' `.postgres(url:)`.
    ///   - configuration: The endpoints to sync; none when nil (the cache then reads, and fetches resources).
    ///   - connections: Read-only connections kept open for concurrent reads.
    ///   - client: The program's HTTP client, for the cache to fetch with too; the program shuts it down after the
    ///     cache. By default the cache makes one (``client``) and ``shutdown()`` closes it.
    ///   - environment: Where `*_env` secrets and `$CREDENTIALS_DIRECTORY` are read; the process's by default.
    ///   - logger: Where the syncs log, at debug and below (each run's fetch, and why a run failed, with
    ///     `endpoint.name` in the metadata); the task-local `Logger.current` by default. A failed run is also in its
    ///     ``SyncSummary``.
    /// - Throws: ``SyncError/Code/cannotOpen`` when the store cannot be opened or migrated.
    public convenience init(
        store: SyncStore, configuration: SyncConfiguration? = nil, connections: Int = 2, client: APIClient? = nil,
        environment: [String: String] = ProcessInfo.processInfo.environment, logger: Logger = .current
    ) throws(SyncError) {
        let http = client ?? APIClient()
        try self.init(
            store: store, configuration: configuration ?? SyncConfiguration(),
            connections: connections, transport: SchemeTransport(http: http.transport), client: http,
            ownsClient: client == nil, environment: environment, logger: logger,
            now: { Date().timeIntervalSince1970 })
    }

    /// Opens an existing syncd database file for reading only:
    /// ``init(readingFrom:configuration:connections:)-(SyncStore,_,_)`` with ``SyncStore/sqlite(path:)``.
    public convenience init(
        readingFrom path: String, configuration: SyncConfiguration? = nil, connections: Int = 2
    ) throws(SyncError) {
        try self.init(readingFrom: .sqlite(path: path), configuration: configuration, connections: connections)
    }

    /// Opens an existing store for reading only.
    ///
    /// - Parameters:
    ///   - store: The store, as `database` in syncd.toml names it.
    ///   - configuration: The endpoints the program reads, as the process that syncs them is configured (what a
    ///     read API serves, and ``reload(_:)`` replaces); none when nil: the reads then go by what the store holds.
    ///   - connections: Read-only connections kept open for concurrent reads.
    /// - Throws: ``SyncError/Code/cannotOpen`` when the file is missing or is not a database, or the server cannot
    ///   be reached.
    public convenience init(
        readingFrom store: SyncStore, configuration: SyncConfiguration? = nil, connections: Int = 2
    ) throws(SyncError) {
        self.init(
            reading: try Self.openForReading(store, connections: connections), of: store,
            configuration: configuration ?? SyncConfiguration())
    }

    /// A cache that reads through `storage`, a reader of `store` the caller opened (a test's pool, say).
    package init(reading storage: any ReadStorage, of store: SyncStore, configuration: SyncConfiguration) {
        self.store = store
        self.storage = storage
        notifier = CommitNotifier(generation: { try storage.generation() })
        writer = nil
        live = Mutex(Live(configuration: configuration))
        shared = Mutex((nil, false))
    }

    /// The one place a cache, and the sync engine in it, is assembled: with the store, a transport (the HTTP
    /// client), a logger and a clock (seconds since 1970), which tests inject.
    ///
    /// - Parameters:
    ///   - ownsClient: Whether `client` is the cache's own, which ``shutdown()`` closes.
    ///   - client: What ``client`` is: the client of `transport`; nil, for a cache whose transport is a test's, makes
    ///     one when it is asked for.
    init(
        store: SyncStore, configuration: SyncConfiguration = SyncConfiguration(), connections: Int = 2,
        transport: any Transport,
        client: APIClient? = nil, ownsClient: Bool = false, environment: [String: String] = [:],
        logger: Logger = .current, now: @escaping @Sendable () -> Double
    ) throws(SyncError) {
        let written: any SyncStorage
        do {
            written = try store.openForWriting()
        } catch let error as StoreOpenError {
            throw .cannotOpen(error.description)
        } catch {
            throw .cannotOpen("\(store) cannot be used: \(error)")
        }
        self.store = store
        let storage = try Self.openForReading(store, connections: connections)
        self.storage = storage
        notifier = CommitNotifier(generation: { try storage.generation() })
        live = Mutex(Live(configuration: configuration))
        shared = Mutex((client, ownsClient))
        writer = Writer(
            storage: written,
            engine: SyncEngine(
                storage: written, transport: transport, environment: environment, logger: logger, now: now,
                tokens: client?.tokens),
            transport: transport, now: now, progress: SyncProgress.Sink(now: now))
    }

    /// ``init(store:configuration:connections:transport:client:ownsClient:environment:logger:now:)`` with an SQLite file.
    convenience init(
        path: String, configuration: SyncConfiguration = SyncConfiguration(), connections: Int = 2,
        transport: any Transport,
        environment: [String: String] = [:], logger: Logger = .current,
        now: @escaping @Sendable () -> Double
    ) throws(SyncError) {
        try self.init(
            store: .sqlite(path: path), configuration: configuration, connections: connections, transport: transport,
            environment: environment, logger: logger, now: now)
    }

    private static func openForReading(_ store: SyncStore, connections: Int) throws(SyncError) -> any ReadStorage {
        do {
            return try store.openForReading(connections: connections)
        } catch let error as StoreOpenError {
            throw .cannotOpen(error.description)
        } catch let error as SQLiteError {
            throw .cannotOpen("\(store) cannot be opened: \(error.message)")
        } catch {
            throw .cannotOpen("\(store) cannot be opened: \(error)")
        }
    }

    /// What writing needs, or the error that says the cache is read-only.
    func writable(_ action: String) throws(SyncError) -> Writer {
        guard let writer else {
            throw .readOnly("\(store) was opened for reading only: it cannot \(action)")
        }
        return writer
    }

    /// Closes the HTTP client the cache made. Call it once, when done.
    public func shutdown() async throws {
        let made = shared.withLock { $0.owned ? $0.client : nil }
        try await made?.shutdown()
    }
}
