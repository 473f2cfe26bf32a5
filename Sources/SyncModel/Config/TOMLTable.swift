/// A TOML table: its keys in document order, each with its value and the line that defined it.
package struct TOMLTable: Equatable {
    /// The line of the table's header, of the first dotted key that made it, or of its inline `{`.
    package var line: Int
    /// The keys, in the order the document defines them.
    package private(set) var keys: [String] = []
    private var entries: [String: Entry] = [:]

    private struct Entry: Equatable {
        var value: TOMLValue
        var line: Int
    }

    init(line: Int) {
        self.line = line
    }

    package subscript(key: String) -> TOMLValue? {
        entries[key]?.value
    }

    /// The line on which `key` was defined.
    package func line(of key: String) -> Int? {
        entries[key]?.line
    }

    /// Adds a key the table does not have yet (the reader refuses duplicates before).
    mutating func append(_ key: String, _ value: TOMLValue, line: Int) {
        if entries.updateValue(Entry(value: value, line: line), forKey: key) == nil { keys.append(key) }
    }
}
