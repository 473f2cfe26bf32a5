extension SyncEndpoint {
    /// A cap on an endpoint's request rate (`rate_limit = "10/s"`, `"600/m"`, `"3600/h"`): requests are spaced so
    /// that no more than ``requests`` start in any ``period``.
    ///
    /// ```swift
    /// endpoint.rateLimit = .perMinute(600)
    /// ```
    public struct RateLimit: Sendable, Hashable, CustomStringConvertible {
        /// How many requests a period allows: 1...1,000,000.
        public let requests: Int
        /// One second, minute or hour.
        public let period: Duration

        package init(requests: Int, period: Duration) {
            self.requests = requests
            self.period = period
        }

        /// At most `requests` requests in any second (`"N/s"`).
        public static func perSecond(_ requests: Int) -> RateLimit {
            RateLimit(requests: requests, period: .seconds(1))
        }

        /// At most `requests` requests in any minute (`"N/m"`).
        public static func perMinute(_ requests: Int) -> RateLimit {
            RateLimit(requests: requests, period: .seconds(60))
        }

        /// At most `requests` requests in any hour (`"N/h"`).
        public static func perHour(_ requests: Int) -> RateLimit {
            RateLimit(requests: requests, period: .seconds(3600))
        }

        /// Reads `N/s`, `N/m` or `N/h`; nil for anything else, or N below 1.
        package init?(parsing text: String) {
            let parts = text.split(separator: "/", omittingEmptySubsequences: false)
            guard parts.count == 2, !parts[0].isEmpty, parts[0].allSatisfy({ ("0"..."9").contains($0) }),
                let requests = Int(parts[0]), requests >= 1
            else {
                return nil
            }
            switch parts[1] {
            case "s": period = .seconds(1)
            case "m": period = .seconds(60)
            case "h": period = .seconds(3600)
            default: return nil
            }
            self.requests = requests
        }

        /// Why the limit cannot be used, in the TOML file's words; nil when it can.
        package var problem: String? {
            let range = ConfigurationBounds.rateLimitRequests
            guard range.contains(requests) else {
                return "rate_limit must allow \(ConfigurationBounds.describe(range)) requests per period"
            }
            return nil
        }

        /// The least time between the starts of two requests.
        package var spacing: Duration { period / max(1, requests) }

        /// As written in the configuration: `10/s`.
        public var description: String {
            let unit = period == .seconds(1) ? "s" : period == .seconds(60) ? "m" : "h"
            return "\(requests)/\(unit)"
        }
    }

    /// Whose requests the pacing counts — the ``RateLimit`` and the upstream's `RateLimit` headers alike: the
    /// endpoint's own, or every endpoint's on the same host (`rate_limit_scope = "host"`), for upstreams that
    /// budget per client rather than per resource.
    public enum RateLimitScope: String, Sendable, Hashable {
        /// The endpoint is paced on its own. The default.
        case endpoint
        /// Every endpoint with this scope on the same host shares one pace.
        case host
    }
}
