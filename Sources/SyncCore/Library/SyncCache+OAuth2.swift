import SyncHTTP
import SyncPersistence

/// A resource fetched with OAuth2 credentials (``SyncCache/fetch(_:maxAge:timeout:environment:)``): the token of the
/// cache's engine, shared with the endpoints of the same client.
extension SyncCache.Writer {
    /// Sends `request`, with the access token of `oauth2`'s client (read with its environment) when there is one,
    /// renewed once on a 401.
    ///
    /// - Throws: ``FetchError``, or ``OAuth2TokenError`` when no token can be had.
    func fetch(_ request: FetchRequest, oauth2: (Credential.OAuth2, [String: String])?) async throws -> FetchResponse {
        guard let (client, environment) = oauth2 else { return try await transport.fetch(request) }
        let state = OAuth2TokenFiles.stateDirectory(environment: environment, fallback: storage.spoolDirectory)
        return try await engine.tokens.send(
            request, for: client, environment: environment, stateDirectory: state,
            { try await transport.fetch($0) }, response: { $0 })
    }
}
