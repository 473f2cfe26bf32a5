internal import HTTPTypes
internal import Hummingbird
internal import SyncCore

/// The validators and freshness headers of every cached response, and RFC 9110's conditional requests.
enum CacheHeaders {
    static let cacheStatus = fieldName("Cache-Status")
    static let prefer = fieldName("Prefer")

    private static func fieldName(_ name: StaticString) -> HTTPField.Name {
        guard let field = HTTPField.Name("\(name)") else { preconditionFailure("\(name) is a valid token") }
        return field
    }

    /// `ETag`, `Last-Modified`, `Cache-Control: max-age`, `Age` and `Cache-Status` (RFC 9211).
    ///
    /// `Cache-Status` names syncd as the cache; a hit's `ttl` is the seconds until the next poll, negative once
    /// it is overdue, and stale data says why in `detail`:
    /// `syncd; hit; ttl=120` or `syncd; hit; ttl=-30; detail="last poll failed"`.
    static func fields(etag: String, lastModified: String?, freshness: CacheFreshness) -> HTTPFields {
        var fields = HTTPFields()
        fields.reserveCapacity(6)
        fields[.eTag] = etag
        if let lastModified { fields[.lastModified] = lastModified }
        fields[.cacheControl] = "max-age=\(freshness.maxAge)"
        fields[.age] = String(freshness.age)
        if let reason = freshness.staleReason {
            fields[cacheStatus] = "syncd; hit; ttl=\(min(freshness.ttl, 0)); detail=\"\(reason.rawValue)\""
        } else {
            fields[cacheStatus] = "syncd; hit; ttl=\(freshness.ttl)"
        }
        return fields
    }

    /// Whether the request's preconditions say the client's copy is current (RFC 9110 §13.2.2): If-None-Match
    /// when present (weak comparison, lists, `*`), else If-Modified-Since against Last-Modified.
    static func isNotModified(_ request: Request, etag: String, lastModified: Double?, now: Double) -> Bool {
        if let ifNoneMatch = request.headers[.ifNoneMatch] {
            return EntityTag.ifNoneMatch(ifNoneMatch, matches: etag)
        }
        guard let lastModified, let header = request.headers[.ifModifiedSince],
            let since = HTTPDate.parse(header, now: now)
        else { return false }
        return lastModified.rounded(.down) <= since
    }

    /// The response for a representation: 304 with the headers alone when the client's copy is current.
    static func response(
        _ representation: Representation, freshness: CacheFreshness, request: Request, now: Double
    ) -> Response {
        var headers = fields(
            etag: representation.etag, lastModified: representation.lastModifiedText, freshness: freshness)
        if let contentRange = representation.contentRange { headers[.contentRange] = contentRange }
        if isNotModified(request, etag: representation.etag, lastModified: representation.lastModified, now: now) {
            return Response(status: .notModified, headers: headers)
        }
        headers[.contentType] = representation.contentType
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: representation.body))
    }
}
