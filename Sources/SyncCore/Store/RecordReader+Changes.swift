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
        let table = RecordTable(endpoint)
        // `_rowid_` rather than `rowid`: a configured column may be called rowid, never _rowid_.
        let rowsAfter =
            after == nil
            ? "\"_version\" > ?1"
            : "\"_version\" >= ?2 AND (\"_version\" > ?2 OR (?3 = 0 AND _rowid_ > ?4))"
        let rows = try database.makeStatement(
            """
            SELECT "_raw", \(table.keyJSONExpression), "_created_version" > ?1, "_version", _rowid_
            FROM \(table.quotedName) WHERE \(rowsAfter) ORDER BY "_version", _rowid_
            """)
        let deletionsAfter =
            after == nil ? "version > ?1" : "version >= ?2 AND (version > ?2 OR ?3 = 0 OR _rowid_ > ?4)"
        let deletions = try database.makeStatement(
            """
            SELECT key, version, _rowid_ FROM syncd_tombstones
            WHERE endpoint = ?5 AND \(deletionsAfter) ORDER BY version, _rowid_
            """)
        let arguments: [SQLiteValue] = [
            .integer(since), .integer(after?.version ?? 0), .integer(after?.isDeletion == true ? 1 : 0),
            .integer(after?.rowid ?? 0), .text(endpoint.name.name),
        ]
        // SQLite counts parameters up to the highest number used: ?1 (or ?1…?4) for rows, ?1…?5 for deletions.
        try rows.bind(Array(arguments.prefix(after == nil ? 1 : 4)))
        try deletions.bind(arguments)
        defer {
            // Statements left on a row would keep the read transaction's snapshot past its end.
            try? rows.reset()
            try? deletions.reset()
        }
        var changes = ChangeBatch(
            version: state.version, endpointVersion: state.version, changed: [], changedKeys: [], inserted: [],
            deleted: [],
            etag: EntityTag.make(instance: try instance(), version: state.version), changedAt: state.changedAt)
        let limit = max(1, limit ?? .max)
        var taken = 0
        var bytes = 0
        var last: ChangePosition?
        var hasRow = try rows.step()
        var hasDeletion = try deletions.step()
        while hasRow || hasDeletion {
            let rowPosition = hasRow ? Self.position(rows, version: 3, rowid: 4, isDeletion: false) : nil
            let deletionPosition = hasDeletion ? Self.position(deletions, version: 1, rowid: 2, isDeletion: true) : nil
            let nextRow = rowPosition.map { row in deletionPosition.map { row.precedes($0) } ?? true } ?? false
            guard let position = nextRow ? rowPosition : deletionPosition else { break }
            if let last, taken >= limit || bytes >= maxBytes {
                changes.stop(after: last, before: position, since: since)
                break
            }
            if nextRow {
                let raw = rows.text(at: 0) ?? "null"
                bytes += raw.utf8.count
                changes.changed.append(raw)
                changes.changedKeys.append(rows.text(at: 1) ?? "null")
                changes.inserted.append(!rows.isNull(at: 2) && rows.integer(at: 2) == 1)
                hasRow = try rows.step()
            } else {
                // A key that came back after its deletion has no tombstone any more (SyncWriter removes it): it is
                // a change.
                let key = deletions.text(at: 0) ?? "null"
                // A deleted key is written to the answer too: it counts like a record (keys can be long texts).
                bytes += key.utf8.count
                changes.deleted.append(key)
                hasDeletion = try deletions.step()
            }
            taken += 1
            last = position
        }
        return changes
    }

    private static func position(_ statement: Statement, version: Int, rowid: Int, isDeletion: Bool)
        -> ChangePosition
    {
        ChangePosition(
            version: statement.integer(at: version), isDeletion: isDeletion, rowid: statement.integer(at: rowid))
    }
}
