internal import Synchronization

/// The read API's bearer token, which a reload replaces: rotating the token file and sending SIGHUP is how an
/// operator answers a leak, so the router's middleware and the fast path read the current token for each request
/// instead of keeping the one they started with.
package final class ReadToken: Sendable {
    private let current: Mutex<[UInt8]>

    package init(_ token: String) {
        current = Mutex(Array(token.utf8))
    }

    /// From the next request on, only `token` is accepted.
    package func replace(with token: String) {
        let bytes = Array(token.utf8)
        current.withLock { $0 = bytes }
    }

    /// Whether `header` is `Bearer <the current token>`, compared in constant time (``BearerToken``).
    func admits(_ header: String) -> Bool {
        current.withLock { token in BearerToken.matches(header, token: token) }
    }
}
