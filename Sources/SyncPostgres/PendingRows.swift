internal import PostgresNIO
internal import SyncCore

/// Records waiting for their INSERT, with their values bound in order.
struct PendingRows {
    let table: PostgresTable
    let types: [ColumnType]
    var values: [PostgresValue]
    var count = 0

    init(table: PostgresTable, version: Int64, now: String) {
        self.table = table
        types = table.shape.columns.map(\.type)
        values = [.integer(version), .text(now)]
    }

    mutating func append(_ record: borrowing DecodedRecord, raw: ArraySlice<UInt8>) {
        for (index, type) in types.enumerated() { values.append(PostgresValue(record.values[index], as: type)) }
        values.append(.text(String(decoding: raw, as: UTF8.self)))
        count += 1
    }

    /// Sends what waits: how many rows it wrote (inserted, or updated because `_raw` changed).
    mutating func flush(_ session: PostgresSession) throws -> Int {
        guard count > 0 else { return 0 }
        let result = try session.query(table.upsertSQL(rows: count), values)
        values.removeSubrange(2...)
        count = 0
        return result.affected
    }
}

extension Collection {
    /// The collection in consecutive parts of at most `size` elements.
    func chunks(of size: Int) -> [SubSequence] {
        var parts: [SubSequence] = []
        var start = startIndex
        while start != endIndex {
            let end = index(start, offsetBy: size, limitedBy: endIndex) ?? endIndex
            parts.append(self[start..<end])
            start = end
        }
        return parts
    }
}
