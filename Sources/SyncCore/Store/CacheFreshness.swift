import SyncSupport

/// Whether an endpoint's cached data is fresh, and for how long: the semantics behind the read API's
/// `Cache-Control`, `Age` and `Cache-Status`, available to SyncCore users without HTTP.
///
/// The data is *fresh* while the last poll succeeded and the next one is not overdue. It is *stale* when the
/// last poll failed, when the next poll is overdue (no daemon is running, or it is stuck), or before the first
/// successful poll. Stale data is still served: offline first.
package struct CacheFreshness: Sendable, Hashable {
    /// Why data is stale.
    package enum StaleReason: String, Sendable, Hashable {
        case neverSynced = "never synced"
        case lastPollFailed = "last poll failed"
        case pollOverdue = "poll overdue"
    }

    /// `nil` when fresh.
    package var staleReason: StaleReason?
    /// Whole seconds since the last successful poll (the data's age); 0 before the first.
    package var age: Int
    /// Whole seconds until the next poll is due: negative when it is overdue.
    package var ttl: Int

    package var isFresh: Bool { staleReason == nil }

    /// The data's freshness lifetime for `Cache-Control: max-age`, counted from the last successful poll as ``age``
    /// is, so that `maxAge - age` is what is left (RFC 9111 §4.2): from that poll to the next when fresh, 0 when
    /// stale.
    package var maxAge: Int {
        guard isFresh else { return 0 }
        let (lifetime, overflow) = age.addingReportingOverflow(max(0, ttl))
        return overflow ? Int.max : lifetime
    }

    /// What freshness depends on in an endpoint's state, parsed once: a reader that asks often keeps this and
    /// computes ``CacheFreshness`` for each request from it.
    package struct Schedule: Sendable, Hashable {
        /// The last successful poll, seconds since 1970.
        package var lastSuccess: Double?
        /// The next poll as the scheduler persisted it.
        package var nextDue: Double?
        package var lastPollFailed: Bool

        package init(state: EndpointState) {
            lastSuccess = state.lastSuccessAt.flatMap(Timestamp.parse)
            nextDue = state.nextDueAt.flatMap(Timestamp.parse)
            lastPollFailed = state.consecutiveFailures > 0 || state.lastError != nil
        }
    }

    /// Computes freshness at `now` (seconds since 1970).
    ///
    /// The next poll is `next_due_at` as the scheduler persisted it, else the last success plus the interval. A
    /// poll counts as overdue once its request timeout has passed after it was due, so that a poll in flight
    /// does not make the data stale.
    package init(state: EndpointState, interval: Duration, timeout: Duration, now: Double) {
        self.init(schedule: Schedule(state: state), interval: interval, timeout: timeout, now: now)
    }

    package init(schedule: Schedule, interval: Duration, timeout: Duration, now: Double) {
        let lastSuccess = schedule.lastSuccess
        age = lastSuccess.map { max(0, Self.wholeSeconds(now - $0)) } ?? 0
        let due = schedule.nextDue ?? lastSuccess.map { $0 + interval.scheduleSeconds }
        ttl = due.map { Self.wholeSeconds($0 - now) } ?? 0
        if lastSuccess == nil {
            staleReason = .neverSynced
        } else if schedule.lastPollFailed {
            staleReason = .lastPollFailed
        } else if let due, now > due + timeout.scheduleSeconds {
            staleReason = .pollOverdue
        } else {
            staleReason = nil
        }
    }

    /// Whole seconds, rounded down; the times come from the database file, so a value no clock could reach (or NaN)
    /// is clamped instead of trapping in `Int(_:)`.
    static func wholeSeconds(_ seconds: Double) -> Int {
        guard seconds.isFinite else { return 0 }
        let limit = Double(1 << 53)
        return Int(min(max(seconds.rounded(.down), -limit), limit))
    }
}
