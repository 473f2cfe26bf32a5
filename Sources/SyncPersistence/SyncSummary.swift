package import SyncDecoding
package import SyncHTTP
package import SyncIngest

/// What one sync of one endpoint did: how it ended, what it changed, and the row it wrote to `syncd_runs`. The
/// one summary of a run, whoever started it: ``SyncCache/sync(_:)`` and ``SyncCache/run(onSync:)`` return it,
/// and `syncd sync`, `syncd run`, the metrics and the run history are made from it.
public struct SyncSummary: Sendable, Hashable, CustomStringConvertible {
    /// How a run ended.
    public enum Outcome: String, Sendable, Hashable {
        /// A 200 that changed the stored data: the endpoint's version moved.
        case changed
        /// A 200 whose data was already stored.
        case unchanged
        /// A 304: only freshness changed.
        case notModified = "not_modified"
        /// No usable answer: the stored data is as it was.
        case failed
        /// An answer syncd would not apply (an empty snapshot, too many deletions): the stored data is as it was.
        case refused

        /// Whether the run stored nothing: ``failed`` or ``refused``.
        public var isFailure: Bool { self == .failed || self == .refused }
    }

    /// The endpoint's name.
    public var endpoint: String
    /// How the run ended.
    public var outcome: Outcome
    /// Whether the endpoint caches one document rather than records.
    public var isDocument = false
    /// The upstream's last status (200 for `file://`); nil when no answer came.
    public var httpStatus: Int?
    /// The bytes of the bodies received.
    public var bytes: Int = 0
    /// The responses of the run: 1 without pagination, 0 when none came.
    public var pages: Int = 0
    /// The records the responses held, the rejected ones included.
    public var receivedRecords: Int = 0
    /// Rows inserted by the run.
    public var inserted: Int = 0
    /// Rows whose JSON changed.
    public var updated: Int = 0
    /// Rows deleted because a snapshot no longer held them (or flagged deleted).
    public var deleted: Int = 0
    /// Records refused (a required value missing, a value of the wrong type in strict mode); see ``problems``.
    public var rejected: Int = 0
    /// The endpoint's version after the run.
    public var version: Int64 = 0
    /// The records stored after the run.
    public var records: Int = 0
    /// One sentence, for failed and refused runs.
    public var error: String?
    /// How long the run took, from its start to its commit or failure, when a scheduler ran it.
    public var duration: Duration = .zero
    /// The endpoint's failures in a row after this run (0 after a success), when a scheduler ran it.
    public var consecutiveFailures = 0

    /// What a child endpoint's run did per parent; nil for an endpoint without a parent.
    public var fanOut: FanOut?

    /// The run's row in `syncd_runs`.
    package var runID: Int64?
    /// Each rejected or repaired record.
    package var recordProblems: [DecodingProblem] = []
    /// What the schema-drift journal did not hold before this run, for the log to say once.
    package var newDrift: [DriftObservations.Observation] = []
    /// Seconds the upstream asked to wait (Retry-After on a 429 or 503), for the scheduler.
    package var retryAfter: Double?
    /// What the upstream's answer said of its freshness (a 200's or a 304's `Cache-Control`, `Expires`, `Date` and
    /// `Age`; a paged collection's first page's), for a scheduler the upstream's freshness times.
    package var upstreamFreshness: UpstreamFreshness?
    /// How late the run started after the scheduler's due time, in seconds; `nil` for a run nobody scheduled.
    package var lateSeconds: Double?
    /// Whether the records were stored while the body still arrived (``SpoolFeed``), rather than after.
    package var storedWhileFetching = false

    package init(endpoint: String, outcome: Outcome) {
        self.endpoint = endpoint
        self.outcome = outcome
    }

    /// The error status that `on_status` made a `skip` (the stored data kept, as after a 304): a
    /// ``Outcome/notModified`` run whose status is not 304. Nil for every other run.
    public var skippedStatus: Int? {
        guard outcome == .notModified, let httpStatus, httpStatus != 304, httpStatus >= 400 else { return nil }
        return httpStatus
    }

    /// Each rejected or repaired record, as syncd reports it: `users[id=8] > address.geo.lat (real): found string "x"`.
    public var problems: [String] { recordProblems.map { "\($0)" } }

    /// One line: `users: changed, 300 records (…) → version 1`, or the failure's sentence; a child endpoint's
    /// adds its parents: `; parents: 40 walked (38 not modified, 1 empty), 0 skipped, 0 left for later runs`.
    public var description: String {
        if let error { return "\(endpoint): \(outcome.rawValue): \(error)" }
        return "\(endpoint): \(outcome.rawValue), \(records) records (\(inserted) inserted, \(updated) updated, "
            + "\(deleted) deleted, \(rejected) rejected) → version \(version)" + (fanOut.map { "; \($0)" } ?? "")
    }

    /// What a child endpoint's run did with its parents' rows.
    public struct FanOut: Sendable, Hashable, CustomStringConvertible {
        /// Parents whose children were fetched (a 304 included).
        public var walked = 0
        /// Walked parents that answered 304: their stored children stay.
        public var notModified = 0
        /// Walked parents whose answer held no record: an empty array, or a status `on_status` maps to `empty`.
        public var empty = 0
        /// Parents whose children stay without being fetched again: their row did not change (`children = "changed"`),
        /// their row cannot make the request (a null where the URL takes its value), or `on_status` skips their
        /// answer.
        public var skipped = 0
        /// Parents whose walk failed.
        public var failed = 0
        /// Parents beyond `max_parents`, left for later runs.
        public var left = 0

        public init() {}

        /// `parents: 40 walked (38 not modified, 1 empty), 0 skipped, 0 failed, 0 left for later runs`.
        public var description: String {
            "parents: \(walked) walked (\(notModified) not modified, \(empty) empty), \(skipped) skipped, "
                + "\(failed) failed, \(left) left for later runs"
        }
    }
}

extension SyncSummary {
    /// Takes what a run's records and its fetch came to: counts and problems from `intake`, status, bytes and pages
    /// from `facts`.
    package mutating func record(_ intake: RecordIntake, facts: RunFacts) {
        receivedRecords = intake.received
        rejected = intake.rejected
        recordProblems = intake.problems
        httpStatus = facts.httpStatus
        bytes = facts.bytes
        pages = facts.pageCount
    }
}
