import SyncSupport

/// Reads a TOML 1.0 document (https://toml.io/en/v1.0.0) into a ``TOMLDocument`` whose every key keeps its line.
///
/// syncd reads its configuration with this rather than a C++ library, so that a configuration is parsed by code
/// that is fuzzed with the rest of syncd, that frees what it allocates, and that knows each key's line. It reads all
/// of TOML 1.0: the four kinds of string, integers in every base, floats with `inf` and `nan`, dates and times, arrays,
/// inline tables, dotted keys, tables and arrays of tables, with the specification's rules on defining a table
/// once. What it refuses it refuses with a ``ConfigurationError`` of code ``ConfigurationError/Code/syntax``, naming
/// one line and column.
///
/// Bounds: tables and values nest at most ``maximumDepth`` deep, so no document can exhaust the stack; integers are
/// 64-bit and refused when out of range; a float literal too large for a `Double` is refused. The caller bounds the
/// document's size.
package struct TOMLReader {
    /// How deep tables, arrays and inline tables may nest (syncd's configuration needs four).
    static let maximumDepth = 64

    let bytes: [UInt8]
    /// The file's path as it was given, for messages.
    let file: String
    var position = 0
    var line = 1
    /// Where the current line starts, for columns.
    var lineStart = 0

    /// A place in the document, for a message about something that started there.
    struct Mark {
        var position: Int
        var line: Int
        var lineStart: Int
    }

    /// Reads a whole document.
    ///
    /// - Parameter file: The file's path as it was given, for the message.
    /// - Throws: ``ConfigurationError`` with one problem, at the first thing that is not TOML 1.0:
    ///   `syncd.toml:3:9: invalid TOML: expected a value, found the end of the line`.
    package static func read(_ text: String, file: String = "syncd.toml") throws(ConfigurationError) -> TOMLDocument {
        var reader = TOMLReader(bytes: Array(text.utf8), file: file)
        return try reader.readDocument()
    }

    private init(bytes: [UInt8], file: String) {
        self.bytes = bytes
        self.file = file
        // A byte order mark is not part of the document; columns on the first line count from after it, as an
        // editor shows them.
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            position = 3
            lineStart = 3
        }
    }

    private mutating func readDocument() throws(ConfigurationError) -> TOMLDocument {
        let root = TableBuilder(origin: .header, line: 1, depth: 0)
        var current = root
        while true {
            skipSpaces()
            guard let byte = peek() else { break }
            switch byte {
            case UInt8(ascii: "\n"), UInt8(ascii: "\r"):
                try newline()
            case UInt8(ascii: "#"):
                try comment()
            case UInt8(ascii: "["):
                current = try header(root: root)
                try endOfLine(after: "a table header")
            default:
                try keyValue(into: current)
                try endOfLine(after: "a value")
            }
        }
        return TOMLDocument(root: root.freeze())
    }

    // MARK: - Headers and keys

    /// `[a.b]` or `[[a.b]]`: the table that the keys after it go into.
    private mutating func header(root: TableBuilder) throws(ConfigurationError) -> TableBuilder {
        let start = mark()
        advance()
        let isArray = peek() == UInt8(ascii: "[")
        if isArray { advance() }
        skipSpaces()
        guard let first = peek(), Self.canStartKey(first) else {
            throw error("a table header needs a name, such as [server] or [[endpoint]]")
        }
        let names = try key()
        skipSpaces()
        guard peek() == UInt8(ascii: "]") else {
            throw error("expected \(isArray ? "']]'" : "']'") to close the table header, found \(describeNext())")
        }
        advance()
        if isArray {
            guard peek() == UInt8(ascii: "]") else {
                throw error("expected ']]' to close the array-of-tables header, found \(describeNext())")
            }
            advance()
        }
        var table = root
        for name in names.dropLast() {
            table = try descendForHeader(from: table, into: name, at: start)
        }
        guard let last = names.last else { throw error("a table header needs a name", at: start) }
        return isArray
            ? try appendTable(to: table, named: last, path: names, at: start)
            : try defineTable(in: table, named: last, path: names, at: start)
    }

    /// `key = value`, the key plain or dotted, into `table`.
    mutating func keyValue(into table: TableBuilder) throws(ConfigurationError) {
        let start = mark()
        guard let first = peek(), Self.canStartKey(first) else {
            throw error("expected a key, such as name = \"value\", found \(describeNext())")
        }
        let names = try key()
        skipSpaces()
        guard peek() == UInt8(ascii: "=") else {
            throw error("expected '=' after the key \(Self.quoted(names)), found \(describeNext())")
        }
        advance()
        skipSpaces()
        var target = table
        for name in names.dropLast() {
            target = try descendForDottedKey(from: target, into: name, at: start)
        }
        guard let last = names.last else { throw error("expected a key", at: start) }
        if let line = target.entries[last]?.line {
            throw error("the key \(Self.quoted(names)) is already defined at line \(line)", at: start)
        }
        let value = try value(depth: target.depth + 1)
        target.insert(last, .value(value), line: start.line)
    }

    /// A plain or dotted key: `name`, `"quoted name"`, `'literal'`, `a.b . "c"`.
    private mutating func key() throws(ConfigurationError) -> [String] {
        var names: [String] = []
        while true {
            names.append(try simpleKey())
            skipSpaces()
            guard peek() == UInt8(ascii: ".") else { return names }
            advance()
            skipSpaces()
        }
    }

    private mutating func simpleKey() throws(ConfigurationError) -> String {
        switch peek() {
        case UInt8(ascii: "\"")?, UInt8(ascii: "'")?:
            if let quote = peek(), startsWith([quote, quote, quote]) {
                throw error("a key cannot be a multi-line string")
            }
            return peek() == UInt8(ascii: "\"") ? try basicString() : try literalString()
        case let byte? where Self.isBareKeyByte(byte):
            let start = position
            while let byte = peek(), Self.isBareKeyByte(byte) { advance() }
            return String(decoding: bytes[start..<position], as: UTF8.self)
        default:
            throw error("expected a key, found \(describeNext())")
        }
    }

    static func canStartKey(_ byte: UInt8) -> Bool {
        isBareKeyByte(byte) || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'")
    }

    static func isBareKeyByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "-"):
            true
        default:
            false
        }
    }

    // MARK: - Lines, spaces and comments

    /// After a key's value or a header: spaces, an optional comment, then the end of the line or of the file.
    private mutating func endOfLine(after what: String) throws(ConfigurationError) {
        skipSpaces()
        if peek() == UInt8(ascii: "#") { try comment() }
        guard let byte = peek() else { return }
        guard byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") else {
            throw error("expected the end of the line after \(what), found \(describeNext())")
        }
        try newline()
    }

    /// Spaces, comments and line ends, as between the elements of an array.
    mutating func skipBlankLines() throws(ConfigurationError) {
        while true {
            skipSpaces()
            switch peek() {
            case UInt8(ascii: "#")?: try comment()
            case UInt8(ascii: "\n")?, UInt8(ascii: "\r")?: try newline()
            default: return
            }
        }
    }

    mutating func skipSpaces() {
        while let byte = peek(), byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") { advance() }
    }

    /// From `#` to the end of the line (which is left for the caller).
    private mutating func comment() throws(ConfigurationError) {
        advance()
        while let byte = peek(), byte != UInt8(ascii: "\n"), byte != UInt8(ascii: "\r") {
            if Self.isControl(byte) { throw error("a comment cannot hold control character \(describeNext())") }
            advance()
        }
    }

    /// LF or CRLF.
    mutating func newline() throws(ConfigurationError) {
        if peek() == UInt8(ascii: "\r") {
            guard peek(at: 1) == UInt8(ascii: "\n") else {
                throw error("a carriage return must be followed by a line feed")
            }
            advance()
        }
        advance()
        line += 1
        lineStart = position
    }

    /// C0 controls other than tab, and DEL: not allowed raw in comments and strings.
    static func isControl(_ byte: UInt8) -> Bool {
        (byte < 0x20 && byte != UInt8(ascii: "\t")) || byte == 0x7F
    }

    // MARK: - The cursor

    func peek(at offset: Int = 0) -> UInt8? {
        let index = position + offset
        return index < bytes.count ? bytes[index] : nil
    }

    func startsWith(_ prefix: [UInt8]) -> Bool {
        bytes[position...].starts(with: prefix)
    }

    mutating func advance(by count: Int = 1) {
        position = min(position + count, bytes.count)
    }

    func mark() -> Mark {
        Mark(position: position, line: line, lineStart: lineStart)
    }

    /// An error at `mark`, or at the cursor.
    func error(_ message: String, at mark: Mark? = nil) -> ConfigurationError {
        let mark = mark ?? self.mark()
        let end = min(mark.position, bytes.count)
        let start = min(mark.lineStart, end)
        // Columns count characters: every byte but UTF-8 continuation bytes starts one.
        let column = bytes[start..<end].count { $0 & 0xC0 != 0x80 } + 1
        let problem = ConfigurationError.Problem(
            file: file, line: mark.line, column: column, message: "invalid TOML: \(message)")
        return ConfigurationError(code: .syntax, problems: [problem])
    }

    /// The next character, for a message: `'x'`, `the end of the line`, `U+00E9`. Never the raw character when it
    /// is not printable ASCII, so that no message carries a control sequence to a terminal.
    func describeNext() -> String {
        guard let byte = peek() else { return "the end of the file" }
        switch byte {
        case UInt8(ascii: "\n"), UInt8(ascii: "\r"):
            return "the end of the line"
        case 0x20...0x7E:
            return "'\(Character(Unicode.Scalar(byte)))'"
        case 0x80...:
            let end = bytes[position...].dropFirst().firstIndex { $0 & 0xC0 != 0x80 } ?? bytes.count
            let scalar = String(decoding: bytes[position..<end], as: UTF8.self).unicodeScalars.first?.value ?? 0xFFFD
            return "U+" + Self.hex(scalar)
        default:
            return "U+" + Self.hex(UInt32(byte))
        }
    }

    static func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    /// A key path for a message, `"a.b"`.
    static func quoted(_ names: [String]) -> String {
        "\"" + names.map { ControlCharacters.escaped($0, .terminal) }.joined(separator: ".") + "\""
    }
}
