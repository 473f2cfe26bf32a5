internal import FoundationEssentials
internal import NIOCore
internal import PostgresNIO
internal import SyncCore
internal import SyncSQLite

/// A run's ``StoreTransaction`` in PostgreSQL: the statements of one endpoint's run, inside the transaction
/// ``PostgresSyncStorage`` opened for it. ``SyncApply`` decides what they write.
///
/// Concurrent runs of one endpoint (on several nodes) take turns: ``openEndpoint(kind:)``, the first statement of
/// each, locks the endpoint's row until the transaction ends; a run under a claim first checks that the claim is
/// still its own.
struct PostgresWriter: StoreTransaction {
    /// Records sent per INSERT: one round trip for this many, well under PostgreSQL's 65,535 parameters a
    /// statement whatever the columns (at most 100 columns a table: 50,000).
    static let rowsPerStatement = 500
    /// Keys deleted per DELETE, and tombstones per INSERT.
    static let keysPerStatement = 1000

    let session: PostgresSession
    let endpoint: EndpointConfiguration
    let claim: String?

    init(session: PostgresSession, run: SyncRun) {
        self.session = session
        endpoint = run.endpoint
        claim = run.claim
    }

    var name: String { endpoint.name.name }

    // MARK: - The endpoint's row

    /// Makes sure the endpoint has its row, locks it for this transaction, and reads it.
    func openEndpoint(kind: String) throws -> EndpointRow {
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
        return EndpointRow(
            version: try row?[0].decode(Int64.self) ?? 0,
            recordCount: Int(try row?[1].decode(Int64.self) ?? 0),
            columnsSignature: try row?[2].decode(String?.self), cursor: try row?[3].decode(String?.self),
            cursorColumn: try row?[4].decode(String?.self))
    }

    /// The row was made (and locked) by ``openEndpoint(kind:)``.
    func storeEndpointRow(kind: String) {}

    func storeCursor(_ cursor: String, column: String) throws {
        try session.query(
            "UPDATE syncd_endpoints SET cursor = $1, cursor_column = $2 WHERE name = $3",
            [.text(cursor), .text(column), .text(name)])
    }

    func finishEndpoint(_ success: EndpointSuccess) throws {
        let assignments = success.assignments
        let set = assignments.enumerated().map { "\($1.column) = $\($0 + 1)" }.joined(separator: ", ")
        try session.query(
            "UPDATE syncd_endpoints SET \(set) WHERE name = $\(assignments.count + 1)",
            assignments.map { PostgresValue($0.value) } + [.text(name)])
    }

    func failEndpoint(at time: String, httpStatus: Int?, error: String, parents: SyncSummary.FanOut?) throws {
        try session.query(
            """
            UPDATE syncd_endpoints SET last_attempt_at = $1, last_status = $2, last_error = $3, parents = $4,
            consecutive_failures = consecutive_failures
                + CASE WHEN consecutive_failures < 2147483647 THEN 1 ELSE 0 END
            WHERE name = $5
            """,
            [
                .text(time), httpStatus.map { .integer(Int64($0)) } ?? .null, .text(error),
                parents.map { .text($0.storedJSON) } ?? .null, .text(name),
            ])
    }

    // MARK: - Documents

    func storedDocument(equals body: ByteBuffer) throws -> Bool {
        try session.scalar(ByteBuffer.self, "SELECT body FROM syncd_documents WHERE endpoint = $1", [.text(name)])
            == body
    }

    func storeDocument(_ body: ByteBuffer, contentType: String?, version: Int64, changedAt: String) throws {
        try session.query(
            """
            INSERT INTO syncd_documents (endpoint, body, content_type, version, changed_at)
            VALUES ($1, $2, $3, $4, $5)
            ON CONFLICT (endpoint) DO UPDATE SET body = EXCLUDED.body, content_type = EXCLUDED.content_type,
            version = EXCLUDED.version, changed_at = EXCLUDED.changed_at
            """,
            [
                .text(name), .bytes(body), contentType.map(PostgresValue.text) ?? .null, .integer(version),
                .text(changedAt),
            ])
    }
}
