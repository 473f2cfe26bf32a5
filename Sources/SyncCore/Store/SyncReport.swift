/// How one sync of one endpoint ended.
package enum RunOutcome: String, Sendable, Hashable {
    /// A 200 that changed the stored data: the endpoint's version moved.
    case changed
    /// A 200 whose data was already stored.
    case unchanged
    /// A 304: only freshness changed.
    case notModified = "not_modified"
    /// No usable answer: the stored data is as it was.
    case failed
    /// An answer syncd would not apply (an empty snapshot): the stored data is as it was.
    case refused

    package var isFailure: Bool { self == .failed || self == .refused }
}

/// What one sync of one endpoint did: the row it wrote to syncd_runs, and the record problems.
package struct SyncReport: Sendable {
    package var endpoint: String
    package var outcome: RunOutcome
    /// A document endpoint's run: one body, no records.
    package var isDocument = false
    package var runID: Int64?
    package var httpStatus: Int?
    package var bytes: Int = 0
    /// The responses of the run: 1 without pagination, 0 when none came.
    package var pages: Int = 0
    package var records: Int = 0
    package var inserted: Int = 0
    package var updated: Int = 0
    package var deleted: Int = 0
    package var rejected: Int = 0
    /// The endpoint's version after the run.
    package var version: Int64 = 0
    /// The number of stored records after the run.
    package var storedRecords: Int = 0
    package var problems: [DecodingProblem] = []
    /// One sentence, for failed and refused runs.
    package var error: String?
    /// Seconds the upstream asked to wait (Retry-After on a 429 or 503), for the scheduler.
    package var retryAfter: Double?
    /// How late the run started after the scheduler's due time, in seconds; `nil` for a run nobody scheduled.
    package var lateSeconds: Double?
    /// How long the run took, from its start to its commit or failure; set by the scheduler.
    package var durationSeconds: Double = 0
    /// The endpoint's failures in a row after this run (0 after a success); set by the scheduler.
    package var consecutiveFailures = 0

    package init(endpoint: String, outcome: RunOutcome) {
        self.endpoint = endpoint
        self.outcome = outcome
    }
}

/// The facts of a run that the store records with it. Times are seconds since 1970 (UTC).
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
    var pageCount: Int { pages ?? (httpStatus == nil ? 0 : 1) }
}
