/// The line on which each table header and key of a TOML document is defined.
///
/// TOMLKit does not expose where a value came from, so this scans the text once: `[table]` and `[[array]]`
/// headers (bare, quoted and dotted names) and `key =` lines, skipping strings, comments and the inside of
/// multi-line arrays. Keys inside inline tables are not indexed; ``line(of:)`` answers for them with the line
/// of the key that holds the table. The document must already have parsed, so the scan can stay simple.
struct TOMLLineIndex {
    /// One step of a path: a key, or the position of a table in an array of tables.
    enum Segment: Hashable {
        case key(String)
        case index(Int)
    }

    private var lines: [[Segment]: Int] = [:]

    /// The first table header with no name after its brackets (`[ # comment`), as line and column.
    ///
    /// toml++ 3.4 asserts on these (`parse_key`'s `TOML_ASSERT_ASSUME`), aborting debug builds and leaving release
    /// builds undefined, so the document must be refused before it reaches TOMLKit.
    private(set) var headerWithoutName: (line: Int, column: Int)?

    init(text: String) {
        var scanner = Scanner()
        var table: [Segment] = []
        var arrayCounts: [[Segment]: Int] = [:]
        // Bytes, not Characters: "\r\n" is one Character.
        for (offset, line) in text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
            .enumerated()
        {
            let number = offset + 1
            var bytes = Array(line)[...]
            if bytes.last == UInt8(ascii: "\r") { bytes = bytes.dropLast() }
            guard scanner.isAtTopLevel else {
                scanner.scan(bytes)
                continue
            }
            bytes = bytes.drop(while: Scanner.isSpace)
            if bytes.first == UInt8(ascii: "[") {
                let isArray = bytes.dropFirst().first == UInt8(ascii: "[")
                let name = bytes.dropFirst(isArray ? 2 : 1).drop(while: Scanner.isSpace)
                if headerWithoutName == nil, !name.starts(with: [UInt8(ascii: "[")]) || isArray,
                    !Scanner.canStartHeaderName(name.first)
                {
                    headerWithoutName = (number, name.startIndex + 1)
                }
                guard let names = Scanner.keys(&bytes, from: isArray ? 2 : 1) else { continue }
                // A header's names resolve through the arrays of tables seen so far: `[endpoint.columns]`
                // is the `columns` of the latest `[[endpoint]]`.
                table = []
                for (position, name) in names.enumerated() {
                    table.append(.key(name))
                    let count = arrayCounts[table]
                    if isArray, position == names.count - 1 {
                        arrayCounts[table] = (count ?? 0) + 1
                        record(table, number)
                        table.append(.index(count ?? 0))
                    } else if let count {
                        table.append(.index(count - 1))
                    }
                }
                record(table, number)
            } else if let names = Scanner.keys(&bytes, from: 0), bytes.first == UInt8(ascii: "=") {
                var path = table
                for name in names {
                    path.append(.key(name))
                    record(path, number)
                }
                scanner.scan(bytes.dropFirst())
            }
        }
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

extension TOMLLineIndex {
    /// Tracks what a value left open at the end of a line: a multi-line string or array.
    fileprivate struct Scanner {
        private enum Mode { case normal, multilineBasic, multilineLiteral }
        private var mode = Mode.normal
        private var depth = 0

        var isAtTopLevel: Bool { mode == .normal && depth == 0 }

        static func isSpace(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }

        mutating func scan(_ bytes: ArraySlice<UInt8>) {
            var rest = bytes
            while let byte = rest.first {
                switch mode {
                case .multilineBasic, .multilineLiteral:
                    let quote = mode == .multilineBasic ? UInt8(ascii: "\"") : UInt8(ascii: "'")
                    if byte == UInt8(ascii: "\\"), mode == .multilineBasic {
                        rest = rest.dropFirst(2)
                    } else if rest.starts(with: [quote, quote, quote]) {
                        rest = rest.dropFirst(3).drop { $0 == quote }
                        mode = .normal
                    } else {
                        rest = rest.dropFirst()
                    }
                case .normal:
                    switch byte {
                    case UInt8(ascii: "#"):
                        return
                    case UInt8(ascii: "\""), UInt8(ascii: "'"):
                        if rest.starts(with: [byte, byte, byte]) {
                            mode = byte == UInt8(ascii: "\"") ? .multilineBasic : .multilineLiteral
                            rest = rest.dropFirst(3)
                        } else {
                            _ = Self.quoted(&rest)
                        }
                    case UInt8(ascii: "["), UInt8(ascii: "{"):
                        depth += 1
                        rest = rest.dropFirst()
                    case UInt8(ascii: "]"), UInt8(ascii: "}"):
                        depth = max(0, depth - 1)
                        rest = rest.dropFirst()
                    default:
                        rest = rest.dropFirst()
                    }
                }
            }
        }

        /// Reads a dotted key (`a`, `"b c".d`, `'e'`) after `skip` bytes, leaving `bytes` after it and any spaces
        /// (and after a header's closing brackets).
        static func keys(_ bytes: inout ArraySlice<UInt8>, from skip: Int) -> [String]? {
            var rest = bytes.dropFirst(skip).drop(while: isSpace)
            var names: [String] = []
            while true {
                if rest.first == UInt8(ascii: "\"") || rest.first == UInt8(ascii: "'") {
                    guard let name = quoted(&rest) else { return nil }
                    names.append(name)
                } else {
                    let name = rest.prefix(while: isBareKeyByte)
                    guard !name.isEmpty else { return nil }
                    names.append(String(decoding: name, as: UTF8.self))
                    rest = rest.dropFirst(name.count)
                }
                rest = rest.drop(while: isSpace)
                guard rest.first == UInt8(ascii: ".") else { break }
                rest = rest.dropFirst().drop(while: isSpace)
            }
            bytes = rest.drop { $0 == UInt8(ascii: "]") || isSpace($0) }
            return names
        }

        /// Reads a one-line basic or literal string starting at its opening quote, with the simple escapes.
        static func quoted(_ bytes: inout ArraySlice<UInt8>) -> String? {
            guard let quote = bytes.first else { return nil }
            var rest = bytes.dropFirst()
            var value: [UInt8] = []
            while let byte = rest.first, byte != quote {
                if byte == UInt8(ascii: "\\"), quote == UInt8(ascii: "\""), let escaped = rest.dropFirst().first {
                    value.append(escaped)
                    rest = rest.dropFirst(2)
                } else {
                    value.append(byte)
                    rest = rest.dropFirst()
                }
            }
            guard rest.first == quote else { return nil }
            bytes = rest.dropFirst()
            return String(decoding: value, as: UTF8.self)
        }

        /// Whether toml++ may be handed a header whose name starts with `byte`: a key, or `]` (which it refuses).
        static func canStartHeaderName(_ byte: UInt8?) -> Bool {
            guard let byte else { return false }
            return isBareKeyByte(byte) || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'")
                || byte == UInt8(ascii: "]")
        }

        private static func isBareKeyByte(_ byte: UInt8) -> Bool {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "-"):
                true
            default:
                false
            }
        }
    }
}
