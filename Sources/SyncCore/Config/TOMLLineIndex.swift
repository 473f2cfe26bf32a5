/// The line on which each table header and key of a TOML document is defined.
///
/// TOMLKit does not expose where a value came from, so this scans the text once: `[table]` and `[[array]]`
/// headers (bare, quoted and dotted names) and `key =` lines, skipping strings, comments and the inside of
/// multi-line arrays. Keys inside inline tables are not indexed; ``line(of:)`` answers for them with the line
/// of the key that holds the table.
///
/// The same scan finds the few malformed documents that toml++ 3.4 (inside TOMLKit 0.6.0) does not refuse but
/// asserts on: ``unsafeSyntax``.
struct TOMLLineIndex {
    /// One step of a path: a key, or the position of a table in an array of tables.
    enum Segment: Hashable {
        case key(String)
        case index(Int)
    }

    private var lines: [[Segment]: Int] = [:]

    /// The first place where toml++ 3.4 could hit a `TOML_ASSERT_ASSUME` instead of reporting a syntax error: a
    /// table header without a name (`[ # comment`, in `parse_key`), a `}` where an array element should be (in
    /// `parse_value`), or a bare value other than `true`, `false` and decimal numbers (dates, times and special
    /// numbers have such paths: `parse_time` on `1979-05-27Tx`). Such an assertion aborts a debug build and leaves a
    /// release build undefined, so these documents are refused before they reach TOMLKit. syncd's configuration
    /// takes no dates, times, hexadecimal numbers, inf or nan.
    private(set) var unsafeSyntax: (line: Int, column: Int, message: String)?

    init(text: String) {
        var scanner = Scanner()
        var table: [Segment] = []
        var arrayCounts: [[Segment]: Int] = [:]
        // toml++ skips a byte order mark at the start of the document: so does this scan, or `\u{FEFF}[=` would
        // pass it and reach parse_key's assertion. Columns on the first line then count from after the mark, as an
        // editor shows them.
        let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]
        let utf8 = text.utf8.starts(with: byteOrderMark) ? text.utf8.dropFirst(3) : text.utf8[...]
        // Bytes, not Characters: "\r\n" is one Character.
        for (offset, line) in utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
            .enumerated()
        {
            let number = offset + 1
            var bytes = Array(line)[...]
            if bytes.last == UInt8(ascii: "\r") { bytes = bytes.dropLast() }
            guard scanner.isAtTopLevel else {
                scan(bytes, with: &scanner, line: number)
                continue
            }
            bytes = bytes.drop(while: Scanner.isSpace)
            if bytes.first == UInt8(ascii: "[") {
                let isArray = bytes.dropFirst().first == UInt8(ascii: "[")
                let name = bytes.dropFirst(isArray ? 2 : 1).drop(while: Scanner.isSpace)
                // `[ [` is refused by toml++ itself.
                if !name.starts(with: [UInt8(ascii: "[")]) || isArray, !Scanner.canStartHeaderName(name.first) {
                    flag(number, name.startIndex + 1, "a table header needs a name, such as [server] or [[endpoint]]")
                }
                guard let names = Scanner.keys(&bytes, from: isArray ? 2 : 1) else { continue }
                // A header's names resolve through the arrays of tables seen so far: `[endpoint.columns]`
                // is the `columns` of the latest `[[endpoint]]`.
                table = []
                for (position, name) in names.enumerated() {
                    table.append(.key(name))
                    record(table, number)
                    let count = arrayCounts[table]
                    if isArray, position == names.count - 1 {
                        arrayCounts[table] = (count ?? 0) + 1
                        table.append(.index(count ?? 0))
                    } else if let count {
                        table.append(.index(count - 1))
                    }
                    record(table, number)
                }
            } else if let names = Scanner.keys(&bytes, from: 0), bytes.first == UInt8(ascii: "=") {
                var path = table
                for name in names {
                    path.append(.key(name))
                    record(path, number)
                }
                scan(bytes.dropFirst(), with: &scanner, line: number)
            }
        }
    }

    private mutating func scan(_ bytes: ArraySlice<UInt8>, with scanner: inout Scanner, line: Int) {
        switch scanner.scan(bytes) {
        case .braceInArray(let index):
            flag(line, index + 1, "expected a value or ']' in an array, saw '}'")
        case .unseparatedValue(let index):
            flag(line, index + 1, "expected a space, ',', ']' or '}' after a value")
        case .unusualValue(let index):
            flag(line, index + 1, "a bare value must be true, false or a decimal number: quote text, as in \"5m\"")
        case nil:
            break
        }
    }

    private mutating func flag(_ line: Int, _ column: Int, _ message: String) {
        if unsafeSyntax == nil { unsafeSyntax = (line, column, message) }
    }

    /// The line of a key or table, else of its nearest indexed ancestor (the key holding an inline table).
    func line(of path: [Segment]) -> Int? {
        var path = path
        while !path.isEmpty {
            if let line = lines[path] { return line }
            path.removeLast()
        }
        return nil
    }

    private mutating func record(_ path: [Segment], _ line: Int) {
        if lines[path] == nil { lines[path] = line }
    }
}
