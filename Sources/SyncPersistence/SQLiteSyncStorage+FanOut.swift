// SQLiteSyncStorage's part of a child endpoint's run: its parent's rows and its state per parent, read before the
// fetch, and the one transaction that applies the whole fan-out.

import SyncDecoding
package import SyncIngest
package import SyncModel
internal import SyncSQLite

extension SQLiteSyncStorage {
    package func fanOutInputs(for endpoint: EndpointConfiguration) async throws -> FanOutInputs {
        try await database.perform { database in try Self.fanOutInputs(for: endpoint, database) }
    }

    package func applyFanOut(
        _ body: FanOutBody, run: SyncRun, facts: @escaping @Sendable () -> RunFacts
    ) async throws -> SyncSummary {
        // A transaction that waits for the walks gives way to every other write of the process.
        if body.streams { body.run.giveWay { [database] in database.hasWaiting } }
        return try await database.perform { database in
            try SyncApply(run).applyFanOut(body, facts: facts(), database: database)
        }
    }

    /// The parent's rows in key order (none while its table does not exist), and the child's state per parent.
    static func fanOutInputs(for endpoint: EndpointConfiguration, _ database: Database) throws -> FanOutInputs {
        var children: [String: ChildState] = [:]
        let states = try database.makeStatement(
            """
            SELECT parent_key, etag, last_modified, parent_version, walked_at, cursor, cursor_column
            FROM syncd_children WHERE endpoint = ?
            """)
        try states.bind([.text(endpoint.name.name)])
        while try states.step() {
            guard let key = states.text(at: 0) else { continue }
            children[key] = ChildState(
                parentKey: key, etag: states.text(at: 1), lastModified: states.text(at: 2),
                parentVersion: states.integer(at: 3), walkedAt: states.text(at: 4) ?? "", cursor: states.text(at: 5),
                cursorColumn: states.text(at: 6))
        }
        guard let plan = endpoint.fanOut, try database.tableExists(plan.parent.name),
            let keyJSON = SQLDialect.sqlite.keyJSON(plan.parentKey)
        else { return FanOutInputs(parents: [], children: children) }
        let columns = plan.parentColumns.map(SQLIdentifier.quote)
        let select = try database.makeStatement(
            """
            SELECT \(keyJSON), "_version"\(columns.map { ", \($0)" }.joined()) FROM \(plan.parent.quoted)
            ORDER BY \(plan.parentKey.map(SQLIdentifier.quote).joined(separator: ", "))
            """)
        var parents: [ParentRow] = []
        while try select.step() {
            parents.append(
                ParentRow(
                    key: select.text(at: 0) ?? "null",
                    values: (0..<columns.count).map { ColumnValue(select.value(at: 2 + $0)) },
                    version: select.integer(at: 1)))
        }
        return FanOutInputs(parents: parents, children: children)
    }
}
