internal import Foundation
internal import PostgresNIO
internal import SyncCore

/// The steps every PostgreSQL run shares: the endpoint's row, the table's shape, refills, deletions with their
/// tombstones, and the run's record.
extension PostgresWriter {
    /// Makes sure the endpoint has its row, locks it for this transaction, and reads it.
    func prepareEndpoint(_ session: PostgresSession, kind: String) throws -> SyncWriter.EndpointRow {
        // A run under a claim stores only while the claim is its own; the lease's row stays locked until the
        // transaction ends, so that no other node takes it in between (their claims skip a locked row).
        if let claim {
            let holder = try session.scalar(
                String.self, "SELECT holder FROM syncd_leases WHERE endpoint = $1 FOR UPDATE", [.text(name)])
            guard holder == claim else { throw StoreError.claimLost(endpoint: name, holder: holder) }
        }
        let rows = try session.query(
            """
            INSERT INTO syncd_endpoints (name, kind, url) VALUES ($1, $2, $3)
            ON CONFLICT (name) DO UPDATE SET kind = EXCLUDED.kind, url = EXCLUDED.url
            RETURNING version, record_count, columns, cursor, cursor_column
            """,
            // The URL as URLRedaction shows it: a password or key written in it is never stored.
            [.text(name), .text(kind), .text(endpoint.redactedURL)]
        ).rows
        let row = rows.first
        return SyncWriter.EndpointRow(
            version: try row?[0].decode(Int64.self) ?? 0,
            recordCount: Int(try row?[1].decode(Int64.self) ?? 0),
            columnsSignature: try row?[2].decode(String?.self), cursor: try row?[3].decode(String?.self),
            cursorColumn: try row?[4].decode(String?.self))
    }

    /// Creates the table, or brings an existing one to the configured columns: whether stored rows need re-reading
    /// from `_raw`.
    ///
    /// - Throws: ``StoreError`` when the table exists with another primary key or key type, or is not syncd's.
    func prepareTable(_ table: PostgresTable, storedSignature: String?, session: PostgresSession) throws -> Bool {
        let columns = try table.storedColumns(session)
        guard !columns.isEmpty else {
            try session.query(table.createSQL)
            return false
        }
        if let refusal = try table.incompatibility(session, columns: columns) { throw refusal }
        let existing = Dictionary(columns, uniquingKeysWith: { first, _ in first })
        if existing["_created_version"] == nil {
            try session.query("ALTER TABLE \(table.quotedName) ADD COLUMN \"_created_version\" bigint")
        }
        var changed = false
        for (index, column) in table.table.columns.enumerated() where !table.table.keyColumns.contains(index) {
            let quoted = SQLIdentifier.quote(column.name)
            let declaration = PostgresTable.declaration(column.type)
            switch existing[column.name] {
            case nil:
                try session.query("ALTER TABLE \(table.quotedName) ADD COLUMN \(quoted) \(declaration)")
                changed = true
            case let stored? where stored != declaration:
                // Retyped: emptied and refilled from `_raw` with the rest, in the run's transaction.
                try session.query(
                    "ALTER TABLE \(table.quotedName) ALTER COLUMN \(quoted) TYPE \(declaration) USING NULL")
                changed = true
            default: break
            }
        }
        return changed || (storedSignature != nil && storedSignature != table.table.columnsSignature)
    }

    /// Re-reads every stored row's configured non-key columns from its `_raw`, with the current column specs.
    func refill(_ table: PostgresTable, decoder: RecordDecoder, session: PostgresSession) throws {
        let columns = table.table.columns
        let refilled = columns.indices.filter { !table.table.keyColumns.contains($0) }
        guard !refilled.isEmpty else { return }
        let keys = table.table.keyColumns
        let rows = try session.query("SELECT \(table.quotedKeys), \"_raw\" FROM \(table.quotedName)").rows
        let assignments = refilled.enumerated().map { position, index in
            "\(SQLIdentifier.quote(columns[index].name)) = $\(position + 1)"
        }.joined(separator: ", ")
        let match = keys.enumerated().map { position, index in
            "\(SQLIdentifier.quote(columns[index].name)) = $\(refilled.count + position + 1)"
        }.joined(separator: " AND ")
        let update = "UPDATE \(table.quotedName) SET \(assignments) WHERE \(match)"
        for (count, row) in rows.enumerated() {
            let raw = try row[keys.count].decode(String.self)
            let record = Array(raw.utf8).withUnsafeBytes { decoder.decodeRecord($0, index: count) }
            let values = refilled.map { PostgresValue(record.values[$0], as: columns[$0].type) }
            let key = keys.indices.map { PostgresValue(cell: row[$0]) }
            try session.query(update, values + key)
        }
    }

    /// Deletes the rows a snapshot no longer holds, leaving a tombstone for each.
    ///
    /// - Parameter limitedTo: the stored rows before the run, whose share `max_delete` limits; nil for a snapshot
    ///   without records, which `allow_empty` alone lets through.
    func deleteUnseen(
        _ session: PostgresSession, table: PostgresTable, seen: SeenKeys, version: Int64, now: String,
        limitedTo stored: Int?
    ) throws -> Int {
        let keyCount = table.keyNames.count
        var unseen: [[PostgresValue]] = []
        for row in try session.query("SELECT \(table.quotedKeys) FROM \(table.quotedName)").rows {
            let key = (0..<keyCount).map { PostgresValue(cell: row[$0]) }
            if !seen.contains(key: key.map(PostgresTable.value)) { unseen.append(key) }
        }
        if let stored, unseen.count > endpoint.maxDelete.allowed(stored: stored) {
            throw StoreError.tooManyDeletions(
                endpoint: name, deleting: unseen.count, stored: stored, limit: endpoint.maxDelete)
        }
        for part in unseen.chunks(of: Self.keysPerStatement) {
            var parameter = 0
            let tuples = part.map { _ in
                "("
                    + (0..<keyCount).map { _ in
                        parameter += 1
                        return "$\(parameter)"
                    }.joined(separator: ", ") + ")"
            }
            try session.query(
                "DELETE FROM \(table.quotedName) WHERE (\(table.quotedKeys)) IN (\(tuples.joined(separator: ", ")))",
                part.flatMap { $0 })
            let rows = part.indices.map { offset in
                let base = 4 + (offset - part.startIndex)
                return "($1, $\(base), $2, $3)"
            }
            try session.query(
                """
                INSERT INTO syncd_tombstones (endpoint, key, version, deleted_at) VALUES \(rows.joined(separator: ", "))
                ON CONFLICT (endpoint, key) DO UPDATE SET version = EXCLUDED.version, deleted_at = EXCLUDED.deleted_at
                """,
                [.text(name), .integer(version), .text(now)]
                    + part.map { .text(ColumnValue.keyJSON($0.map(PostgresTable.value))) })
        }
        return unseen.count
    }

    /// Deletes the row of a record whose deleted flag is true, leaving a tombstone: 1 when there was a row, else 0.
    func deleteFlagged(
        _ session: PostgresSession, table: PostgresTable, key: [ColumnValue], version: Int64, now: String
    )
        throws -> Int
    {
        let types = table.table.keyColumns.map { table.table.columns[$0].type }
        let match = table.keyNames.enumerated().map { "\(SQLIdentifier.quote($1)) = $\($0 + 1)" }
            .joined(separator: " AND ")
        let removed = try session.query(
            "DELETE FROM \(table.quotedName) WHERE \(match)", zip(key, types).map { PostgresValue($0, as: $1) }
        ).affected
        guard removed > 0 else { return 0 }
        try session.query(
            """
            INSERT INTO syncd_tombstones (endpoint, key, version, deleted_at) VALUES ($1, $2, $3, $4)
            ON CONFLICT (endpoint, key) DO UPDATE SET version = EXCLUDED.version, deleted_at = EXCLUDED.deleted_at
            """,
            [.text(name), .text(ColumnValue.keyJSON(key)), .integer(version), .text(now)])
        return removed
    }

    func finish(
        _ session: PostgresSession, report: inout SyncSummary, facts: RunFacts, changed: Bool, recordCount: Int,
        signature: String?
    ) throws {
        let now = Timestamp.format(facts.finishedAt)
        var assignments = [
            "last_attempt_at = $1", "last_success_at = $1", "last_status = $2", "last_error = NULL",
            "consecutive_failures = 0", "record_count = $3", "version = $4",
        ]
        var arguments: [PostgresValue] = [
            .text(now), facts.httpStatus.map { .integer(Int64($0)) } ?? .null, .integer(Int64(recordCount)),
            .integer(report.version), .text(name),
        ]
        func assign(_ column: String, _ value: PostgresValue) {
            arguments.append(value)
            assignments.append("\(column) = $\(arguments.count)")
        }
        if changed { assignments.append("changed_at = $1") }
        if let etag = facts.etag {
            assign("etag", .text(etag))
        } else if report.outcome != .notModified {
            assignments.append("etag = NULL")
        }
        if let lastModified = facts.lastModified {
            assign("last_modified", .text(lastModified))
        } else if report.outcome != .notModified {
            assignments.append("last_modified = NULL")
        }
        if let signature {
            assign("columns", .text(signature))
            assign("primary_key", .text(ColumnValue.keyJSON(RecordTable(endpoint).keyNames.map { .text($0) })))
        }
        try session.query(
            "UPDATE syncd_endpoints SET \(assignments.joined(separator: ", ")) WHERE name = $5", arguments)
        report.runID = try insertRun(session, report: report, facts: facts)
    }

    /// Records the run in syncd_runs with its first problems in syncd_errors, and keeps the endpoint's last
    /// ``SyncWriter/retainedRuns`` runs.
    func insertRun(_ session: PostgresSession, report: SyncSummary, facts: RunFacts) throws -> Int64 {
        let milliseconds = ((facts.finishedAt - facts.startedAt) * 1000).rounded()
        let duration = milliseconds.isFinite ? Int64(max(0, min(milliseconds, 1e15))) : 0
        let rows = try session.query(
            """
            INSERT INTO syncd_runs (endpoint, started_at, finished_at, duration_ms, outcome, http_status, bytes, pages,
            records, inserted, updated, deleted, rejected, version, error, due_at)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16) RETURNING id
            """,
            [
                .text(name), .text(Timestamp.format(facts.startedAt)), .text(Timestamp.format(facts.finishedAt)),
                .integer(duration), .text(report.outcome.rawValue),
                report.httpStatus.map { .integer(Int64($0)) } ?? .null, .integer(Int64(report.bytes)),
                .integer(Int64(facts.pageCount)), .integer(Int64(report.receivedRecords)),
                .integer(Int64(report.inserted)), .integer(Int64(report.updated)), .integer(Int64(report.deleted)),
                .integer(Int64(report.rejected)), .integer(report.version),
                report.error.map(PostgresValue.text) ?? .null,
                dueAt.map { .text(Timestamp.format($0)) } ?? .null,
            ]
        ).rows
        let runID = try rows.first?[0].decode(Int64.self) ?? 0
        for part in report.recordProblems.prefix(SyncWriter.storedProblemLimit).chunks(of: 100) {
            var values: [PostgresValue] = [.integer(runID), .text(name)]
            var tuples: [String] = []
            for problem in part {
                let base = values.count
                tuples.append("($1, $2, " + (1...8).map { "$\(base + $0)" }.joined(separator: ", ") + ")")
                values += [
                    .integer(Int64(problem.recordIndex)),
                    problem.recordKey.map { .text(ColumnValue.keyJSON($0)) } ?? .null, .text(problem.path),
                    problem.column.map(PostgresValue.text) ?? .null, .text(problem.expected), .text(problem.found),
                    .text(problem.action.rawValue), .text(problem.summary(endpoint: name)),
                ]
            }
            try session.query(
                """
                INSERT INTO syncd_errors (run_id, endpoint, record_index, record_key, path, column_name, expected,
                found, action, message) VALUES \(tuples.joined(separator: ", "))
                """, values)
        }
        try session.query(
            """
            DELETE FROM syncd_runs WHERE endpoint = $1 AND id <= (SELECT id FROM syncd_runs WHERE endpoint = $1
            ORDER BY id DESC LIMIT 1 OFFSET $2)
            """,
            [.text(name), .integer(Int64(SyncWriter.retainedRuns))])
        return runID
    }

    func count(_ session: PostgresSession, _ table: PostgresTable) throws -> Int {
        Int(try session.scalar(Int64.self, "SELECT count(*) FROM \(table.quotedName)") ?? 0)
    }
}
