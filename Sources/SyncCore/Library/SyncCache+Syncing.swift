internal import ServiceLifecycle
import SyncHTTP
public import SyncPersistence
import SyncRuntime
internal import SyncSQLite
import SyncSupport
internal import Synchronization

/// Syncing: once on demand, or every endpoint on its schedule.
extension SyncCache {
    /// Syncs one endpoint now. A failure is a summary with outcome `.failed` (the stored data kept), not a thrown
    /// error; only an unknown name, or a cache opened for reading only, throws.
    public func sync(_ endpoint: String) async throws(SyncError) -> SyncSummary {
        let writer = try writable("sync")
        guard let endpoint = configuration.plan(named: endpoint) else { throw .unknownEndpoint(endpoint) }
        let engine = writer.engine
        let summary = await withTaskExecutorPreference(engine.transport.nextRunExecutor()) {
            await engine.sync(endpoint)
        }
        notifier.changed()
        return summary
    }

    /// Syncs every endpoint now, at most `concurrency` at once; the summaries come in the configuration's order.
    ///
    /// - Parameter onSync: Called as each endpoint finishes, for progress output.
    public func syncAll(onSync: @escaping @Sendable (SyncSummary) -> Void = { _ in }) async throws(SyncError)
        -> [SyncSummary]
    {
        _ = try writable("sync")
        return try await sync(configuration.plans.map(\.name.name), onSync: onSync)
    }

    /// Syncs the named endpoints now, at most `concurrency` at once; the summaries come in the order of `endpoints`.
    ///
    /// ```swift
    /// let sink = SyncProgress.Sink { print("\($0.endpoint): \($0.pages) pages") }
    /// let summaries = try await cache.sync(["repos", "issues"], progress: sink) { print($0) }
    /// ```
    ///
    /// - Parameters:
    ///   - endpoints: The names of the configured endpoints to sync.
    ///   - progress: Where each running endpoint reports how far it has come, as it goes; nil, the default, counts
    ///     nothing.
    ///   - onSync: Called as each endpoint finishes, for progress output.
    /// - Throws: ``SyncError/Code/unknownEndpoint`` for a name that is not configured, before anything is synced.
    public func sync(
        _ endpoints: [String], progress: SyncProgress.Sink? = nil,
        onSync: @escaping @Sendable (SyncSummary) -> Void = { _ in }
    ) async throws(SyncError) -> [SyncSummary] {
        let writer = try writable("sync")
        let configuration = self.configuration
        var selected: [EndpointConfiguration] = []
        for name in endpoints {
            guard let endpoint = configuration.plan(named: name) else { throw .unknownEndpoint(name) }
            selected.append(endpoint)
        }
        await writer.prepareTables(for: selected)
        var engine = writer.engine
        engine.progress = progress
        let summaries = await engine.sync(selected, concurrency: configuration.concurrency, onReport: onSync)
        notifier.changed()
        return summaries
    }

    /// Keeps every endpoint fresh (interval ± jitter, failures backing off, next due times stored so that a
    /// restart resumes) until the task is cancelled or a graceful shutdown of its `ServiceGroup` begins.
    ///
    /// - Parameter onSync: Called after each sync, once its next due time is stored.
    public func run(onSync: @escaping @Sendable (SyncSummary) -> Void) async throws {
        let writer = try writable("sync")
        let persisted = try await writer.storage.schedule(of: configuration.plans)
        await writer.prepareTables(for: configuration.plans)
        let scheduler = try live.withLock { live throws(SyncError) in
            guard live.scheduler == nil else {
                throw SyncError.alreadyRunning(
                    "\(store) is already kept fresh by this cache: run(onSync:) runs once at a time")
            }
            var engine = writer.engine
            engine.progress = writer.progress
            let scheduler = SyncScheduler(
                configuration: live.configuration, engine: engine, clock: ContinuousClock(),
                persisted: persisted,
                leasing: writer.storage.leasing(
                    node: live.configuration.cluster.nodeName,
                    lease: live.configuration.cluster.lease.scheduleSeconds),
                onReport: { [notifier, reports] report in
                    notifier.changed()
                    reports.report(report)
                    onSync(report)
                })
            live.scheduler = scheduler
            return scheduler
        }
        defer { live.withLock { $0.scheduler = nil } }
        await scheduler.run()
    }

    /// Asks the schedule ``run(onSync:)`` keeps to sync `endpoint` at once, out of its schedule, and returns without
    /// waiting: what an upstream's webhook does (`POST /v1/hooks/{name}`).
    ///
    /// Requests are coalesced: many before the run starts are one run, and many while it runs are one more run after
    /// it. An endpoint backing off after failures keeps its backoff. With other nodes sharing a PostgreSQL database,
    /// the run is claimed as every run is: one node runs it, after a run another node has under way.
    ///
    /// ```swift
    /// cache.requestSync("users")
    /// ```
    ///
    /// - Parameters:
    ///   - endpoint: The name of the configured endpoint to sync.
    ///   - parentKey: For a child endpoint (``SyncEndpoint/parent``), the parent row whose children changed, as its
    ///     `_parent` column holds it (the key's JSON: `42`, `"acme/widgets"`): the run walks the parents named
    ///     only, and the endpoint's full walk keeps its time. nil walks them all.
    /// - Returns: false when ``run(onSync:)`` is not running (nothing would run it) or no endpoint has that name.
    @discardableResult
    public func requestSync(_ endpoint: String, parentKey: String? = nil) -> Bool {
        let scheduler = live.withLock { live in
            live.configuration.plan(named: endpoint) == nil ? nil : live.scheduler
        }
        scheduler?.requestRun(endpoint, parent: parentKey)
        return scheduler != nil
    }

    /// Reads `secret` as this cache's syncs read theirs (its environment, `$CREDENTIALS_DIRECTORY`): a webhook's,
    /// each time a hook comes, so that a rotated secret needs no restart.
    package func read(_ secret: Credential.Secret) throws(ConfigurationError) -> String {
        try secret.source.resolve(environment: writer?.engine.environment ?? [:])
    }

    /// Replaces the configuration: endpoints added are synced (and scheduled, while ``run(onSync:)`` runs),
    /// endpoints removed are no longer, and changed ones take effect from their next sync. What is stored stays.
    /// A cache opened for reading only reads the new endpoints from then on.
    public func reload(_ configuration: SyncConfiguration) {
        let (scheduler, observers) = live.withLock { live in
            live.configuration = configuration
            return (live.scheduler, live.observers)
        }
        scheduler?.reload(configuration)
        for observer in observers { observer(configuration) }
    }

    /// Calls `observer` with each configuration ``reload(_:)`` applies, after the scheduler has it: how the read API
    /// serving this cache follows a SIGHUP without being told twice.
    package func observeReloads(_ observer: @escaping @Sendable (SyncConfiguration) -> Void) {
        live.withLock { $0.observers.append(observer) }
    }

    /// Returns when the running scheduler is free to answer (at once when none runs): a watchdog's proof of life.
    package func heartbeat() async {
        guard let scheduler = live.withLock({ $0.scheduler }) else { return }
        await scheduler.heartbeat()
    }

    /// How far each sync that ``run(onSync:)`` started and that has not ended has come, the earliest started first:
    /// what `syncd status`, `/v1/endpoints` and the status page show of a daemon's running syncs. Empty while
    /// nothing runs, and in a cache opened for reading only.
    public var running: [SyncProgress] { writer?.progress.running ?? [] }

    /// The configuration syncs use now (the read API's endpoints).
    package var configuration: SyncConfiguration { live.withLock { $0.configuration } }

    /// ``run(onSync:)`` without a callback: the `Service` requirement.
    public func run() async throws {
        try await run(onSync: { _ in })
    }
}
