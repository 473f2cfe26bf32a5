import SyncModel
internal import SyncSQLite

/// The change feed: what changed after a version, whole or in capped parts that a reader follows to the end.
extension RecordReader {
    /// The records changed after version `since` and the keys deleted after it; `since` 0 is everything.
    ///
    /// Changes come in ``ChangePosition``'s order. With a `limit` (or `maxBytes`), an answer that stops early says
    /// where the rest starts (``ChangeBatch/next``) and gives as ``ChangeBatch/version`` the highest version whose every
    /// change it (or an earlier part of the same walk) holds; the answer that reaches the end has no `next` and gives
    /// the endpoint's version. Each part is read in its own transaction, and both queries walk an index in the
    /// feed's order, so a part costs what it holds, not the table's size.
    ///
    /// Tombstones are kept for as long as the database lives, so any earlier version can be caught up from.
    ///
    /// - Parameters:
    ///   - after: Where an earlier capped answer stopped; ignored unless its version is above `since`.
    ///   - limit: The most changes (changed rows and deletions together) to return; `nil` for all.
    ///   - maxBytes: Stop once the changed rows and deleted keys hold this many bytes of JSON (at least one change is
    ///     returned).
    /// - Throws: ``StoreError`` when the endpoint is a document or not synced yet; ``SQLiteError``.
    package func changes(
        since: Int64, after: ChangePosition? = nil, limit: Int? = nil, maxBytes: Int = .max
    ) throws -> ChangeBatch {
        guard !endpoint.isDocument else { throw StoreError.notCollection(endpoint.name.name) }
        return try database.transaction(.deferred) {
            try readChanges(
                since: since, after: after.flatMap { $0.version > since ? $0 : nil }, limit: limit,
                maxBytes: maxBytes)
        }
    }

    private func readChanges(since: Int64, after: ChangePosition?, limit: Int?, maxBytes: Int) throws -> ChangeBatch {
        let state = try state()
        let (changed, deleted) = compiler.changes(since: since, after: after)
        let rows = try database.makeStatement(changed.sql)
        let deletions = try database.makeStatement(deleted.sql)
        try rows.bind(changed.arguments.map(SQLiteValue.init))
        try deletions.bind(deleted.arguments.map(SQLiteValue.init))
        defer {
            // Statements left on a row would keep the read transaction's snapshot past its end.
            try? rows.reset()
            try? deletions.reset()
        }
        var changes = ChangeBatch(
            version: state.version, endpointVersion: state.version, changed: [], changedKeys: [], inserted: [],
            deleted: [], etag: try tags().tag(state), changedAt: state.changedAt)
        try changes.merge(
            since: since, limit: limit, maxBytes: maxBytes, nextRow: { try rows.step() ? rows : nil },
            nextDeletion: { try deletions.step() ? deletions : nil },
            rowPosition: { Self.position($0, version: 2, rowid: 3, isDeletion: false) },
            deletionPosition: { Self.position($0, version: 1, rowid: 2, isDeletion: true) },
            changedRow: { row in
                (
                    raw: row.text(at: 0) ?? "null", key: row.text(at: 4) ?? "null",
                    inserted: !row.isNull(at: 1) && row.integer(at: 1) == 1
                )
            },
            deletedKey: { $0.text(at: 0) ?? "null" })
        return changes
    }

    private static func position(_ statement: Statement, version: Int, rowid: Int, isDeletion: Bool)
        -> ChangePosition
    {
        ChangePosition(
            version: statement.integer(at: version), isDeletion: isDeletion, rowid: statement.integer(at: rowid))
    }
}
