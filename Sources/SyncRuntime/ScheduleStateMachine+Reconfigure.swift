import SyncPersistence

extension ScheduleStateMachine {
    /// Applies a new configuration (SIGHUP), keeping what still holds of the schedule.
    ///
    /// - An added endpoint is due now, or at its time in `persisted` when that holds one (as at startup).
    /// - A removed endpoint is dropped. If it is running, it keeps its slot until it ends, and its
    ///   ``finished(_:outcome:now:)`` is then ignored; added back before that, it is running again and its end
    ///   counts.
    /// - An unchanged endpoint keeps its next due time and its failures.
    /// - A changed endpoint keeps its failures, and its new interval and jitter apply from its next due time on. If
    ///   that time is now later than `now` plus the new interval (the interval shrank), it is brought forward to
    ///   at most `now` plus one new jittered interval. An endpoint that is failing is not brought forward: its wait
    ///   is a backoff or an upstream's `Retry-After`, which a shorter interval does not cancel.
    /// - A new `concurrency` applies to the next ``nextAction(now:)``; runs already started above it finish.
    ///
    /// - Parameters:
    ///   - endpoints: The configured endpoints; of two with one name, the first counts.
    ///   - concurrency: The most endpoints fetching at once; less than 1 counts as 1.
    ///   - persisted: Stored states for endpoints this machine does not know yet, by name; the states of endpoints
    ///     it knows are newer in memory and are kept.
    ///   - now: The current time, in seconds since 1970.
    package mutating func reconfigure(
        _ endpoints: [ScheduledEndpoint],
        concurrency: Int,
        persisted: [String: PersistedState] = [:],
        now: Double
    ) {
        self.concurrency = max(1, concurrency)
        var updated: [Entry] = []
        updated.reserveCapacity(endpoints.count)
        var seen = Set<String>(minimumCapacity: endpoints.count)
        for endpoint in endpoints where seen.insert(endpoint.name).inserted {
            if let id = ids[endpoint.name] {
                updated.append(changing(entries[id], to: endpoint, now: now))
            } else {
                updated.append(adding(endpoint, persisted: persisted[endpoint.name], now: now))
            }
        }
        updated.sort { $0.endpoint.name < $1.endpoint.name }
        entries = updated
        ids = [:]
        ids.reserveCapacity(updated.count)
        var waiting: [ScheduleQueue.Item] = []
        waiting.reserveCapacity(updated.count)
        for (id, entry) in updated.enumerated() {
            ids[entry.endpoint.name] = id
            if !entry.isRunning {
                waiting.append(ScheduleQueue.Item(due: entry.nextDue, id: id))
            }
        }
        queue = ScheduleQueue(waiting)
    }

    private mutating func changing(_ entry: Entry, to endpoint: ScheduledEndpoint, now: Double) -> Entry {
        var entry = entry
        let changed = entry.endpoint != endpoint
        entry.endpoint = endpoint
        if changed, !entry.isRunning, entry.consecutiveFailures == 0,
            entry.nextDue > now + endpoint.longestSuccessSeconds
        {
            let unit = Double.random(in: -1...1, using: &random)
            let wait = endpoint.freshnessSeconds?.upperBound ?? policy.successDelay(for: endpoint, unit: unit)
            entry.nextDue = min(entry.nextDue, now + wait)
        }
        return entry
    }

    private func adding(_ endpoint: ScheduledEndpoint, persisted: PersistedState?, now: Double) -> Entry {
        var nextDue = now
        if let stored = persisted?.nextDue, stored.isFinite, stored <= now + policy.longestWait(for: endpoint) {
            nextDue = stored
        }
        return Entry(
            endpoint: endpoint,
            nextDue: nextDue,
            consecutiveFailures: max(0, persisted?.consecutiveFailures ?? 0),
            isRunning: running.contains(endpoint.name),
            reason: nextDue == now ? nil : persisted?.reason
        )
    }
}
