import SyncDecoding
internal import SyncSQLite

/// A run's rows of syncd_runs and syncd_errors in SQLite.
extension SQLiteWriter {
    /// The statement that inserts a run, written once.
    private static let insertRunSQL =
        "INSERT INTO syncd_runs (\(RunRecord.columns.joined(separator: ", "))) VALUES ("
        + Array(repeating: "?", count: RunRecord.columns.count).joined(separator: ", ") + ")"

    func insertRun(_ run: RunRecord) throws -> Int64 {
        try database.execute(Self.insertRunSQL, run.values.map(SQLiteValue.init))
        let runID = database.lastInsertRowID
        try insertProblems(run.problems, runID: runID)
        try database.execute(
            """
            DELETE FROM syncd_runs WHERE endpoint = ?1 AND id <= (SELECT id FROM syncd_runs WHERE endpoint = ?1
            ORDER BY id DESC LIMIT 1 OFFSET ?2)
            """,
            [.text(run.endpoint), .integer(Int64(RunRecord.retainedRuns))]
        )
        return runID
    }

    /// The run's record problems, into syncd_errors; nothing prepared when there are none (most runs).
    private func insertProblems(_ problems: [[ColumnValue]], runID: Int64) throws {
        guard !problems.isEmpty else { return }
        let columns = ["run_id", "endpoint"] + RunRecord.problemColumns
        let placeholders = Array(repeating: "?", count: columns.count).joined(separator: ", ")
        let insertProblem = try database.makeStatement(
            "INSERT INTO syncd_errors (\(columns.joined(separator: ", "))) VALUES (\(placeholders))")
        for problem in problems {
            try insertProblem.bind([.integer(runID), .text(name)] + problem.map(SQLiteValue.init))
            try insertProblem.step()
        }
    }
}
