public import FoundationEssentials
internal import NIOCore
import SyncHTTP
import SyncPersistence
import SyncSupport

/// Fetching: offline-first fetches of any URL, cached in the same database. Fresh answers come from the cache,
/// stale ones are revalidated upstream with `If-None-Match`/`If-Modified-Since`, and when the upstream cannot be
/// reached the cached answer is returned, marked stale (stale-if-error) — never an error while there is data.
///
/// ```swift
/// let answer = try await cache.fetch("https://example.com/config.json", maxAge: .seconds(60)) { data in
///     try JSONDecoder().decode(AppConfig.self, from: data)
/// }
/// answer.value        // AppConfig
/// answer.source       // .cache, .revalidated, .network or .staleAfterError
/// ```
extension SyncCache {
    /// Where an answer came from.
    public enum Source: String, Sendable, Hashable {
        /// The cache, still within `maxAge`: no request was made.
        case cache
        /// The cache, confirmed by the upstream's 304.
        case revalidated
        /// A new body from the upstream.
        case network
        /// The cache, because the upstream could not be asked (or failed): the value may be out of date.
        case staleAfterError
    }

    /// A decoded answer and how current it is.
    public struct Answer<Value> {
        /// The decoded body.
        public var value: Value
        /// Where the body came from.
        public var source: Source
        /// When the upstream last confirmed this body.
        public var validatedAt: Date
        /// Why the upstream could not confirm it, for ``Source/staleAfterError``.
        public var error: String?
        /// Whether the value may be out of date.
        public var isStale: Bool { source == .staleAfterError }
    }

    /// Fetches `url`, from the cache while it is younger than `maxAge`.
    ///
    /// - Parameters:
    ///   - url: The URL to fetch; it is also the cache key.
    ///   - headers: Sent with every request (an `Authorization` header, say); they are not part of the cache key.
    ///   - maxAge: How long a cached body is used without asking the upstream; the default, zero, always asks.
    ///   - timeout: The time the whole request to the upstream, body included, may take.
    ///   - decode: Turns the body into a value; a body it refuses is not cached.
    /// - Throws: ``SyncError/Code/unavailable`` only when there is no cached body to fall back on, or `decode`'s error.
    public func fetch<Value>(
        _ url: String, headers: [String: String] = [:], maxAge: Duration = .zero,
        timeout: Duration = .seconds(30), decode: (Data) throws -> Value
    ) async throws -> Answer<Value> {
        let request = FetchRequest(
            url: url, headers: headers.sorted { $0.key < $1.key }.map { (name: $0.key, value: $0.value) },
            timeout: timeout)
        return try await fetch(key: Self.storedKey(url), request: request, maxAge: maxAge, decode: decode)
    }

    /// Fetches a ``Resource`` (a GET ``APIRequest`` and its decoding), from the cache while it is younger than
    /// `maxAge`: the offline-first form of `APIClient.fetch(_:)`.
    ///
    /// ```swift
    /// let people = Resource(request: APIRequest(baseURL: "https://swapi.dev", path: "/api/people"), as: [Person].self)
    /// let answer = try await cache.fetch(people, maxAge: .seconds(300))
    /// ```
    ///
    /// The cache key is the request's URL without its credential, so a rotated token keeps the cached answer.
    ///
    /// - Parameters:
    ///   - resource: The GET request without a body to fetch, and how its body is decoded.
    ///   - maxAge: How long a cached body is used without asking the upstream; the default, zero, always asks.
    ///   - timeout: The time the whole request to the upstream, body included, may take.
    ///   - environment: Where the credential's environment variables and `$CREDENTIALS_DIRECTORY` are read.
    /// - Throws: ``APIError`` when the request's URL or credential is unusable; ``SyncError/Code/unavailable`` when there is
    ///   no cached body to fall back on; what the resource's decoding throws.
    public func fetch<Value>(
        _ resource: Resource<Value>, maxAge: Duration = .zero, timeout: Duration = .seconds(30),
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) async throws -> Answer<Value> {
        let target = resource.request
        guard target.method == .get, target.body == nil else {
            throw SyncError.badQuery("only GET requests without a body are cached")
        }
        let url = try target.url()
        var request = FetchRequest(
            url: url, headers: target.headers.map { (name: $0.name, value: $0.value) }, timeout: timeout)
        (request.proxy, request.tls) = (target.proxy, target.tls)
        do {
            try target.credential?.apply(to: &request, environment: environment)
        } catch {
            throw APIError.credential(error.description)
        }
        return try await fetch(
            key: Self.storedKey(url), request: request, maxAge: maxAge, decode: resource.decode,
            oauth2: target.credential?.oauth2.map { ($0, environment) })
    }

    private func fetch<Value>(
        key url: String, request base: FetchRequest, maxAge: Duration, decode: (Data) throws -> Value,
        oauth2: (Credential.OAuth2, [String: String])? = nil
    ) async throws -> Answer<Value> {
        let writer = try writable("fetch a resource")
        let stored = try await writer.storage.resource(url)
        let now = writer.now()
        if let stored, now - stored.validatedAt < maxAge.scheduleSeconds {
            return Answer(
                value: try decode(stored.body), source: .cache,
                validatedAt: Date(timeIntervalSince1970: stored.validatedAt))
        }
        var request = base
        request.etag = stored?.etag
        request.lastModified = stored?.lastModified
        let response: FetchResponse
        do {
            response = try await writer.fetch(request, oauth2: oauth2)
        } catch {
            return try stale(stored, because: "\(error)", decode: decode)
        }
        if response.isNotModified, let stored {
            try await writer.storage.touchResource(url, validatedAt: now)
            return Answer(
                value: try decode(stored.body), source: .revalidated, validatedAt: Date(timeIntervalSince1970: now))
        }
        guard (200..<300).contains(response.status) else {
            return try stale(
                stored, because: "HTTP \(response.status) \(HTTPStatusText.reason(response.status))", decode: decode)
        }
        let body = Data(response.body.readableBytesView)
        let value = try decode(body)
        let fresh = StoredResource(
            body: body, contentType: response.contentType, etag: response.etag, lastModified: response.lastModified,
            validatedAt: now)
        try await writer.storage.storeResource(fresh, url)
        return Answer(value: value, source: .network, validatedAt: Date(timeIntervalSince1970: now))
    }

    private func stale<Value>(
        _ stored: StoredResource?, because reason: String, decode: (Data) throws -> Value
    ) throws -> Answer<Value> {
        guard let stored else { throw SyncError.unavailable(reason) }
        return Answer(
            value: try decode(stored.body), source: .staleAfterError,
            validatedAt: Date(timeIntervalSince1970: stored.validatedAt), error: reason)
    }
}

extension SyncCache.Answer: Sendable where Value: Sendable {}

/// One row of `syncd_resources`.
