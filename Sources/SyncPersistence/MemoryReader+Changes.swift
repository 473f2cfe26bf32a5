import SyncDecoding
import SyncModel

/// The change feed of a ``MemoryStore``: its rows and tombstones in the feed's order (``ChangePosition``, by the
/// rows' SQLite rowid), merged by ``ChangeBatch``'s walk as every store's are.
extension MemoryReader {
    func changes(
        of endpoint: EndpointConfiguration, since: Int64, after: ChangePosition?, limit: Int?, maxBytes: Int
    ) throws -> ChangeBatch {
        let (state, table) = try collection(endpoint)
        // A position of an earlier answer counts only past `since`; then it alone says where the walk goes on.
        let after = after.flatMap { $0.version > since ? $0 : nil }
        func follows(_ position: ChangePosition) -> Bool {
            after.map { $0.precedes(position) } ?? (position.version > since)
        }
        let rows = table.rows.map { (key: $0.key, row: $0.value) }
            .map {
                (entry: $0, position: ChangePosition(version: $0.row.version, isDeletion: false, rowid: $0.row.rowID))
            }
            .filter { follows($0.position) }.sorted { $0.position.precedes($1.position) }
        let deletions = table.tombstones.map { key, tombstone in
            (key: key, position: ChangePosition(version: tombstone.version, isDeletion: true, rowid: tombstone.id))
        }.filter { follows($0.position) }.sorted { $0.position.precedes($1.position) }
        var changes = ChangeBatch(
            version: state.version, endpointVersion: state.version, changed: [], changedKeys: [], inserted: [],
            deleted: [], etag: try tags().tag(state), changedAt: state.changedAt)
        var nextRow = rows.makeIterator()
        var nextDeletion = deletions.makeIterator()
        try changes.merge(
            since: since, limit: limit, maxBytes: maxBytes, nextRow: { nextRow.next() },
            nextDeletion: { nextDeletion.next() }, rowPosition: { $0.position }, deletionPosition: { $0.position },
            changedRow: { changed in
                (
                    raw: changed.entry.row.raw, key: ColumnValue.keyJSON(changed.entry.key),
                    inserted: changed.entry.row.createdVersion > since
                )
            },
            deletedKey: { ColumnValue.keyJSON($0.key) })
        return changes
    }
}
