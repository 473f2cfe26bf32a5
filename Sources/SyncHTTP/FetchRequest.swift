package import SyncModel

/// One conditional GET of an endpoint's URL.
package struct FetchRequest: Sendable {
    /// An absolute http, https or file URL.
    package var url: String
    /// Headers to send besides the conditional ones. Values may be secrets: never log them.
    package var headers: [(name: String, value: String)]
    /// The name of the query parameter that carries a credential (`auth = { type = "query" }`): a redirect to another
    /// origin never takes it along.
    package var credentialQueryName: String?
    /// The stored upstream ETag, sent as If-None-Match.
    package var etag: String?
    /// The stored upstream Last-Modified, sent as If-Modified-Since.
    package var lastModified: String?
    /// The time the whole request, body included, may take.
    package var timeout: Duration
    /// The largest body accepted, counted as it streams in (after decompression).
    package var maxBody: Int
    /// The request method; syncd's own fetches are all GET.
    package var method: String = "GET"
    /// The request body, sent only when set.
    package var body: [UInt8]?
    /// Whether a redirect is followed (``RedirectFollower``); when not, the redirect is the answer. A token request,
    /// whose body holds a client secret, follows none.
    package var followsRedirects = true
    /// The proxy the request goes through: the environment's by default. With ``tls``, it picks the transport's
    /// client (``HTTPClientPool``).
    package var proxy: HTTPProxy = .environment
    /// The trust roots and client certificate: the system's roots and none by default.
    package var tls = TLSSettings()

    package init(
        url: String,
        headers: [(name: String, value: String)] = [],
        etag: String? = nil,
        lastModified: String? = nil,
        timeout: Duration = EndpointConfiguration.defaultTimeout,
        maxBody: Int = EndpointConfiguration.defaultMaxBody
    ) {
        self.url = url
        self.headers = headers
        self.etag = etag
        self.lastModified = lastModified
        self.timeout = timeout
        self.maxBody = maxBody
    }
}
