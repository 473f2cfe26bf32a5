extension SyncEndpoint {
    /// When the poll after a success comes (`freshness`).
    ///
    /// ```swift
    /// users.freshness = .upstream
    /// users.minInterval = .seconds(60)
    /// ```
    public enum Freshness: String, Sendable, Hashable {
        /// Every ``SyncEndpoint/interval``, whatever the upstream says (`freshness = "interval"`). The default.
        case interval
        /// Not before the answer's freshness runs out (`freshness = "upstream"`): its `Cache-Control: s-maxage` or
        /// `max-age` less its age, else its `Expires`, held within ``SyncEndpoint/minInterval`` and
        /// ``SyncEndpoint/maxInterval``. An answer that says `no-cache` is polled again after the minimum, one that
        /// says nothing after the interval (held within them too).
        case upstream
    }

    /// With ``Freshness/upstream``, the shortest and the longest wait after a success: ``minInterval`` (the interval
    /// unless set) and ``maxInterval`` (a day, or the minimum if that is longer, unless set); `nil` for
    /// ``Freshness/interval``.
    package var freshnessBounds: (minimum: Duration, maximum: Duration)? {
        guard freshness == .upstream else { return nil }
        let minimum = minInterval ?? interval
        return (minimum, maxInterval ?? Swift.max(minimum, .seconds(86_400)))
    }

    /// `min_interval` and `max_interval` out of their range, or the longest shorter than the shortest.
    var freshnessProblems: [(key: String, problem: String?)] {
        [
            (
                "min_interval",
                minInterval.flatMap { EndpointRules.duration("min_interval", $0, in: ConfigurationBounds.interval) }
            ),
            (
                "max_interval",
                maxInterval.flatMap { EndpointRules.duration("max_interval", $0, in: ConfigurationBounds.interval) }
            ),
            (
                "max_interval",
                maxInterval.flatMap { maximum in
                    (minInterval ?? interval) > maximum
                        ? "max_interval must not be shorter than min_interval (or the interval, when min_interval is not set)"
                        : nil
                }
            ),
        ]
    }
}
