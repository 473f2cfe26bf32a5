import SyncSupport

/// What the scheduler knows of one endpoint from the configuration: its name and how often to poll it.
///
/// The values come validated from the configuration, but the scheduler never traps on them: a negative interval
/// counts as zero (and ``SchedulePolicy/minimumDelay`` still applies), and a jitter outside `0...1` (or NaN) is
/// clamped into it.
///
/// ## Topics
///
/// - ``init(name:interval:jitter:freshness:)``
/// - ``name``
/// - ``interval``
/// - ``jitter``
/// - ``freshness``
package struct ScheduledEndpoint: Sendable, Hashable {
    /// The endpoint's name, unique in a configuration.
    package var name: String
    /// The time between the end of a successful run and the start of the next.
    package var interval: Duration
    /// The fraction of ``interval`` each wait varies by, in `0...1`: each wait is drawn uniformly from
    /// `interval × (1 - jitter) ... interval × (1 + jitter)`.
    package var jitter: Double
    /// With `freshness = "upstream"`, the shortest and the longest wait after a success, between which the
    /// upstream's freshness times it; `nil` when every wait is the interval.
    package var freshness: ClosedRange<Duration>?

    /// Creates an endpoint's schedule.
    ///
    /// - Parameters:
    ///   - name: The endpoint's name.
    ///   - interval: The time between the end of a successful run and the start of the next.
    ///   - jitter: The fraction of `interval` each wait varies by, in `0...1`.
    ///   - freshness: The shortest and the longest wait after a success that the upstream's freshness times; `nil`
    ///     for every wait the interval.
    package init(name: String, interval: Duration, jitter: Double, freshness: ClosedRange<Duration>? = nil) {
        self.name = name
        self.interval = interval
        self.jitter = jitter
        self.freshness = freshness
    }
}

extension ScheduledEndpoint {
    /// ``interval`` in seconds, never negative.
    var intervalSeconds: Double {
        max(0, interval.scheduleSeconds)
    }

    /// ``freshness`` in seconds, never negative; `nil` without it.
    var freshnessSeconds: ClosedRange<Double>? {
        freshness.map { max(0, $0.lowerBound.scheduleSeconds)...max(0, $0.upperBound.scheduleSeconds) }
    }

    /// The longest wait after a success, before jitter: the longest the upstream may ask for, else the interval.
    var longestSuccessSeconds: Double {
        freshnessSeconds?.upperBound ?? intervalSeconds
    }

    /// ``jitter`` clamped into `0...1`; NaN counts as no jitter.
    var clampedJitter: Double {
        jitter.isNaN ? 0 : min(1, max(0, jitter))
    }
}
