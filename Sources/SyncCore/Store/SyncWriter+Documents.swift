package import NIOCore

extension SyncWriter {
    // MARK: - Documents

    /// Applies a 200 of a document endpoint: the body is stored when it differs from the stored one.
    package func applyDocument(body: ByteBuffer, contentType: String?, facts: RunFacts, database: Database) throws
        -> SyncSummary
    {
        try database.transaction(.immediate) {
            let state = try prepareEndpoint(database, kind: "document")
            var report = SyncSummary(endpoint: endpoint.name.name, outcome: .unchanged)
            report.isDocument = true
            report.httpStatus = facts.httpStatus
            report.bytes = facts.bytes
            report.receivedRecords = 1
            report.records = 1
            let bytes = [UInt8](body.readableBytesView)
            let stored = try database.scalar(
                "SELECT body FROM syncd_documents WHERE endpoint = ?", [.text(endpoint.name.name)])
            let changed = stored != .blob(bytes)
            let newVersion = changed ? try state.nextVersion(endpoint: endpoint.name.name) : state.version
            if changed {
                try database.execute(
                    """
                    INSERT INTO syncd_documents (endpoint, body, content_type, version, changed_at) VALUES (?, ?, ?, ?, ?)
                    ON CONFLICT (endpoint) DO UPDATE SET body = excluded.body, content_type = excluded.content_type,
                    version = excluded.version, changed_at = excluded.changed_at
                    """,
                    [
                        .text(endpoint.name.name), .blob(bytes), contentType.map(SQLiteValue.text) ?? .null,
                        .integer(newVersion), .text(Timestamp.format(facts.finishedAt)),
                    ]
                )
            }
            report.outcome = changed ? .changed : .unchanged
            report.version = newVersion
            try finish(database, report: &report, facts: facts, changed: changed, recordCount: 1, signature: nil)
            return report
        }
    }

    // MARK: - Failures

    /// Records a run that stored nothing: the data stays exactly as it was.
    package func recordFailure(
        _ error: String, outcome: SyncSummary.Outcome = .failed, facts: RunFacts, database: Database
    )
        throws -> SyncSummary
    {
        try database.transaction(.immediate) {
            let state = try prepareEndpoint(database, kind: endpoint.isDocument ? "document" : "collection")
            var report = SyncSummary(endpoint: endpoint.name.name, outcome: outcome)
            report.httpStatus = facts.httpStatus
            report.bytes = facts.bytes
            report.pages = facts.pageCount
            report.error = error
            report.version = state.version
            report.records = state.recordCount
            try database.execute(
                """
                UPDATE syncd_endpoints SET last_attempt_at = ?, last_status = ?, last_error = ?,
                consecutive_failures = consecutive_failures + (consecutive_failures < 9223372036854775807) WHERE name = ?
                """,
                [
                    .text(Timestamp.format(facts.finishedAt)), facts.httpStatus.map { .integer(Int64($0)) } ?? .null,
                    .text(error), .text(endpoint.name.name),
                ]
            )
            report.runID = try insertRun(database, report: report, facts: facts)
            return report
        }
    }
}
