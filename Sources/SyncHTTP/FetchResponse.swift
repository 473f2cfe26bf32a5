package import NIOCore

/// What an upstream answered: the status, the validators and the whole body.
package struct FetchResponse: Sendable {
    package var status: Int
    package var etag: String?
    package var lastModified: String?
    package var contentType: String?
    /// The Retry-After header as received (429 and 503 answers carry it).
    package var retryAfter: String?
    /// Every `Link` field, in order (RFC 8288), for link pagination.
    package var links: [String]
    /// The upstream's rate limit state, when it sent one.
    package var rateLimit: RateLimitHeaders?
    /// The body, read in full; empty for a 304.
    package var body: ByteBuffer
    /// Every header field as received, in order.
    package var headers: [(name: String, value: String)] = []

    package init(
        status: Int, etag: String? = nil, lastModified: String? = nil, contentType: String? = nil,
        retryAfter: String? = nil, links: [String] = [], rateLimit: RateLimitHeaders? = nil, body: ByteBuffer
    ) {
        self.status = status
        self.retryAfter = retryAfter
        self.links = links
        self.rateLimit = rateLimit
        self.etag = etag
        self.lastModified = lastModified
        self.contentType = contentType
        self.body = body
    }

    package var isNotModified: Bool { status == 304 }

    package var isSuccess: Bool { (200..<300).contains(status) }
}
