/// A cap on an endpoint's request rate (`rate_limit = "10/s"`, `"600/m"`, `"3600/h"`): requests are spaced so that
/// no more than ``requests`` start in any ``period``.
package struct RateLimit: Sendable, Hashable, CustomStringConvertible {
    /// How many requests a period allows; at least 1.
    package var requests: Int
    /// One second, minute or hour.
    package var period: Duration

    package init(requests: Int, period: Duration) {
        self.requests = requests
        self.period = period
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

    /// The least time between the starts of two requests.
    package var spacing: Duration { period / max(1, requests) }

    /// As written in the configuration.
    package var description: String {
        let unit = period == .seconds(1) ? "s" : period == .seconds(60) ? "m" : "h"
        return "\(requests)/\(unit)"
    }
}

/// Whose requests a ``RateLimit`` counts: the endpoint's own, or every endpoint's on the same host
/// (`rate_limit_scope = "host"`), for upstreams that budget per client rather than per resource.
package enum RateLimitScope: String, Sendable, Hashable {
    case endpoint
    case host
}
