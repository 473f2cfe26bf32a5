package import SyncHTTP
package import SyncPersistence
import SyncSupport

/// Decides when each endpoint runs: every endpoint on its own interval with jitter, at most `concurrency` fetching at
/// once, never one endpoint twice at once, failures backing off, and a schedule that survives a restart.
///
/// The machine does no I/O and never sleeps: its owner asks ``nextAction(now:)`` what to do, starts the runs it
/// names, reports with ``fetched(_:)`` when a run's answer is in, and each end with
/// ``finished(_:outcome:freshness:now:)``
/// (and persists the state that returns), and asks again after each of those, after a configuration change, and
/// when a sleep is over:
///
/// ```swift
/// var machine = ScheduleStateMachine(endpoints: endpoints, concurrency: 4, persisted: stored, now: clock())
/// switch machine.nextAction(now: clock()) {
/// case .run(let names): start(names)                  // each: machine.fetched(name), later machine.finished(name, …)
/// case .sleep(until: let time): sleep(until: time)    // or until a run ends or SIGHUP, whichever is first
/// case .waitForFinish, .idle: waitForRunOrReload()
/// }
/// ```
///
/// Time is wall-clock seconds since 1970 (`Double`), because next-due times are persisted and must mean the same
/// after a restart; the owner passes it in, so tests drive the schedule without sleeping. Waits are measured from
/// the end of a run, so a slow run never makes the next one due at once.
///
/// Each decision costs O(log n) per endpoint started or finished: the waiting endpoints are kept in a heap, not
/// sorted on every call. ``reconfigure(_:concurrency:persisted:now:)`` costs O(n log n).
///
/// ## Topics
///
/// - ``init(endpoints:concurrency:policy:persisted:now:random:)``
/// - ``nextAction(now:)``
/// - ``fetched(_:)``
/// - ``finished(_:outcome:now:)``
/// - ``reconfigure(_:concurrency:persisted:now:)``
/// - ``state(of:)``
/// - ``running``
/// - ``storing``
/// - ``concurrency``
/// - ``policy``
/// - ``Action``
/// - ``Outcome``
/// - ``PersistedState``
package struct ScheduleStateMachine: Sendable {
    /// What the owner does next.
    package enum Action: Equatable, Sendable {
        /// Start these endpoints now, in this order (most overdue first, ties by name). Each counts as running
        /// until ``ScheduleStateMachine/finished(_:outcome:now:)`` is called for it.
        case run([String])
        /// Nothing can start before this time: ask again then, or sooner if a run ends or the configuration changes.
        case sleep(until: Double)
        /// Nothing can start until a run's answer is in or a run ends, because all `concurrency` slots are taken or
        /// every configured endpoint is running; passing time changes nothing. Ask again when a run's answer is in, a
        /// run ends or the configuration changes.
        case waitForFinish
        /// No endpoint is configured. Ask again when the configuration changes.
        case idle
    }

    /// How a run ended.
    package enum Outcome: Equatable, Sendable {
        /// The run succeeded (a 304 Not Modified included): the next poll is an interval away.
        case success
        /// The run failed; the next poll backs off. `retryAfter` is the upstream's `Retry-After` in seconds from
        /// now (see ``RetryAfter/seconds(_:now:)``), when it sent one with a 429 or a 503.
        case failure(retryAfter: Double?)
    }

    /// An endpoint's schedule as stored, so that a restart resumes it.
    package typealias PersistedState = StoredSchedule

    /// One configured endpoint's schedule.
    struct Entry {
        var endpoint: ScheduledEndpoint
        var nextDue: Double
        var consecutiveFailures: Int
        var isRunning: Bool
        /// Whether the run under way started late (past ``SchedulePolicy/latenessTolerance(for:)``) while other due
        /// endpoints waited for a slot: part of a backlog.
        var startedInBacklog = false
        /// Why ``nextDue`` is when it is (``ScheduleReason/text(held:)``); nil until a run ends, unless stored.
        var reason: String?
        /// Whether a run was asked for while this one ran (``request(_:now:followRunning:parent:)``): one more
        /// follows it at once.
        var runAgain = false
        /// The parents the one more run walks, when every request during the run named one; nil walks them all.
        var againKeys: Set<String>?
        /// A run for the parents webhooks named only, waiting or running (``Targets``).
        var targets: Targets?
    }

    /// A run of a child endpoint for the parents webhooks named: their keys, and the due time and reason of the full
    /// walk it was pulled forward from, which it keeps once it ends.
    struct Targets {
        var keys: Set<String>
        var heldDue: Double
        var heldReason: String?
    }

    /// The waits after runs.
    package let policy: SchedulePolicy
    /// The most endpoints fetching at once, at least 1; as many more may be running whose answers are in and wait to
    /// be stored (``storing``).
    package internal(set) var concurrency: Int
    /// The endpoints started and not yet finished, including any removed from the configuration while running.
    package internal(set) var running: Set<String> = []
    /// The running endpoints whose answer is in (``fetched(_:)``) and that are being stored, or wait for the database:
    /// they hold no fetching slot. At most `concurrency` of them.
    package internal(set) var storing: Set<String> = []
    /// The configured endpoints, sorted by name: an endpoint's index is its id in ``queue``.
    var entries: [Entry] = []
    var ids: [String: Int] = [:]
    /// The configured endpoints that are not running, by next due time.
    var queue = ScheduleQueue()
    var random: ScheduleRandom

    /// Creates the schedule at startup.
    ///
    /// An endpoint with a stored next due time in the future waits for it, so a restart resumes the schedule
    /// instead of polling everything at once; one with none, or one in the past, is due now, and the due ones start
    /// at most `concurrency` at a time, most overdue first. A stored time further away than the policy could ever
    /// have scheduled (the clock was wrong when it was written) is not believed: that endpoint is due now.
    ///
    /// - Parameters:
    ///   - endpoints: The configured endpoints; of two with one name, the first counts.
    ///   - concurrency: The most endpoints fetching at once; less than 1 counts as 1.
    ///   - policy: The waits after runs.
    ///   - persisted: The states stored by the previous process, by endpoint name.
    ///   - now: The current time, in seconds since 1970.
    ///   - random: The source of jitter; pass a seeded one for repeatable schedules.
    package init(
        endpoints: [ScheduledEndpoint],
        concurrency: Int,
        policy: SchedulePolicy = SchedulePolicy(),
        persisted: [String: PersistedState] = [:],
        now: Double,
        random: ScheduleRandom = ScheduleRandom()
    ) {
        self.policy = policy
        self.concurrency = max(1, concurrency)
        self.random = random
        reconfigure(endpoints, concurrency: concurrency, persisted: persisted, now: now)
    }

    /// Starts the endpoints that are due, or says how long nothing can start.
    ///
    /// Due endpoints start most overdue first, ties by name, until `concurrency` endpoints are fetching, or twice that
    /// are running in all; an endpoint already running is never started again.
    ///
    /// - Parameter now: The current time, in seconds since 1970.
    /// - Returns: ``Action/run(_:)`` with the endpoints to start now; otherwise ``Action/sleep(until:)`` with the
    ///   earliest next due time among the endpoints not running, ``Action/waitForFinish`` when only the end of a
    ///   run can let one start, or ``Action/idle`` when no endpoint is configured.
    package mutating func nextAction(now: Double) -> Action {
        guard !entries.isEmpty else { return .idle }
        var started: [String] = []
        var late: [Int] = []
        while hasSlot, let first = firstWaiting(), first.due <= now {
            _ = queue.removeFirst()
            entries[first.id].isRunning = true
            if now - first.due > policy.latenessTolerance(for: entries[first.id].endpoint) { late.append(first.id) }
            let name = entries[first.id].endpoint.name
            running.insert(name)
            started.append(name)
        }
        if !started.isEmpty {
            // Late, with due endpoints left waiting for a slot: a backlog's runs, to be spread out after.
            if let waiting = firstWaiting(), waiting.due <= now {
                for id in late { entries[id].startedInBacklog = true }
            }
            return .run(started)
        }
        guard hasSlot, let first = firstWaiting() else { return .waitForFinish }
        return .sleep(until: first.due)
    }

    /// Whether another endpoint can start: fewer than `concurrency` are fetching, and fewer than twice that are
    /// running in all.
    ///
    /// A run holds its slot until its answer is in, not until it is stored: the runs of 10,000 endpoints' first pass
    /// each waited about as long for the database as for their upstream, with the writer idle half the time and no
    /// fetch under way. Freeing the slot at the answer took their cold start from 12.7–15.3 s to 12.4–13.1 s (four
    /// each, alternating). The bound on the rest keeps what waits for the database (spooled bodies) to `concurrency`.
    private var hasSlot: Bool {
        let (twice, overflow) = concurrency.multipliedReportingOverflow(by: 2)
        return running.count - storing.count < concurrency && running.count < (overflow ? Int.max : twice)
    }

    /// Records that a running endpoint's answer is in (its body whole, or its fetch failed): its slot can fetch for
    /// another while it is stored. An endpoint not running is ignored.
    package mutating func fetched(_ name: String) {
        if running.contains(name) { storing.insert(name) }
    }

    /// Records the end of a run and schedules the endpoint's next one.
    ///
    /// A success resets the failures and waits the endpoint's interval, varied by its jitter; after a run that
    /// started late while other due endpoints waited for a slot (a backlog: a cold start's first pass, a restart
    /// after downtime), half to one and a half intervals, so that endpoints that were due together spread over the
    /// interval; for an endpoint its upstream's freshness times (``ScheduledEndpoint/freshness``), what is left of
    /// the answer's freshness, within the endpoint's bounds (``SchedulePolicy/freshDelay(for:bounds:freshness:unit:)``).
    /// A failure adds one to the failures and backs off exponentially, or waits for the upstream's `Retry-After` if
    /// that is longer (see ``SchedulePolicy`` for the numbers). The state returned says why, in its `reason`.
    ///
    /// - Parameters:
    ///   - name: The endpoint whose run ended.
    ///   - outcome: How it ended.
    ///   - freshness: What the run's answer said of its freshness, for an endpoint the upstream's freshness times.
    ///   - now: The current time, in seconds since 1970.
    /// - Returns: The endpoint's new state, to persist; `nil` when the run is ignored because the endpoint was
    ///   removed from the configuration while it ran, or was not running.
    package mutating func finished(
        _ name: String, outcome: Outcome, freshness: UpstreamFreshness? = nil, now: Double
    ) -> PersistedState? {
        storing.remove(name)
        guard running.remove(name) != nil, let id = ids[name] else { return nil }
        let endpoint = entries[id].endpoint
        let unit = Double.random(in: -1...1, using: &random)
        let wait: Double
        switch outcome {
        case .success:
            entries[id].consecutiveFailures = 0
            if let bounds = endpoint.freshnessSeconds {
                let fresh = policy.freshDelay(for: endpoint, bounds: bounds, freshness: freshness, unit: unit)
                wait = fresh.wait
                entries[id].reason = fresh.reason.text(held: fresh.held)
            } else if entries[id].startedInBacklog {
                wait = policy.spreadingDelay(for: endpoint, unit: unit)
                entries[id].reason = ScheduleReason.spread.text()
            } else {
                wait = policy.successDelay(for: endpoint, unit: unit)
                entries[id].reason = ScheduleReason.interval.text()
            }
        case .failure(let retryAfter):
            let failures = entries[id].consecutiveFailures.addingReportingOverflow(1)
            entries[id].consecutiveFailures = failures.overflow ? Int.max : failures.partialValue
            wait = policy.failureDelay(
                for: endpoint, failures: entries[id].consecutiveFailures, retryAfter: retryAfter, unit: unit)
            let asked = retryAfter.map { min(max(0, $0), policy.maximumRetryAfter.scheduleSeconds) >= wait } ?? false
            entries[id].reason =
                (asked ? ScheduleReason.retryAfter : .backoff(failures: entries[id].consecutiveFailures)).text()
        }
        entries[id].nextDue = now + wait
        let ran = entries[id].targets
        entries[id].targets = nil
        if case .success = outcome { settleRequests(id, ran: ran, now: now) }
        entries[id].runAgain = false
        entries[id].againKeys = nil
        entries[id].isRunning = false
        entries[id].startedInBacklog = false
        queue.insert(ScheduleQueue.Item(due: entries[id].nextDue, id: id))
        return state(of: name)
    }

    /// An endpoint's current schedule, for status output and metrics.
    ///
    /// While an endpoint runs, its next due time is the one it was started for.
    ///
    /// - Parameter name: A configured endpoint's name.
    /// - Returns: Its next due time and consecutive failures, or `nil` if no endpoint of that name is configured.
    package func state(of name: String) -> PersistedState? {
        guard let id = ids[name] else { return nil }
        return PersistedState(
            nextDue: entries[id].nextDue, consecutiveFailures: entries[id].consecutiveFailures,
            reason: entries[id].reason)
    }
}
