public import FoundationEssentials
internal import NIOCore
package import SyncHTTP

/// Fetches JSON APIs over one shared HTTP client and decodes the answers into your types.
///
/// It is syncd's own HTTP transport (AsyncHTTPClient underneath): pooled connections, TLS always verified (against
/// the system's trust roots, or a request's ``APIRequest/tls``), a request's ``APIRequest/proxy`` or the
/// environment's, up to 5 redirects, gzip, a timeout for the whole request and a limit on the body. Share one client
/// and call ``shutdown()`` when done, or use ``withClient(configuration:_:)``.
///
/// ```swift
/// struct User: Decodable { let id: Int; let name: String }
///
/// let users = try await APIClient.withClient { client in
///     try await client.fetch(APIRequest(baseURL: "https://jsonplaceholder.typicode.com", path: "/users"),
///                            as: [User].self)
/// }
/// ```
///
/// ## Topics
///
/// - ``Configuration``
/// - ``fetch(_:as:decoder:)``
/// - ``fetch(_:)``
/// - ``response(for:)``
public final class APIClient: Sendable {
    /// Limits and the environment the client reads secrets from.
    public struct Configuration: Sendable {
        /// How long a whole request, body included, may take. The default is 30 seconds.
        public var timeout: Duration
        /// The largest body accepted, in bytes, counted as it arrives. The default is 64 MiB.
        public var maxBodyBytes: Int
        /// Where ``Credential/Secret/environment(_:)`` and ``Credential/Secret/systemdCredential(_:)`` look, and the
        /// proxy variables (`HTTPS_PROXY`, `NO_PROXY`, …, see ``HTTPProxy``) are read. The default is the process
        /// environment.
        public var environment: [String: String]
        /// Where rotated OAuth2 refresh tokens are kept (``Credential/OAuth2Grant/refreshToken(_:)``). The default is
        /// nil: `$STATE_DIRECTORY` of ``environment``, else the current directory.
        public var stateDirectory: String?

        /// Makes a configuration.
        ///
        /// - Parameters:
        ///   - timeout: How long a request may take.
        ///   - maxBodyBytes: The largest body accepted; 64 MiB by default, as an endpoint's `max_body`.
        ///   - environment: Where secrets are looked up.
        ///   - stateDirectory: Where rotated OAuth2 refresh tokens are kept.
        public init(
            timeout: Duration = .seconds(30),
            maxBodyBytes: Int = 64 << 20,
            environment: [String: String] = ProcessInfo.processInfo.environment,
            stateDirectory: String? = nil
        ) {
            self.timeout = timeout
            self.maxBodyBytes = maxBodyBytes
            self.environment = environment
            self.stateDirectory = stateDirectory
        }
    }

    /// The client's limits.
    public let configuration: Configuration
    /// The connections, shared with a ``SyncCache`` that fetches with this client.
    package let transport: HTTPTransport
    /// The OAuth2 tokens of the requests sent with this client, and of the syncs of a ``SyncCache`` that shares it.
    package let tokens: OAuth2Tokens

    /// Starts a client; call ``shutdown()`` once you are done with it.
    ///
    /// - Parameter configuration: Limits and environment.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        self.transport = HTTPTransport(environment: configuration.environment)
        self.tokens = OAuth2Tokens(transport: transport, now: { Date().timeIntervalSince1970 })
    }

    /// Closes the pooled connections. Call it once, after the last fetch.
    ///
    /// - Throws: ``APIError/Code/transport`` when the connections cannot be closed cleanly.
    public func shutdown() async throws(APIError) {
        do {
            try await transport.shutdown()
        } catch {
            throw .transport("the HTTP client did not shut down cleanly")
        }
    }

    /// Runs `body` with a new client and shuts the client down afterwards, whether `body` throws or not.
    ///
    /// - Parameters:
    ///   - configuration: Limits and environment.
    ///   - body: What to do with the client.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws, or ``APIError`` from ``shutdown()``.
    public static func withClient<Result>(
        configuration: Configuration = Configuration(),
        _ body: (APIClient) async throws -> Result
    ) async throws -> Result {
        let client = APIClient(configuration: configuration)
        let result: Result
        do {
            result = try await body(client)
        } catch {
            try? await client.shutdown()  // the body's error is the one to report
            throw error
        }
        try await client.shutdown()
        return result
    }

    /// Sends the request and returns the answer, whatever its status.
    ///
    /// ```swift
    /// let response = try await client.response(for: request)
    /// print(response.status, response.body.count)
    /// ```
    ///
    /// - Parameter request: What to request.
    /// - Returns: The status, headers and whole body.
    /// - Throws: ``APIError`` `.invalidURL`, `.credential` (a secret that cannot be read, no OAuth2 token),
    ///   `.transport`, `.timeout` or `.bodyTooLarge`; never `.status`.
    public func response(for request: APIRequest) async throws(APIError) -> APIResponse {
        var outgoing = FetchRequest(
            url: try request.url(),
            headers: request.headers.map { (name: $0.name, value: $0.value) },
            timeout: configuration.timeout,
            maxBody: configuration.maxBodyBytes
        )
        outgoing.method = request.method.rawValue
        outgoing.body = request.body.map { Array($0) }
        (outgoing.proxy, outgoing.tls) = (request.proxy, request.tls)
        do {
            try request.credential?.apply(to: &outgoing, environment: configuration.environment)
        } catch {
            throw .credential(error.description)
        }
        let fetched: FetchResponse
        do {
            if let client = request.credential?.oauth2 {
                // The token is asked for now, and renewed once if the server answers 401.
                let state =
                    configuration.stateDirectory
                    ?? OAuth2TokenFiles.stateDirectory(environment: configuration.environment, fallback: ".")
                fetched = try await tokens.send(
                    outgoing, for: client, environment: configuration.environment, stateDirectory: state,
                    { try await transport.fetch($0) }, response: { $0 })
            } else {
                fetched = try await transport.fetch(outgoing)
            }
        } catch let error as OAuth2TokenError {
            throw .credential("no OAuth2 access token: \(error)")
        } catch let error as FetchError {
            throw APIError(error, maxBody: configuration.maxBodyBytes)
        } catch {
            throw .transport("the request failed")
        }
        return APIResponse(
            status: fetched.status,
            headers: fetched.headers.map { HTTPHeader(name: $0.name, value: $0.value) },
            body: Data(fetched.body.readableBytesView)
        )
    }

    /// Fetches the request and decodes its 2xx JSON body.
    ///
    /// ```swift
    /// let user = try await client.fetch(request, as: User.self)
    /// ```
    ///
    /// - Parameters:
    ///   - request: What to request.
    ///   - type: The type to decode.
    ///   - decoder: The decoder, with its strategies and `userInfo`.
    /// - Returns: The decoded value.
    /// - Throws: ``APIError``: `.status` for a non-2xx answer, `.emptyBody`, `.decoding` with the JSON path, or
    ///   what ``response(for:)`` throws.
    public func fetch<T: Decodable>(
        _ request: APIRequest,
        as type: T.Type = T.self,
        decoder: JSONDecoder = JSONDecoder()
    ) async throws(APIError) -> T {
        let body = try await successBody(for: request)
        do {
            return try decoder.decode(type, from: body)
        } catch {
            throw .decoding(DecodingFailure(error, in: body))
        }
    }

    /// Fetches the resource's request and decodes its 2xx body with the resource's decoding.
    ///
    /// ```swift
    /// let names = try await client.fetch(Resource(request: users, as: [User].self).map { $0.map(\.name) })
    /// ```
    ///
    /// - Parameter resource: The request and its decoding.
    /// - Returns: The decoded value.
    /// - Throws: ``APIError``: `.status` for a non-2xx answer, `.emptyBody`, `.decoding`, or what
    ///   ``response(for:)`` throws.
    public func fetch<Value>(_ resource: Resource<Value>) async throws(APIError) -> Value {
        let body = try await successBody(for: resource.request)
        do {
            return try resource.decode(body)
        } catch {
            throw .decoding(DecodingFailure(error, in: body))
        }
    }

    /// The body of a 2xx answer that has one.
    private func successBody(for request: APIRequest) async throws(APIError) -> Data {
        let answer = try await response(for: request)
        guard answer.isSuccess else {
            let prefix = answer.body.prefix(APIError.bodyPrefixLength)
            throw .status(
                code: answer.status, headers: answer.headers, bodyPrefix: String(decoding: prefix, as: UTF8.self))
        }
        guard !answer.body.isEmpty else { throw .emptyBody }
        return answer.body
    }
}
