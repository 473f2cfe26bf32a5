internal import Foundation
internal import NIOCore
internal import PostgresNIO
internal import SyncCore

/// Writes what one sync of one endpoint brought into PostgreSQL, in one transaction, as ``SyncWriter`` does for
/// SQLite: the rows, the deletions of a snapshot (with their tombstones), the endpoint's state, the run and its
/// problems. Readers see the data before the transaction or after it; when anything throws, nothing is written.
///
/// Concurrent runs of one endpoint (on several nodes) take turns: the first statement of each locks the endpoint's
/// row until the transaction ends.
struct PostgresWriter {
    /// Records sent per INSERT: one round trip for this many, well under PostgreSQL's 65,535 parameters a
    /// statement whatever the columns (at most 100 columns a table: 50,000).
    static let rowsPerStatement = 500
    /// Keys deleted per DELETE, and tombstones per INSERT.
    static let keysPerStatement = 1000

    var endpoint: EndpointConfiguration
    var dueAt: Double?
    var claim: String?

    init(_ run: SyncRun) {
        endpoint = run.endpoint
        dueAt = run.dueAt
        claim = run.claim
    }

    var name: String { endpoint.name.name }

    // MARK: - Collections

    func applyCollection(_ decoded: DecodedBody, facts startFacts: RunFacts, session: PostgresSession) throws
        -> SyncSummary
    {
        let table = PostgresTable(endpoint)
        let decoder = endpoint.recordDecoder
        return try session.transaction {
            let state = try prepareEndpoint(session, kind: "collection")
            var report = SyncSummary(endpoint: name, outcome: .unchanged)
            let newVersion = try state.nextVersion(endpoint: name)
            let now = Timestamp.format(startFacts.finishedAt)

            let schemaChanged = try prepareTable(table, storedSignature: state.columnsSignature, session: session)
            if schemaChanged { try refill(table, decoder: decoder, session: session) }
            let before = try count(session, table)
            // Keys that come back after a deletion lose their tombstones: collected only when there are any.
            let hasTombstones =
                try session.scalar(
                    Int32.self, "SELECT 1 FROM syncd_tombstones WHERE endpoint = $1 LIMIT 1", [.text(name)])
                != nil
            var returning: Set<String> = []

            var intake = RecordIntake(endpoint: endpoint, keyNames: table.keyNames, now: startFacts.finishedAt)
            var pending = PendingRows(table: table, version: newVersion, now: now)
            var written = 0
            var deleted = 0
            let keyColumns = endpoint.primaryKey
            let pipeline = RecordPipeline(decoder: decoder, body: decoded, observingSchema: true)
            defer { pipeline.stop() }
            while let batch = try pipeline.next() {
                for record in batch.records {
                    switch intake.take(record) {
                    case .skip: continue
                    case .delete(let key):
                        // What waits may hold the same key: stored first, then deleted, as the body has them.
                        written += try pending.flush(session)
                        deleted += try deleteFlagged(session, table: table, key: key, version: newVersion, now: now)
                        continue
                    case .store(let isDuplicate):
                        // The last one wins; one statement cannot write a row twice, so what waits goes first.
                        if isDuplicate { written += try pending.flush(session) }
                    }
                    if hasTombstones { returning.insert(ColumnValue.keyJSON(keyColumns.map { record.values[$0] })) }
                    pending.append(record, raw: batch.bytes[record.raw])
                    if pending.count >= Self.rowsPerStatement { written += try pending.flush(session) }
                }
            }
            written += try pending.flush(session)
            if let tally = pipeline.schemaTally {
                report.newDrift = try journalDrift(tally, now: now, session: session)
            }
            let seen = intake.seen
            let facts = decoded.feed?.finalFacts ?? startFacts
            report.record(intake, facts: facts)
            let isEmpty = intake.isEmpty
            if endpoint.mode == .snapshot, isEmpty, before > 0, !endpoint.allowEmpty {
                throw StoreError.emptySnapshot(endpoint: name, stored: before)
            }
            if endpoint.mode == .snapshot, before > 0 {
                deleted += try deleteUnseen(
                    session, table: table, seen: seen, version: newVersion, now: now,
                    limitedTo: isEmpty ? nil : before)
            }
            let after = try count(session, table)
            report.inserted = max(0, after - before + deleted)
            report.updated = max(0, written - report.inserted)
            report.deleted = deleted
            report.records = after
            if let cursor = intake.incremental?.cursorToStore(stored: state.cursor, storedColumn: state.cursorColumn) {
                try session.query(
                    "UPDATE syncd_endpoints SET cursor = $1, cursor_column = $2 WHERE name = $3",
                    [.text(cursor), .text(intake.incremental?.columnName ?? ""), .text(name)])
            }
            let changed = written > 0 || deleted > 0 || schemaChanged
            report.version = changed ? newVersion : state.version
            report.outcome = changed ? .changed : .unchanged
            if hasTombstones, report.inserted > 0, !returning.isEmpty {
                let keys = try session.query(
                    "SELECT key FROM syncd_tombstones WHERE endpoint = $1 AND version < $2",
                    [.text(name), .integer(newVersion)]
                ).rows.map { try $0[0].decode(String.self) }
                let back = keys.filter(returning.contains)
                for part in back.chunks(of: Self.keysPerStatement) {
                    let placeholders = part.indices.map { "$\($0 - part.startIndex + 2)" }.joined(separator: ", ")
                    try session.query(
                        "DELETE FROM syncd_tombstones WHERE endpoint = $1 AND key IN (\(placeholders))",
                        [.text(name)] + part.map(PostgresValue.text))
                }
            }
            try finish(
                session, report: &report, facts: facts, changed: changed, recordCount: after,
                signature: table.table.columnsSignature)
            return report
        }
    }

    /// Applies a 304: the data stays, freshness moves (and newly configured columns are filled from `_raw`).
    func applyNotModified(facts: RunFacts, session: PostgresSession) throws -> SyncSummary {
        try session.transaction {
            let state = try prepareEndpoint(session, kind: endpoint.isDocument ? "document" : "collection")
            var report = SyncSummary(endpoint: name, outcome: .notModified)
            report.httpStatus = facts.httpStatus
            report.pages = facts.pageCount
            var changed = false
            var signature: String?
            var stored = state.recordCount
            if !endpoint.isDocument {
                let table = PostgresTable(endpoint)
                if try prepareTable(table, storedSignature: state.columnsSignature, session: session) {
                    try refill(table, decoder: endpoint.recordDecoder, session: session)
                    changed = true
                }
                if state.columnsSignature != table.table.columnsSignature { stored = try count(session, table) }
                signature = table.table.columnsSignature
            }
            report.version = changed ? try state.nextVersion(endpoint: name) : state.version
            report.records = stored
            try finish(
                session, report: &report, facts: facts, changed: changed, recordCount: stored, signature: signature)
            return report
        }
    }

    // MARK: - Documents and failures

    /// Applies a 200 of a document endpoint: the body is stored when it differs from the stored one.
    func applyDocument(body: ByteBuffer, contentType: String?, facts: RunFacts, session: PostgresSession) throws
        -> SyncSummary
    {
        try session.transaction {
            let state = try prepareEndpoint(session, kind: "document")
            var report = SyncSummary(endpoint: name, outcome: .unchanged)
            report.isDocument = true
            report.httpStatus = facts.httpStatus
            report.bytes = facts.bytes
            report.receivedRecords = 1
            report.records = 1
            let stored = try session.scalar(
                ByteBuffer.self, "SELECT body FROM syncd_documents WHERE endpoint = $1", [.text(name)])
            let changed = stored != body
            let newVersion = changed ? try state.nextVersion(endpoint: name) : state.version
            if changed {
                try session.query(
                    """
                    INSERT INTO syncd_documents (endpoint, body, content_type, version, changed_at)
                    VALUES ($1, $2, $3, $4, $5)
                    ON CONFLICT (endpoint) DO UPDATE SET body = EXCLUDED.body, content_type = EXCLUDED.content_type,
                    version = EXCLUDED.version, changed_at = EXCLUDED.changed_at
                    """,
                    [
                        .text(name), .bytes(body), contentType.map(PostgresValue.text) ?? .null,
                        .integer(newVersion), .text(Timestamp.format(facts.finishedAt)),
                    ])
            }
            report.outcome = changed ? .changed : .unchanged
            report.version = newVersion
            try finish(session, report: &report, facts: facts, changed: changed, recordCount: 1, signature: nil)
            return report
        }
    }

    /// Records a run that stored nothing: the data stays exactly as it was. A run whose claim another node has taken
    /// records nothing: the endpoint's state is that node's now.
    func recordFailure(_ error: String, outcome: SyncSummary.Outcome, facts: RunFacts, session: PostgresSession)
        throws -> SyncSummary
    {
        do {
            return try recordFailureUnderClaim(error, outcome: outcome, facts: facts, session: session)
        } catch let lost as StoreError where lost == .claimLost {
            var report = SyncSummary(endpoint: name, outcome: outcome)
            report.error = error
            report.httpStatus = facts.httpStatus
            return report
        }
    }

    private func recordFailureUnderClaim(
        _ error: String, outcome: SyncSummary.Outcome, facts: RunFacts, session: PostgresSession
    ) throws -> SyncSummary {
        try session.transaction {
            let state = try prepareEndpoint(session, kind: endpoint.isDocument ? "document" : "collection")
            var report = SyncSummary(endpoint: name, outcome: outcome)
            report.httpStatus = facts.httpStatus
            report.bytes = facts.bytes
            report.pages = facts.pageCount
            report.error = error
            report.version = state.version
            report.records = state.recordCount
            try session.query(
                """
                UPDATE syncd_endpoints SET last_attempt_at = $1, last_status = $2, last_error = $3,
                consecutive_failures = consecutive_failures
                    + CASE WHEN consecutive_failures < 2147483647 THEN 1 ELSE 0 END
                WHERE name = $4
                """,
                [
                    .text(Timestamp.format(facts.finishedAt)), facts.httpStatus.map { .integer(Int64($0)) } ?? .null,
                    .text(error), .text(name),
                ])
            report.runID = try insertRun(session, report: report, facts: facts)
            return report
        }
    }
}
