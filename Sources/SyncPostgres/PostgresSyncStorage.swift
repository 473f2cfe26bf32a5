internal import FoundationEssentials
package import NIOCore
internal import PostgresNIO
package import SyncCore
package import SyncIngest
internal import SyncSQLite
import SyncSupport

/// ``SyncStorage`` in PostgreSQL: every call is one transaction on a connection of the ``PostgresStore``'s pool,
/// run on one of its threads (``SyncApply`` decides what a run writes, through ``PostgresWriter``). Runs of different endpoints write side by side;
/// two runs of one endpoint take turns on its row's lock.
package struct PostgresSyncStorage: SyncStorage {
    package let store: PostgresStore
    package let spoolDirectory: String

    /// - Parameter spoolDirectory: Where fetched bodies wait for their transaction: a folder syncd may write
    ///   (the data itself is on the server).
    package init(store: PostgresStore, spoolDirectory: String) {
        self.store = store
        self.spoolDirectory = spoolDirectory
    }

    /// Runs a transaction that writes, then moves the store's generation for readers.
    func write<T: Sendable>(_ body: @escaping @Sendable (PostgresSession) throws -> T) async throws -> T {
        try await store.write(body)
    }

    /// Runs `body` on the run's ``PostgresWriter``, in one transaction that writes.
    func apply<T: Sendable>(
        _ run: SyncRun, _ body: @escaping @Sendable (inout PostgresWriter) throws -> T
    ) async throws -> T {
        try await write { session in
            try session.transaction {
                var writer = PostgresWriter(session: session, run: run)
                return try body(&writer)
            }
        }
    }

    package func state(of endpoint: String) async throws -> EndpointState? {
        try await store.withSession { session in try Self.state(of: endpoint, session) }
    }

    static let stateColumns = """
        name, kind, version, record_count, changed_at, last_attempt_at, last_success_at, last_status,
        last_error, consecutive_failures, etag, last_modified, next_due_at, cursor, cursor_column, last_node,
        parents, schedule_reason
        """

    static func state(of endpoint: String, _ session: PostgresSession) throws -> EndpointState? {
        try session.query("SELECT \(stateColumns) FROM syncd_endpoints WHERE name = $1", [.text(endpoint)])
            .rows.first.map(state(row:))
    }

    static func state(row: PostgresRandomAccessRow) throws -> EndpointState {
        var state = EndpointState(
            name: try row[0].decode(String.self), kind: try row[1].decode(String.self),
            version: try row[2].decode(Int64.self), recordCount: Int(try row[3].decode(Int64.self)),
            changedAt: try row[4].decode(String?.self), lastAttemptAt: try row[5].decode(String?.self),
            lastSuccessAt: try row[6].decode(String?.self), lastStatus: try row[7].decode(Int32?.self).map(Int.init),
            lastError: try row[8].decode(String?.self), consecutiveFailures: Int(try row[9].decode(Int32.self)),
            etag: try row[10].decode(String?.self), lastModified: try row[11].decode(String?.self),
            nextDueAt: try row[12].decode(String?.self), cursor: try row[13].decode(String?.self),
            cursorColumn: try row[14].decode(String?.self), lastNode: try row[15].decode(String?.self),
            parents: SyncSummary.FanOut.stored(try row[16].decode(String?.self)))
        state.scheduleReason = try row[17].decode(String?.self)
        return state
    }

    package func applyCollection(
        _ body: DecodedBody, run: SyncRun, facts: @escaping @Sendable () -> RunFacts
    ) async throws -> SyncSummary {
        try await apply(run) { try SyncApply(run).applyCollection(body, facts: facts(), in: &$0) }
    }

    package func prepareTables(for endpoints: [EndpointConfiguration]) async throws {
        let tables = endpoints.filter { !$0.isDocument }.map(PostgresTable.init)
        guard !tables.isEmpty else { return }
        try await write { session in
            try session.transaction {
                // Taken one node at a time, so that two nodes creating the same tables do not collide.
                try session.query("SELECT pg_advisory_xact_lock($1)", [.integer(PostgresMigrations.lockKey)])
                for table in tables { try session.query(table.createSQL) }
            }
        }
    }

    package func applyNotModified(run: SyncRun, facts: @escaping @Sendable () -> RunFacts) async throws -> SyncSummary {
        try await apply(run) { try SyncApply(run).applyNotModified(facts: facts(), in: &$0) }
    }

    package func applyDocument(
        _ body: ByteBuffer, contentType: String?, run: SyncRun, facts: @escaping @Sendable () -> RunFacts
    ) async throws -> SyncSummary {
        try await apply(run) {
            try SyncApply(run).applyDocument(body: body, contentType: contentType, facts: facts(), in: &$0)
        }
    }

    package func recordFailure(
        _ message: String, outcome: SyncSummary.Outcome, run: SyncRun, facts: RunFacts
    ) async throws -> SyncSummary {
        // Recorded even when the calling task is cancelled (a daemon stopping records how its runs ended).
        let storage = self
        return try await Task.detached {
            try await storage.apply(run) {
                try SyncApply(run).recordFailure(message, outcome: outcome, facts: facts, in: &$0)
            }
        }.value
    }

    package func schedule(of endpoints: [EndpointConfiguration]) async throws -> [String: StoredSchedule] {
        let signatures = Dictionary(
            endpoints.filter { !$0.isDocument }.map { ($0.name.name, TableShape($0).columnsSignature) },
            uniquingKeysWith: { first, _ in first })
        return try await store.withSession { session in
            var states: [String: StoredSchedule] = [:]
            for row in try session.query(
                "SELECT name, next_due_at, consecutive_failures, columns, schedule_reason FROM syncd_endpoints"
            ).rows {
                let name = try row[0].decode(String.self)
                let stale = try row[3].decode(String?.self).map { $0 != signatures[name] } ?? false
                states[name] = StoredSchedule(
                    nextDue: stale ? nil : try row[1].decode(String?.self).flatMap(Timestamp.parse),
                    consecutiveFailures: Int(try row[2].decode(Int32.self)),
                    reason: stale ? nil : try row[4].decode(String?.self))
            }
            return states
        }
    }

    package func storeNextDue(
        _ rows: [NextDue], completion: @escaping @Sendable ((any Error)?) -> Void
    ) {
        let names = rows.map(\.name)
        // "" stands for NULL: an array of optionals is not something the driver binds.
        let dues = rows.map { $0.due.map(Timestamp.format) ?? "" }
        let reasons = rows.map { $0.reason ?? "" }
        store.write(
            { session in
                try session.query(
                    """
                    UPDATE syncd_endpoints AS e SET next_due_at = NULLIF(v.due, ''), schedule_reason = NULLIF(v.why, '')
                    FROM unnest($1::text[], $2::text[], $3::text[]) AS v(name, due, why) WHERE e.name = v.name
                    """, [.texts(names), .texts(dues), .texts(reasons)])
            }, completion: completion)
    }

    package func leasing(node: String, lease: Double) -> (any EndpointLeasing)? {
        PostgresLeases(store: store, node: node, lease: lease)
    }

    package func resource(_ key: String) async throws -> StoredResource? {
        try await store.withSession { session in
            guard
                let row = try session.query(
                    "SELECT body, content_type, etag, last_modified, validated_at FROM syncd_resources WHERE url = $1",
                    [.text(key)]
                ).rows.first
            else { return nil }
            let body = try row[0].decode(ByteBuffer.self)
            return StoredResource(
                body: Data(body.readableBytesView), contentType: try row[1].decode(String?.self),
                etag: try row[2].decode(String?.self), lastModified: try row[3].decode(String?.self),
                validatedAt: Timestamp.parse(try row[4].decode(String.self)) ?? 0)
        }
    }

    package func storeResource(_ resource: StoredResource, _ key: String) async throws {
        _ = try await write { session in
            try session.query(
                """
                INSERT INTO syncd_resources (url, body, content_type, etag, last_modified, validated_at)
                VALUES ($1, $2, $3, $4, $5, $6)
                ON CONFLICT (url) DO UPDATE SET body = EXCLUDED.body, content_type = EXCLUDED.content_type,
                    etag = EXCLUDED.etag, last_modified = EXCLUDED.last_modified, validated_at = EXCLUDED.validated_at
                """,
                [
                    .text(key), .bytes(ByteBuffer(bytes: resource.body)),
                    resource.contentType.map(PostgresValue.text) ?? .null,
                    resource.etag.map(PostgresValue.text) ?? .null,
                    resource.lastModified.map(PostgresValue.text) ?? .null,
                    .text(Timestamp.format(resource.validatedAt)),
                ])
        }
    }

    package func touchResource(_ key: String, validatedAt time: Double) async throws {
        _ = try await write { session in
            try session.query(
                "UPDATE syncd_resources SET validated_at = $1 WHERE url = $2",
                [.text(Timestamp.format(time)), .text(key)])
        }
    }
}
