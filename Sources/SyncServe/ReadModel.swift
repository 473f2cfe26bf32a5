package import NIOCore
package import SyncCore
import SyncSupport
internal import Synchronization

/// What the read API serves, read through ``SyncCache/read(_:)`` and kept while it holds.
///
/// Every request first asks the cache's generation whether anything committed since the last request (for
/// SQLite, `data_version`: a shared-memory read). While nothing did, the endpoints' states come from memory, and a representation built
/// earlier — a record, a page of records, a document — is sent again as it is: no SQL, no JSON encoding. A
/// commit (a sync in this process or another) makes the next request re-read the states; a representation is
/// rebuilt only when its endpoint's version moved.
package final class ReadModel: Sendable {
    /// The endpoints' states at one `data_version`, and the database's instance id (part of every ETag).
    package struct Snapshot: Sendable {
        package var generation: Int64
        package var instance: String
        package var states: [String: Served]

        /// An endpoint's state once it has been synced: it has a version, or a run of it succeeded.
        func synced(_ name: String) -> Served? {
            guard let served = states[name], served.state.version > 0 || served.schedule.lastSuccess != nil else {
                return nil
            }
            return served
        }
    }

    /// An endpoint's state with what every request derives from it, computed once per snapshot.
    package struct Served: Sendable {
        package var state: SyncCache.EndpointStatus
        package var schedule: SyncCache.Freshness.Schedule
        /// The tag of the endpoint's lists, changes and document: its version.
        package var etag: String
        /// When its data last changed, as an IMF-fixdate.
        package var lastModified: String?

        init(_ state: SyncCache.EndpointStatus, instance: String) {
            self.state = state
            schedule = SyncCache.Freshness.Schedule(state)
            etag = SyncCache.etag(instance: instance, version: state.version)
            lastModified = state.changedAt.flatMap(Timestamp.parse).map { HTTPDate.format(seconds: $0) }
        }
    }

    /// Where the data is read: the cache, or the replica it is read from (`[server] read_database`).
    let source: SyncCache
    /// The cache the daemon syncs with: its running syncs are shown (``SyncCache/running``).
    let syncing: SyncCache
    let now: @Sendable () -> Double
    /// The most records one list or change-feed answer holds (`[server] max_rows`; a change needs a restart).
    let maxRows: Int
    /// syncd's state folder, where the syncing process records when each OAuth2 token was renewed; nil shows none.
    let stateDirectory: String?
    /// The change streams and long polls open, at most `[server] max_streams` (a change needs a restart).
    let streams: StreamSlots
    /// How long a change stream goes without sending before it sends a comment, so that proxies keep it open.
    let heartbeat: Duration
    /// The change-feed reads the streams share.
    let sharedParts = SharedParts()
    /// The configured endpoints, in the configuration's order and by name (every request looks one up).
    private let endpoints: Mutex<Endpoints>

    private struct Endpoints {
        var all: [SyncCache.Endpoint]
        var byName: [String: SyncCache.Endpoint]

        init(_ configuration: SyncConfiguration) {
            all = configuration.compiledEndpoints
            byName = Dictionary(all.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        }
    }
    private let snapshot = Mutex<Snapshot?>(nil)
    let cache: RepresentationCache
    /// `/openapi.json` as built for this configuration, with and without the bearer scheme: it changes only with
    /// the configuration (a reload drops it). See ``openAPI(bearer:)``.
    let openAPIDocuments = Mutex(OpenAPIDocuments())

    struct OpenAPIDocuments {
        /// The document's bytes by whether it has the bearer scheme.
        var bodies: [Bool: ByteBuffer] = [:]
        /// How many times a document was built since the daemon started (the tests count them).
        var builds = 0
    }

    /// - Parameters:
    ///   - cache: What is served: the endpoints of its configuration, which follow its ``SyncCache/reload(_:)``,
    ///     and `[server] max_rows` as it opened (a change needs a restart).
    ///   - replica: Where the data is read instead of `cache`'s store: `[server] read_database`.
    ///   - now: Seconds since 1970, injected so that freshness is tested without waiting.
    ///   - heartbeat: How long a change stream goes without sending before it sends a comment (15 s; 30 s is what
    ///     the proxies need at most).
    package init(
        cache: SyncCache, readingFrom replica: SyncCache? = nil, cacheBytes: Int = 32 << 20,
        now: @escaping @Sendable () -> Double, stateDirectory: String? = nil, heartbeat: Duration = .seconds(15)
    ) {
        let configuration = cache.configuration
        self.streams = StreamSlots(limit: configuration.server.maxStreams)
        self.heartbeat = heartbeat
        self.source = replica ?? cache
        self.syncing = cache
        self.now = now
        self.stateDirectory = stateDirectory
        self.maxRows = configuration.server.maxRows
        self.endpoints = Mutex(Endpoints(configuration))
        self.cache = RepresentationCache(budget: cacheBytes)
        cache.observeReloads { [weak self] configuration in self?.reload(configuration) }
    }

    /// Serves a reloaded configuration's endpoints from now on.
    private func reload(_ configuration: SyncConfiguration) {
        endpoints.withLock { $0 = Endpoints(configuration) }
        cache.removeAll()
        openAPIDocuments.withLock { $0.bodies = [:] }
    }

    /// The configured endpoint of that name.
    func endpoint(_ name: String) throws(ReadAPIError) -> SyncCache.Endpoint {
        guard let endpoint = endpoints.withLock({ $0.byName[name] }) else {
            throw .notFound("There is no endpoint \"\(name)\" in the configuration.")
        }
        return endpoint
    }

    /// Every configured endpoint, in the configuration's order.
    func allEndpoints() -> [SyncCache.Endpoint] {
        endpoints.withLock { $0.all }
    }

    /// The states as of the last commit.
    package func currentSnapshot() async throws(ReadAPIError) -> Snapshot {
        let generation: Int64
        do {
            generation = try source.generation()
        } catch {
            throw ReadAPIError.databaseFailed(error)
        }
        let previous = snapshot.withLock { $0 }
        if let previous, previous.generation == generation { return previous }
        let fresh = try await read { reader in
            let instance = try reader.instance()
            let states = try reader.statuses()
            // An endpoint whose state did not change keeps what was derived from it (its schedule's parsed times,
            // its tags): with 10,000 endpoints, a commit changes a few, and deriving them all again for each was most
            // of the cost of a /healthz.
            let kept = previous?.instance == instance ? previous?.states ?? [:] : [:]
            var served: [String: Served] = [:]
            served.reserveCapacity(states.count)
            for state in states where served[state.name] == nil {
                if let old = kept[state.name], old.state == state {
                    served[state.name] = old
                } else {
                    served[state.name] = Served(state, instance: instance)
                }
            }
            return Snapshot(generation: generation, instance: instance, states: served)
        }
        snapshot.withLock { $0 = fresh }
        return fresh
    }

    /// An endpoint's configuration and state, or 404 when it is unknown or was never synced.
    func synced(_ name: String) async throws(ReadAPIError) -> (SyncCache.Endpoint, Served, Snapshot) {
        let endpoint = try endpoint(name)
        let snapshot = try await currentSnapshot()
        guard let served = snapshot.synced(name) else {
            throw .notFound("The endpoint \(name) has not been synced yet: there is nothing cached to serve.")
        }
        return (endpoint, served, snapshot)
    }

    /// A synced collection endpoint's configuration, state and snapshot, when nothing committed since the snapshot
    /// was taken: what an answer from memory needs. `nil` leaves the request to the router, which reads the states
    /// again or says what is wrong.
    func syncedInMemory(_ name: String) -> (SyncCache.Endpoint, Served, Snapshot)? {
        guard let endpoint = endpoints.withLock({ $0.byName[name] }), !endpoint.isDocument,
            let snapshot = snapshot.withLock({ $0 }),
            let generation = try? source.generation(), snapshot.generation == generation,
            let served = snapshot.synced(name)
        else { return nil }
        return (endpoint, served, snapshot)
    }

    /// How fresh an endpoint's data is now.
    func freshness(_ endpoint: SyncCache.Endpoint, _ served: Served) -> SyncCache.Freshness {
        SyncCache.Freshness(
            schedule: served.schedule, interval: endpoint.interval, timeout: endpoint.timeout, now: now())
    }

    /// Runs a read where the cache reads, turning its errors into what a reader is told.
    func read<T: Sendable>(
        parameter: String = "query", _ body: @escaping @Sendable (SyncCache.Reader) throws -> T
    ) async throws(ReadAPIError) -> T {
        do {
            return try await source.read(body)
        } catch {
            throw ReadAPIError(error, parameter: parameter)
        }
    }
}

/// A response body the API can send again, with the validators that describe it.
package struct Representation: Sendable {
    package var body: ByteBuffer
    package var contentType: String
    /// The strong ETag, quoted.
    package var etag: String
    /// Seconds since 1970, and the same as an IMF-fixdate, formatted once.
    package var lastModified: Double?
    package var lastModifiedText: String?
    /// The database instance and endpoint version it was built at: it holds while both are current.
    package var instance: String
    package var endpointVersion: Int64
    /// PostgREST's `Content-Range: 0-9/*` (or `/TOTAL` when counted) for lists of records.
    package var contentRange: String?

    /// - Parameter changedAt: When the data last changed, a ``Timestamp``.
    package init(
        body: ByteBuffer, contentType: String, etag: String, changedAt: String?, instance: String,
        endpointVersion: Int64
    ) {
        self.body = body
        self.contentType = contentType
        self.etag = etag
        self.lastModified = changedAt.flatMap(Timestamp.parse)
        self.lastModifiedText = lastModified.map { HTTPDate.format(seconds: $0) }
        self.instance = instance
        self.endpointVersion = endpointVersion
    }
}

/// Representations built earlier, by endpoint, route and request, within a byte budget.
final class RepresentationCache: Sendable {
    struct Key: Hashable, Sendable {
        enum Route: Hashable, Sendable { case records, record, document, changes }
        var endpoint: String
        var route: Route
        /// The query string, the record key or the `since` version, as the request wrote it.
        var argument: String
    }

    /// Bodies larger than this are built for each request instead of being kept.
    static let largestEntry = 1 << 20

    private struct State {
        var entries: [Key: Representation] = [:]
        var bytes = 0
    }

    private let budget: Int
    private let state = Mutex(State())

    init(budget: Int) {
        self.budget = budget
    }

    /// The representation stored for `key`, if it was built at the current instance and endpoint version.
    func lookup(_ key: Key, instance: String, endpointVersion: Int64) -> Representation? {
        state.withLock { state in
            guard let entry = state.entries[key], entry.endpointVersion == endpointVersion, entry.instance == instance
            else { return nil }
            return entry
        }
    }

    /// Keeps a representation; when the budget is exceeded, what was kept is dropped first.
    func store(_ key: Key, _ representation: Representation) {
        let size = representation.body.readableBytes + key.argument.utf8.count + 64
        guard size <= Self.largestEntry, size <= budget else { return }
        state.withLock { state in
            if let old = state.entries[key] { state.bytes -= old.body.readableBytes + key.argument.utf8.count + 64 }
            if state.bytes + size > budget {
                state.entries.removeAll(keepingCapacity: true)
                state.bytes = 0
            }
            state.entries[key] = representation
            state.bytes += size
        }
    }

    func removeAll() {
        state.withLock { $0 = State() }
    }

    var count: Int { state.withLock { $0.entries.count } }
}
