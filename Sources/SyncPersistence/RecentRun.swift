/// One row of `syncd_runs`, the part the read API's status page charts: how long a sync of an endpoint took, how it
/// ended and how many records it received.
package struct RecentRun: Sendable, Hashable {
    /// The endpoint's name.
    package var endpoint: String
    /// When the run started (RFC 3339, UTC), as stored.
    package var startedAt: String
    /// How long it took, in milliseconds; never negative.
    package var durationMilliseconds: Int64
    /// How it ended: `changed`, `unchanged`, `not_modified`, `failed` or `refused` (``SyncSummary/Outcome``).
    package var outcome: SyncSummary.Outcome
    /// The records its answer held (0 for a 304 or a failure).
    package var records: Int64

    package init(
        endpoint: String, startedAt: String, durationMilliseconds: Int64, outcome: SyncSummary.Outcome, records: Int64
    ) {
        self.endpoint = endpoint
        self.startedAt = startedAt
        self.durationMilliseconds = max(0, durationMilliseconds)
        self.outcome = outcome
        self.records = max(0, records)
    }

    /// The most runs of one endpoint a reader returns, whatever it is asked for: `syncd_runs` keeps
    /// ``RunRecord/retainedRuns`` of them, far more than a chart shows.
    package static let readLimit = 100
}
