internal import HTTPTypes
internal import Hummingbird
internal import SyncCore
internal import Synchronization

/// The DNS rebinding defence of a read API without a token: a request whose `Host` does not name the address the
/// server listens on is answered 421 (problem+json), so a web page whose name an attacker points at 127.0.0.1 gets
/// nothing. Allowed: the listen host as written, `localhost`, `127.0.0.1` and `[::1]` for a loopback listen, and any IP
/// address for a wildcard listen (`0.0.0.0`, `[::]`, which needs `allow_remote`); the port must be the bound one (a
/// `Host` without a port means 80). A request without `Host` (HTTP/1.0) names nothing and passes; browsers always
/// send one.
struct HostCheckMiddleware<Context: RequestContext>: RouterMiddleware {
    let allowed: AllowedHosts

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        guard let authority = request.head.authority, !allowed.admits(authority), !ReadServer.isHook(request) else {
            return try await next(request, context)
        }
        return ReadAPIMiddleware<Context>.problem(
            .badParameter("Host", "The Host header does not name the address this read API listens on."), status: 421)
    }
}

/// The `Host` values a TCP listen address answers to; the port is known once the socket is bound.
final class AllowedHosts: Sendable {
    private let host: String
    private let port = Mutex<Int?>(nil)

    init(host: String) {
        self.host = host.lowercased()
    }

    /// Records the port the socket was bound to.
    func bound(port: Int) {
        self.port.withLock { $0 = port }
    }

    /// Whether `authority` (`host[:port]`, IPv6 in brackets) names this address.
    func admits(_ authority: String) -> Bool {
        guard let port = port.withLock({ $0 }) else { return false }
        var name = Substring(authority.lowercased())
        var portText: Substring = "80"
        if let colon = name.lastIndex(of: ":"), !name[colon...].contains("]") {
            portText = name[name.index(after: colon)...]
            name = name[..<colon]
        }
        guard portText == Substring(String(port)) else { return false }
        if name.hasPrefix("[") && name.hasSuffix("]") { name = name.dropFirst().dropLast() }
        let host = String(name)
        if host == self.host || host == "localhost" { return true }
        if Self.isLoopback(self.host) { return Self.isLoopback(host) }
        if SyncConfiguration.Server.Listen.isWildcard(self.host) { return Self.isIPAddress(host) }
        return false
    }

    private static func isLoopback(_ host: String) -> Bool {
        SyncConfiguration.Server.Listen.tcp(host: host, port: 0).isLoopback
    }

    /// An IPv4 dotted quad or an IPv6 address: a name an attacker's DNS cannot point anywhere.
    private static func isIPAddress(_ host: String) -> Bool {
        if host.contains(":") { return host.allSatisfy { $0.isHexDigit || $0 == ":" || $0 == "." } }
        return SyncConfiguration.Server.Listen.isIPv4(host)
    }
}
