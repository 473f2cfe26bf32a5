/// The change feed's walk, the same for every store: the changed rows and the deletions, each read in the feed's
/// order (``ChangePosition``), merged into one answer that stops at its caps.
extension ChangeBatch {
    /// A changed row as a store reads it: the record's original JSON, its key as JSON as the tombstones hold it
    /// (``ColumnValue/keyJSON(_:)``), and whether it was first stored after `since`.
    package typealias ChangedRow = (raw: String, key: String, inserted: Bool)

    /// Adds changes in the feed's order until both lists end, or `limit` changes or `maxBytes` bytes of JSON are
    /// taken (at least one change is), and then ends the answer where it stopped (``stop(after:before:since:)``).
    ///
    /// - Parameters:
    ///   - nextRow: Moves to the next changed row (in the feed's order) and returns it; `nil` when there is none left.
    ///   - nextDeletion: Moves to the next deletion and returns it; `nil` when there is none left.
    ///   - rowPosition: Where a changed row is in the feed.
    ///   - deletionPosition: Where a deletion is in the feed.
    ///   - changedRow: What a changed row holds.
    ///   - deletedKey: A deletion's key, as JSON.
    package mutating func merge<Row, Deletion>(
        since: Int64, limit: Int?, maxBytes: Int, nextRow: () throws -> Row?, nextDeletion: () throws -> Deletion?,
        rowPosition: (Row) throws -> ChangePosition, deletionPosition: (Deletion) throws -> ChangePosition,
        changedRow: (Row) throws -> ChangedRow, deletedKey: (Deletion) throws -> String
    ) throws {
        let limit = max(1, limit ?? .max)
        var taken = 0
        var bytes = 0
        var last: ChangePosition?
        var row = try nextRow()
        var deletion = try nextDeletion()
        while row != nil || deletion != nil {
            let rowAt = try row.map(rowPosition)
            let deletionAt = try deletion.map(deletionPosition)
            let nextIsRow = rowAt.map { row in deletionAt.map { row.precedes($0) } ?? true } ?? false
            guard let position = nextIsRow ? rowAt : deletionAt else { break }
            if let last, taken >= limit || bytes >= maxBytes {
                stop(after: last, before: position, since: since)
                break
            }
            if nextIsRow, let current = row {
                let changed = try changedRow(current)
                bytes += changed.raw.utf8.count
                self.changed.append(changed.raw)
                changedKeys.append(changed.key)
                inserted.append(changed.inserted)
                row = try nextRow()
            } else if let current = deletion {
                // A key that came back after its deletion has no tombstone any more (the writer removes it): it is
                // a change.
                let key = try deletedKey(current)
                // A deleted key is written to the answer too: it counts like a record (keys can be long texts).
                bytes += key.utf8.count
                deleted.append(key)
                deletion = try nextDeletion()
            }
            taken += 1
            last = position
        }
        self.last = last
    }
}
