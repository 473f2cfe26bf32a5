internal import FoundationEssentials
internal import Logging
internal import ServiceLifecycle
import SyncHTTP
package import SyncModel
package import SyncPersistence
internal import SyncSQLite
import SyncSupport

/// Keeps every endpoint fresh: runs ``SyncEngine`` syncs when ``ScheduleStateMachine`` says they are due, at most
/// `concurrency` fetching at once (and as many more whose answers wait to be stored), persisting each endpoint's next
/// due time so that a restart resumes the schedule.
///
/// A `Service`: it runs until its task is cancelled or a graceful shutdown begins. On graceful shutdown it
/// starts nothing new and lets running syncs finish (each commits or rolls back as a whole) for up to
/// `stop_grace` (10 s unless configured), then cancels what is left.
package actor SyncScheduler<C: Clock>: Service where C.Duration == Swift.Duration {
    private enum Wake: Sendable {
        case finished(String, SyncSummary)
        /// A run's answer is in: its slot can fetch for another endpoint while it is stored.
        case fetched(String)
        /// A batch of next due times is stored: its reports can go out.
        case stored([SyncSummary])
        case timer
        /// A claim on endpoints the schedule started came back (see ``EndpointLeasing``).
        case claimed([String], LeaseClaims)
        case claimFailed([String], String)
        /// Time to renew the claims of the running syncs.
        case renew
        case reload(SyncConfiguration)
        /// A run asked for out of schedule (``requestRun(_:parent:followRunning:answer:)``).
        case requested(String, parent: String?, followRunning: Bool, answer: @Sendable (Bool) -> Void)
        case shutdown
        case graceExpired
    }

    private let engine: SyncEngine
    private let clock: C
    /// How long the syncs in flight at a shutdown may go on (`stop_grace`): the latest configuration's.
    private var shutdownGrace: Duration
    /// Timers fire on a grid of this many seconds, 0 at each due time: see the initializer.
    private let timerResolution: Double
    private let onReport: @Sendable (SyncSummary) -> Void
    /// The claims shared with other nodes; nil when this process owns the storage.
    private let leasing: (any EndpointLeasing)?
    /// Whether the last claim failed: said once, not at every retry.
    private var claimsFailing = false
    private var machine: ScheduleStateMachine
    private var endpoints: [String: EndpointConfiguration]
    private var pendingTimer: Double?
    /// Next due times waiting to be stored, with the reports that wait for them; stored in one transaction per
    /// batch, off the loop, so that the loop never waits behind the syncs' own writes.
    private var unstored: [(next: NextDue, report: SyncSummary)] = []
    /// The endpoints timed by their upstream's freshness whose answer said `no-store`, said once each in the log.
    private var toldNoStore: Set<String> = []
    private var storing = false
    /// The endpoints a webhook asked to run that have not started since: their claims override the shared schedule.
    private var requested: Set<String> = []
    private let wakes: AsyncStream<Wake>
    private let wake: AsyncStream<Wake>.Continuation

    /// - Parameters:
    ///   - persisted: Each endpoint's next due time and failures, from ``SyncStorage/schedule(of:)``.
    ///   - timerResolution: Seconds: a timer waits for the next multiple of it at or after the next due time, so
    ///     that runs due close together start together, on one wake-up. With 10,000 endpoints every 10 seconds
    ///     something is due every millisecond, and a timer each time was a fifth of the daemon's thread wake-ups; the
    ///     default (10 ms) starts a run at most that much late. 0 wakes at each due time.
    ///   - leasing: Claims shared with the other nodes of the storage: each endpoint the schedule starts is claimed
    ///     first, and runs only if the claim is had (``SyncStorage/leasing(node:lease:)``).
    ///   - onReport: Called after each sync, once its next due time is stored.
    package init(
        configuration: SyncConfiguration,
        engine: SyncEngine,
        clock: C,
        persisted: [String: ScheduleStateMachine.PersistedState] = [:],
        timerResolution: Double = 0.01,
        leasing: (any EndpointLeasing)? = nil,
        onReport: @escaping @Sendable (SyncSummary) -> Void = { _ in }
    ) {
        self.engine = engine
        self.clock = clock
        self.shutdownGrace = configuration.stopGrace
        self.timerResolution = timerResolution
        self.onReport = onReport
        self.leasing = leasing
        self.endpoints = Dictionary(
            configuration.plans.map { ($0.name.name, $0) }, uniquingKeysWith: { first, _ in first })
        self.machine = ScheduleStateMachine(
            endpoints: configuration.plans.map(Self.scheduled), concurrency: configuration.concurrency,
            persisted: persisted, now: engine.now())
        (wakes, wake) = AsyncStream.makeStream(of: Wake.self)
    }

    /// Applies a new configuration: added endpoints are scheduled, removed ones dropped, changed ones take effect.
    package nonisolated func reload(_ configuration: SyncConfiguration) {
        wake.yield(.reload(configuration))
    }

    /// Asks for a run of `name` at once, out of its schedule, coalesced with the others asked for
    /// (``ScheduleStateMachine/request(_:now:followRunning:parent:)``); with other nodes, through the claim as every
    /// run.
    ///
    /// - Parameters:
    ///   - parent: For a child endpoint, the parent row (by key) whose children changed: the run walks the parents
    ///     named only.
    ///   - answer: Called with whether a run is coming (false: not configured, or backing off).
    package nonisolated func requestRun(
        _ name: String, parent: String? = nil, followRunning: Bool = true,
        answer: @escaping @Sendable (Bool) -> Void = { _ in }
    ) {
        let result = wake.yield(.requested(name, parent: parent, followRunning: followRunning, answer: answer))
        // After the scheduler ended, nothing would answer.
        if case .terminated = result { answer(false) }
    }

    package func run() async {
        await withGracefulShutdownHandler {
            // On one of the event loops where the runs' answers arrive, as the runs themselves: a run that ends there
            // wakes the scheduler in that thread's own queue, where on Swift's pool each end woke a pool thread, and
            // each start woke the loop back (see EventLoopTaskExecutor).
            await withTaskExecutorPreference(engine.transport.nextRunExecutor()) {
                await self.loop()
            }
        } onGracefulShutdown: {
            self.wake.yield(.shutdown)
        }
    }

    /// Returns when the scheduler's actor is free to answer: the watchdog's proof of life.
    package func heartbeat() {}

    private func loop() async {
        // Discarding: finished syncs and timers must not pile up as results nobody awaits.
        await withDiscardingTaskGroup { group in
            var stopping = false
            if let leasing { renewEvery(leasing.lease / 3, &group) }
            schedule(&group)
            for await event in wakes {
                switch event {
                case .finished(let name, var report):
                    let outcome: ScheduleStateMachine.Outcome =
                        report.outcome.isFailure ? .failure(retryAfter: report.retryAfter) : .success
                    // Read by the engine only for an endpoint its upstream's freshness times.
                    let freshness = report.upstreamFreshness
                    if freshness?.noStore == true, toldNoStore.insert(name).inserted {
                        engine.logger.warning(
                            "The upstream says no-store; syncd keeps its answers all the same",
                            metadata: [LogKey.endpointName: "\(name)"])
                    }
                    if let state = machine.finished(name, outcome: outcome, freshness: freshness, now: engine.now()) {
                        report.consecutiveFailures = state.consecutiveFailures
                        unstored.append((NextDue(name: name, due: state.nextDue, reason: state.reason), report))
                        store()
                    } else {
                        onReport(report)
                    }
                case .fetched(let name):
                    machine.fetched(name)
                case .stored(let reports):
                    storing = false
                    for report in reports { onReport(report) }
                    store()
                case .timer:
                    pendingTimer = nil
                case .claimed(let names, let claims):
                    claimsFailing = false
                    let now = engine.now()
                    for name in names {
                        if !stopping, let failures = claims.claimed[name] {
                            requested.remove(name)
                            machine.adoptFailures(name, failures)
                            start(name, &group)
                        } else {
                            // Stopping, a claim had is handed back with the others when the loop ends.
                            machine.postpone(name, until: retryTime(for: name, claims.refused[name], now: now))
                        }
                    }
                case .claimFailed(let names, let message):
                    if !claimsFailing {
                        engine.logger.warning(
                            "Could not claim endpoints; retrying", metadata: ["error": "\(message)"])
                    }
                    claimsFailing = true
                    let now = engine.now()
                    for name in names {
                        machine.postpone(name, until: now + min(machine.interval(of: name) ?? 5, 5))
                    }
                case .renew:
                    if let leasing {
                        // The running syncs, and those whose next due time (which hands the claim back) waits to
                        // be stored; a claim handed back meanwhile is not taken again.
                        let held = Array(machine.running) + unstored.map(\.next.name)
                        group.addTask { [engine] in
                            do {
                                try await leasing.renew(held)
                            } catch {
                                engine.logger.warning("Could not renew claims", metadata: ["error": "\(error)"])
                            }
                        }
                    }
                case .reload(let configuration):
                    shutdownGrace = configuration.stopGrace
                    endpoints = Dictionary(
                        configuration.plans.map { ($0.name.name, $0) }, uniquingKeysWith: { first, _ in first })
                    machine.reconfigure(
                        configuration.plans.map(Self.scheduled), concurrency: configuration.concurrency,
                        now: engine.now())
                case .requested(let name, let parent, let followRunning, let answer):
                    // Stopping, nothing new starts: the asker hears so at once.
                    let coming =
                        !stopping
                        && machine.request(name, now: engine.now(), followRunning: followRunning, parent: parent)
                    if coming { requested.insert(name) }
                    answer(coming)
                case .shutdown:
                    stopping = true
                    let deadline = clock.now.advanced(by: shutdownGrace)
                    group.addTask { [clock, wake] in
                        try? await clock.sleep(until: deadline, tolerance: nil)
                        wake.yield(.graceExpired)
                    }
                case .graceExpired:
                    group.cancelAll()
                }
                if stopping {
                    if machine.running.isEmpty, !storing, unstored.isEmpty { break }
                    continue
                }
                schedule(&group)
            }
            // Timers (and, after the grace period or a cancellation, syncs) must not outlive the scheduler.
            group.cancelAll()
        }
        // Runs asked for after the loop ended are not coming: their askers hear so rather than wait.
        wake.finish()
        for await event in wakes {
            if case .requested(_, _, _, let answer) = event { answer(false) }
        }
        // What this node still holds, the others may take at once.
        if let leasing {
            do {
                try await leasing.releaseAll()
            } catch {
                engine.logger.warning("Could not hand back claims", metadata: ["error": "\(error)"])
            }
        }
    }

    /// Claims `names` before they start; the answer wakes the loop.
    private func claim(_ names: [String], _ leasing: any EndpointLeasing, _ group: inout DiscardingTaskGroup) {
        let requested = self.requested
        group.addTask { [engine, wake] in
            do {
                wake.yield(.claimed(names, try await leasing.claim(names, now: engine.now(), requested: requested)))
            } catch {
                wake.yield(.claimFailed(names, "\(error)"))
            }
        }
    }

    /// When to try again an endpoint this node could not claim: when its holder's lease runs out (sooner, an interval
    /// from now, to see whether the holder has handed it back with a time that comes first), when it is next due,
    /// or, when another node was claiming it that moment, in a second.
    private func retryTime(for name: String, _ refusal: LeaseClaims.Refusal?, now: Double) -> Double {
        let interval = machine.interval(of: name) ?? 1
        switch refusal {
        case .held(let seconds): return now + min(seconds + 0.05, max(interval, 0.1))
        case .notDue(let due): return due
        case .contended, nil: return now + min(1, max(interval, 0.1))
        }
    }

    /// Wakes the loop every `seconds` to renew the running syncs' claims.
    private func renewEvery(_ seconds: Double, _ group: inout DiscardingTaskGroup) {
        group.addTask { [clock, wake] in
            while !Task.isCancelled {
                do {
                    try await clock.sleep(for: .nanoseconds(clampingSeconds: seconds), tolerance: nil)
                } catch {
                    return
                }
                wake.yield(.renew)
            }
        }
    }

    /// Starts what is due and arms a timer for what is next.
    private func schedule(_ group: inout DiscardingTaskGroup) {
        while true {
            switch machine.nextAction(now: engine.now()) {
            case .run(let names):
                if let leasing {
                    claim(names, leasing, &group)
                } else {
                    for name in names {
                        requested.remove(name)
                        start(name, &group)
                    }
                }
                continue
            case .sleep(let due):
                let until = timerDeadline(due)
                // One timer is enough: an earlier one wakes the loop, which then re-decides.
                if let pendingTimer, pendingTimer <= until { return }
                pendingTimer = until
                // The deadline is fixed now, not when the child task first runs: time may move in between.
                let delay = max(0, until - engine.now())
                let deadline = clock.now.advanced(by: .nanoseconds(clampingSeconds: delay))
                group.addTask { [clock, wake] in
                    try? await clock.sleep(until: deadline, tolerance: nil)
                    wake.yield(.timer)
                }
                return
            case .waitForFinish, .idle:
                return
            }
        }
    }

    /// Starts a sync of `name`, which the machine counts as running.
    private func start(_ name: String, _ group: inout DiscardingTaskGroup) {
        guard let endpoint = endpoints[name] else {
            // Removed by a reload while its claim was out: no longer running, and its claim runs out.
            _ = machine.postpone(name, until: engine.now())
            return
        }
        let due = machine.state(of: name)?.nextDue
        let parents = machine.parents(of: name)
        // On the thread where its answers arrive (see EventLoopTaskExecutor).
        let claim = leasing?.holder
        group.addTask(executorPreference: engine.transport.nextRunExecutor()) { [engine, wake] in
            let started = engine.now()
            var report = await engine.sync(endpoint, dueAt: due, claim: claim, parents: parents) {
                wake.yield(.fetched(name))
            }
            report.duration = .seconds(engine.now() - started)
            wake.yield(.finished(name, report))
        }
    }

    /// The first point of the timer grid at or after `due`, never before it: a timer that fired early would find
    /// nothing due and set itself again for the same instant.
    private func timerDeadline(_ due: Double) -> Double {
        guard timerResolution > 0 else { return due }
        let grid = (due / timerResolution).rounded(.up) * timerResolution
        return grid.isFinite ? max(due, grid) : due
    }

    /// Stores the waiting next due times in one transaction, unless a batch is being stored already (its end
    /// starts the next one). Under load this turns a write per sync into a write per batch. The loop waits at most for
    /// a write the storage can do at once (never behind the syncs' own): it says when the batch is stored with a
    /// ``Wake/stored(_:)``, which the loop handles next.
    private func store() {
        guard !storing, !unstored.isEmpty else { return }
        storing = true
        let batch = unstored
        unstored = []
        let rows = batch.map(\.next)
        let completion: @Sendable ((any Error)?) -> Void = { [engine, wake] error in
            if error != nil {
                // The schedule in memory is right; a restart would only run these endpoints early.
                engine.logger.info(
                    "Could not store the next due times",
                    metadata: ["endpoints": "\(batch.map(\.next.name).joined(separator: ","))"])
            }
            wake.yield(.stored(batch.map(\.report)))
        }
        // With other nodes, storing the next due time hands the claim back, in one transaction.
        if let leasing {
            leasing.finish(rows, completion: completion)
        } else {
            engine.storage.storeNextDue(rows, completion: completion)
        }
    }

    private static func scheduled(_ endpoint: EndpointConfiguration) -> ScheduledEndpoint {
        ScheduledEndpoint(
            name: endpoint.name.name, interval: endpoint.interval, jitter: endpoint.jitter,
            // The configuration's rules keep the longest from being shorter than the shortest; the range never traps.
            freshness: endpoint.declared.freshnessBounds.map {
                min($0.minimum, $0.maximum)...max($0.minimum, $0.maximum)
            })
    }
}
