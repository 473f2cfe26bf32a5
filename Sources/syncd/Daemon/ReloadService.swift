import Logging
import ServiceLifecycle
import SyncCore
import SyncServe
import SyncSystemd
import UnixSignals

/// SIGHUP reloads the configuration: a valid one reaches the cache's scheduler and the read API, an invalid one is
/// refused with one sentence and the running configuration stays. Also says STOPPING=1 as soon as a graceful shutdown
/// begins.
///
/// What a reload applies: the endpoints, `[defaults]`, their secrets (read again from their files, variables and
/// credentials), and the read API's token, read again from its file or credential, so that a rotated token is the
/// only one accepted from then on. What needs a restart, and is named in a warning when it changed: `[server]`'s
/// `listen`, `allow_remote`, `max_rows`, `max_connections`, `max_streams`, `read_database`, turning the token on or
/// off, and `[cluster]`.
struct ReloadService: Service {
    var options: GlobalOptions
    var cache: SyncCache
    /// The read API's token, replaced by each reload; nil when the API runs without one (or is off).
    var token: ReadToken?
    /// The `[server]` the read API started with.
    var running: SyncConfiguration.Server
    /// The `[cluster]` the scheduler started with: its node name and lease change only on a restart.
    var cluster: SyncConfiguration.Cluster
    var environment: [String: String]
    var notifier: SystemdNotifier
    var logger: Logger

    func run() async throws {
        let signals = await UnixSignalsSequence(trapping: .sighup)
        await withGracefulShutdownHandler {
            for await _ in signals.cancelOnGracefulShutdown() {
                notifier.reloading()
                do {
                    let configuration = try options.loadConfiguration()
                    // Read before anything is applied: a token that cannot be read refuses the whole reload.
                    let newToken = try token.flatMap { _ in
                        try Daemon.readToken(configuration.server, environment: environment)
                    }
                    // The read API follows: it serves the cache's endpoints.
                    cache.reload(configuration)
                    if let token, let newToken { token.replace(with: newToken) }
                    let restart = Self.keysNeedingRestart(running: running, new: configuration.server)
                    if !restart.isEmpty {
                        logger.warning(
                            "Kept the running [server] settings: they change only on a restart",
                            metadata: ["keys": "\(restart.joined(separator: ", "))"])
                    }
                    if configuration.cluster != cluster {
                        logger.warning("The [cluster] section changed: restart syncd for it to take effect")
                    }
                    logger.info(
                        "Reloaded the configuration", metadata: ["endpoints": "\(configuration.endpoints.count)"])
                    let pending =
                        restart.isEmpty ? "" : "; restart to apply [server] " + restart.joined(separator: ", ")
                    notifier.ready(status: "reloaded: syncing \(configuration.endpoints.count) endpoints\(pending)")
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

    /// The `[server]` keys whose new values a reload cannot apply, as the configuration spells them. A token's new
    /// value applies; a token where there was none, or none where there was one, does not (the Host check of a
    /// token-less listen is set up when the API starts).
    static func keysNeedingRestart(running: SyncConfiguration.Server, new: SyncConfiguration.Server) -> [String] {
        var keys: [String] = []
        if new.listen != running.listen { keys.append("listen") }
        if (new.tokenSource == nil) != (running.tokenSource == nil) {
            keys.append(new.tokenFile != nil || running.tokenFile != nil ? "token_file" : "token_credential")
        }
        if new.allowRemote != running.allowRemote { keys.append("allow_remote") }
        if new.maxRows != running.maxRows { keys.append("max_rows") }
        if new.maxConnections != running.maxConnections { keys.append("max_connections") }
        if new.maxStreams != running.maxStreams { keys.append("max_streams") }
        if new.readDatabase != running.readDatabase { keys.append("read_database") }
        return keys
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
