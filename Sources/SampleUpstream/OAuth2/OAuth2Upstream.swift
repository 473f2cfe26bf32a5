internal import FoundationEssentials
internal import SyncCore
import SyncSupport
internal import Synchronization

/// An OAuth2 provider and the API it protects, on loopback, for the tests: `POST /oauth/token` issues access tokens
/// for the client credentials grant (the client authenticated with HTTP Basic or in the form) and for refresh tokens,
/// which it rotates — a refresh token once used is refused with `invalid_grant`, as rotating providers do — and
/// `GET /api/users` answers only a request bearing an access token it issued and has not revoked.
///
/// Every request is counted, and each is announced on ``events`` (`token`, `api`) as it arrives, so that a test
/// waits for one rather than for time. ``Behaviour`` steers the token endpoint: `expires_in` as sent, whether it
/// rotates, a fixed answer (a redirect, a stall, a gigantic token).
package final class OAuth2Upstream: Sendable {
    /// What the token endpoint does; the test changes it between requests.
    package struct Behaviour: Sendable {
        /// `expires_in` as a JSON literal, sent as it is (`3600`, `"3600"`, `0`, `-5`, `1e30`); nil leaves it out.
        package var expiresIn: String? = "3600"
        /// Whether a refresh grant answers with a new refresh token (and refuses the used one from then on).
        package var rotates = true
        /// An answer given instead of a token: a redirect, a stall, anything.
        package var tokenAnswer: UpstreamResponse?
        /// The access token issued instead of `at-N` (a gigantic one, say).
        package var accessToken: String?
        /// Whether API requests stall: no answer until the server shuts down.
        package var stallsAPI = false
    }

    /// What the server saw and holds.
    package struct Ledger: Sendable {
        package var tokenRequests = 0
        package var apiRequests = 0
        /// The token requests' bodies, in order.
        package var tokenBodies: [String] = []
        /// The Authorization fields of the API requests, in order.
        package var apiAuthorizations: [String] = []
        /// Access tokens the API accepts.
        package var accessTokens: Set<String> = []
        /// Refresh tokens the token endpoint accepts.
        package var refreshTokens: Set<String> = []
        /// The newest refresh token issued.
        package var latestRefreshToken: String?
        var issued = 0
    }

    package let server: LoopbackHTTPServer
    package let clientID: String
    package let clientSecret: String
    private let shared: SharedState
    /// `token` or `api`, for each request, as it arrives.
    package let events: AsyncStream<String>
    private let announce: AsyncStream<String>.Continuation

    /// The users the API serves.
    package static let usersBody = Array(#"[{"id":1,"name":"Ada"},{"id":2,"name":"Brian"}]"#.utf8)

    private init(
        server: LoopbackHTTPServer, clientID: String, clientSecret: String, shared: SharedState,
        events: AsyncStream<String>, announce: AsyncStream<String>.Continuation
    ) {
        self.server = server
        self.clientID = clientID
        self.clientSecret = clientSecret
        self.shared = shared
        self.events = events
        self.announce = announce
    }

    /// Starts the provider on 127.0.0.1.
    ///
    /// - Parameters:
    ///   - refreshToken: A refresh token it accepts from the start, for the refresh grant.
    package static func start(
        clientID: String = "syncd-client", clientSecret: String = "client-s3cret-value", refreshToken: String? = nil
    ) async throws -> OAuth2Upstream {
        let (events, announce) = AsyncStream<String>.makeStream()
        var ledger = Ledger()
        if let refreshToken { ledger.refreshTokens.insert(refreshToken) }
        let shared = SharedState(Behaviour(), ledger)
        let server = try await LoopbackHTTPServer.start(onEventLoop: true) { request in
            let answer = shared.answer(request, clientID: clientID, clientSecret: clientSecret)
            announce.yield(request.path.hasPrefix("/oauth") ? "token" : "api")
            return answer
        }
        return OAuth2Upstream(
            server: server, clientID: clientID, clientSecret: clientSecret, shared: shared, events: events,
            announce: announce)
    }

    package var tokenURL: String { server.baseURL + "/oauth/token" }
    package var apiURL: String { server.baseURL + "/api/users" }

    /// Reads or changes what the server does and holds.
    package func with<T>(_ body: (inout Behaviour, inout Ledger) -> T) -> T {
        shared.state.withLock { body(&$0.behaviour, &$0.ledger) }
    }

    package var ledger: Ledger { shared.state.withLock { $0.ledger } }

    /// Makes every access token issued so far invalid: the API answers 401 to them.
    package func revokeAccessTokens() { with { _, ledger in ledger.accessTokens.removeAll() } }

    /// Stops the server and ends ``events``.
    package func shutdown() async throws {
        announce.finish()
        try await server.shutdown()
    }
}

/// The state the handler and the test share; a class so that the handler, made before the upstream, can hold it.
private final class SharedState: Sendable {
    let state: Mutex<(behaviour: OAuth2Upstream.Behaviour, ledger: OAuth2Upstream.Ledger)>

    init(_ behaviour: OAuth2Upstream.Behaviour, _ ledger: OAuth2Upstream.Ledger) {
        self.state = Mutex((behaviour, ledger))
    }

    func answer(_ request: UpstreamRequest, clientID: String, clientSecret: String) -> UpstreamResponse {
        state.withLock { state in
            if request.path == "/oauth/token" {
                return Self.token(request, &state.behaviour, &state.ledger, clientID: clientID, secret: clientSecret)
            }
            state.ledger.apiRequests += 1
            let authorization = request.header("authorization") ?? ""
            state.ledger.apiAuthorizations.append(authorization)
            if state.behaviour.stallsAPI { return UpstreamResponse(delivery: .stalled) }
            let token = authorization.hasPrefix("Bearer ") ? String(authorization.dropFirst(7)) : ""
            guard state.ledger.accessTokens.contains(token) else {
                return .json(
                    Array(#"{"error":"invalid_token"}"#.utf8), status: 401,
                    headers: [("WWW-Authenticate", #"Bearer error="invalid_token""#)])
            }
            return .json(OAuth2Upstream.usersBody)
        }
    }

    private static func token(
        _ request: UpstreamRequest, _ behaviour: inout OAuth2Upstream.Behaviour, _ ledger: inout OAuth2Upstream.Ledger,
        clientID: String, secret: String
    ) -> UpstreamResponse {
        ledger.tokenRequests += 1
        let body = String(decoding: request.body, as: UTF8.self)
        ledger.tokenBodies.append(body)
        if let fixed = behaviour.tokenAnswer { return fixed }
        var form: [String: String] = [:]
        for pair in body.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            form[PercentDecoding.decode(parts[0])] = parts.count > 1 ? PercentDecoding.decode(parts[1]) : ""
        }
        var client = (id: form["client_id"], secret: form["client_secret"])
        if let basic = request.header("authorization"), basic.hasPrefix("Basic "),
            let decoded = Data(base64Encoded: String(basic.dropFirst(6))),
            let pair = String(data: decoded, encoding: .utf8)?.split(separator: ":", maxSplits: 1), pair.count == 2
        {
            client = (PercentDecoding.decode(pair[0]), PercentDecoding.decode(pair[1]))
        }
        guard request.method == "POST", client.id == clientID, client.secret == secret else {
            return .json(Array(#"{"error":"invalid_client"}"#.utf8), status: 401)
        }
        var rotated: String?
        switch form["grant_type"] {
        case "client_credentials": break
        case "refresh_token":
            guard let used = form["refresh_token"], ledger.refreshTokens.contains(used) else {
                return .json(
                    Array(
                        #"{"error":"invalid_grant","error_description":"the refresh token was used or revoked"}"#.utf8),
                    status: 400)
            }
            if behaviour.rotates {
                ledger.refreshTokens.remove(used)
                rotated = "rt-\(ledger.issued + 1)"
            }
        default:
            return .json(Array(#"{"error":"unsupported_grant_type"}"#.utf8), status: 400)
        }
        ledger.issued += 1
        let access = behaviour.accessToken ?? "at-\(ledger.issued)"
        ledger.accessTokens.insert(access)
        var json = #"{"access_token":"\#(access)","token_type":"Bearer""#
        if let expiresIn = behaviour.expiresIn { json += #","expires_in":\#(expiresIn)"# }
        if let rotated {
            ledger.refreshTokens.insert(rotated)
            ledger.latestRefreshToken = rotated
            json += #","refresh_token":"\#(rotated)""#
        }
        return .json(Array((json + "}").utf8), headers: [("Cache-Control", "no-store")])
    }
}
