import SyncSupport

/// The tables of a document while it is read, and TOML's rules on defining each table once.
///
/// A table is made in one of four ways, and the way decides what may add to it later:
/// - implicitly, as a parent named in a header (`a` in `[a.b]`): one later `[a]` may still define it;
/// - by a header, `[a]`: nothing may define it again, and dotted keys elsewhere may not reach into it;
/// - by dotted keys, `a.b = 1`: more dotted keys may add to it, a header may add sub-tables, but not define it;
/// - inline, `{ … }`: complete as written (it is stored as a finished value, so nothing can reach into it).
extension TOMLReader {
    final class TableBuilder {
        enum Origin {
            case implicit
            case header
            case dotted
            case inline
        }

        var origin: Origin
        var line: Int
        let depth: Int
        private(set) var keys: [String] = []
        private(set) var entries: [String: Entry] = [:]

        init(origin: Origin, line: Int, depth: Int) {
            self.origin = origin
            self.line = line
            self.depth = depth
        }

        func insert(_ key: String, _ slot: Slot, line: Int) {
            if entries.updateValue(Entry(slot: slot, line: line), forKey: key) == nil { keys.append(key) }
        }

        /// A table made implicitly and defined by its header now: it counts from that header's line.
        func define(_ key: String, line: Int) {
            entries[key]?.line = line
        }

        /// The finished table. Recursion is bounded by ``TOMLReader/maximumDepth``.
        func freeze() -> TOMLTable {
            var table = TOMLTable(line: line)
            for key in keys {
                guard let entry = entries[key] else { continue }
                let value: TOMLValue
                switch entry.slot {
                case .value(let finished): value = finished
                case .table(let builder): value = .table(builder.freeze())
                case .tables(let array): value = .array(array.tables.map { .table($0.freeze()) })
                }
                table.append(key, value, line: entry.line)
            }
            return table
        }
    }

    /// An array of tables, `[[a]]`, which each header of that name extends.
    final class TableArrayBuilder {
        var tables: [TableBuilder]

        init(first: TableBuilder) {
            tables = [first]
        }
    }

    enum Slot {
        /// A finished value: a scalar, an array, an inline table.
        case value(TOMLValue)
        case table(TableBuilder)
        case tables(TableArrayBuilder)
    }

    struct Entry {
        var slot: Slot
        var line: Int
    }

    // MARK: - Resolving names

    /// The table a header's parent name leads to, made implicitly if it does not exist; an array of tables leads to
    /// its latest table.
    mutating func descendForHeader(
        from table: TableBuilder, into name: String, at start: Mark
    ) throws(ConfigurationError) -> TableBuilder {
        guard let entry = table.entries[name] else {
            return try makeTable(in: table, named: name, origin: .implicit, at: start)
        }
        switch entry.slot {
        case .table(let child):
            return child
        case .tables(let array):
            guard let last = array.tables.last else { return table }
            return last
        case .value:
            throw error(
                "\(Self.quoted([name])) is already a value (line \(entry.line)), so it cannot hold a table", at: start)
        }
    }

    /// `[a.b]`'s last name: a new table, or one made implicitly before and defined now.
    mutating func defineTable(
        in table: TableBuilder, named name: String, path: [String], at start: Mark
    ) throws(ConfigurationError) -> TableBuilder {
        guard let entry = table.entries[name] else {
            return try makeTable(in: table, named: name, origin: .header, at: start)
        }
        let header = "[" + path.map { ControlCharacters.escaped($0, .terminal) }.joined(separator: ".") + "]"
        switch entry.slot {
        case .table(let child) where child.origin == .implicit:
            child.origin = .header
            child.line = start.line
            table.define(name, line: start.line)
            return child
        case .table:
            throw error("the table \(header) is already defined at line \(entry.line)", at: start)
        case .tables:
            throw error("\(header) is an array of tables (line \(entry.line)): write [\(header)]", at: start)
        case .value:
            throw error("\(header) is already defined as a value at line \(entry.line)", at: start)
        }
    }

    /// `[[a.b]]`'s last name: a new table at the end of the array of tables, which it makes if need be.
    mutating func appendTable(
        to table: TableBuilder, named name: String, path: [String], at start: Mark
    ) throws(ConfigurationError) -> TableBuilder {
        let element = TableBuilder(origin: .header, line: start.line, depth: table.depth + 2)
        guard element.depth <= Self.maximumDepth else {
            throw error("tables nest more than \(Self.maximumDepth) levels deep", at: start)
        }
        guard let entry = table.entries[name] else {
            table.insert(name, .tables(TableArrayBuilder(first: element)), line: start.line)
            return element
        }
        guard case .tables(let array) = entry.slot else {
            throw error(
                "\(Self.quoted(path)) is already defined at line \(entry.line), and not as an array of tables",
                at: start)
        }
        array.tables.append(element)
        return element
    }

    /// A dotted key's parent name: a table made by dotted keys, or a new one.
    mutating func descendForDottedKey(
        from table: TableBuilder, into name: String, at start: Mark
    ) throws(ConfigurationError) -> TableBuilder {
        guard let entry = table.entries[name] else {
            return try makeTable(in: table, named: name, origin: .dotted, at: start)
        }
        switch entry.slot {
        case .table(let child) where child.origin == .dotted:
            return child
        case .table:
            throw error(
                "the table \(Self.quoted([name])) is defined by a header (line \(entry.line)): set its keys under it",
                at: start)
        case .tables, .value:
            throw error(
                "\(Self.quoted([name])) is already defined at line \(entry.line), and not as a table", at: start)
        }
    }

    private mutating func makeTable(
        in table: TableBuilder, named name: String, origin: TableBuilder.Origin, at start: Mark
    ) throws(ConfigurationError) -> TableBuilder {
        let child = TableBuilder(origin: origin, line: start.line, depth: table.depth + 1)
        guard child.depth <= Self.maximumDepth else {
            throw error("tables nest more than \(Self.maximumDepth) levels deep", at: start)
        }
        table.insert(name, .table(child), line: start.line)
        return child
    }
}
