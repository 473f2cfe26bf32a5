/// What one sync of one endpoint did.
public struct SyncSummary: Sendable, Hashable, CustomStringConvertible {
    /// How a run ended.
    public enum Outcome: String, Sendable, Hashable {
        /// Records or the document changed.
        case changed
        /// A 200 with the same data.
        case unchanged
        /// A 304: nothing to fetch.
        case notModified = "not_modified"
        /// The upstream or the body failed; the stored data was kept.
        case failed
        /// The response was refused (an empty snapshot, …); the stored data was kept.
        case refused
    }

    /// The endpoint's name.
    public var endpoint: String
    /// How the run ended.
    public var outcome: Outcome
    /// The upstream's last status (200 for file://); nil when no answer came.
    public var httpStatus: Int?
    /// The records stored after the run.
    public var records: Int
    /// Rows inserted by the run.
    public var inserted: Int
    /// Rows whose JSON changed.
    public var updated: Int
    /// Rows deleted because a snapshot no longer held them (or flagged deleted).
    public var deleted: Int
    /// Records refused (a required value missing, a value of the wrong type in strict mode); see ``problems``.
    public var rejected: Int
    /// The endpoint's version after the run.
    public var version: Int64
    /// One sentence, for failed and refused runs.
    public var error: String?
    /// Each rejected or repaired record, as syncd reports it: `users[id=8] > address.geo.lat (real): found string "x"`.
    public var problems: [String]

    init(_ report: SyncReport) {
        endpoint = report.endpoint
        outcome = Outcome(rawValue: report.outcome.rawValue) ?? .failed
        httpStatus = report.httpStatus
        records = report.storedRecords
        inserted = report.inserted
        updated = report.updated
        deleted = report.deleted
        rejected = report.rejected
        version = report.version
        error = report.error
        problems = report.problems.map { "\($0)" }
    }

    /// One line: `users: changed, 300 records (…) → version 1`, or the failure's sentence.
    public var description: String {
        if let error { return "\(endpoint): \(outcome.rawValue): \(error)" }
        return "\(endpoint): \(outcome.rawValue), \(records) records (\(inserted) inserted, \(updated) updated, "
            + "\(deleted) deleted, \(rejected) rejected) → version \(version)"
    }
}
