internal import HTTPTypes
internal import Hummingbird
internal import NIOCore
internal import SyncCore
import SyncSupport

/// The validators and freshness headers of every cached response, and RFC 9110's conditional requests.
enum CacheHeaders {
    static let cacheStatus = fieldName("Cache-Status")
    static let prefer = fieldName("Prefer")
    /// An event stream's reconnect says the last event it had (the change feed live).
    static let lastEventID = fieldName("Last-Event-ID")
    /// Asks nginx in front to pass an event stream on as it comes rather than buffer it.
    static let accelBuffering = fieldName("X-Accel-Buffering")

    private static func fieldName(_ name: StaticString) -> HTTPField.Name {
        guard let field = HTTPField.Name("\(name)") else { preconditionFailure("\(name) is a valid token") }
        return field
    }

    /// `ETag`, `Last-Modified`, `Cache-Control`, `Age` and `Cache-Status` (RFC 9211).
    ///
    /// `Cache-Control` says `max-age` from the last poll to the next (0 when stale), and the endpoint's
    /// `stale-while-revalidate` and `stale-if-error` (RFC 5861), so that a cache in front keeps serving a known-good
    /// copy while it asks again, or while syncd is down: `max-age=300, stale-while-revalidate=30, stale-if-error=3600`.
    ///
    /// `Cache-Status` names syncd as the cache; a hit's `ttl` is the seconds until the next poll, negative once
    /// it is overdue, and stale data says why in `detail`:
    /// `syncd; hit; ttl=120` or `syncd; hit; ttl=-30; detail="last poll failed"`.
    static func fields(etag: String, lastModified: String?, freshness: SyncCache.Freshness) -> HTTPFields {
        var fields = HTTPFields()
        fields.reserveCapacity(6)
        fields[.eTag] = etag
        if let lastModified { fields[.lastModified] = lastModified }
        fields[.cacheControl] =
            "max-age=\(freshness.maxAge), stale-while-revalidate=\(freshness.staleWhileRevalidate), "
            + "stale-if-error=\(freshness.staleIfError)"
        fields[.age] = String(freshness.age)
        if let reason = freshness.staleReason {
            fields[cacheStatus] = "syncd; hit; ttl=\(min(freshness.ttl, 0)); detail=\"\(reason.description)\""
        } else {
            fields[cacheStatus] = "syncd; hit; ttl=\(freshness.ttl)"
        }
        return fields
    }

    /// Whether the request's preconditions say the client's copy is current (RFC 9110 §13.2.2): If-None-Match
    /// when present (weak comparison, lists, `*`), else If-Modified-Since against Last-Modified.
    static func isNotModified(_ request: HTTPFields, etag: String, lastModified: Double?, now: Double) -> Bool {
        if let ifNoneMatch = value(of: .ifNoneMatch, in: request) {
            return EntityTag.ifNoneMatch(ifNoneMatch, matches: etag)
        }
        guard let lastModified, let header = value(of: .ifModifiedSince, in: request),
            let since = HTTPDate.parse(header, now: now)
        else { return false }
        return lastModified.rounded(.down) <= since
    }

    /// A field's value as `HTTPFields`' subscript gives it (several fields of the name are joined), without the
    /// subscript's joining when there is one: what a revalidation costs is mostly this lookup.
    static func value(of name: HTTPField.Name, in fields: HTTPFields) -> String? {
        var found: String?
        for field in fields where field.name == name {
            guard found == nil else { return fields[name] }
            found = field.value
        }
        return found
    }
}

/// An answer from memory: a kept representation's, or one made for the request (a list's revalidation).
enum MemoryAnswer {
    case kept(KeptAnswer)
    case made(Answer)

    var answer: Answer {
        switch self {
        case .kept(let kept): kept.answer
        case .made(let answer): answer
        }
    }
}

/// A kept representation and what its answer to one request depends on besides it: the answer is a function of
/// these alone (``answer``), which is what lets the fast path keep its encoded bytes.
struct KeptAnswer {
    var representation: Representation
    var freshness: SyncCache.Freshness
    /// Whether the request's preconditions say the client's copy is current: a 304.
    var notModified: Bool

    /// The representation's answer to `request`: 304 with the headers alone when the client's copy is current.
    init(_ representation: Representation, freshness: SyncCache.Freshness, request: HTTPFields, now: Double) {
        self.representation = representation
        self.freshness = freshness
        notModified = CacheHeaders.isNotModified(
            request, etag: representation.etag, lastModified: representation.lastModified, now: now)
    }

    var answer: Answer {
        var headers = CacheHeaders.fields(
            etag: representation.etag, lastModified: representation.lastModifiedText, freshness: freshness)
        if let contentRange = representation.contentRange { headers[.contentRange] = contentRange }
        if notModified { return Answer(status: .notModified, headers: headers, body: nil) }
        headers[.contentType] = representation.contentType
        return Answer(status: .ok, headers: headers, body: representation.body)
    }
}

/// A cached route's answer before it is sent: the same whether Hummingbird's router or the event loop's fast path
/// (``ReadFastPath``) sends it. `Date`, `Server` and `Content-Length` are added by whichever sends it.
struct Answer: Sendable {
    var status: HTTPResponse.Status
    var headers: HTTPFields
    /// `nil` for a 304.
    var body: ByteBuffer?

    /// The answer as Hummingbird sends it.
    var response: Response {
        guard let body else { return Response(status: status, headers: headers) }
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: body))
    }
}
