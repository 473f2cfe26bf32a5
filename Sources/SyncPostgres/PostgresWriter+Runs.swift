internal import PostgresNIO
internal import SyncCore

/// A run's rows of syncd_runs and syncd_errors in PostgreSQL.
extension PostgresWriter {
    func insertRun(_ run: RunRecord) throws -> Int64 {
        let placeholders = RunRecord.columns.indices.map { "$\($0 + 1)" }.joined(separator: ", ")
        let rows = try session.query(
            """
            INSERT INTO syncd_runs (\(RunRecord.columns.joined(separator: ", "))) VALUES (\(placeholders))
            RETURNING id
            """,
            run.values.map { PostgresValue($0) }
        ).rows
        let runID = try rows.first?[0].decode(Int64.self) ?? 0
        // A hundred problems an INSERT, each after the two values they share: the run's id and the endpoint.
        let columns = ["run_id", "endpoint"] + RunRecord.problemColumns
        for part in run.problems.chunks(of: 100) {
            var values: [PostgresValue] = [.integer(runID), .text(name)]
            var tuples: [String] = []
            for problem in part {
                let base = values.count
                tuples.append("($1, $2, " + problem.indices.map { "$\(base + $0 + 1)" }.joined(separator: ", ") + ")")
                values += problem.map { PostgresValue($0) }
            }
            try session.query(
                "INSERT INTO syncd_errors (\(columns.joined(separator: ", "))) VALUES \(tuples.joined(separator: ", "))",
                values)
        }
        try session.query(
            """
            DELETE FROM syncd_runs WHERE endpoint = $1 AND id <= (SELECT id FROM syncd_runs WHERE endpoint = $1
            ORDER BY id DESC LIMIT 1 OFFSET $2)
            """,
            [.text(run.endpoint), .integer(Int64(RunRecord.retainedRuns))])
        return runID
    }
}
