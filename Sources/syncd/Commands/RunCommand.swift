import ArgumentParser
import FoundationEssentials
import Logging
import SyncCore
import SyncSystemd

struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run the daemon: keep every endpoint fresh until stopped.",
        discussion: """
            Each endpoint is synced when due (interval ± jitter, at most `concurrency` at once, failures backing off); \
            the schedule survives restarts. SIGHUP reloads the configuration (an invalid one is refused and the old \
            one kept); SIGTERM or SIGINT stops scheduling, lets running syncs commit or roll back, and exits 0. \
            Under systemd (Type=notify) it reports READY, STATUS, RELOADING, STOPPING and WATCHDOG; logs go to \
            stderr, with priorities when that is the journal. SYNCD_LOG_LEVEL sets the level: trace, debug, info (the default), notice, \
            warning, error or critical. \
            The read API listens where [server] listen says (default 127.0.0.1:8787; "off" disables it) and serves \
            /v1/endpoints, records with PostgREST filters, changes, documents, /rest/{name}, /healthz and /metrics.
            """
    )

    @OptionGroup var options: GlobalOptions

    func run() async throws {
        try await reportingErrors {
            let environment = ProcessInfo.processInfo.environment
            let setting = LogLevelSetting(environment: environment, default: .info)
            JournalLogHandler.bootstrap(level: setting.level, environment: environment)
            let logger = Logger(label: "syncd")
            setting.warnIfRejected(logger)
            let notifier = SystemdNotifier(environment: environment)

            let configuration = try options.loadConfiguration()
            let daemon = Daemon(
                options: options, configuration: configuration, environment: environment, logger: logger,
                notifier: notifier)
            try await daemon.run()
        }
    }
}
