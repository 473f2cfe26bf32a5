import Logging
import ServiceLifecycle
import SyncCore
import SyncServe
import SyncSystemd
import UnixSignals

/// SIGHUP reloads the configuration: a valid one reaches the cache's scheduler and the read API, an invalid one is refused with one
/// sentence and the running configuration stays. Also says STOPPING=1 as soon as a graceful shutdown begins.
struct ReloadService: Service {
    var options: GlobalOptions
    var cache: SyncCache
    var model: ReadModel
    /// The `[server]` the read API started with: where it listens and its token change only on a restart.
    var running: ServerConfiguration
    /// The `[cluster]` the scheduler started with: its node name and lease change only on a restart.
    var cluster: ClusterConfiguration
    var notifier: SystemdNotifier
    var logger: Logger

    func run() async throws {
        let signals = await UnixSignalsSequence(trapping: .sighup)
        await withGracefulShutdownHandler {
            for await _ in signals.cancelOnGracefulShutdown() {
                notifier.reloading()
                do {
                    let configuration = try options.loadConfiguration()
                    try cache.reload(SyncConfiguration(configuration))
                    model.reload(configuration)
                    if configuration.server != running {
                        logger.warning("The [server] section changed: restart syncd for it to take effect")
                    }
                    if configuration.cluster != cluster {
                        logger.warning("The [cluster] section changed: restart syncd for it to take effect")
                    }
                    logger.info(
                        "Reloaded the configuration", metadata: ["endpoints": "\(configuration.endpoints.count)"])
                    notifier.ready(status: "reloaded: syncing \(configuration.endpoints.count) endpoints")
                } catch {
                    logger.error(
                        "Kept the running configuration: the new one is invalid", metadata: ["error": "\(error)"])
                    notifier.ready(status: "configuration not reloaded: \(error)")
                }
            }
        } onGracefulShutdown: {
            notifier.stopping()
        }
    }
}

/// WATCHDOG=1 at half of WatchdogSec, only while the scheduler answers: a stuck scheduler gets the service restarted.
struct WatchdogService: Service {
    var interval: Duration
    var cache: SyncCache
    var notifier: SystemdNotifier

    func run() async throws {
        while !Task.isCancelled, !Task.isShuttingDownGracefully {
            await cache.heartbeat()
            notifier.watchdog()
            try? await Task.sleep(for: interval)
        }
    }
}

/// How the daemon reports each sync: a log line, and systemd's STATUS.
enum DaemonReports {
    /// Builds the line and the metadata only for a reader: at the `warning` level, with no systemd to tell, building
    /// them for each run that went well was a tenth of what the scheduler spent on a 304.
    static func log(_ report: SyncSummary, logger: Logger, notifier: SystemdNotifier) {
        if report.outcome.isFailure || logger.logLevel <= .info {
            var metadata: Logger.Metadata = [
                "endpoint.name": "\(report.endpoint)", "sync.outcome": "\(report.outcome.rawValue)",
            ]
            if let status = report.httpStatus { metadata["http.status"] = "\(status)" }
            if report.outcome.isFailure {
                metadata["error"] = "\(report.error ?? "")"
                logger.warning("Sync failed", metadata: metadata)
            } else {
                metadata["sync.version"] = "\(report.version)"
                logger.info("Synced", metadata: metadata)
            }
        }
        if notifier.isActive {
            notifier.status(ReportText.line(report).split(separator: "\n").first.map(String.init) ?? report.endpoint)
        }
    }
}
