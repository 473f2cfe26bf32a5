/// Writes what one sync of one endpoint brought, in one IMMEDIATE transaction: the rows, the
/// deletions of a snapshot (with their tombstones), the endpoint's state, the run and its problems.
///
/// Readers on other connections (WAL snapshots) see the data before the transaction or after it,
/// never a mix. When anything throws, nothing of the run's data is written.
package struct SyncWriter: Sendable {
    /// At most this many problems of one run are stored in syncd_errors; the counts stay exact.
    package static let storedProblemLimit = 1000
    /// syncd_runs keeps this many runs per endpoint.
    package static let retainedRuns = 1000

    package var endpoint: EndpointConfiguration
    /// When the scheduler wanted the run to start, in seconds since 1970; recorded as syncd_runs.due_at. `nil` for
    /// a run nobody scheduled (`syncd sync`, a library's sync).
    package var dueAt: Double?

    package init(endpoint: EndpointConfiguration, dueAt: Double? = nil) {
        self.endpoint = endpoint
        self.dueAt = dueAt
    }

    package init(_ run: SyncRun) {
        self.init(endpoint: run.endpoint, dueAt: run.dueAt)
    }

    // MARK: - Collections

    /// Applies a 200 with records.
    ///
    /// - Throws: ``StoreError`` (an empty snapshot, more deletions than `max_delete` allows, a changed primary key or
    ///   primary-key type), ``SQLiteError``; the transaction is rolled back.
    package func applyCollection(_ decoded: DecodedBody, facts startFacts: RunFacts, database: Database) throws
        -> SyncSummary
    {
        let table = RecordTable(endpoint)
        let decoder = endpoint.recordDecoder
        return try database.transaction(.immediate) {
            // Read now, written after the records (storeEndpointRow says why).
            let state = try readEndpoint(database)
            var report = SyncSummary(endpoint: endpoint.name.name, outcome: .unchanged)
            let newVersion = try state.nextVersion(endpoint: endpoint.name.name)
            let now = Timestamp.format(startFacts.finishedAt)

            let schemaChanged = try prepareTable(table, storedSignature: state.columnsSignature, database: database)
            if schemaChanged { _ = try table.refill(database, decoder: decoder) }
            let before = try count(database, table)

            var intake = RecordIntake(endpoint: endpoint, keyNames: table.keyNames, now: startFacts.finishedAt)
            var upsert = try RecordUpsert(table: table, database: database, version: newVersion, now: now)
            var written = 0
            var deleted = 0
            let incremental = try endpoint.incremental.map { _ in
                try IncrementalApply(table: table, database: database, endpoint: endpoint)
            }
            // The records are decoded on a second thread while this one stores them (RecordPipeline).
            let pipeline = RecordPipeline(decoder: decoder, body: decoded, observingSchema: true)
            defer { pipeline.stop() }
            // The positions in the batch of the records to store, stored in groups (RecordUpsert), in order: a
            // deletion waits for the records before it.
            var waiting: [Int] = []
            while let batch = try pipeline.next() {
                try batch.bytes.withUnsafeBytes { bytes in
                    waiting.removeAll(keepingCapacity: true)
                    for (position, record) in batch.records.enumerated() {
                        switch intake.take(record) {
                        case .skip:
                            continue
                        case .delete(let key):
                            written += try upsert.store(waiting, of: batch.records, bytes: bytes)
                            waiting.removeAll(keepingCapacity: true)
                            deleted += try incremental?.delete(key: key, version: newVersion, now: now) ?? 0
                        case .store:
                            waiting.append(position)
                        }
                    }
                    written += try upsert.store(waiting, of: batch.records, bytes: bytes)
                }
            }

            try storeEndpointRow(database, kind: "collection")
            if let tally = pipeline.schemaTally {
                report.newDrift = try journalDrift(tally, now: now, database: database)
            }
            let seen = intake.seen
            // A streamed body's facts are known once its fetch ended (which the last batch waited for).
            let facts = decoded.feed?.finalFacts ?? startFacts
            report.record(intake, facts: facts)
            let isEmpty = intake.isEmpty
            if endpoint.mode == .snapshot, isEmpty, before > 0, !endpoint.allowEmpty {
                throw StoreError.emptySnapshot(endpoint: endpoint.name.name, stored: before)
            }
            // A table that was empty has nothing the body could have left out.
            if endpoint.mode == .snapshot, before > 0 {
                deleted += try deleteUnseen(
                    database, table: table, seen: seen, version: newVersion, now: now, limitedTo: isEmpty ? nil : before
                )
            }
            let after = try count(database, table)
            report.inserted = max(0, after - before + deleted)
            report.updated = max(0, written - report.inserted)
            report.deleted = deleted
            report.records = after

            if let cursor = intake.incremental?.cursorToStore(stored: state.cursor, storedColumn: state.cursorColumn) {
                try incremental?.storeCursor(cursor, column: intake.incremental?.columnName ?? "", database)
            }
            let changed = written > 0 || deleted > 0 || schemaChanged
            report.version = changed ? newVersion : state.version
            report.outcome = changed ? .changed : .unchanged
            // A key that comes back is no longer deleted. Asked first whether the endpoint has tombstones at all: the
            // DELETE names the endpoint's table, so each endpoint prepares its own, and most never deleted anything.
            if report.inserted > 0,
                try database.scalar(
                    "SELECT 1 FROM syncd_tombstones WHERE endpoint = ? AND version < ? LIMIT 1",
                    [.text(endpoint.name.name), .integer(newVersion)]) != nil
            {
                try database.execute(
                    """
                    DELETE FROM syncd_tombstones WHERE endpoint = ? AND version < ?
                    AND key IN (SELECT \(table.keyJSONExpression) FROM \(table.quotedName) WHERE "_version" = ?)
                    """,
                    [.text(endpoint.name.name), .integer(newVersion), .integer(newVersion)]
                )
            }
            try finish(
                database, report: &report, facts: facts, changed: changed, recordCount: after,
                signature: table.columnsSignature)
            return report
        }
    }

    /// Applies a 304: the data stays, freshness moves (and newly configured columns are filled from `_raw`).
    package func applyNotModified(facts: RunFacts, database: Database) throws -> SyncSummary {
        try database.transaction(.immediate) {
            let state = try prepareEndpoint(database, kind: endpoint.isDocument ? "document" : "collection")
            var report = SyncSummary(endpoint: endpoint.name.name, outcome: .notModified)
            report.httpStatus = facts.httpStatus
            report.pages = facts.pageCount
            var changed = false
            var signature: String?
            var stored = state.recordCount
            if !endpoint.isDocument {
                let table = RecordTable(endpoint)
                // Checked on a 304 too: a changed primary key or key type is refused here as on a 200.
                if try prepareTable(table, storedSignature: state.columnsSignature, database: database) {
                    _ = try table.refill(database, decoder: endpoint.recordDecoder)
                    changed = true
                }
                if state.columnsSignature != table.columnsSignature { stored = try count(database, table) }
                signature = table.columnsSignature
            }
            report.version = changed ? try state.nextVersion(endpoint: endpoint.name.name) : state.version
            report.records = stored
            try finish(
                database, report: &report, facts: facts, changed: changed, recordCount: stored, signature: signature)
            return report
        }
    }

    // MARK: - Shared steps

    /// What a run reads of its endpoint's row before it writes, in any store.
    package struct EndpointRow {
        package var version: Int64
        package var recordCount: Int
        package var columnsSignature: String?
        package var cursor: String?
        package var cursorColumn: String?

        package init(
            version: Int64, recordCount: Int, columnsSignature: String?, cursor: String?, cursorColumn: String?
        ) {
            self.version = version
            self.recordCount = recordCount
            self.columnsSignature = columnsSignature
            self.cursor = cursor
            self.cursorColumn = cursorColumn
        }

        /// The version a change makes: one more than the stored one.
        ///
        /// - Throws: ``StoreError`` when the stored version is at its limit (an edited database file).
        package func nextVersion(endpoint: String) throws(StoreError) -> Int64 {
            let (next, overflow) = version.addingReportingOverflow(1)
            guard !overflow else { throw StoreError.versionExhausted(endpoint: endpoint) }
            return next
        }
    }

    /// Brings the endpoint's table to the configured columns (``RecordTable/prepare(_:storedSignature:)``): whether
    /// stored rows need re-reading from `_raw`.
    ///
    /// Once this connection found the table as configured, the check is skipped while the schema version, the
    /// configuration and the stored signature hold (``Database/checkedShapes``): it reads the table's columns, and
    /// each endpoint's run did that for nothing almost every time.
    func prepareTable(_ table: RecordTable, storedSignature: String?, database: Database) throws -> Bool {
        let checked = Database.CheckedShape(
            schemaVersion: try database.schemaVersion(), shape: table.createSQL, storedSignature: storedSignature)
        // A stored signature that differs from the configured one asks for a refill: never skipped.
        if storedSignature == nil || storedSignature == table.columnsSignature,
            database.checkedShapes[table.name.name] == checked
        {
            return false
        }
        let changed = try table.prepare(database, storedSignature: storedSignature)
        // Kept only when the check changed nothing in the schema: then no rollback can undo it.
        if try database.schemaVersion() == checked.schemaVersion { database.checkedShapes[table.name.name] = checked }
        return changed
    }

    /// Makes sure the endpoint has its row, and reads it.
    func prepareEndpoint(_ database: Database, kind: String) throws -> EndpointRow {
        try storeEndpointRow(database, kind: kind)
        return try readEndpoint(database)
    }

    /// Writes the endpoint's kind and URL into its row, making the row when there is none; a row that already says
    /// the same is not written.
    ///
    /// Not written when unchanged, and written after the records by a sync that stores many: a page written at a
    /// transaction's start and again at its end is one SQLite has likely spilled into the WAL in between, and
    /// writing a spilled page again makes the commit re-read and re-checksum every WAL frame written after it
    /// (100,000 records: 20,000 reads of 4 KiB and as many header writes).
    func storeEndpointRow(_ database: Database, kind: String) throws {
        try database.execute(
            """
            INSERT INTO syncd_endpoints (name, kind, url) VALUES (?, ?, ?)
            ON CONFLICT (name) DO UPDATE SET kind = excluded.kind, url = excluded.url
            WHERE syncd_endpoints.kind IS NOT excluded.kind OR syncd_endpoints.url IS NOT excluded.url
            """,
            // The URL as URLRedaction shows it: a password or key written in it is never stored.
            [.text(endpoint.name.name), .text(kind), .text(endpoint.redactedURL)]
        )
    }

    /// Reads the endpoint's row; an endpoint without one reads as new (version 0, nothing stored).
    func readEndpoint(_ database: Database) throws -> EndpointRow {
        let row = try database.rows(
            "SELECT version, record_count, columns, cursor, cursor_column FROM syncd_endpoints WHERE name = ?",
            [.text(endpoint.name.name)])
        return EndpointRow(
            version: row.first?.integer("version") ?? 0,
            recordCount: Int(row.first?.integer("record_count") ?? 0),
            columnsSignature: row.first?.text("columns"),
            cursor: row.first?.text("cursor"),
            cursorColumn: row.first?.text("cursor_column")
        )
    }

    func finish(
        _ database: Database, report: inout SyncSummary, facts: RunFacts, changed: Bool, recordCount: Int,
        signature: String?
    ) throws {
        let now = Timestamp.format(facts.finishedAt)
        var assignments = [
            "last_attempt_at = ?", "last_success_at = ?", "last_status = ?", "last_error = NULL",
            "consecutive_failures = 0", "record_count = ?", "version = ?",
        ]
        var arguments: [SQLiteValue] = [
            .text(now), .text(now), facts.httpStatus.map { .integer(Int64($0)) } ?? .null,
            .integer(Int64(recordCount)), .integer(report.version),
        ]
        if changed {
            assignments.append("changed_at = ?")
            arguments.append(.text(now))
        }
        if let etag = facts.etag {
            assignments.append("etag = ?")
            arguments.append(.text(etag))
        }
        if let lastModified = facts.lastModified {
            assignments.append("last_modified = ?")
            arguments.append(.text(lastModified))
        }
        if report.outcome != .notModified, facts.etag == nil {
            assignments.append("etag = NULL")
        }
        if report.outcome != .notModified, facts.lastModified == nil {
            assignments.append("last_modified = NULL")
        }
        if let signature {
            assignments.append("columns = ?")
            arguments.append(.text(signature))
            assignments.append("primary_key = ?")
            arguments.append(.text(ColumnValue.keyJSON(RecordTable(endpoint).keyNames.map { .text($0) })))
        }
        arguments.append(.text(endpoint.name.name))
        try database.execute(
            "UPDATE syncd_endpoints SET \(assignments.joined(separator: ", ")) WHERE name = ?", arguments)
        report.runID = try insertRun(database, report: report, facts: facts)
    }

    private func count(_ database: Database, _ table: RecordTable) throws -> Int {
        guard case .integer(let count) = try database.scalar("SELECT count(*) FROM \(table.quotedName)") else {
            return 0
        }
        return Int(count)
    }

    package static func duplicate(_ record: borrowing DecodedRecord, key: [ColumnValue], keyNames: [String])
        -> DecodingProblem
    {
        let label = zip(keyNames, key).map { "\($0)=\(Self.plain($1))" }.joined(separator: ",")
        return DecodingProblem(
            recordIndex: record.index, recordKey: key, recordLabel: label, path: "$", column: nil,
            expected: "a unique key", found: "a duplicate of an earlier record (the last one wins)", action: .replaced
        )
    }

    static func plain(_ value: ColumnValue) -> String {
        switch value {
        case .text(let text): text
        default: value.jsonLiteral
        }
    }
}
