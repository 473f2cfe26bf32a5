// PostgresSyncStorage's part of a child endpoint's run: its parent's rows and its state per parent, read before the
// fetch, the one transaction that applies the whole fan-out, and the writer's statements for it.

internal import PostgresNIO
package import SyncCore
package import SyncIngest
internal import SyncSQLite

extension PostgresSyncStorage {
    package func fanOutInputs(for endpoint: EndpointConfiguration) async throws -> FanOutInputs {
        try await store.withSession { session in try Self.fanOutInputs(for: endpoint, session) }
    }

    package func applyFanOut(
        _ body: FanOutBody, run: SyncRun, facts: @escaping @Sendable () -> RunFacts
    ) async throws -> SyncSummary {
        try await apply(run) { try SyncApply(run).applyFanOut(body, facts: facts(), in: &$0) }
    }

    /// The parent's rows in key order (none while its table does not exist), and the child's state per parent.
    static func fanOutInputs(for endpoint: EndpointConfiguration, _ session: PostgresSession) throws -> FanOutInputs {
        var children: [String: ChildState] = [:]
        for row in try session.query(
            """
            SELECT parent_key, etag, last_modified, parent_version, walked_at, cursor, cursor_column
            FROM syncd_children WHERE endpoint = $1
            """, [.text(endpoint.name.name)]
        ).rows {
            let key = try row[0].decode(String.self)
            children[key] = ChildState(
                parentKey: key, etag: try row[1].decode(String?.self), lastModified: try row[2].decode(String?.self),
                parentVersion: try row[3].decode(Int64.self), walkedAt: try row[4].decode(String.self),
                cursor: try row[5].decode(String?.self), cursorColumn: try row[6].decode(String?.self))
        }
        guard let plan = endpoint.fanOut,
            try session.scalar(Bool.self, "SELECT to_regclass($1) IS NOT NULL", [.text(plan.parent.quoted)]) == true
        else { return FanOutInputs(parents: [], children: children) }
        let keys = plan.parentKey.map(SQLIdentifier.quote)
        let columns = (keys + ["\"_version\""] + plan.parentColumns.map(SQLIdentifier.quote)).joined(separator: ", ")
        var parents: [ParentRow] = []
        for row in try session.query(
            "SELECT \(columns) FROM \(plan.parent.quoted) ORDER BY \(keys.joined(separator: ", "))"
        ).rows {
            let key = (0..<keys.count).map { PostgresTable.value(PostgresValue(cell: row[$0])) }
            parents.append(
                ParentRow(
                    key: ColumnValue.keyJSON(key),
                    values: plan.parentColumns.indices.map {
                        PostgresTable.value(PostgresValue(cell: row[keys.count + 1 + $0]))
                    },
                    version: try row[keys.count].decode(Int64.self)))
        }
        return FanOutInputs(parents: parents, children: children)
    }
}

extension PostgresWriter {
    func parentedRows(_ shape: TableShape, before version: Int64) throws
        -> [(row: [PostgresValue], key: [ColumnValue], parent: String?)]
    {
        let table = PostgresTable(shape)
        let keyCount = shape.keyColumns.count
        return try session.query(
            """
            SELECT \(SQLIdentifier.quote(TableShape.parentColumn)), \(table.quotedKeys) FROM \(table.quotedName)
            WHERE "_version" < $1
            """, [.integer(version)]
        ).rows.map { row in
            let stored = (0..<keyCount).map { PostgresValue(cell: row[1 + $0]) }
            return (stored, stored.map(PostgresTable.value), try row[0].decode(String?.self))
        }
    }

    func replaceChildStates(_ states: [ChildState], keeping parents: Set<String>) throws {
        try session.query(
            "DELETE FROM syncd_children WHERE endpoint = $1 AND NOT (parent_key = ANY($2))",
            [.text(name), .texts(Array(parents))])
        for state in states {
            try session.query(
                """
                INSERT INTO syncd_children (
                    endpoint, parent_key, etag, last_modified, parent_version, walked_at, cursor, cursor_column
                )
                VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
                ON CONFLICT (endpoint, parent_key) DO UPDATE SET etag = excluded.etag,
                last_modified = excluded.last_modified, parent_version = excluded.parent_version,
                walked_at = excluded.walked_at, cursor = excluded.cursor, cursor_column = excluded.cursor_column
                """,
                [
                    .text(name), .text(state.parentKey), state.etag.map(PostgresValue.text) ?? .null,
                    state.lastModified.map(PostgresValue.text) ?? .null, .integer(state.parentVersion),
                    .text(state.walkedAt), state.cursor.map(PostgresValue.text) ?? .null,
                    state.cursorColumn.map(PostgresValue.text) ?? .null,
                ])
        }
    }
}
