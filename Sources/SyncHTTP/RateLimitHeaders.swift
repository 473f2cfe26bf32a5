internal import NIOHTTP1
import SyncSupport

/// What an upstream says about its rate limit: the requests left and when the window resets.
///
/// Two spellings are read: the IETF draft's `RateLimit-Remaining` and `RateLimit-Reset` (seconds from now), and
/// the older `X-RateLimit-Remaining` and `X-RateLimit-Reset`, whose reset is seconds from now or, as GitHub and
/// others send it, a Unix time (told apart by size: a Unix time of this century is above 10⁹).
package struct RateLimitHeaders: Sendable, Hashable {
    /// Requests left in the window.
    package var remaining: Int
    /// The reset as sent.
    package var reset: Double?
    /// Whether ``reset`` may be a Unix time (the `X-` spelling) rather than always seconds from now.
    package var resetMayBeUnixTime: Bool

    package init(remaining: Int, reset: Double?, resetMayBeUnixTime: Bool) {
        self.remaining = remaining
        self.reset = reset
        self.resetMayBeUnixTime = resetMayBeUnixTime
    }

    init?(headers: HTTPHeaders) {
        self.init(
            ietfRemaining: headers.first(name: "RateLimit-Remaining"),
            ietfReset: headers.first(name: "RateLimit-Reset"),
            legacyRemaining: headers.first(name: "X-RateLimit-Remaining"),
            legacyReset: headers.first(name: "X-RateLimit-Reset"))
    }

    /// Reads the header values; the IETF spelling wins when both are sent. Nil without a usable remaining count.
    package init?(ietfRemaining: String?, ietfReset: String?, legacyRemaining: String?, legacyReset: String?) {
        func number(_ text: String?) -> Double? {
            guard let text = text?.trimmingASCIISpaces, let value = Double(text), value.isFinite, value >= 0 else {
                return nil
            }
            return value
        }
        if let remaining = number(ietfRemaining) {
            self.init(remaining: Int(min(remaining, 1e9)), reset: number(ietfReset), resetMayBeUnixTime: false)
        } else if let remaining = number(legacyRemaining) {
            self.init(remaining: Int(min(remaining, 1e9)), reset: number(legacyReset), resetMayBeUnixTime: true)
        } else {
            return nil
        }
    }

    /// Seconds from `now` until the window resets; nil when no reset was sent.
    package func secondsUntilReset(now: Double) -> Double? {
        guard let reset else { return nil }
        // Unix times in milliseconds are above 10¹², in seconds above 10⁹; a window of 31 years is neither.
        if resetMayBeUnixTime, reset >= 1e12 { return max(0, reset / 1000 - now) }
        if resetMayBeUnixTime, reset >= 1e9 { return max(0, reset - now) }
        return reset
    }
}
