public import FoundationEssentials

/// One request to an API: where it goes, how to ask, and how to authenticate — the target of an ``APIClient``
/// fetch. (An endpoint that syncd keeps in sync is a ``SyncEndpoint``.)
///
/// Building the URL never traps: a base URL that is not an absolute http or https URL makes the fetch throw
/// ``APIError/Code/invalidURL``.
///
/// ```swift
/// let users = APIRequest(
///     baseURL: "https://jsonplaceholder.typicode.com", path: "/users",
///     queryItems: [URLQueryItem(name: "_limit", value: "5")],
///     credential: .bearer(.environment("USERS_TOKEN")))
/// let list = try await client.fetch(users, as: [User].self)
/// ```
///
/// ## Topics
///
/// - ``init(baseURL:path:queryItems:headers:method:body:credential:)``
/// - ``url()``
/// - ``Method``
/// - ``proxy``
/// - ``tls``
public struct APIRequest: Sendable, Hashable {
    /// The request method, GET unless told otherwise.
    public struct Method: Sendable, Hashable, RawRepresentable {
        /// The method as sent, e.g. `GET`.
        public var rawValue: String

        /// Makes a method; methods are case-sensitive and usually upper case.
        ///
        /// - Parameter rawValue: The method's name.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// `GET`, the default.
        public static let get = Method(rawValue: "GET")
        /// `POST`.
        public static let post = Method(rawValue: "POST")
        /// `PUT`.
        public static let put = Method(rawValue: "PUT")
        /// `PATCH`.
        public static let patch = Method(rawValue: "PATCH")
        /// `DELETE`.
        public static let delete = Method(rawValue: "DELETE")
    }

    /// The API's root, e.g. `https://api.example.com/v2`.
    public var baseURL: String
    /// The path below ``baseURL``, e.g. `/users`; one slash joins them.
    public var path: String
    /// Query parameters added after any the base URL has.
    public var queryItems: [URLQueryItem]
    /// Headers sent with the request, replacing syncd's defaults (`Accept: application/json`) of the same name.
    public var headers: [HTTPHeader]
    /// The request method. The default is ``Method/get``.
    public var method: Method
    /// The request body, sent only when set.
    public var body: Data?
    /// How the request authenticates, if at all.
    public var credential: Credential?
    /// The HTTP proxy the request goes through. The default is the environment's (`HTTPS_PROXY`, `NO_PROXY`, …),
    /// read from the client's ``APIClient/Configuration/environment``.
    public var proxy: HTTPProxy = .environment
    /// The trust roots and client certificate of an HTTPS request. The default is the system's roots, and no client
    /// certificate.
    public var tls = TLSSettings()

    /// Describes a request; nothing is checked until it is fetched.
    ///
    /// - Parameters:
    ///   - baseURL: The API's root, an absolute http or https URL.
    ///   - path: The path below the base URL.
    ///   - queryItems: Query parameters.
    ///   - headers: Extra request headers.
    ///   - method: The request method; GET by default.
    ///   - body: The request body.
    ///   - credential: How the request authenticates.
    public init(
        baseURL: String,
        path: String = "",
        queryItems: [URLQueryItem] = [],
        headers: [HTTPHeader] = [],
        method: Method = .get,
        body: Data? = nil,
        credential: Credential? = nil
    ) {
        self.baseURL = baseURL
        self.path = path
        self.queryItems = queryItems
        self.headers = headers
        self.method = method
        self.body = body
        self.credential = credential
    }

    /// The URL the request goes to, without a query credential.
    ///
    /// ```swift
    /// try APIRequest(baseURL: "https://api.example.com/v2/", path: "/users").url()
    /// // "https://api.example.com/v2/users"
    /// ```
    ///
    /// - Returns: The absolute URL.
    /// - Throws: ``APIError/Code/invalidURL`` when the base URL is not an absolute http or https URL with a host, or
    ///   the path cannot be part of one.
    public func url() throws(APIError) -> String {
        // Only what precedes the query is named: a query may carry a secret.
        let shown = baseURL.prefix { $0 != "?" && $0 != "#" }
        guard var components = URLComponents(string: baseURL),
            let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https",
            let host = components.host, !host.isEmpty
        else {
            throw .invalidURL("the base URL \"\(shown)\" is not an absolute http or https URL")
        }
        if !path.isEmpty {
            var base = components.path
            while base.hasSuffix("/") { base.removeLast() }
            components.path = base + "/" + path.drop { $0 == "/" }
        }
        if !queryItems.isEmpty {
            components.queryItems = (components.queryItems ?? []) + queryItems
        }
        guard let url = components.string else {
            throw .invalidURL("the path \"\(path)\" cannot be joined to the base URL \"\(shown)\"")
        }
        return url
    }
}
