extension SyncWriter {
    /// Deletes the rows a snapshot no longer holds, leaving a tombstone for each.
    ///
    /// - Parameter limitedTo: the stored rows before the run, whose share `max_delete` limits; nil for a snapshot
    ///   without records, which `allow_empty` alone lets through.
    /// - Throws: ``StoreError/tooManyDeletions`` when more rows would go than `max_delete` allows.
    func deleteUnseen(
        _ database: Database, table: RecordTable, seen: SeenKeys, version: Int64, now: String, limitedTo stored: Int?
    ) throws -> Int {
        let keyNames = table.keyNames.map(SQLIdentifier.quote).joined(separator: ", ")
        let select = try database.makeStatement("SELECT rowid, \(keyNames) FROM \(table.quotedName)")
        var unseen: [Int64] = []
        let keyCount = table.keyColumns.count
        while try select.step() {
            let key = (1...keyCount).map { ColumnValue(select.value(at: $0)) }
            if !seen.contains(key: key) { unseen.append(select.integer(at: 0)) }
        }
        if let stored, unseen.count > endpoint.maxDelete.allowed(stored: stored) {
            throw StoreError.tooManyDeletions(
                endpoint: endpoint.name.name, deleting: unseen.count, stored: stored, limit: endpoint.maxDelete)
        }
        let delete = try database.makeStatement(
            "DELETE FROM \(table.quotedName) WHERE rowid = ? RETURNING \(table.keyJSONExpression)")
        var keys: [String] = []
        for rowid in unseen {
            try delete.bind([.integer(rowid)])
            while try delete.step() {
                keys.append(delete.text(at: 0) ?? "null")
            }
        }
        let tombstone = try database.makeStatement(
            """
            INSERT INTO syncd_tombstones (endpoint, key, version, deleted_at) VALUES (?, ?, ?, ?)
            ON CONFLICT (endpoint, key) DO UPDATE SET version = excluded.version, deleted_at = excluded.deleted_at
            """
        )
        for key in keys {
            try tombstone.bind([.text(endpoint.name.name), .text(key), .integer(version), .text(now)])
            try tombstone.step()
        }
        return keys.count
    }
}
