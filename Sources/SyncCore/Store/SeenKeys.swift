/// The keys seen in one response: duplicates are found on insert, and a snapshot deletes the stored rows
/// whose key is not here. A single integer key — the common case — is kept as a plain `Int64`.
struct SeenKeys {
    private var integers = Set<Int64>()
    private var others = Set<[ColumnValue]>()
    private let keyColumns: [Int]

    init(keyColumns: [Int]) {
        self.keyColumns = keyColumns
    }

    /// Records the key of a record's values; `false` when it was already seen.
    mutating func insert(values: [ColumnValue]) -> Bool {
        if keyColumns.count == 1, case .integer(let integer) = values[keyColumns[0]] {
            return integers.insert(integer).inserted
        }
        return others.insert(keyColumns.map { values[$0] }).inserted
    }

    /// Records a key given as its values; `false` when it was already seen.
    mutating func insert(key: [ColumnValue]) -> Bool {
        if key.count == 1, case .integer(let integer) = key[0] { return integers.insert(integer).inserted }
        return others.insert(key).inserted
    }

    func contains(key: [ColumnValue]) -> Bool {
        if key.count == 1, case .integer(let integer) = key[0] { return integers.contains(integer) }
        return others.contains(key)
    }
}
