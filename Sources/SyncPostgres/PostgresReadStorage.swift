internal import FoundationEssentials
internal import PostgresNIO
package import SyncCore
internal import SyncSQLite

/// ``ReadStorage`` over PostgreSQL: each read is one `REPEATABLE READ READ ONLY` transaction on a connection of the
/// ``PostgresStore``'s pool, so that what it reads (rows, versions, tags) belongs to one committed state.
package struct PostgresReadStorage: ReadStorage {
    package let store: PostgresStore

    /// - Note: Starts watching the server's commits (``PostgresStore/watchCommits()``) for ``generation()``.
    package init(store: PostgresStore) {
        self.store = store
        store.watchCommits()
    }

    package func generation() throws -> Int64 {
        store.generation
    }

    package func read<T: Sendable>(_ body: @escaping @Sendable (any StorageReader) throws -> T) async throws -> T {
        try await store.withSession { session in
            try session.transaction("REPEATABLE READ READ ONLY") { try body(PostgresStorageReader(session: session)) }
        }
    }
}

/// ``StorageReader`` on one connection, inside a read-only transaction.
struct PostgresStorageReader: StorageReader {
    /// Rows fetched at a time from a query's cursor: a page stops at its byte budget without reading the rest.
    static let fetchSize = 256

    let session: PostgresSession

    func instance() throws -> String {
        try session.scalar(String.self, QueryCompiler.instanceSQL) ?? "0"
    }

    func states() throws -> [EndpointState] {
        try session.query(
            "SELECT \(PostgresSyncStorage.stateColumns) FROM syncd_endpoints ORDER BY name COLLATE \"C\""
        ).rows.map(PostgresSyncStorage.state(row:))
    }

    func state(of name: String) throws -> EndpointState? {
        try PostgresSyncStorage.state(of: name, session)
    }

    func drift(endpoint: String?) throws -> [SchemaDrift] {
        let rows = try session.query(
            """
            SELECT endpoint, kind, path, detail, first_seen, last_seen, count, example FROM syncd_drift
            WHERE $1::text IS NULL OR endpoint = $1 ORDER BY endpoint COLLATE "C", kind, path COLLATE "C"
            """, [endpoint.map(PostgresValue.text) ?? .null]
        ).rows
        return try rows.compactMap { row in
            guard let kind = SchemaDrift.Kind(rawValue: try row[1].decode(String.self)) else { return nil }
            return SchemaDrift(
                endpoint: try row[0].decode(String.self), kind: kind, path: try row[2].decode(String.self),
                detail: try row[3].decode(String?.self), firstSeen: try row[4].decode(String.self),
                lastSeen: try row[5].decode(String.self), count: try row[6].decode(Int.self),
                example: try row[7].decode(String?.self))
        }
    }

    func recentRuns(of endpoints: [String], limit: Int) throws -> [RecentRun] {
        let limit = min(max(0, limit), RecentRun.readLimit)
        guard limit > 0, !endpoints.isEmpty else { return [] }
        // One round trip: each endpoint's last runs through syncd_runs_endpoint, in the order the names came.
        let rows = try session.query(
            """
            SELECT e.name, r.started_at, r.duration_ms, r.outcome, r.records
            FROM unnest($1::text[]) WITH ORDINALITY AS e(name, position)
            CROSS JOIN LATERAL (
                SELECT id, started_at, duration_ms, outcome, records FROM syncd_runs WHERE endpoint = e.name
                ORDER BY id DESC LIMIT $2
            ) AS r
            ORDER BY e.position, r.id
            """, [.texts(endpoints), .integer(Int64(limit))]
        ).rows
        return try rows.compactMap { row in
            guard let outcome = SyncSummary.Outcome(rawValue: try row[3].decode(String.self)) else { return nil }
            return RecentRun(
                endpoint: try row[0].decode(String.self), startedAt: try row[1].decode(String.self),
                durationMilliseconds: try row[2].decode(Int64.self), outcome: outcome,
                records: try row[4].decode(Int64.self))
        }
    }

    func storedEndpoint(named name: String) throws -> EndpointConfiguration? {
        guard
            let row = try session.query(
                "SELECT kind, url, primary_key, columns FROM syncd_endpoints WHERE name = $1", [.text(name)]
            ).rows.first,
            let identifier = try? SQLIdentifier(validating: name)
        else { return nil }
        let url = try row[1].decode(String.self)
        guard try row[0].decode(String.self) == "collection" else {
            return EndpointConfiguration(name: identifier, url: url)
        }
        let columns = StoredEndpoint.columns(fromSignature: try row[3].decode(String?.self) ?? "")
        // The key as stored: a JSON string, or an array of them for a composite key.
        let keyJSON = try row[2].decode(String?.self) ?? "[]"
        let keyNames: [String]
        switch try? JSONDecoder().decode(JSONValue.self, from: Data(keyJSON.utf8)) {
        case .string(let name): keyNames = [name]
        case .array(let names):
            let strings = names.compactMap { name -> String? in if case .string(let text) = name { text } else { nil } }
            keyNames = strings.count == names.count ? strings : []
        default: keyNames = []
        }
        let primaryKey = keyNames.compactMap { key in columns.firstIndex { $0.name == key } }
        return EndpointConfiguration(
            name: identifier, url: url, records: .root, primaryKey: primaryKey, columns: columns)
    }

    func incompatibility(with endpoint: EndpointConfiguration) throws -> StoreError? {
        guard !endpoint.isDocument else { return nil }
        return try PostgresTable(endpoint).incompatibility(session)
    }

    func unconfiguredColumns(of endpoint: EndpointConfiguration) throws -> [String] {
        guard !endpoint.isDocument else { return [] }
        let configured = Set(endpoint.columns.map(\.name) + PostgresTable.systemColumns)
        return try PostgresTable(endpoint).storedColumns(session).map(\.name).filter { !configured.contains($0) }
    }

    /// The endpoint's state, when it was synced and (for a collection) its table exists.
    func syncedState(_ endpoint: EndpointConfiguration) throws -> EndpointState {
        guard let state = try state(of: endpoint.name.name),
            try endpoint.isDocument || !PostgresTable(endpoint).storedColumns(session).isEmpty
        else { throw StoreError.notSynced(endpoint.name.name) }
        return state
    }

    func records(of endpoint: EndpointConfiguration, _ query: RecordQuery, countingAll: Bool, maxBytes: Int) throws
        -> RecordPage
    {
        guard !endpoint.isDocument else { throw StoreError.notCollection(endpoint.name.name) }
        let state = try syncedState(endpoint)
        let (page, count) = try QueryCompiler(.postgres, endpoint: endpoint).records(query)
        var total: Int?
        if countingAll {
            total = Int(try session.scalar(Int64.self, count.sql, count.arguments.map(PostgresValue.init)) ?? 0)
        }
        var rows: [[ColumnValue]] = []
        var raws: [String] = []
        let columns = endpoint.columns.count
        var bytes = 0
        try fetch(page.sql, page.arguments.map(PostgresValue.init)) { row in
            rows.append((0..<columns).map { PostgresTable.value(PostgresValue(cell: row[$0])) })
            let raw = try row[columns].decode(String.self)
            bytes += raw.utf8.count
            raws.append(raw)
            return bytes < maxBytes
        }
        return RecordPage(
            columns: endpoint.columns.map(\.name), rows: rows, raws: raws, etag: try tags().tag(state),
            version: state.version, changedAt: state.changedAt, total: total)
    }

    func record(of endpoint: EndpointConfiguration, key: [String]) throws -> StoredRecord? {
        guard !endpoint.isDocument else { throw StoreError.notCollection(endpoint.name.name) }
        let state = try syncedState(endpoint)
        let lookup = try QueryCompiler(.postgres, endpoint: endpoint).record(key: key)
        guard let row = try session.query(lookup.sql, lookup.arguments.map(PostgresValue.init)).rows.first else {
            return nil
        }
        let version = try row[1].decode(Int64.self)
        return StoredRecord(
            raw: try row[0].decode(String.self), etag: try tags().tag(version), version: version,
            changedAt: try row[2].decode(String?.self), endpointVersion: state.version)
    }

    func document(of endpoint: EndpointConfiguration) throws -> StoredDocument? {
        guard endpoint.isDocument else { throw StoreError.notDocument(endpoint.name.name) }
        let document = QueryCompiler(.postgres, endpoint: endpoint).document
        guard let row = try session.query(document.sql, document.arguments.map(PostgresValue.init)).rows.first else {
            return nil
        }
        let version = try row[2].decode(Int64.self)
        let body = try row[0].decode(ByteBuffer.self)
        return StoredDocument(
            body: Array(body.readableBytesView), contentType: try row[1].decode(String?.self),
            etag: try tags().tag(version), version: version, changedAt: try row[3].decode(String?.self),
            endpointVersion: try state(of: endpoint.name.name)?.version ?? version)
    }

    func changes(
        of endpoint: EndpointConfiguration, since: Int64, after: ChangePosition?, limit: Int?, maxBytes: Int
    ) throws -> ChangeBatch {
        guard !endpoint.isDocument else { throw StoreError.notCollection(endpoint.name.name) }
        let state = try syncedState(endpoint)
        let after = after.flatMap { $0.version > since ? $0 : nil }
        let keyCount = endpoint.primaryKey.count
        let (changed, deleted) = QueryCompiler(.postgres, endpoint: endpoint).changes(since: since, after: after)
        var changes = ChangeBatch(
            version: state.version, endpointVersion: state.version, changed: [], changedKeys: [], inserted: [],
            deleted: [], etag: try tags().tag(state), changedAt: state.changedAt)
        // Both lists are read a part at a time through cursors and merged in the feed's order.
        var rows = Cursor(session, name: "syncd_changed", sql: changed.sql, changed.arguments.map(PostgresValue.init))
        var deletions = Cursor(
            session, name: "syncd_deleted", sql: deleted.sql, deleted.arguments.map(PostgresValue.init))
        try changes.merge(
            since: since, limit: limit, maxBytes: maxBytes, nextRow: { try rows.next() },
            nextDeletion: { try deletions.next() },
            rowPosition: {
                ChangePosition(
                    version: try $0[2].decode(Int64.self), isDeletion: false, rowid: try $0[3].decode(Int64.self))
            },
            deletionPosition: {
                ChangePosition(
                    version: try $0[1].decode(Int64.self), isDeletion: true, rowid: try $0[2].decode(Int64.self))
            },
            changedRow: { row in
                // The key's JSON as the tombstones hold it (ColumnValue.keyJSON), so that both lists match.
                let key = (0..<keyCount).map { PostgresTable.value(PostgresValue(cell: row[4 + $0])) }
                return (
                    raw: try row[0].decode(String.self), key: ColumnValue.keyJSON(key),
                    inserted: try row[1].decode(Bool?.self) == true
                )
            },
            deletedKey: { try $0[0].decode(String.self) })
        try rows.close()
        try deletions.close()
        return changes
    }

    /// Runs `sql` through a cursor, handing each row to `body` until it returns false or the rows end.
    private func fetch(_ sql: String, _ arguments: [PostgresValue], _ body: (PostgresRandomAccessRow) throws -> Bool)
        throws
    {
        var cursor = Cursor(session, name: "syncd_page", sql: sql, arguments)
        while let row = try cursor.next() {
            guard try body(row) else { break }
        }
        try cursor.close()
    }

    /// A server-side cursor, read ``PostgresStorageReader/fetchSize`` rows at a time.
    private struct Cursor {
        let session: PostgresSession
        let name: String
        let sql: String
        let arguments: [PostgresValue]
        var buffered: [PostgresRandomAccessRow] = []
        var position = 0
        var isOpen = false
        var isDone = false

        init(_ session: PostgresSession, name: String, sql: String, _ arguments: [PostgresValue]) {
            self.session = session
            self.name = name
            self.sql = sql
            self.arguments = arguments
        }

        mutating func next() throws -> PostgresRandomAccessRow? {
            if position < buffered.count {
                defer { position += 1 }
                return buffered[position]
            }
            guard !isDone else { return nil }
            if !isOpen {
                try session.query("DECLARE \(name) NO SCROLL CURSOR FOR \(sql)", arguments)
                isOpen = true
            }
            buffered = try session.query("FETCH \(PostgresStorageReader.fetchSize) FROM \(name)").rows
            position = 0
            if buffered.count < PostgresStorageReader.fetchSize { isDone = true }
            guard !buffered.isEmpty else { return nil }
            position = 1
            return buffered[0]
        }

        func close() throws {
            if isOpen { try session.query("CLOSE \(name)") }
        }
    }
}
