import SyncHTTP
import SyncSupport

/// How long the scheduler waits after a run: the jittered interval after a success, an exponential backoff after
/// failures, and the bounds that keep either from going wild.
///
/// After `n` consecutive failures the wait is
///
/// ```
/// base    = min(interval, max(minimumBackoff, interval × backoffBaseFraction))
/// cap     = max(interval, min(maximumBackoff, interval × backoffCapIntervals))
/// backoff = min(cap, base × 2^(n-1)) × (1 ± backoffJitter)
/// wait    = max(backoff, min(Retry-After, maximumRetryAfter), minimumDelay)
/// ```
///
/// With the defaults, an endpoint polled every 5 minutes retries after 75 s, 2.5, 5, 10, 20 and 40 minutes, then
/// hourly; one polled every second retries after 1, 2, 4, 8, 16 and then every 32 seconds. The reasons:
///
/// - The first retry comes sooner than a normal poll (a quarter of the interval) because the cached data is stale
///   from the moment a poll fails, and a short outage then costs a quarter of the staleness. It is at least
///   ``minimumBackoff``, so a failing upstream is never hammered below a second, and at most the interval, so a
///   failing endpoint is never polled later than a healthy one on its first retry.
/// - Doubling reaches the interval by the third failure and goes past it from the fourth, so a long outage costs
///   the upstream ever less.
/// - The cap is relative, ``backoffCapIntervals`` intervals, because the interval is how fresh the operator wants the
///   data: an endpoint polled every second notices its upstream's recovery within half a minute, not an hour. The
///   absolute ``maximumBackoff`` bounds it for slow endpoints, but the cap is never below the interval, so a
///   failing endpoint at its cap is never polled more often than a healthy one. The cap applies before jitter, so
///   endpoints that failed together still spread out: the longest backoff is `cap × (1 + backoffJitter)`.
/// - Backoff has its own jitter, independent of the endpoint's, because endpoints on one upstream fail together and
///   would otherwise retry together, even those configured with no jitter at all.
/// - A `Retry-After` longer than the backoff wins, so a rate-limited or unavailable upstream is honoured; a shorter
///   one does not bring the retry forward. It is not jittered (the upstream asked for that time), and it is capped
///   at ``maximumRetryAfter`` so that a wrong or hostile header cannot silence an endpoint for longer than a day.
/// - No wait is shorter than ``minimumDelay``, so a zero interval or a jitter of 1 never turns the loop hot.
///
/// Values set out of range are clamped where they are used (negative durations count as zero, fractions go into
/// their range, NaN counts as zero): the policy never traps.
///
/// ## Topics
///
/// ### Backoff after failures
///
/// - ``backoffBaseFraction``
/// - ``minimumBackoff``
/// - ``backoffCapIntervals``
/// - ``maximumBackoff``
/// - ``backoffJitter``
///
/// ### Bounds
///
/// - ``maximumRetryAfter``
/// - ``minimumDelay``
package struct SchedulePolicy: Sendable, Hashable {
    /// The first backoff, as a fraction of the endpoint's interval (then bounded by ``minimumBackoff`` and the
    /// interval). The default is 0.25.
    package var backoffBaseFraction: Double
    /// The shortest first backoff, unless the interval itself is shorter. The default is 1 second.
    package var minimumBackoff: Duration
    /// The longest backoff, in intervals (then bounded by ``maximumBackoff``). The default is 32.
    package var backoffCapIntervals: Double
    /// The longest backoff for any endpoint, unless its interval is longer. The default is 1 hour.
    package var maximumBackoff: Duration
    /// The fraction each backoff varies by, in `0...1`, uniformly. The default is 0.2.
    package var backoffJitter: Double
    /// The longest `Retry-After` honoured; a longer one counts as this. The default is 24 hours.
    package var maximumRetryAfter: Duration
    /// The shortest wait of any kind, after a success or a failure. The default is 100 milliseconds.
    package var minimumDelay: Duration

    /// Creates a policy; every argument has the default documented on its property.
    package init(
        backoffBaseFraction: Double = 0.25,
        minimumBackoff: Duration = .seconds(1),
        backoffCapIntervals: Double = 32,
        maximumBackoff: Duration = .seconds(3600),
        backoffJitter: Double = 0.2,
        maximumRetryAfter: Duration = .seconds(86_400),
        minimumDelay: Duration = .milliseconds(100)
    ) {
        self.backoffBaseFraction = backoffBaseFraction
        self.minimumBackoff = minimumBackoff
        self.backoffCapIntervals = backoffCapIntervals
        self.maximumBackoff = maximumBackoff
        self.backoffJitter = backoffJitter
        self.maximumRetryAfter = maximumRetryAfter
        self.minimumDelay = minimumDelay
    }
}

extension SchedulePolicy {
    /// The wait after a success: the interval varied by the endpoint's jitter.
    ///
    /// - Parameter unit: A uniform draw from `-1...1`; -1 gives the shortest wait, 1 the longest.
    func successDelay(for endpoint: ScheduledEndpoint, unit: Double) -> Double {
        let wait = endpoint.intervalSeconds * (1 + endpoint.clampedJitter * unit)
        return max(wait, seconds(minimumDelay))
    }

    /// The wait after a success of an endpoint its upstream's freshness times (``ScheduledEndpoint/freshness``,
    /// `bounds` in seconds), why, and which bound held it (`min_interval`, `max_interval`), if one did.
    ///
    /// The wait is what was left of the answer's freshness lifetime when it arrived; an answer that says `no-cache`
    /// gets the shortest wait, one that says nothing the interval. It is held within `bounds`, then varied by the
    /// endpoint's jitter upward only — never polled before the answer goes stale — and held to the longest again.
    ///
    /// - Parameter unit: A uniform draw from `-1...1`; -1 gives no jitter, 1 the most.
    func freshDelay(
        for endpoint: ScheduledEndpoint, bounds: ClosedRange<Double>, freshness: UpstreamFreshness?, unit: Double
    ) -> (wait: Double, reason: ScheduleReason, held: String?) {
        let freshness = freshness ?? .unknown
        let (base, reason): (Double, ScheduleReason) =
            if freshness.noCache {
                (bounds.lowerBound, .noCache)
            } else if let left = freshness.freshFor, let source = freshness.source {
                (left, .fresh(source, seconds: left))
            } else {
                (endpoint.intervalSeconds, .noFreshness(noStore: freshness.noStore))
            }
        let held: String? =
            base < bounds.lowerBound ? "min_interval" : base > bounds.upperBound ? "max_interval" : nil
        let within = min(bounds.upperBound, max(bounds.lowerBound, base))
        let jittered = min(bounds.upperBound, within * (1 + endpoint.clampedJitter * (min(1, max(-1, unit)) + 1) / 2))
        return (max(jittered, seconds(minimumDelay)), reason, held)
    }

    /// How late a run may start and still be on time: the endpoint's jitter of its interval, and at least a second.
    /// A busy daemon starts runs a little late all the time; only a run later than this, with other due endpoints
    /// waiting for a slot, is a backlog's, followed by ``spreadingDelay(for:unit:)``.
    func latenessTolerance(for endpoint: ScheduledEndpoint) -> Double {
        max(1, endpoint.intervalSeconds * endpoint.clampedJitter)
    }

    /// The wait after a success that started in a backlog (late, other due endpoints waiting for a slot): half to
    /// one and a half intervals, whatever the jitter.
    ///
    /// Endpoints due together (every endpoint on a cold start, or after the daemon was down) run one after another
    /// as `concurrency` allows, and would keep the shape of that catch-up — polls crowded into part of each interval,
    /// the rest idle — for as long as their jitter takes to smear it. A whole interval's width spreads them at once.
    ///
    /// - Parameter unit: A uniform draw from `-1...1`.
    func spreadingDelay(for endpoint: ScheduledEndpoint, unit: Double) -> Double {
        max(endpoint.intervalSeconds * (1 + 0.5 * unit), seconds(minimumDelay))
    }

    /// The backoff after `failures` consecutive failures, before jitter: `min(cap, base × 2^(failures-1))`.
    func backoff(for endpoint: ScheduledEndpoint, failures: Int) -> Double {
        let interval = endpoint.intervalSeconds
        let base = min(interval, max(seconds(minimumBackoff), interval * fraction(backoffBaseFraction, upTo: 1)))
        let exponent = min(max(failures, 1) - 1, 1000)  // 2^1000 × base is already infinite or past any cap
        return min(backoffCap(for: endpoint), base * Double(sign: .plus, exponent: exponent, significand: 1))
    }

    /// The longest backoff before jitter: `max(interval, min(maximumBackoff, interval × backoffCapIntervals))`.
    func backoffCap(for endpoint: ScheduledEndpoint) -> Double {
        backoffCap(interval: endpoint.intervalSeconds)
    }

    /// The longest backoff before jitter of an endpoint polled every `interval` seconds: the longest syncd waits
    /// between polls of an upstream that keeps failing, which the read API's `stale-if-error` says.
    package func backoffCap(interval: Double) -> Double {
        let multiple = backoffCapIntervals.isNaN ? 0 : max(0, backoffCapIntervals)
        let relative = interval == 0 ? 0 : interval * multiple  // 0 × infinity would be NaN
        return max(interval, min(seconds(maximumBackoff), relative))
    }

    /// The wait after a failure, `failures` being the count including this one.
    ///
    /// - Parameters:
    ///   - retryAfter: The upstream's `Retry-After` in seconds from now, if it sent one.
    ///   - unit: A uniform draw from `-1...1` for the backoff's jitter.
    func failureDelay(for endpoint: ScheduledEndpoint, failures: Int, retryAfter: Double?, unit: Double) -> Double {
        let backoff = backoff(for: endpoint, failures: failures) * (1 + fraction(backoffJitter, upTo: 1) * unit)
        var wait = max(backoff, seconds(minimumDelay))
        if let retryAfter, !retryAfter.isNaN {
            wait = max(wait, min(max(0, retryAfter), seconds(maximumRetryAfter)))
        }
        return wait
    }

    /// The longest wait this policy can give the endpoint in any state: a persisted next due further away than
    /// this came from a clock that was wrong, and is not believed.
    func longestWait(for endpoint: ScheduledEndpoint) -> Double {
        // After a late run, up to one and a half intervals (spreadingDelay); the upstream's freshness, up to the
        // longest wait it may set.
        let success = max(
            endpoint.intervalSeconds * (1 + max(endpoint.clampedJitter, 0.5)),
            endpoint.freshnessSeconds?.upperBound ?? 0)
        let failure = backoffCap(for: endpoint) * (1 + fraction(backoffJitter, upTo: 1))
        return max(success, failure, seconds(maximumRetryAfter), seconds(minimumDelay))
    }

    private func seconds(_ duration: Duration) -> Double {
        max(0, duration.scheduleSeconds)
    }

    private func fraction(_ value: Double, upTo limit: Double) -> Double {
        value.isNaN ? 0 : min(limit, max(0, value))
    }
}
