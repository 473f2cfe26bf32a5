/// What the fetch of a run found, which the store records with it: when it started and ended (seconds since 1970,
/// UTC), the status, the validators, the bytes and the responses.
package struct RunFacts: Sendable {
    package var startedAt: Double
    package var finishedAt: Double
    package var httpStatus: Int?
    package var etag: String?
    package var lastModified: String?
    package var bytes: Int
    /// The responses received; nil means one when there is a status, else none.
    package var pages: Int?

    package init(
        startedAt: Double, finishedAt: Double, httpStatus: Int? = nil, etag: String? = nil, lastModified: String? = nil,
        bytes: Int = 0, pages: Int? = nil
    ) {
        self.startedAt = startedAt
        self.finishedAt = finishedAt
        self.httpStatus = httpStatus
        self.etag = etag
        self.lastModified = lastModified
        self.bytes = bytes
        self.pages = pages
    }

    /// The responses received, for syncd_runs.pages.
    package var pageCount: Int { pages ?? (httpStatus == nil ? 0 : 1) }
}
