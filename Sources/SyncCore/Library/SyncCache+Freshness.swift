import SyncRuntime
import SyncSupport

extension SyncCache {
    /// Whether an endpoint's cached data is fresh, and for how long: the semantics behind the read API's
    /// `Cache-Control`, `Age` and `Cache-Status`, for any program that serves or shows what a cache holds.
    ///
    /// The data is *fresh* while the last poll succeeded and the next one is not overdue. It is *stale* when the
    /// last poll failed, when the next poll is overdue (no daemon is running, or it is stuck), or before the first
    /// successful poll. Stale data is still served: offline first.
    ///
    /// ```swift
    /// for status in try await cache.statuses() {
    ///     let freshness = SyncCache.Freshness(
    ///         schedule: .init(status), interval: .seconds(300), timeout: .seconds(30),
    ///         now: Date().timeIntervalSince1970)
    ///     print(status.name, freshness.staleReason?.description ?? "fresh", "age \(freshness.age)s")
    /// }
    /// ```
    ///
    /// ## Topics
    /// - ``Schedule``
    /// - ``StaleReason``
    public struct Freshness: Sendable, Hashable {
        /// Why data is stale: one of a few reasons, each with a fixed text (`never synced`, `last poll failed`,
        /// `poll overdue`) that the read API sends in `Cache-Status` and `stale_reason`.
        public struct StaleReason: Sendable, Hashable, CustomStringConvertible {
            private enum Base: String, Sendable, Hashable {
                case neverSynced = "never synced"
                case lastPollFailed = "last poll failed"
                case pollOverdue = "poll overdue"
            }

            private let base: Base

            /// No poll of the endpoint has succeeded yet.
            public static let neverSynced = StaleReason(base: .neverSynced)
            /// The last poll failed: the data is what an earlier poll stored.
            public static let lastPollFailed = StaleReason(base: .lastPollFailed)
            /// The next poll is overdue by more than the request timeout: no daemon polls it, or it is stuck.
            public static let pollOverdue = StaleReason(base: .pollOverdue)

            /// The reason's fixed text, such as `poll overdue`.
            public var description: String { base.rawValue }
        }

        /// Why the data is stale; `nil` when it is fresh.
        public var staleReason: StaleReason?
        /// Whole seconds since the last successful poll (the data's age); 0 before the first.
        public var age: Int
        /// Whole seconds until the next poll is due: negative when it is overdue.
        public var ttl: Int

        /// Whole seconds a cache in front of syncd may go on serving its copy once the copy is stale, while it asks
        /// syncd again (`stale-while-revalidate`, RFC 5861): the endpoint's request timeout, the time a poll that is due
        /// may take before the data counts as overdue. The same whether the data is fresh or not.
        public var staleWhileRevalidate: Int
        /// Whole seconds a cache in front of syncd may serve its stale copy when syncd cannot answer, or answers with
        /// an error (`stale-if-error`, RFC 5861): the longest syncd itself waits between polls of an upstream that
        /// keeps failing — the backoff's cap, 32 intervals, at most an hour, never less than the interval. A copy that
        /// old is no older than syncd's own would be. The same whether the data is fresh or not.
        public var staleIfError: Int

        /// Whether the data is fresh: no ``staleReason``.
        public var isFresh: Bool { staleReason == nil }

        /// The data's freshness lifetime for `Cache-Control: max-age`, counted from the last successful poll as
        /// ``age`` is, so that `maxAge - age` is what is left (RFC 9111 §4.2): from that poll to the next when fresh,
        /// 0 when stale.
        public var maxAge: Int {
            guard isFresh else { return 0 }
            let (lifetime, overflow) = age.addingReportingOverflow(max(0, ttl))
            return overflow ? Int.max : lifetime
        }

        /// What freshness depends on in an endpoint's status, parsed once: a reader that asks often keeps this and
        /// computes ``Freshness`` for each request from it.
        public struct Schedule: Sendable, Hashable {
            /// The last successful poll, seconds since 1970.
            public var lastSuccess: Double?
            /// The next poll as the scheduler persisted it, seconds since 1970.
            public var nextDue: Double?
            /// Whether the last poll failed.
            public var lastPollFailed: Bool

            /// The schedule of an endpoint as its status says.
            public init(_ status: EndpointStatus) {
                lastSuccess = status.lastSuccessAt.flatMap(Timestamp.parse)
                nextDue = status.nextDueAt.flatMap(Timestamp.parse)
                lastPollFailed = status.consecutiveFailures > 0 || status.lastError != nil
            }
        }

        /// Computes freshness at `now`.
        ///
        /// The next poll is the one the scheduler persisted, else the last success plus the interval. A poll counts
        /// as overdue once its request timeout has passed after it was due, so that a poll in flight does not make
        /// the data stale.
        ///
        /// - Parameters:
        ///   - schedule: The endpoint's schedule, from its ``EndpointStatus``.
        ///   - interval: The endpoint's poll interval.
        ///   - timeout: The endpoint's request timeout.
        ///   - now: Seconds since 1970.
        public init(schedule: Schedule, interval: Duration, timeout: Duration, now: Double) {
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
            let seconds = interval.scheduleSeconds
            staleWhileRevalidate = max(0, Self.wholeSeconds(timeout.scheduleSeconds))
            staleIfError = max(0, Self.wholeSeconds(Self.policy.backoffCap(interval: seconds)))
        }

        /// The scheduler's policy, whose backoff cap `stale-if-error` says: made once, not for each answer.
        private static let policy = SchedulePolicy()

        /// Whole seconds, rounded down; the times come from the database file, so a value no clock could reach (or
        /// NaN) is clamped instead of trapping in `Int(_:)`.
        static func wholeSeconds(_ seconds: Double) -> Int {
            guard seconds.isFinite else { return 0 }
            let limit = Double(1 << 53)
            return Int(min(max(seconds.rounded(.down), -limit), limit))
        }
    }
}
