import Testing

@testable import SyncCore
@testable import SyncIngest

/// The keys a sync has seen: kept compactly while integer keys ascend, in a set once they do not, with the same
/// answers either way.
@Suite("sync: the keys seen in one response")
struct SeenKeysTests {
    static func key(_ integer: Int64) -> [ColumnValue] { [.integer(integer)] }

    /// Inserts each key in turn: whether each was new.
    static func insert(_ keys: [[ColumnValue]], into seen: inout SeenKeys) -> [Bool] {
        keys.map { seen.insert(key: $0) }
    }

    @Test("ascending integer keys: each is new, and every one is found, none other")
    func ascending() {
        var seen = SeenKeys(keyColumns: [0])
        var inserted: [Bool] = []
        for id in stride(from: Int64(-10), through: 1_000, by: 3) {
            inserted.append(seen.insert(values: [.integer(id), .text("x")]))
        }
        #expect(inserted.count == 337 && inserted.allSatisfy { $0 })
        for id in Int64(-12)...1_002 {
            #expect(seen.contains(key: Self.key(id)) == ((id + 10) % 3 == 0 && id >= -10 && id <= 1_000), "\(id)")
        }
        #expect(!seen.contains(key: Self.key(.min)) && !seen.contains(key: Self.key(.max)))
    }

    @Test("a key out of order, then duplicates of keys from before and after it, are told apart as before")
    func outOfOrder() {
        var seen = SeenKeys(keyColumns: [0])
        let inserted = Self.insert([1, 2, 5, 9, 3, 5, 3, 4].map(Self.key), into: &seen)
        // 3 is out of order but new; then 5 repeats a key of the ascending run, 3 one from after it.
        #expect(inserted == [true, true, true, true, true, false, false, true])
        for id: Int64 in [1, 2, 3, 4, 5, 9] { #expect(seen.contains(key: Self.key(id)), "\(id)") }
        for id: Int64 in [0, 6, 7, 8, 10] { #expect(!seen.contains(key: Self.key(id)), "\(id)") }
    }

    @Test("a duplicate right after its first is found while the keys still ascend")
    func immediateDuplicate() {
        var seen = SeenKeys(keyColumns: [0])
        #expect(Self.insert([Self.key(7), Self.key(7)], into: &seen) == [true, false])
        #expect(seen.contains(key: Self.key(7)) && !seen.contains(key: Self.key(8)))
    }

    @Test("Int64.min first, text keys and composite keys")
    func otherKeys() {
        var composite = SeenKeys(keyColumns: [0, 1])
        let keys: [[ColumnValue]] = [
            [.integer(1), .text("a")], [.integer(1), .text("a")], [.integer(1), .text("b")],
        ]
        #expect(Self.insert(keys, into: &composite) == [true, false, true])
        #expect(composite.contains(key: [.integer(1), .text("b")]))
        #expect(!composite.contains(key: [.integer(2), .text("a")]))
        var single = SeenKeys(keyColumns: [0])
        #expect(Self.insert([Self.key(.min), Self.key(.min), [.text("abc")]], into: &single) == [true, false, true])
        #expect(single.contains(key: Self.key(.min)) && single.contains(key: [.text("abc")]))
    }
}
