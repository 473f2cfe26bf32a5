import ArgumentParser
import Foundation
import Logging
import ServiceLifecycle
import SyncCore
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
            stderr, with priorities when that is the journal. SYNCD_LOG_LEVEL sets the level (default info).
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
            let database = try DatabaseAccess.openForWriting(options.databasePath(configuration))
            let persisted = try database.performBlocking { try SyncScheduler<ContinuousClock>.loadPersistedState($0) }
            let transport = HTTPTransport()
            let engine = SyncEngine(
                database: database, transport: SchemeTransport(http: transport), environment: environment,
                logger: logger, now: { Date().timeIntervalSince1970 })
            let scheduler = SyncScheduler(
                configuration: configuration, engine: engine, clock: ContinuousClock(), persisted: persisted,
                onReport: { report in DaemonReports.log(report, logger: logger, notifier: notifier) })
            var services: [any Service] = [
                scheduler,
                ReloadService(options: options, scheduler: scheduler, notifier: notifier, logger: logger),
            ]
            if let interval = notifier.watchdogInterval {
                services.append(WatchdogService(interval: interval, scheduler: scheduler, notifier: notifier))
            }
            let group = ServiceGroup(
                configuration: ServiceGroupConfiguration(
                    services: services, gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
            logger.info(
                "Started",
                metadata: ["endpoints": "\(configuration.endpoints.count)", "config": "\(options.configPath)"])
            notifier.ready(status: "syncing \(configuration.endpoints.count) endpoints")
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
}
