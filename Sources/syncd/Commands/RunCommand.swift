import ArgumentParser
import Foundation
import Logging
import Prometheus
import ServiceLifecycle
import SyncCore
import SyncServe
import UnixSignals

struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run the daemon: keep every endpoint fresh until stopped.",
        discussion: """
            Each endpoint is synced when due (interval ± jitter, at most `concurrency` at once, failures backing off); \
            the schedule survives restarts. SIGHUP reloads the configuration (an invalid one is refused and the old \
            one kept); SIGTERM or SIGINT stops scheduling, lets running syncs commit or roll back, and exits 0. \
            Under systemd (Type=notify) it reports READY, STATUS, RELOADING, STOPPING and WATCHDOG; logs go to \
            stderr, with priorities when that is the journal. SYNCD_LOG_LEVEL sets the level (default info). \
            The read API listens where [server] listen says (default 127.0.0.1:8787; "off" disables it) and serves \
            /v1/endpoints, records with PostgREST filters, changes, documents, /rest/{name}, /healthz and /metrics.
            """
    )

    @OptionGroup var options: GlobalOptions

    func run() async throws {
        try await reportingErrors {
            let environment = ProcessInfo.processInfo.environment
            let level = environment["SYNCD_LOG_LEVEL"].flatMap(Logger.Level.init(rawValue:)) ?? .info
            JournalLogHandler.bootstrap(level: level, environment: environment)
            let logger = Logger(label: "syncd")
            let notifier = SystemdNotifier(environment: environment)

            let configuration = try options.loadConfiguration()
            let databasePath = options.databasePath(configuration)
            let database = try DatabaseAccess.openForWriting(databasePath)
            let persisted = try database.performBlocking { try SyncScheduler<ContinuousClock>.loadPersistedState($0) }
            let readToken = try Self.readToken(configuration.server, environment: environment)
            let registry = PrometheusCollectorRegistry()
            let metrics = SyncMetrics(factory: PrometheusMetricsFactory(registry: registry))
            let transport = HTTPTransport()
            let engine = SyncEngine(
                database: database, transport: SchemeTransport(http: transport), environment: environment,
                logger: logger, now: { Date().timeIntervalSince1970 })
            let scheduler = SyncScheduler(
                configuration: configuration, engine: engine, clock: ContinuousClock(), persisted: persisted,
                onReport: { report in
                    metrics.record(report)
                    DaemonReports.log(report, logger: logger, notifier: notifier)
                })
            let model = ReadModel(
                pool: try ReadConnectionPool(path: databasePath), configuration: configuration,
                now: { Date().timeIntervalSince1970 })
            let readyStatus = "syncing \(configuration.endpoints.count) endpoints"
            var services: [any Service] = [
                scheduler,
                ReloadService(
                    options: options, scheduler: scheduler, model: model, running: configuration.server,
                    notifier: notifier, logger: logger),
            ]
            let server = ReadServer(model: model, registry: registry, token: readToken, logger: logger)
            let api = server.service(listen: configuration.server.listen) { address in
                logger.info("Serving the read API", metadata: ["address": "\(address)"])
                notifier.ready(status: "\(readyStatus); read API on \(address)")
            }
            if let api { services.append(api) }
            if let interval = notifier.watchdogInterval {
                services.append(WatchdogService(interval: interval, scheduler: scheduler, notifier: notifier))
            }
            let group = ServiceGroup(
                configuration: ServiceGroupConfiguration(
                    services: services, gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
            logger.info(
                "Started",
                metadata: ["endpoints": "\(configuration.endpoints.count)", "config": "\(options.configPath)"])
            // With a read API, READY=1 waits until it listens; without one, the migrated database is enough.
            if api == nil { notifier.ready(status: "\(readyStatus); read API off") }
            do {
                try await group.run()
            } catch {
                try? await transport.shutdown()  // best effort: the group's error is the one to report
                throw CLIError("the daemon stopped: \(error)")
            }
            try await transport.shutdown()
            logger.info("Stopped")
        }
    }

    /// The read API's bearer token, read once at start; one sentence naming its source when it cannot be read.
    static func readToken(_ server: ServerConfiguration, environment: [String: String]) throws -> String? {
        guard let source = server.tokenSource else { return nil }
        do {
            return try source.resolve(environment: environment)
        } catch {
            throw CLIError("[server] token: \(error)", exitCode: .configurationInvalid)
        }
    }
}
