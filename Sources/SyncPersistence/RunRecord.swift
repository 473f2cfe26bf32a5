package import SyncDecoding
package import SyncIngest
import SyncSupport

/// A run's row of syncd_runs and its problems' rows of syncd_errors, as ``SyncApply`` made them
/// (``StoreTransaction/insertRun(_:)``): a store writes ``values`` into ``columns``, and each problem's values into
/// ``problemColumns`` after the run's id and the endpoint's name.
package struct RunRecord: Sendable {
    /// At most this many problems of one run are stored in syncd_errors, as many as the intake keeps; the counts stay
    /// exact.
    package static let storedProblemLimit = RecordIntake.problemLimit
    /// syncd_runs keeps this many runs per endpoint.
    package static let retainedRuns = 1000

    /// The columns of syncd_runs a run writes, in the order of ``values``.
    package static let columns = [
        "endpoint", "started_at", "finished_at", "duration_ms", "outcome", "http_status", "bytes", "pages", "records",
        "inserted", "updated", "deleted", "rejected", "version", "error", "due_at",
    ]
    /// The columns of syncd_errors after `run_id` and `endpoint`, in the order of ``problems``' values.
    package static let problemColumns = [
        "record_index", "record_key", "path", "column_name", "expected", "found", "action", "message",
    ]

    /// The endpoint's name.
    package var endpoint: String
    /// The run's row, in the order of ``columns``.
    package var values: [ColumnValue]
    /// At most ``storedProblemLimit`` problems, each in the order of ``problemColumns``.
    package var problems: [[ColumnValue]]

    /// The rows of `report`, a run of `facts` due at `dueAt` (seconds since 1970).
    package init(_ report: SyncSummary, facts: RunFacts, dueAt: Double?) {
        let milliseconds = ((facts.finishedAt - facts.startedAt) * 1000).rounded()
        let counts = [
            facts.pageCount, report.receivedRecords, report.inserted, report.updated, report.deleted, report.rejected,
        ]
        endpoint = report.endpoint
        values =
            [
                .text(report.endpoint), .text(Timestamp.format(facts.startedAt)),
                .text(Timestamp.format(facts.finishedAt)),
                .integer(milliseconds.isFinite ? Int64(max(0, min(milliseconds, 1e15))) : 0),
                .text(report.outcome.rawValue), report.httpStatus.map { .integer(Int64($0)) } ?? .null,
                .integer(Int64(report.bytes)),
            ] + counts.map { .integer(Int64($0)) } + [
                .integer(report.version), report.error.map(ColumnValue.text) ?? .null,
                dueAt.map { .text(Timestamp.format($0)) } ?? .null,
            ]
        problems = report.recordProblems.prefix(Self.storedProblemLimit).map { problem in
            [
                .integer(Int64(problem.recordIndex)), problem.recordKey.map { .text(ColumnValue.keyJSON($0)) } ?? .null,
                .text(problem.path), problem.column.map(ColumnValue.text) ?? .null, .text(problem.expected),
                .text(problem.found), .text(problem.action.rawValue), .text(problem.summary(endpoint: report.endpoint)),
            ]
        }
    }
}
