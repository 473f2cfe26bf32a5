import FoundationEssentials
import Logging
import ServiceLifecycle
import SyncCore
import SyncSupport

/// Publishes the daemon's running syncs (``SyncCache/running``) for `syncd status` in ``RunningSyncsFile``: once
/// every `interval` while a sync runs, never inside a sync's transaction; the file goes when no sync runs, and when
/// the daemon stops.
struct RunningSyncsService: Service {
    var cache: SyncCache
    var file: RunningSyncsFile
    var interval: Duration = .seconds(1)
    var logger: Logger

    func run() async throws {
        var published = false
        defer { if published { file.remove() } }
        while !Task.isCancelled, !Task.isShuttingDownGracefully {
            do {
                try await cancelWhenGracefulShutdown { try await Task.sleep(for: interval) }
            } catch {
                return
            }
            let running = cache.running
            if running.isEmpty {
                if published { file.remove() }
                published = false
                continue
            }
            do {
                try file.write(running, now: Date().timeIntervalSince1970)
                published = true
            } catch {
                // `syncd status` then shows no running syncs; the syncs themselves go on.
                logger.debug("Could not publish the running syncs", metadata: [LogKey.error: "\(error)"])
            }
        }
    }
}
