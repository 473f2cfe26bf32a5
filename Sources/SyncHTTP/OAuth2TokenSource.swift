internal import NIOCore

/// One OAuth2 access token, kept in memory and renewed: before it expires, and once when the upstream refuses it
/// (a 401), never with more than one request in flight. Every endpoint authenticating with the same token endpoint,
/// client and scope shares one source.
///
/// A server that rotates refresh tokens answers a renewal with a new one: it is handed to `keep` — which stores it
/// durably — before the new access token is used, and asked for with from then on; when `keep` fails, the token is
/// not used, so that a crash cannot lose the only refresh token the server still accepts.
package actor OAuth2TokenSource {
    /// A token as it was obtained.
    package struct Token: Sendable {
        var value: String
        package var obtainedAt: Double
        package var lifetime: Double

        /// When it is renewed: a tenth of its life before it expires, and at most a minute before.
        var renewAt: Double { obtainedAt + lifetime - OAuth2TokenSource.margin(lifetime: lifetime) }
        package var expiresAt: Double { obtainedAt + lifetime }
    }

    private var request: OAuth2TokenRequest
    private let timeout: Duration
    private let fetch: @Sendable (FetchRequest) async throws -> FetchResponse
    private let keep: @Sendable (String) async throws -> Void
    private let renewed: @Sendable (Token) async -> Void
    private let now: @Sendable () -> Double
    private var token: Token?
    private var renewal: Task<Token, any Error>?
    /// Requests sent to the token endpoint, for `syncd status` and the tests.
    private(set) var renewals = 0

    /// - Parameters:
    ///   - fetch: Sends a request (the process's HTTP transport).
    ///   - keep: Stores a rotated refresh token durably; called before the access token that came with it is used.
    ///   - renewed: Told of each new token once it is kept, before it is used (to record its times, never itself).
    ///   - now: Seconds since 1970.
    package init(
        request: OAuth2TokenRequest, timeout: Duration = .seconds(30),
        fetch: @escaping @Sendable (FetchRequest) async throws -> FetchResponse,
        keep: @escaping @Sendable (String) async throws -> Void = { _ in },
        renewed: @escaping @Sendable (Token) async -> Void = { _ in },
        now: @escaping @Sendable () -> Double
    ) {
        self.request = request
        self.timeout = timeout
        self.fetch = fetch
        self.keep = keep
        self.renewed = renewed
        self.now = now
    }

    /// How long before its expiry a token of `lifetime` seconds is renewed: a tenth of it, at most 60 s.
    static func margin(lifetime: Double) -> Double { min(60, lifetime / 10) }

    /// A token to send now: the kept one while it is fresh, else a renewed one.
    ///
    /// - Throws: ``OAuth2TokenError`` when no token can be had.
    package func accessToken() async throws(OAuth2TokenError) -> String {
        if let token, now() < token.renewAt { return token.value }
        return try await renewed().value
    }

    /// A token to send instead of `rejected`, which the upstream refused: renewed once, unless another caller has
    /// renewed it since `rejected` was handed out.
    package func accessToken(replacing rejected: String) async throws(OAuth2TokenError) -> String {
        if let token, token.value != rejected, now() < token.renewAt { return token.value }
        if token?.value == rejected { token = nil }
        return try await renewed().value
    }

    /// When the kept token expires, for `syncd status`; nil before the first.
    package var expiresAt: Double? { token?.expiresAt }

    /// The renewal in flight, or a new one.
    private func renewed() async throws(OAuth2TokenError) -> Token {
        let task: Task<Token, any Error>
        if let renewal {
            task = renewal
        } else {
            task = Task { try await self.renew() }
            renewal = task
        }
        do {
            let token = try await task.value
            return token
        } catch let error as OAuth2TokenError {
            throw error
        } catch {
            throw OAuth2TokenError(.unavailable, "the token endpoint cannot be reached: \(error)")
        }
    }

    /// Asks the token endpoint once; keeps what it answered.
    private func renew() async throws -> Token {
        defer { renewal = nil }
        renewals += 1
        let response: FetchResponse
        do {
            response = try await fetch(request.fetchRequest(timeout: timeout))
        } catch let error as FetchError {
            throw OAuth2TokenError(.unavailable, "the token endpoint cannot be reached: \(error.description)")
        }
        if RedirectFollower.redirectStatuses.contains(response.status) {
            throw OAuth2TokenError(
                .refused,
                "the token endpoint answered \(response.status), a redirect: syncd follows no redirect of a token "
                    + "endpoint (set token_url to where it leads)")
        }
        let answer = try OAuth2TokenResponse(status: response.status, body: response.body.readableBytesView)
        if let rotated = answer.refreshToken, case .refreshToken(let current) = request.grant, rotated != current {
            do {
                try await keep(rotated)
            } catch {
                throw OAuth2TokenError(
                    .unavailable, "the rotated refresh token cannot be stored, so it is not used: \(error)")
            }
            request.grant = .refreshToken(rotated)
        }
        let token = Token(value: answer.accessToken, obtainedAt: now(), lifetime: answer.lifetime)
        self.token = token
        await renewed(token)
        return token
    }
}
