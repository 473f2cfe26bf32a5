internal import Foundation
internal import Logging
internal import ServiceLifecycle

/// Keeps every endpoint fresh: runs ``SyncEngine`` syncs when ``ScheduleStateMachine`` says they are due, at most
/// `concurrency` at once, persisting each endpoint's next due time so that a restart resumes the schedule.
///
/// A `Service`: it runs until its task is cancelled or a graceful shutdown begins. On graceful shutdown it
/// starts nothing new and lets running syncs finish (each commits or rolls back as a whole) for up to
/// `shutdownGrace`, then cancels what is left.
package actor SyncScheduler<C: Clock>: Service where C.Duration == Swift.Duration {
    private enum Wake: Sendable {
        case finished(String, SyncSummary)
        /// A batch of next due times is stored: its reports can go out.
        case stored([SyncSummary])
        case timer
        case reload(Configuration)
        case shutdown
        case graceExpired
    }

    private let engine: SyncEngine
    private let clock: C
    private let shutdownGrace: Duration
    /// Timers fire on a grid of this many seconds, 0 at each due time: see the initializer.
    private let timerResolution: Double
    private let onReport: @Sendable (SyncSummary) -> Void
    private var machine: ScheduleStateMachine
    private var endpoints: [String: EndpointConfiguration]
    private var pendingTimer: Double?
    /// Next due times waiting to be stored, with the reports that wait for them; stored in one transaction per
    /// batch, off the loop, so that the loop never waits behind the syncs' own writes.
    private var unstored: [(name: String, nextDue: Double?, report: SyncSummary)] = []
    private var storing = false
    private let wakes: AsyncStream<Wake>
    private let wake: AsyncStream<Wake>.Continuation

    /// - Parameters:
    ///   - persisted: Each endpoint's next due time and failures, from ``SyncStorage/schedule(of:)``.
    ///   - timerResolution: Seconds: a timer waits for the next multiple of it at or after the next due time, so
    ///     that runs due close together start together, on one wake-up. With 10,000 endpoints every 10 seconds
    ///     something is due every millisecond, and a timer each time was a fifth of the daemon's thread wake-ups; the
    ///     default (10 ms) starts a run at most that much late. 0 wakes at each due time.
    ///   - onReport: Called after each sync, once its next due time is stored.
    package init(
        configuration: Configuration,
        engine: SyncEngine,
        clock: C,
        persisted: [String: ScheduleStateMachine.PersistedState] = [:],
        shutdownGrace: Duration = .seconds(10),
        timerResolution: Double = 0.01,
        onReport: @escaping @Sendable (SyncSummary) -> Void = { _ in }
    ) {
        self.engine = engine
        self.clock = clock
        self.shutdownGrace = shutdownGrace
        self.timerResolution = timerResolution
        self.onReport = onReport
        self.endpoints = Dictionary(
            configuration.endpoints.map { ($0.name.name, $0) }, uniquingKeysWith: { first, _ in first })
        self.machine = ScheduleStateMachine(
            endpoints: configuration.endpoints.map(Self.scheduled), concurrency: configuration.concurrency,
            persisted: persisted, now: engine.now())
        (wakes, wake) = AsyncStream.makeStream(of: Wake.self)
    }

    /// Applies a new configuration: added endpoints are scheduled, removed ones dropped, changed ones take effect.
    package nonisolated func reload(_ configuration: Configuration) {
        wake.yield(.reload(configuration))
    }

    package func run() async {
        await withGracefulShutdownHandler {
            await self.loop()
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
            schedule(&group)
            for await event in wakes {
                switch event {
                case .finished(let name, var report):
                    let outcome: ScheduleStateMachine.Outcome =
                        report.outcome.isFailure ? .failure(retryAfter: report.retryAfter) : .success
                    if let state = machine.finished(name, outcome: outcome, now: engine.now()) {
                        report.consecutiveFailures = state.consecutiveFailures
                        unstored.append((name, state.nextDue, report))
                        store()
                    } else {
                        onReport(report)
                    }
                case .stored(let reports):
                    storing = false
                    for report in reports { onReport(report) }
                    store()
                case .timer:
                    pendingTimer = nil
                case .reload(let configuration):
                    endpoints = Dictionary(
                        configuration.endpoints.map { ($0.name.name, $0) }, uniquingKeysWith: { first, _ in first })
                    machine.reconfigure(
                        configuration.endpoints.map(Self.scheduled), concurrency: configuration.concurrency,
                        now: engine.now())
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
    }

    /// Starts what is due and arms a timer for what is next.
    private func schedule(_ group: inout DiscardingTaskGroup) {
        while true {
            switch machine.nextAction(now: engine.now()) {
            case .run(let names):
                for name in names {
                    guard let endpoint = endpoints[name] else { continue }
                    let due = machine.state(of: name)?.nextDue
                    // On the thread where its answers arrive (see EventLoopTaskExecutor).
                    group.addTask(executorPreference: engine.transport.nextRunExecutor()) { [engine, wake] in
                        let started = engine.now()
                        var report = await engine.sync(endpoint, dueAt: due)
                        report.duration = .seconds(engine.now() - started)
                        wake.yield(.finished(name, report))
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
        let rows = batch.map { (name: $0.name, nextDue: $0.nextDue) }
        engine.storage.storeNextDue(rows) { [engine, wake] error in
            if error != nil {
                // The schedule in memory is right; a restart would only run these endpoints early.
                engine.logger.info(
                    "Could not store the next due times",
                    metadata: ["endpoints": "\(batch.map(\.name).joined(separator: ","))"])
            }
            wake.yield(.stored(batch.map(\.report)))
        }
    }

    private static func scheduled(_ endpoint: EndpointConfiguration) -> ScheduledEndpoint {
        ScheduledEndpoint(name: endpoint.name.name, interval: endpoint.interval, jitter: endpoint.jitter)
    }
}
