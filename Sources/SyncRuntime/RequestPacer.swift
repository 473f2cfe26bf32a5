package import SyncHTTP
package import SyncModel
internal import SyncSQLite
internal import Synchronization

/// Spaces each endpoint's requests: at most `rate_limit` of them, and slower as the upstream's RateLimit headers say
/// its budget runs out, so that syncd waits before the limit is hit rather than collecting 429s.
///
/// One pacer lives as long as its ``SyncEngine``, so the spacing holds across the runs of an endpoint too. Times
/// are the engine's injected seconds since 1970; the engine does the waiting, through its injected sleep.
package final class RequestPacer: Sendable {
    /// With this many requests left or fewer, the rest of the window is spread over them.
    package static let lowWater = 10

    private struct Pace {
        /// When the last request was allowed to start.
        var lastStart: Double?
        /// No request before this, as the upstream's RateLimit headers asked.
        var notBefore: Double?
    }

    private let paces = Mutex<[String: Pace]>([:])

    package init() {}

    /// Reserves the endpoint's next request and says how long to wait for it: the later of its `rate_limit` slot
    /// and what the upstream's last RateLimit headers asked, never more than `retry_max_delay`.
    ///
    /// - Returns: seconds to wait, 0 when the request may go now.
    package func reserve(_ endpoint: EndpointConfiguration, now: Double) -> Double {
        paces.withLock { paces in
            let key = Self.key(endpoint)
            var pace = paces[key] ?? Pace()
            var start = max(now, pace.notBefore ?? now)
            if let limit = endpoint.rateLimit, let last = pace.lastStart {
                start = max(start, last + SyncEngine.seconds(limit.spacing))
            }
            start = min(start, now + SyncEngine.seconds(endpoint.retryMaxDelay))
            pace.lastStart = start
            paces[key] = pace
            return start - now
        }
    }

    /// Takes in an answer's RateLimit headers: none left waits for the reset; a few left spreads them over the
    /// rest of the window (one in reserve). The wait is clamped to `retry_max_delay`, so that a reset far in the
    /// future (`RateLimit-Reset: 1e300`) slows the endpoint for one such delay at most, not until a restart.
    package func observe(_ headers: RateLimitHeaders?, endpoint: EndpointConfiguration, now: Double) {
        guard let headers, headers.remaining <= Self.lowWater, let reset = headers.secondsUntilReset(now: now) else {
            return
        }
        let asked = headers.remaining == 0 ? reset : reset / Double(headers.remaining + 1)
        let wait = min(asked, SyncEngine.seconds(endpoint.retryMaxDelay))
        let key = Self.key(endpoint)
        paces.withLock { paces in
            var pace = paces[key] ?? Pace()
            pace.notBefore = max(pace.notBefore ?? 0, now + wait)
            paces[key] = pace
        }
    }

    /// Whose pace a request keeps: the endpoint's, or its host's (scheme, host and port) with
    /// `rate_limit_scope = "host"`. The two kinds of key cannot collide: a name has no colon.
    static func key(_ endpoint: EndpointConfiguration) -> String {
        switch endpoint.rateLimitScope {
        case .endpoint:
            return endpoint.name.name
        case .host:
            guard let scheme = endpoint.url.firstRange(of: "://") else { return endpoint.name.name }
            let rest = endpoint.url[scheme.upperBound...]
            let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
            let host = authority.split(separator: "@").last.map(String.init) ?? String(authority)
            return endpoint.url[..<scheme.upperBound].lowercased() + host.lowercased()
        }
    }
}
