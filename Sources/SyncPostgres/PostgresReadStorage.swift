internal import Foundation
internal import PostgresNIO
package import SyncCore

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
        try session.scalar(String.self, "SELECT value FROM syncd_meta WHERE key = 'instance'") ?? "0"
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
        let parsed = try? JSONSerialization.jsonObject(with: Data(keyJSON.utf8), options: [.fragmentsAllowed])
        let keyNames = (parsed as? [String]) ?? (parsed as? String).map { [$0] } ?? []
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
        let table = PostgresTable(endpoint)
        var conditions: [String] = []
        var arguments: [PostgresValue] = []
        func parameter(_ value: PostgresValue) -> String {
            arguments.append(value)
            return "$\(arguments.count)"
        }
        for filter in query.filters {
            let column = try RecordReader.column(named: filter.column, of: endpoint)
            let name = SQLIdentifier.quote(column.name)
            // Text compares byte by byte, as in SQLite, whatever the database's collation.
            let compared = Self.isText(column.type) ? "\(name) COLLATE \"C\"" : name
            var condition: String
            switch filter.op {
            case .eq, .neq, .gt, .gte, .lt, .lte:
                let value = try RecordReader.operand(filter.values.first ?? "", for: column, of: endpoint)
                condition = "\(compared) \(filter.op.comparison) \(parameter(PostgresValue(value)))"
            case .like, .ilike:
                // PostgREST's pattern as a LIKE pattern with `\` as its escape, PostgreSQL's default.
                let pattern = parameter(.text(RecordReader.like(filter.values.first ?? "")))
                let operand = Self.isText(column.type) ? compared : "\(name)::text"
                condition = "\(operand) \(filter.op == .like ? "LIKE" : "ILIKE") \(pattern)"
            case .in:
                let values = try filter.values.map {
                    parameter(PostgresValue(try RecordReader.operand($0, for: column, of: endpoint)))
                }
                condition = values.isEmpty ? "FALSE" : "\(compared) IN (\(values.joined(separator: ", ")))"
            case .is:
                let numeric = !Self.isText(column.type)
                switch filter.values.first?.lowercased() {
                case "null": condition = "\(name) IS NULL"
                case "true": condition = numeric ? "\(name) IS NOT DISTINCT FROM 1" : "FALSE"
                case "false": condition = numeric ? "\(name) IS NOT DISTINCT FROM 0" : "FALSE"
                default:
                    throw StoreError.badValue(
                        filter.values.first ?? "", column: column.name, endpoint: endpoint.name.name,
                        expected: "null, true or false")
                }
            }
            if filter.negated { condition = "NOT (\(condition))" }
            conditions.append(condition)
        }
        var order = try query.order.map { order in
            let column = try RecordReader.column(named: order.column, of: endpoint)
            let name = SQLIdentifier.quote(column.name) + (Self.isText(column.type) ? " COLLATE \"C\"" : "")
            let nulls = (order.nullsFirst ?? order.descending) ? " NULLS FIRST" : " NULLS LAST"
            return "\(name) \(order.descending ? "DESC" : "ASC")\(nulls)"
        }
        order += endpoint.primaryKey.map { index in
            let column = endpoint.columns[index]
            return SQLIdentifier.quote(column.name) + (Self.isText(column.type) ? " COLLATE \"C\"" : "") + " ASC"
        }
        let whereClause = conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")
        var total: Int?
        if countingAll {
            total = Int(
                try session.scalar(Int64.self, "SELECT count(*) FROM \(table.quotedName)\(whereClause)", arguments)
                    ?? 0)
        }
        let selected = endpoint.columns.map { SQLIdentifier.quote($0.name) }.joined(separator: ", ")
        let limit = parameter(query.limit.map { .integer(Int64($0)) } ?? .null)
        let offset = parameter(.integer(Int64(query.offset)))
        let sql =
            "SELECT \(selected), \"_raw\" FROM \(table.quotedName)\(whereClause) ORDER BY "
            + order.joined(separator: ", ") + " LIMIT \(limit) OFFSET \(offset)"
        var rows: [[ColumnValue]] = []
        var raws: [String] = []
        let count = endpoint.columns.count
        var bytes = 0
        try fetch(sql, arguments) { row in
            rows.append((0..<count).map { PostgresTable.value(PostgresValue(cell: row[$0])) })
            let raw = try row[count].decode(String.self)
            bytes += raw.utf8.count
            raws.append(raw)
            return bytes < maxBytes
        }
        return RecordPage(
            columns: endpoint.columns.map(\.name), rows: rows, raws: raws,
            etag: EntityTag.make(instance: try instance(), version: state.version), version: state.version,
            changedAt: state.changedAt, total: total)
    }

    func record(of endpoint: EndpointConfiguration, key: [String]) throws -> StoredRecord? {
        guard !endpoint.isDocument else { throw StoreError.notCollection(endpoint.name.name) }
        let state = try syncedState(endpoint)
        let table = PostgresTable(endpoint)
        let keyColumns = endpoint.primaryKey.map { endpoint.columns[$0] }
        guard key.count == keyColumns.count else {
            throw StoreError.badKey(
                key.joined(separator: ","), endpoint: endpoint.name.name,
                expected: "\(keyColumns.count) values separated by commas (\(table.keyNames.joined(separator: ",")))")
        }
        let arguments = try zip(key, keyColumns).map { text, column in
            PostgresValue(try RecordReader.operand(text, for: column, of: endpoint, isKey: true))
        }
        let predicate = keyColumns.enumerated().map { "\(SQLIdentifier.quote($1.name)) = $\($0 + 1)" }
            .joined(separator: " AND ")
        guard
            let row = try session.query(
                "SELECT \"_raw\", \"_version\", \"_changed_at\" FROM \(table.quotedName) WHERE \(predicate)", arguments
            ).rows.first
        else { return nil }
        let version = try row[1].decode(Int64.self)
        return StoredRecord(
            raw: try row[0].decode(String.self), etag: EntityTag.make(instance: try instance(), version: version),
            version: version, changedAt: try row[2].decode(String?.self), endpointVersion: state.version)
    }

    func document(of endpoint: EndpointConfiguration) throws -> StoredDocument? {
        guard endpoint.isDocument else { throw StoreError.notDocument(endpoint.name.name) }
        guard
            let row = try session.query(
                "SELECT body, content_type, version, changed_at FROM syncd_documents WHERE endpoint = $1",
                [.text(endpoint.name.name)]
            ).rows.first
        else { return nil }
        let version = try row[2].decode(Int64.self)
        let body = try row[0].decode(ByteBuffer.self)
        return StoredDocument(
            body: Array(body.readableBytesView), contentType: try row[1].decode(String?.self),
            etag: EntityTag.make(instance: try instance(), version: version), version: version,
            changedAt: try row[3].decode(String?.self),
            endpointVersion: try state(of: endpoint.name.name)?.version ?? version)
    }

    func changes(
        of endpoint: EndpointConfiguration, since: Int64, after: ChangePosition?, limit: Int?, maxBytes: Int
    ) throws -> ChangeBatch {
        guard !endpoint.isDocument else { throw StoreError.notCollection(endpoint.name.name) }
        let state = try syncedState(endpoint)
        let table = PostgresTable(endpoint)
        let after = after.flatMap { $0.version > since ? $0 : nil }
        let keyCount = endpoint.primaryKey.count
        // The same order as SQLite's feed: by version, rows before deletions, then `_row` (tombstones: `id`).
        let rowsAfter =
            after == nil
            ? "\"_version\" > $1"
            : "\"_version\" >= $2 AND (\"_version\" > $2 OR ($3 = 0 AND \"_row\" > $4))"
        let deletionsAfter = after == nil ? "version > $1" : "version >= $2 AND (version > $2 OR $3 = 0 OR id > $4)"
        let arguments: [PostgresValue] = [
            .integer(since), .integer(after?.version ?? 0), .integer(after?.isDeletion == true ? 1 : 0),
            .integer(after?.rowid ?? 0),
        ]
        let used = after == nil ? 1 : 4
        var changes = ChangeBatch(
            version: state.version, endpointVersion: state.version, changed: [], changedKeys: [], inserted: [],
            deleted: [], etag: EntityTag.make(instance: try instance(), version: state.version),
            changedAt: state.changedAt)
        let limit = max(1, limit ?? .max)
        // Both lists are read a part at a time through cursors and merged in the feed's order.
        var rows = Cursor(
            session, name: "syncd_changed",
            sql: """
                SELECT "_raw", "_created_version" > $1, "_version", "_row", \(table.quotedKeys) FROM \(table.quotedName)
                WHERE \(rowsAfter) ORDER BY "_version", "_row"
                """, Array(arguments.prefix(used)))
        var deletions = Cursor(
            session, name: "syncd_deleted",
            sql: """
                SELECT key, version, id FROM syncd_tombstones WHERE endpoint = $\(used + 1) AND \(deletionsAfter)
                ORDER BY version, id
                """, Array(arguments.prefix(used)) + [.text(endpoint.name.name)])
        var taken = 0
        var bytes = 0
        var last: ChangePosition?
        var row = try rows.next()
        var deletion = try deletions.next()
        while row != nil || deletion != nil {
            let rowPosition = try row.map {
                ChangePosition(
                    version: try $0[2].decode(Int64.self), isDeletion: false, rowid: try $0[3].decode(Int64.self))
            }
            let deletionPosition = try deletion.map {
                ChangePosition(
                    version: try $0[1].decode(Int64.self), isDeletion: true, rowid: try $0[2].decode(Int64.self))
            }
            let nextRow = rowPosition.map { row in deletionPosition.map { row.precedes($0) } ?? true } ?? false
            guard let position = nextRow ? rowPosition : deletionPosition else { break }
            if let last, taken >= limit || bytes >= maxBytes {
                changes.stop(after: last, before: position, since: since)
                break
            }
            if nextRow, let current = row {
                let raw = try current[0].decode(String.self)
                bytes += raw.utf8.count
                changes.changed.append(raw)
                // The key's JSON as the tombstones hold it (ColumnValue.keyJSON), so that both lists match.
                let key = (0..<keyCount).map { PostgresTable.value(PostgresValue(cell: current[4 + $0])) }
                changes.changedKeys.append(ColumnValue.keyJSON(key))
                changes.inserted.append(try current[1].decode(Bool?.self) == true)
                row = try rows.next()
            } else if let current = deletion {
                let key = try current[0].decode(String.self)
                // A deleted key is written to the answer too: it counts like a record (keys can be long texts).
                bytes += key.utf8.count
                changes.deleted.append(key)
                deletion = try deletions.next()
            }
            taken += 1
            last = position
        }
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

    static func isText(_ type: ColumnType) -> Bool {
        switch type {
        case .text, .json, .timestamp: true
        case .integer, .boolean, .real: false
        }
    }
}
