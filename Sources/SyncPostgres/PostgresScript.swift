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
        /// Those of ``calls`` made inside the clauses whose expressions the server's plan does not show: `VALUES`
        /// lists, `LIMIT`, `OFFSET` and `FETCH`, and window frames (`ROWS`, `RANGE`, `GROUPS`); each such clause is
        /// taken to run to the end of the parentheses it is in.
        package var hiddenCalls: [String] = []
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

extension PostgresScript.Command {
    /// The statement whose plan `syncd sql`'s guard reads (``PostgresPlanGuard``): the statement itself when it starts
    /// with `SELECT`, `WITH`, `VALUES` or `TABLE`; for `EXPLAIN`, the statement it explains, past its options (empty
    /// when there is none, which the server then refuses to plan); nil for `SHOW`, which plans nothing.
    package var planned: String? {
        switch firstWord {
        case "select", "with", "values", "table":
            return text
        case "explain":
            var lexer = Lexer(bytes: Array(text.utf8))
            return lexer.explainedStatement()
        default:
            return nil
        }
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
    var hiddenCalls: [String] = []
    /// The depth of parentheses, and the depths at which the hidden clauses being read started.
    var depth = 0
    var hiddenClauses: [Int] = []
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
                if let lastName {
                    calls.append(lastName)
                    if !hiddenClauses.isEmpty { hiddenCalls.append(lastName) }
                }
                lastName = nil
                depth += 1
                index += 1
            case UInt8(ascii: ")"):
                depth -= 1
                while let start = hiddenClauses.last, start > depth { hiddenClauses.removeLast() }
                index += 1
                token(name: nil)
            case _ where PostgresSyntax.isSpace(byte):
                index += 1
            case _ where PostgresSyntax.isNameStart(byte):
                let word = name()
                // U&"…": a name spelled with Unicode escapes, read as the server decodes it.
                if word == "u", peek(0) == UInt8(ascii: "&"), peek(1) == UInt8(ascii: "\"") {
                    index += 1
                    let name = try unicodeName()
                    token(name: name)
                    continue
                }
                // E'…' (and U&'…', B'…', X'…', N'…'): a string with a prefix, not a name.
                if index < bytes.count, bytes[index] == UInt8(ascii: "'"), word.count == 1 {
                    try skipString(escapes: word == "e")
                } else {
                    // `ROWS FROM (…)` is a FROM item, whose functions the plan shows, not a window frame.
                    if word == "from", lastName == "rows", hiddenClauses.last == depth { hiddenClauses.removeLast() }
                    token(name: word)
                    if Self.hiddenClauseWords.contains(word) { hiddenClauses.append(depth) }
                }
            case _ where PostgresSyntax.isDigit(byte):
                while index < bytes.count, PostgresSyntax.isNamePart(bytes[index]) || bytes[index] == UInt8(ascii: ".")
                {
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

    /// In an `EXPLAIN` statement, the statement explained: past `EXPLAIN`, and its options, in parentheses or as
    /// the words `ANALYZE` and `VERBOSE`.
    mutating func explainedStatement() -> String {
        skipSpaceAndComments()
        if index < bytes.count, PostgresSyntax.isNameStart(bytes[index]), name() == "explain" {
            skipSpaceAndComments()
            if peek(0) == UInt8(ascii: "(") {
                index += 1
                while index < bytes.count, bytes[index] != UInt8(ascii: ")") {
                    switch bytes[index] {
                    case UInt8(ascii: "'"): if (try? skipString(escapes: false)) == nil { return "" }
                    case UInt8(ascii: "\""): if (try? quotedName()) == nil { return "" }
                    default: index += 1
                    }
                }
                index += 1
            } else {
                while true {
                    skipSpaceAndComments()
                    let mark = index
                    guard index < bytes.count, PostgresSyntax.isNameStart(bytes[index]) else { break }
                    guard ["analyze", "analyse", "verbose"].contains(name()) else {
                        index = mark
                        break
                    }
                }
            }
        }
        skipSpaceAndComments()
        return index < bytes.count ? String(decoding: bytes[index...], as: UTF8.self) : ""
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
            hiddenCalls = []
            hiddenClauses = []
            depth = 0
            lastName = nil
        }
        guard let firstWord else { return }
        let text = String(decoding: bytes[start..<end], as: UTF8.self)
        statements.append(
            PostgresScript.Command(
                text: text.trimmingSpaces(), firstWord: firstWord, calls: calls, hiddenCalls: hiddenCalls))
    }

    private func peek(_ offset: Int) -> UInt8? {
        index + offset < bytes.count ? bytes[index + offset] : nil
    }

    /// A plain name, lower-cased as PostgreSQL folds it (ASCII letters only; other bytes are kept).
    private mutating func name() -> String {
        let from = index
        while index < bytes.count, PostgresSyntax.isNamePart(bytes[index]) { index += 1 }
        return String(decoding: bytes[from..<index].map { PostgresSyntax.lowercased($0) }, as: UTF8.self)
    }

    /// `"…"` with `""` for a quote: its content.
    private mutating func quotedName() throws(PostgresScript.Unterminated) -> String {
        guard let content = PostgresSyntax.quotedName(bytes, at: &index) else {
            throw PostgresScript.Unterminated(what: "a quoted name")
        }
        return content
    }

    /// `U&"…"` from its `"`, with the `UESCAPE 'c'` that may follow: its content with the escapes decoded (`\\0061`,
    /// `\\+000061`, the escape character doubled for itself), or as written when an escape is malformed (which the
    /// server refuses).
    private mutating func unicodeName() throws(PostgresScript.Unterminated) -> String {
        let raw = try quotedName()
        var escape = UInt8(ascii: "\\")
        let end = index
        skipSpaceAndComments()
        if bytes[index...].prefix(7).map(PostgresSyntax.lowercased) == Array("uescape".utf8),
            !(peek(7).map(PostgresSyntax.isNamePart) ?? false)
        {
            index += 7
            skipSpaceAndComments()
            if peek(0) == UInt8(ascii: "'"), let character = peek(1), peek(2) == UInt8(ascii: "'") {
                escape = character
                index += 3
            } else {
                index = end
            }
        } else {
            index = end
        }
        return PostgresScript.decodeUnicodeEscapes(raw, escape: escape) ?? raw
    }

    /// Past white space and comments, to the next token (comments that do not end are left to the main reading).
    private mutating func skipSpaceAndComments() {
        while index < bytes.count {
            if PostgresSyntax.isSpace(bytes[index]) {
                index += 1
            } else if bytes[index] == UInt8(ascii: "-"), peek(1) == UInt8(ascii: "-") {
                while index < bytes.count, bytes[index] != UInt8(ascii: "\n") { index += 1 }
            } else if bytes[index] == UInt8(ascii: "/"), peek(1) == UInt8(ascii: "*") {
                let from = index
                guard (try? skipBlockComment()) != nil else {
                    index = from
                    return
                }
            } else {
                return
            }
        }
    }

    /// `'…'` with `''` for a quote, and with `escapes` (`E'…'`) a backslash before any byte.
    private mutating func skipString(escapes: Bool) throws(PostgresScript.Unterminated) {
        guard PostgresSyntax.skipString(bytes, at: &index, escapes: escapes) else {
            throw PostgresScript.Unterminated(what: "a string")
        }
        token(name: nil)
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
            guard PostgresSyntax.isNameStart(bytes[end]) else { return nil }
            while end < bytes.count, PostgresSyntax.isNamePart(bytes[end]), bytes[end] != UInt8(ascii: "$") { end += 1 }
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

    /// The words starting a clause whose expressions `EXPLAIN` does not show.
    static let hiddenClauseWords: Set<String> = ["values", "limit", "offset", "fetch", "rows", "range", "groups"]
}

extension String {
    /// Without the white space (ASCII) at either end.
    fileprivate func trimmingSpaces() -> String {
        let bytes = Array(utf8)
        guard let first = bytes.firstIndex(where: { !PostgresSyntax.isSpace($0) }),
            let last = bytes.lastIndex(where: { !PostgresSyntax.isSpace($0) })
        else { return "" }
        return String(decoding: bytes[first...last], as: UTF8.self)
    }
}
