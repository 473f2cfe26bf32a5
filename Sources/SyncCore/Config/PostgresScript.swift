/// A script of PostgreSQL statements as `syncd sql` reads it before the server does: split at each `;` outside a
/// string, a quoted name, a comment or a dollar-quoted body, with what each statement starts with and the functions it
/// calls, so that ``PostgresScript/Command/refusal`` can refuse what would write or reach outside the transaction.
///
/// It knows PostgreSQL's lexical rules that decide where text ends: `'…'` with `''`, `E'…'` with backslash escapes,
/// `"…"` with `""`, `$tag$…$tag$`, `--` to the end of the line and nested `/* … */`. It is no parser: the server
/// still reads every statement, inside a read-only transaction.
package struct PostgresScript: Sendable, Equatable {
    package struct Command: Sendable, Equatable {
        /// The statement without its `;`, trimmed of white space.
        package var text: String
        /// Its first word, lower-cased (`select`, `with`…), past comments and opening parentheses; "" when it starts
        /// otherwise.
        package var firstWord: String
        /// The names followed by `(`: functions, and a few keywords (`in`, `values`…). A name written plainly is
        /// lower-cased, as PostgreSQL folds it; a quoted one is as written.
        package var calls: [String]
    }

    /// Text that ends inside a string, a quoted name, a comment or a dollar-quoted body.
    package struct Unterminated: Error, Sendable, Equatable, CustomStringConvertible {
        package var what: String
        package var description: String { "the SQL ends inside \(what)" }
    }

    /// The statements, in order; those holding nothing but white space and comments are left out.
    package var statements: [Command]

    /// The most bytes read: `syncd sql`'s argument comes from a command line, and nothing reads more.
    package static let maxBytes = 1 << 20

    package init(_ sql: String) throws(Unterminated) {
        var lexer = Lexer(bytes: Array(sql.utf8.prefix(Self.maxBytes)))
        statements = try lexer.read()
    }
}

/// The byte-level reading of ``PostgresScript``.
private struct Lexer {
    let bytes: [UInt8]
    var index = 0
    var statements: [PostgresScript.Command] = []
    // The statement being read.
    var start = 0
    var firstWord: String?
    var calls: [String] = []
    /// The name just read, while nothing but white space and comments followed it.
    var lastName: String?

    init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    mutating func read() throws(PostgresScript.Unterminated) -> [PostgresScript.Command] {
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: ";"):
                finish(upTo: index)
                index += 1
                start = index
            case UInt8(ascii: "'"):
                try skipString(escapes: false)
            case UInt8(ascii: "\""):
                let name = try quotedName()
                token(name: name)
            case UInt8(ascii: "-") where peek(1) == UInt8(ascii: "-"):
                while index < bytes.count, bytes[index] != UInt8(ascii: "\n") { index += 1 }
            case UInt8(ascii: "/") where peek(1) == UInt8(ascii: "*"):
                try skipBlockComment()
            case UInt8(ascii: "$") where dollarTag() != nil:
                try skipDollarQuoted()
            case UInt8(ascii: "("):
                if let lastName { calls.append(lastName) }
                lastName = nil
                index += 1
            case _ where Self.isSpace(byte):
                index += 1
            case _ where Self.isNameStart(byte):
                let word = name()
                // E'…' (and U&'…', B'…', X'…', N'…'): a string with a prefix, not a name.
                if index < bytes.count, bytes[index] == UInt8(ascii: "'"), word.count == 1 {
                    try skipString(escapes: word == "e")
                } else {
                    token(name: word)
                }
            case _ where Self.isDigit(byte):
                while index < bytes.count, Self.isNamePart(bytes[index]) || bytes[index] == UInt8(ascii: ".") {
                    index += 1
                }
                token(name: nil)
            default:
                index += 1
                token(name: nil)
            }
        }
        finish(upTo: bytes.count)
        return statements
    }

    /// A token other than a comment or white space: the first of the statement gives its first word.
    private mutating func token(name: String?) {
        if firstWord == nil { firstWord = name ?? "" }
        lastName = name
    }

    private mutating func finish(upTo end: Int) {
        defer {
            firstWord = nil
            calls = []
            lastName = nil
        }
        guard let firstWord else { return }
        let text = String(decoding: bytes[start..<end], as: UTF8.self)
        statements.append(
            PostgresScript.Command(
                text: text.trimmingSpaces(), firstWord: firstWord, calls: calls))
    }

    private func peek(_ offset: Int) -> UInt8? {
        index + offset < bytes.count ? bytes[index + offset] : nil
    }

    /// A plain name, lower-cased as PostgreSQL folds it (ASCII letters only; other bytes are kept).
    private mutating func name() -> String {
        let from = index
        while index < bytes.count, Self.isNamePart(bytes[index]) { index += 1 }
        return String(decoding: bytes[from..<index].map { Self.lowercased($0) }, as: UTF8.self)
    }

    /// `"…"` with `""` for a quote: its content.
    private mutating func quotedName() throws(PostgresScript.Unterminated) -> String {
        var content: [UInt8] = []
        index += 1
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "\"") {
                if peek(1) == UInt8(ascii: "\"") {
                    content.append(UInt8(ascii: "\""))
                    index += 2
                    continue
                }
                index += 1
                return String(decoding: content, as: UTF8.self)
            }
            content.append(bytes[index])
            index += 1
        }
        throw PostgresScript.Unterminated(what: "a quoted name")
    }

    /// `'…'` with `''` for a quote, and with `escapes` (`E'…'`) a backslash before any byte.
    private mutating func skipString(escapes: Bool) throws(PostgresScript.Unterminated) {
        index += 1
        while index < bytes.count {
            let byte = bytes[index]
            if escapes, byte == UInt8(ascii: "\\") {
                index += 2
                continue
            }
            if byte == UInt8(ascii: "'") {
                if peek(1) == UInt8(ascii: "'") {
                    index += 2
                    continue
                }
                index += 1
                token(name: nil)
                return
            }
            index += 1
        }
        throw PostgresScript.Unterminated(what: "a string")
    }

    /// `/* … */`, nested as PostgreSQL nests them.
    private mutating func skipBlockComment() throws(PostgresScript.Unterminated) {
        var depth = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "/"), peek(1) == UInt8(ascii: "*") {
                depth += 1
                index += 2
            } else if bytes[index] == UInt8(ascii: "*"), peek(1) == UInt8(ascii: "/") {
                depth -= 1
                index += 2
                if depth == 0 { return }
            } else {
                index += 1
            }
        }
        throw PostgresScript.Unterminated(what: "a comment")
    }

    /// The tag of a dollar quote starting at `index` (`$$` or `$name$`), with both dollars; nil when the dollar
    /// starts none (a parameter `$1`, or a dollar inside a name, which the name's reading consumed already).
    private func dollarTag() -> ArraySlice<UInt8>? {
        var end = index + 1
        guard end < bytes.count else { return nil }
        if bytes[end] != UInt8(ascii: "$") {
            guard Self.isNameStart(bytes[end]) else { return nil }
            while end < bytes.count, Self.isNamePart(bytes[end]), bytes[end] != UInt8(ascii: "$") { end += 1 }
            guard end < bytes.count, bytes[end] == UInt8(ascii: "$") else { return nil }
        }
        return bytes[index...end]
    }

    private mutating func skipDollarQuoted() throws(PostgresScript.Unterminated) {
        guard let tag = dollarTag() else { return }
        index += tag.count
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "$"), bytes[index...].starts(with: tag) {
                index += tag.count
                token(name: nil)
                return
            }
            index += 1
        }
        throw PostgresScript.Unterminated(what: "a dollar-quoted string")
    }

    static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || (0x09...0x0D).contains(byte)
    }

    static func isDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    /// A letter, `_`, or any byte of a non-ASCII character, as PostgreSQL's names allow.
    static func isNameStart(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
            || byte == UInt8(ascii: "_") || byte >= 0x80
    }

    static func isNamePart(_ byte: UInt8) -> Bool {
        isNameStart(byte) || isDigit(byte) || byte == UInt8(ascii: "$")
    }

    static func lowercased(_ byte: UInt8) -> UInt8 {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte + 32 : byte
    }
}

extension String {
    /// Without the white space (ASCII) at either end.
    fileprivate func trimmingSpaces() -> String {
        let bytes = Array(utf8)
        guard let first = bytes.firstIndex(where: { !Lexer.isSpace($0) }),
            let last = bytes.lastIndex(where: { !Lexer.isSpace($0) })
        else { return "" }
        return String(decoding: bytes[first...last], as: UTF8.self)
    }
}
