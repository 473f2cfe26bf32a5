package import SyncDecoding

/// The keys seen in one response: duplicates are found on insert, and a snapshot deletes the stored rows
/// whose key is not here.
///
/// A single integer key — the common case — is kept as a plain `Int64`, and while each is greater than the one
/// before (APIs mostly list by id) in a sorted array: 8 bytes a key instead of a hash table's 16 or more, and no
/// rehashing as it grows (a first sync of 1M records held about 24 MB less). The first key out of order moves them all
/// into a set.
package struct SeenKeys {
    /// The integer keys while every one was greater than the one before, in that order; empty once `integers` is used.
    private var ascending: [Int64] = []
    /// The integer keys once one came out of order; never empty then, so empty means the keys still ascend.
    private var integers = Set<Int64>()
    private var others = Set<[ColumnValue]>()
    private let keyColumns: [Int]

    package init(keyColumns: [Int]) {
        self.keyColumns = keyColumns
    }

    /// Records the key of a record's values; `false` when it was already seen.
    package mutating func insert(values: [ColumnValue]) -> Bool {
        if keyColumns.count == 1, case .integer(let integer) = values[keyColumns[0]] {
            return insert(integer)
        }
        return others.insert(keyColumns.map { values[$0] }).inserted
    }

    /// Records a key given as its values; `false` when it was already seen.
    package mutating func insert(key: [ColumnValue]) -> Bool {
        if key.count == 1, case .integer(let integer) = key[0] { return insert(integer) }
        return others.insert(key).inserted
    }

    package func contains(key: [ColumnValue]) -> Bool {
        if key.count == 1, case .integer(let integer) = key[0] {
            return integers.isEmpty ? Self.search(ascending, for: integer) : integers.contains(integer)
        }
        return others.contains(key)
    }

    private mutating func insert(_ integer: Int64) -> Bool {
        if integers.isEmpty {
            if let last = ascending.last, last >= integer {
                // Out of order (or a duplicate): from here on, a set, which holds at least `last`.
                integers = Set(ascending)
                ascending = []
            } else {
                ascending.append(integer)
                return true
            }
        }
        return integers.insert(integer).inserted
    }

    /// Whether the sorted `keys` hold `key`.
    private static func search(_ keys: [Int64], for key: Int64) -> Bool {
        var low = 0
        var high = keys.count
        while low < high {
            let middle = low + (high - low) / 2
            if keys[middle] < key {
                low = middle + 1
            } else {
                high = middle
            }
        }
        return low < keys.count && keys[low] == key
    }
}
