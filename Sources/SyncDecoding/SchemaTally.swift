/// What the records of one run showed of their shape beside the columns' values: the fields that no column maps
/// (by path, one example each), and for each configured column how many records held a value there and of which
/// JSON types. A schema-drift journal is made of it (``SchemaDrift``).
///
/// It is filled while the records are walked: a field no column maps is noted where the walk skips it anyway (only
/// in objects a column's path goes through: an unmapped object is one field, its insides are not looked at), and a
/// column's JSON type is its value's first byte. Its memory is bounded: at most ``maxFields`` fields are kept.
package struct SchemaTally: Sendable, Equatable {
    /// The most unmapped fields kept in one run: an upstream inventing a key per record cannot fill the memory.
    package static let maxFields = 256
    /// The longest example kept, in bytes.
    package static let maxExampleBytes = 120
    /// The longest field name kept in a path, in bytes: a longer one is cut, and ends with `…`.
    package static let maxNameBytes = 256

    /// A JSON type, as a bit of a set.
    package struct JSONTypes: OptionSet, Sendable, Hashable {
        package let rawValue: Int
        package init(rawValue: Int) { self.rawValue = rawValue }

        package static let string = JSONTypes(rawValue: 1)
        package static let number = JSONTypes(rawValue: 2)
        package static let boolean = JSONTypes(rawValue: 4)
        package static let object = JSONTypes(rawValue: 8)
        package static let array = JSONTypes(rawValue: 16)
        package static let null = JSONTypes(rawValue: 32)

        /// The type of the JSON value starting with `byte`.
        static func of(_ byte: UInt8) -> JSONTypes {
            switch byte {
            case JSONByte.quote: .string
            case JSONByte.lowerT, JSONByte.lowerF: .boolean
            case JSONByte.lowerN: .null
            case JSONByte.openBrace: .object
            case JSONByte.openBracket: .array
            default: .number
            }
        }

        /// The names, in a fixed order: `number, string`.
        package var names: [String] {
            [
                (JSONTypes.string, "string"), (.number, "number"), (.boolean, "boolean"), (.object, "object"),
                (.array, "array"), (.null, "null"),
            ]
            .filter { contains($0.0) }.map(\.1)
        }
    }

    /// A field no column maps.
    package struct Field: Sendable, Equatable {
        /// Its path in the record: `nickname`, `address.zip`.
        package var path: String
        /// One value it held, as JSON, cut at ``SchemaTally/maxExampleBytes``; nil for a field whose name says it
        /// holds a secret.
        package var example: String?
    }

    /// The unmapped fields, by a hash of their node and key.
    package private(set) var fields: [UInt64: Field] = [:]
    /// The same hashes in an open-addressed table, four times larger than ``maxFields`` (0 is an empty slot): a
    /// field seen before, the common case once per record, is found without hashing its hash again.
    private var slots = [UInt64](repeating: 0, count: SchemaTally.maxFields * 4)
    /// Per column, the records that held a value there (`null` included).
    package private(set) var present: [Int]
    /// Per column, the JSON types its values had.
    package private(set) var types: [JSONTypes]
    /// Per column and type, one value of that type.
    package private(set) var examples: [Int: String] = [:]
    /// The records walked.
    package private(set) var records = 0

    package init(columnCount: Int) {
        present = Array(repeating: 0, count: columnCount)
        types = Array(repeating: [], count: columnCount)
    }

    /// Adds what another part of the same run (a page) saw.
    package mutating func merge(_ other: SchemaTally) {
        for (hash, field) in other.fields.sorted(by: { $0.value.path < $1.value.path }) where !isKnown(hash) {
            guard fields.count < Self.maxFields else { break }
            insert(hash, field)
        }
        for column in present.indices where column < other.present.count {
            present[column] += other.present[column]
            types[column].formUnion(other.types[column])
        }
        examples.merge(other.examples) { kept, _ in kept }
        records += other.records
    }

    /// Notes a field that no column maps: `key` (its raw bytes, escapes and all) in the object at `node`, holding
    /// `value`.
    mutating func noteField(
        node: Int, key: UnsafeBufferPointer<UInt8>, value: UnsafeBufferPointer<UInt8>, trie: ColumnTrie
    ) {
        // FNV-1a over the node and the key's bytes: no allocation for a field already seen. Never 0, an empty slot.
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325 ^ UInt64(truncatingIfNeeded: node)
        for byte in key { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        hash |= 1
        guard !isKnown(hash), fields.count < Self.maxFields else { return }
        var name: [UInt8] = []
        _ = JSONStringContent.unescape(key, into: &name)
        var text = String(decoding: name, as: UTF8.self)
        if name.count > Self.maxNameBytes {
            // A key as long as a record would make a path as long: cut on a character's first byte.
            var end = Self.maxNameBytes
            while end > 0, name[end] & 0xC0 == 0x80 { end -= 1 }
            text = String(decoding: name[..<end], as: UTF8.self) + "…"
        }
        let path = JSONPath(components: trie.nodePaths[node].components + [.key(text)])
        insert(hash, Field(path: path.description, example: Self.isSecret(path) ? nil : Self.example(value)))
    }

    /// Whether a field with this hash was noted.
    @inline(__always)
    private func isKnown(_ hash: UInt64) -> Bool {
        var slot = Int(truncatingIfNeeded: hash >> 7) & (slots.count - 1)
        while true {
            let held = slots[slot]
            if held == hash { return true }
            if held == 0 { return false }
            slot = (slot + 1) & (slots.count - 1)
        }
    }

    private mutating func insert(_ hash: UInt64, _ field: Field) {
        var slot = Int(truncatingIfNeeded: hash >> 7) & (slots.count - 1)
        while slots[slot] != 0 { slot = (slot + 1) & (slots.count - 1) }
        slots[slot] = hash
        fields[hash] = field
    }

    /// Notes one record's columns: which held a value, of which type.
    mutating func noteRecord(_ walker: RecordWalker) {
        records += 1
        for column in present.indices {
            let start = walker.valueStarts[column]
            guard start >= 0 else { continue }
            present[column] += 1
            let type = JSONTypes.of(walker.scanner.buffer[start])
            guard !types[column].contains(type) else { continue }
            types[column].insert(type)
            if let value = walker.value(ofColumn: column) {
                examples[column << 8 | type.rawValue] = Self.example(value)
            }
        }
    }

    /// The example kept for `column`'s values of `type`.
    package func example(column: Int, type: JSONTypes) -> String? {
        examples[column << 8 | type.rawValue]
    }

    /// Words in a field's name that say its value is a secret: such a value is never kept.
    static let secretWords = ["token", "secret", "password", "passwd", "credential", "authorization", "apikey"]

    /// Whether a field named `name` holds a secret by its name.
    ///
    /// Asked of each column's first value of each type on every page, so an ASCII name (nearly every one) is folded
    /// and searched as bytes: `String.contains` built a search table for each word, which was a tenth of the decoding
    /// thread's time in a sync of 1,000 small pages. Any other name takes Unicode's lowercasing, which can make ASCII
    /// letters of others (the Kelvin sign's is `k`).
    package static func isSecret(_ name: String) -> Bool {
        guard !name.isEmpty else { return false }
        guard name.utf8.allSatisfy({ $0 < 0x80 }) else {
            let folded = name.lowercased().filter { $0 != "_" && $0 != "-" }
            return secretWords.contains { folded.contains($0) }
        }
        var folded: [UInt8] = []
        folded.reserveCapacity(name.utf8.count)
        for byte in name.utf8 where byte != UInt8(ascii: "_") && byte != UInt8(ascii: "-") {
            folded.append(UInt8(ascii: "A") <= byte && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte)
        }
        return secretWords.contains { word in
            let word = word.utf8
            guard folded.count >= word.count else { return false }
            return (0...(folded.count - word.count)).contains { start in
                folded[start..<(start + word.count)].elementsEqual(word)
            }
        }
    }

    /// Whether a value at `path` holds a secret by its path: when any key on the way names one (`password`,
    /// `auth_token.value`, `credentials.user`).
    package static func isSecret(_ path: JSONPath) -> Bool {
        path.components.contains { component in
            guard case .key(let key) = component else { return false }
            return isSecret(key)
        }
    }

    /// `value` as an example: nil when it is an object or an array holding a key that names a secret anywhere inside
    /// (`{"user": "x", "password": "…"}`), cut at ``maxExampleBytes`` otherwise.
    private static func example(_ value: UnsafeBufferPointer<UInt8>) -> String? {
        guard !holdsSecretKey(value) else { return nil }
        guard value.count > maxExampleBytes else { return String(decoding: value, as: UTF8.self) }
        // Cut on a character's first byte, so the text stays valid UTF-8.
        var end = maxExampleBytes
        while end > 0, value[end] & 0xC0 == 0x80 { end -= 1 }
        return String(decoding: UnsafeBufferPointer(rebasing: value[..<end]), as: UTF8.self) + "…"
    }
}
