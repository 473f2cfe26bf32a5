import FoundationEssentials
import Logging
import Prometheus
import ServiceLifecycle
import SyncCore
import SyncPostgres
import SyncServe
import SyncSupport
import SyncSystemd
import UnixSignals

/// The daemon's services — the cache kept fresh on its schedule, the read API, SIGHUP reloads, the watchdog — run together until
/// SIGTERM or SIGINT: `syncd run`, and the serving half of `syncd demo`.
struct Daemon {
    var options: GlobalOptions
    var configuration: SyncConfiguration
    var environment: [String: String]
    var logger: Logger
    var notifier: SystemdNotifier
    /// Called once the read API listens, before READY=1.
    var onListening: @Sendable (ReadServer.BoundAddress) -> Void = { _ in }
    /// Called after each sync, after it was logged.
    var onReport: @Sendable (SyncSummary) -> Void = { _ in }

    func run() async throws {
        let logger = self.logger
        let notifier = self.notifier
        let onListening = self.onListening
        let onReport = self.onReport
        let store = options.store(configuration)
        let readToken = try Self.readToken(configuration.server, environment: environment)
        // Checked before the database is opened: a read_database that cannot be used creates nothing.
        try Self.checkReadDatabase(configuration.server, store: store)
        // A socket a live daemon answers on is refused before anything is opened: a second daemon leaves no trace.
        if case .unix(let path) = configuration.server.listen {
            do { try UnixSocketFile.prepare(at: path) } catch { throw CLIError("\(error)") }
        }
        // The front door every embedder uses: the daemon keeps it fresh and reloads it; the read API reads through it.
        let cache = try SyncRunner.open(
            configuration, in: store, connections: SyncCache.servingConnections, environment: environment,
            logger: logger)
        let registry = PrometheusCollectorRegistry()
        let metrics = SyncMetrics()
        let syncing = CacheService(cache: cache) { summary in
            metrics.record(summary)
            DaemonReports.log(summary, logger: logger, notifier: notifier)
            onReport(summary)
        }
        // After the database: a standby of a new one has the tables once it replayed the migrations.
        let replica = try Self.replica(configuration.server, passwordFile: configuration.passwordFile)
        let model = ReadModel(
            cache: cache, readingFrom: replica, now: { Date().timeIntervalSince1970 },
            stateDirectory: TokenTimes.directory(store))
        let readyStatus = "syncing \(configuration.endpoints.count) endpoints"
        let maxConnections = DescriptorBudget.connections(
            configured: configuration.server.maxConnections, concurrency: configuration.concurrency,
            limit: DescriptorBudget.raiseLimit())
        if maxConnections < configuration.server.maxConnections {
            logger.notice(
                "Lowered the read API's max_connections: the descriptor limit leaves no more beside the syncs",
                metadata: ["max_connections": "\(maxConnections)"])
        }
        let server = ReadServer(
            model: model, registry: registry, syncMetrics: metrics, token: readToken, logger: logger,
            maxConnections: maxConnections)
        var services: [any Service] = [
            syncing,
            ReloadService(
                options: options, cache: cache, token: server.token, running: configuration.server,
                cluster: configuration.cluster, environment: environment, notifier: notifier, logger: logger),
        ]
        let api = try Self.service(server, listen: configuration.server.listen) { address in
            logger.info("Serving the read API", metadata: ["address": "\(address)"])
            onListening(address)
            notifier.ready(status: "\(readyStatus); read API on \(address)")
        }
        if let api { services.append(api) }
        services.append(MemoryTrimService())
        services.append(
            RunningSyncsService(
                cache: cache, file: RunningSyncsFile(stateDirectory: TokenTimes.directory(store)), logger: logger))
        if let interval = notifier.watchdogInterval {
            services.append(WatchdogService(interval: interval, cache: cache, notifier: notifier))
        }
        let group = ServiceGroup(
            configuration: ServiceGroupConfiguration(
                services: services, gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        var started: Logger.Metadata = [
            "endpoints": "\(configuration.endpoints.count)", "config": "\(options.configPath)",
        ]
        // Where nodes share the database, the name this one's claims go by.
        if store.isShared { started["node"] = "\(configuration.cluster.nodeName)" }
        logger.info("Started", metadata: started)
        // With a read API, READY=1 waits until it listens; without one, the migrated database is enough.
        if api == nil { notifier.ready(status: "\(readyStatus); read API off") }
        do {
            try await group.run()
        } catch {
            try? await cache.shutdown()  // best effort: the group's error is the one to report
            throw CLIError("the daemon stopped: \(Self.describe(error, listen: configuration.server.listen))")
        }
        try await cache.shutdown()
        logger.info("Stopped")
    }

    /// A `[server] read_database` is a replica of a PostgreSQL database: with an SQLite one it is refused.
    static func checkReadDatabase(_ server: SyncConfiguration.Server, store: SyncStore) throws {
        guard server.readDatabase != nil, let file = store.file else { return }
        throw CLIError(
            "[server] read_database names a replica of a PostgreSQL database, and the database is the SQLite file "
                + file,
            exitCode: .configurationInvalid)
    }

    /// `[server] read_database`, a streaming replica the read API reads instead of the database; nil when there is
    /// none. The replica's users are its primary's: the same `password_file` serves.
    static func replica(_ server: SyncConfiguration.Server, passwordFile: String?) throws -> SyncCache? {
        guard let replica = server.readDatabase else { return nil }
        do {
            return try SyncCache(
                readingFrom: .postgres(url: replica, passwordFile: passwordFile),
                connections: SyncCache.servingConnections)
        } catch {
            throw CLIError("[server] read_database: \(error)")
        }
    }

    /// The read API's bearer token, read once at start; one sentence naming its source when it cannot be read.
    static func readToken(_ server: SyncConfiguration.Server, environment: [String: String]) throws -> String? {
        do {
            return try server.readToken(environment: environment)
        } catch {
            throw CLIError("[server] token: \(error)", exitCode: .configurationInvalid)
        }
    }

    /// The read API's service; a `unix:` socket another process listens on stops the start with one sentence.
    static func service(
        _ server: ReadServer, listen: SyncConfiguration.Server.Listen,
        onListening: @escaping @Sendable (ReadServer.BoundAddress) async -> Void
    ) throws -> (any Service)? {
        do {
            return try server.service(listen: listen, onListening: onListening)
        } catch {
            throw CLIError("\(error)")
        }
    }

    /// A bind failure says which address, and what to do about it.
    static func describe(_ error: any Error, listen: SyncConfiguration.Server.Listen) -> String {
        let text = "\(error)"
        guard text.contains("Address already in use") || text.contains("EADDRINUSE") else { return text }
        switch listen {
        case .tcp(let host, let port):
            return "the read API cannot listen on \(host):\(port): the address is in use ([server] listen sets another)"
        case .unix(let path):
            return "the read API cannot listen on unix:\(path): the socket file exists (remove it or set another)"
        case .off:
            return text
        }
    }
}

/// The cache kept fresh on its schedule, as a service of the daemon's group, reporting each sync.
struct CacheService: Service {
    var cache: SyncCache
    var onSync: @Sendable (SyncSummary) -> Void

    func run() async throws {
        try await cache.run(onSync: onSync)
    }
}
