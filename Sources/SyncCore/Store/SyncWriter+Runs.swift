extension SyncWriter {
    /// Records the run in syncd_runs with its first problems in syncd_errors, and keeps the last
    /// ``SyncWriter/retainedRuns`` runs of the endpoint.
    ///
    /// - Returns: the run's id.
    func insertRun(_ database: Database, report: SyncSummary, facts: RunFacts) throws -> Int64 {
        let durationMilliseconds = Int64(((facts.finishedAt - facts.startedAt) * 1000).rounded())
        try database.execute(
            """
            INSERT INTO syncd_runs (endpoint, started_at, finished_at, duration_ms, outcome, http_status, bytes, pages,
            records, inserted, updated, deleted, rejected, version, error, due_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """,
            [
                .text(endpoint.name.name), .text(Timestamp.format(facts.startedAt)),
                .text(Timestamp.format(facts.finishedAt)), .integer(max(0, durationMilliseconds)),
                .text(report.outcome.rawValue), report.httpStatus.map { .integer(Int64($0)) } ?? .null,
                .integer(Int64(report.bytes)), .integer(Int64(facts.pageCount)),
                .integer(Int64(report.receivedRecords)),
                .integer(Int64(report.inserted)), .integer(Int64(report.updated)), .integer(Int64(report.deleted)),
                .integer(Int64(report.rejected)), .integer(report.version), report.error.map(SQLiteValue.text) ?? .null,
                dueAt.map { .text(Timestamp.format($0)) } ?? .null,
            ]
        )
        let runID = database.lastInsertRowID
        try insertProblems(database, report: report, runID: runID)
        try database.execute(
            """
            DELETE FROM syncd_runs WHERE endpoint = ?1 AND id <= (SELECT id FROM syncd_runs WHERE endpoint = ?1
            ORDER BY id DESC LIMIT 1 OFFSET ?2)
            """,
            [.text(endpoint.name.name), .integer(Int64(Self.retainedRuns))]
        )
        return runID
    }

    /// The run's record problems, into syncd_errors; nothing prepared when there are none (most runs).
    private func insertProblems(_ database: Database, report: SyncSummary, runID: Int64) throws {
        guard !report.recordProblems.isEmpty else { return }
        let insertProblem = try database.makeStatement(
            """
            INSERT INTO syncd_errors (run_id, endpoint, record_index, record_key, path, column_name, expected, found,
            action, message) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """
        )
        for problem in report.recordProblems.prefix(Self.storedProblemLimit) {
            try insertProblem.bind([
                .integer(runID), .text(endpoint.name.name), .integer(Int64(problem.recordIndex)),
                problem.recordKey.map { .text(ColumnValue.keyJSON($0)) } ?? .null, .text(problem.path),
                problem.column.map(SQLiteValue.text) ?? .null, .text(problem.expected), .text(problem.found),
                .text(problem.action.rawValue), .text(problem.summary(endpoint: endpoint.name.name)),
            ])
            try insertProblem.step()
        }
    }
}
