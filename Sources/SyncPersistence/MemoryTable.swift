import SyncDecoding
internal import SyncSQLite

/// One collection endpoint's records in a ``MemoryStore``, as its SQLite table holds them: each row's values in
/// ``columns``' order, `_raw`, `_version`, `_changed_at`, `_created_version` and SQLite's rowid, keyed by the values
/// of the key columns; and the endpoint's tombstones, keyed alike.
///
/// Columns are added and retyped as the configuration changes, never removed: a column the configuration no longer
/// names keeps its values, and is no longer filled, as in SQLite.
struct MemoryTable: Sendable {
    struct Row: Sendable {
        var values: [ColumnValue]
        var raw: String
        var version: Int64
        var changedAt: String
        var createdVersion: Int64
        /// SQLite's rowid, which orders the rows of one version in the change feed: the key, for a single integer
        /// key; else the order of insertion.
        var rowID: Int64
    }

    struct Tombstone: Sendable {
        var version: Int64
        var deletedAt: String
        /// The order of the tombstone's first deletion, which orders the deletions of one version.
        var id: Int64
    }

    /// The stored columns, configured ones first in the order they were added.
    private(set) var columns: [ColumnSpec]
    /// The key columns' names, in key order.
    let keyNames: [String]
    /// The rows, by their key's values in key order.
    var rows: [[ColumnValue]: Row] = [:]
    var tombstones: [[ColumnValue]: Tombstone] = [:]
    private var nextRowID: Int64 = 1
    private var nextTombstoneID: Int64 = 1

    /// An empty table of `shape`.
    init(_ shape: TableShape) {
        columns = shape.columns
        keyNames = shape.keyNames
    }

    /// Each of `columns`' position in the stored ones; nil for one the table does not hold.
    func positions(of columns: [ColumnSpec]) -> [Int?] {
        columns.map { column in self.columns.firstIndex { $0.name == column.name } }
    }

    /// Why the table cannot take `shape` without losing its rows: another primary key, or a key column of another
    /// type (RecordTable's refusals); nil when it can.
    func incompatibility(with shape: TableShape) -> StoreError? {
        guard keyNames == shape.keyNames else {
            return StoreError.primaryKeyChanged(table: shape.name.name, stored: keyNames, configured: shape.keyNames)
        }
        for index in shape.keyColumns {
            let column = shape.columns[index]
            if let stored = columns.first(where: { $0.name == column.name }), stored.type != column.type {
                return StoreError.primaryKeyTypeChanged(
                    table: shape.name.name, column: column.name, stored: stored.type.rawValue,
                    configured: column.type.rawValue)
            }
        }
        return nil
    }

    /// Adds the configured columns the table lacks and empties the non-key ones whose type changed, so that a refill
    /// fills them from `_raw`.
    ///
    /// - Returns: Whether a column was added or retyped.
    mutating func conform(to shape: TableShape) -> Bool {
        var changed = false
        for (index, column) in shape.columns.enumerated() where !shape.keyColumns.contains(index) {
            guard let position = columns.firstIndex(where: { $0.name == column.name }) else {
                columns.append(column)
                updateRows { $0.values.append(.null) }
                changed = true
                continue
            }
            if columns[position].type != column.type {
                columns[position] = column
                updateRows { $0.values[position] = .null }
                changed = true
            }
        }
        return changed
    }

    /// Re-reads every row's configured non-key columns from its `_raw`, with `shape`'s columns.
    mutating func refill(_ shape: TableShape, decoder: RecordDecoder) {
        let targets = positions(of: shape.columns)
        let refilled = shape.columns.indices.filter { !shape.keyColumns.contains($0) }
        var count = 0
        updateRows { row in
            let record = Array(row.raw.utf8).withUnsafeBytes { decoder.decodeRecord($0, index: count) }
            for index in refilled {
                if let position = targets[index] { row.values[position] = record.values[index] }
            }
            count += 1
        }
    }

    /// Changes every row in place (a loop over `rows.values.indices` would hold a second reference to the rows, and
    /// copy them all at the first change).
    private mutating func updateRows(_ body: (inout Row) -> Void) {
        var index = rows.values.startIndex
        while index != rows.values.endIndex {
            body(&rows.values[index])
            rows.values.formIndex(after: &index)
        }
    }

    /// Inserts a record, or updates the row of its key when its `_raw` differs (byte for byte, as SQLite compares
    /// text): SQLite's UPSERT.
    ///
    /// - Parameters:
    ///   - values: The record's values, one per configured column.
    ///   - positions: Each configured column's position in the table (``positions(of:)``).
    /// - Returns: 1 when the row was written, 0 when it was stored already as it is.
    mutating func upsert(
        key: [ColumnValue], values: [ColumnValue], positions: [Int?], raw: String, version: Int64, now: String
    ) -> Int {
        if let stored = rows[key] {
            if stored.raw.utf8.elementsEqual(raw.utf8) { return 0 }
            rows[key]?.raw = raw
            rows[key]?.version = version
            rows[key]?.changedAt = now
            for (index, position) in positions.enumerated() {
                if let position { rows[key]?.values[position] = values[index] }
            }
            return 1
        }
        var stored = [ColumnValue](repeating: .null, count: columns.count)
        for (index, position) in positions.enumerated() {
            if let position { stored[position] = values[index] }
        }
        // SQLite's rowid: a single integer key is the rowid itself; other keys get one more than the last.
        let rowID: Int64
        if key.count == 1, case .integer(let integer) = key[0] {
            rowID = integer
        } else {
            rowID = nextRowID
            nextRowID += 1
        }
        rows[key] = Row(
            values: stored, raw: raw, version: version, changedAt: now, createdVersion: version, rowID: rowID)
        return 1
    }

    /// Deletes the row of `key`, leaving a tombstone at `version`.
    ///
    /// - Returns: 1 when a row was deleted, 0 when there was none.
    mutating func delete(_ key: [ColumnValue], version: Int64, now: String) -> Int {
        guard rows.removeValue(forKey: key) != nil else { return 0 }
        if tombstones[key] != nil {
            tombstones[key]?.version = version
            tombstones[key]?.deletedAt = now
        } else {
            tombstones[key] = Tombstone(version: version, deletedAt: now, id: nextTombstoneID)
            nextTombstoneID += 1
        }
        return 1
    }

    /// Drops the tombstones of earlier versions whose keys `version` stored again.
    mutating func dropTombstonesOfReturnedKeys(version: Int64) {
        tombstones = tombstones.filter { key, tombstone in
            tombstone.version >= version || rows[key]?.version != version
        }
    }
}
