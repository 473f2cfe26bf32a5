internal import Logging
import SyncHTTP
import SyncModel
internal import SyncSQLite
import SyncSupport

extension SyncEngine {
    /// Sends `request` with the endpoint's OAuth2 access token, when it has `oauth2` auth and the request goes to its
    /// origin (a next page elsewhere gets no token); on a 401, once more with a renewed token
    /// (``OAuth2Tokens/send(_:for:environment:stateDirectory:_:response:beforeRetry:)``). A second 401 is the answer,
    /// which fails the run.
    ///
    /// - Throws: ``SyncFailure`` when no token can be had, in one sentence; what `send` throws.
    func authorized<T>(
        _ request: FetchRequest, endpoint: EndpointConfiguration, _ send: (FetchRequest) async throws -> T,
        response: (T) -> FetchResponse
    ) async throws -> T {
        guard let client = endpoint.auth?.oauth2, PageURL.isSameOrigin(request.url, endpoint.url) else {
            return try await send(request)
        }
        do {
            return try await tokens.send(
                request, for: client, environment: environment,
                stateDirectory: OAuth2TokenFiles.stateDirectory(environment: environment, fallback: spoolDirectory),
                send, response: response
            ) {
                logger.debug(
                    "Renewing a refused OAuth2 token", metadata: [LogKey.endpointName: "\(endpoint.name.name)"])
                try await waitForTurn(endpoint)
            }
        } catch let error as OAuth2TokenError {
            throw SyncFailure(
                message: "\(endpoint.name.name): no OAuth2 access token: \(error); kept the stored data", status: nil,
                bytes: 0)
        }
    }
}
