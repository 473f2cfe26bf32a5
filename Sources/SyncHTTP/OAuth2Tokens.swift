package import SyncModel
internal import Synchronization

/// The OAuth2 token sources of one HTTP client: one ``OAuth2TokenSource`` per token endpoint, client, scope, audience
/// and grant (``Credential/OAuth2/identity``), shared by every endpoint and request that authenticates with it, so
/// that many endpoints renew one token once. Owned by what owns the client (``APIClient``, a ``SyncCache``'s engine);
/// there is no process-wide one.
///
/// A source is made on first use: its client secret and refresh token are read then (the refresh token kept in the
/// state folder, ``OAuth2TokenFiles``, when it descends from the configured one). A source whose grant the server
/// refused is forgotten, so that the next use reads them again — a new refresh token put in its file, say.
package final class OAuth2Tokens: Sendable {
    private let sources = Mutex<[String: OAuth2TokenSource]>([:])
    private let transport: any Transport
    private let now: @Sendable () -> Double

    /// - Parameters:
    ///   - transport: What token requests go through: the client's own.
    ///   - now: Seconds since 1970.
    package init(transport: any Transport, now: @escaping @Sendable () -> Double) {
        self.transport = transport
        self.now = now
    }

    /// An access token for `client`: the shared one while it is fresh, else a renewed one.
    ///
    /// - Parameters:
    ///   - rejected: The token the upstream just refused (a 401): it is replaced once, unless another caller has
    ///     replaced it already.
    ///   - environment: Where the secrets' sources are read.
    ///   - stateDirectory: Where rotated refresh tokens and the token's times are kept.
    ///   - route: How a token request goes, when this call makes the source: the timeout, proxy and TLS settings of
    ///     the request that needs the token (a token endpoint behind the same proxy, signed by the same private CA).
    /// - Throws: ``OAuth2TokenError``, in one sentence that says what to do when the operator can do something.
    package func accessToken(
        for client: Credential.OAuth2, replacing rejected: String? = nil, environment: [String: String],
        stateDirectory: String, route: FetchRequest
    ) async throws(OAuth2TokenError) -> String {
        let source = try source(for: client, environment: environment, stateDirectory: stateDirectory, route: route)
        do {
            if let rejected { return try await source.accessToken(replacing: rejected) }
            return try await source.accessToken()
        } catch {
            if error.kind == .refused {
                sources.withLock { sources in
                    if sources[client.identity] === source { sources[client.identity] = nil }
                }
            }
            throw Self.advised(error, client)
        }
    }

    /// Sends `request` with `client`'s access token; when the upstream answers 401, asks once for a renewed token
    /// and sends the request once more (after `beforeRetry`). A second 401 is the answer.
    ///
    /// - Parameters:
    ///   - send: Sends a request: the caller's transport, with its own handling of the body.
    ///   - response: The answer in what `send` returns.
    /// - Throws: ``OAuth2TokenError`` when no token can be had; what `send` and `beforeRetry` throw.
    package func send<T>(
        _ request: FetchRequest, for client: Credential.OAuth2, environment: [String: String], stateDirectory: String,
        _ send: (FetchRequest) async throws -> T, response: (T) -> FetchResponse,
        beforeRetry: () async throws -> Void = {}
    ) async throws -> T {
        func token(replacing rejected: String?) async throws(OAuth2TokenError) -> String {
            try await accessToken(
                for: client, replacing: rejected, environment: environment, stateDirectory: stateDirectory,
                route: request)
        }
        let first = try await token(replacing: nil)
        let answer = try await send(request.bearing(first))
        guard response(answer).status == 401 else { return answer }
        let renewed = try await token(replacing: first)
        try await beforeRetry()
        return try await send(request.bearing(renewed))
    }

    /// The shared source of `client`, made now if there is none.
    private func source(
        for client: Credential.OAuth2, environment: [String: String], stateDirectory: String, route: FetchRequest
    ) throws(OAuth2TokenError) -> OAuth2TokenSource {
        let identity = client.identity
        if let source = sources.withLock({ $0[identity] }) { return source }
        let files = OAuth2TokenFiles(directory: stateDirectory, identity: identity)
        let secret: String?
        let configured: String?
        do {
            secret = try client.clientSecret?.resolve(environment: environment)
            configured = try client.refreshToken?.resolve(environment: environment)
        } catch {
            throw OAuth2TokenError(.unavailable, "\(error)")
        }
        var request = OAuth2TokenRequest(
            tokenURL: client.tokenURL, clientID: client.clientID, clientSecret: secret, scope: client.scope,
            audience: client.audience, authentication: secret == nil ? .post : client.authentication)
        (request.proxy, request.tls) = (route.proxy, route.tls)
        if let configured {
            request.grant = .refreshToken(files.refreshToken(descendingFrom: configured) ?? configured)
        }
        let transport = self.transport
        let made = OAuth2TokenSource(
            request: request, timeout: route.timeout, fetch: { try await transport.fetch($0, successBody: nil) },
            keep: { rotated in try files.keep(refreshToken: rotated, descendingFrom: configured ?? "") },
            renewed: { token in
                // Best effort: the times are for `syncd status`; a token whose times cannot be written still works.
                try? files.record(renewedAt: token.obtainedAt, expiresAt: token.expiresAt)
            },
            now: now)
        return sources.withLock { sources in
            if let existing = sources[identity] { return existing }
            sources[identity] = made
            return made
        }
    }

    /// `error`, with what to do about a refused grant or client.
    private static func advised(_ error: OAuth2TokenError, _ client: Credential.OAuth2) -> OAuth2TokenError {
        var advised = error
        switch error.code {
        case "invalid_grant":
            if let source = client.refreshToken {
                advised.description += "; put a new refresh token in \(source.sourceDescription)"
            }
        case "invalid_client", "unauthorized_client":
            advised.description += "; check client_id and the client secret"
        default: break
        }
        return advised
    }
}
