/// The functions and operators named in one expression of a PostgreSQL plan, as `EXPLAIN (VERBOSE)` deparses it:
/// `(lower(users.name))::character varying(10)`, `(id = ANY ('{1,2}'::integer[]))`, `pg_catalog.upper('x'::text)`.
///
/// The server wrote the text, after resolving every name: a function is its name (quoted when it must be, qualified
/// by its schema when the search path would not find it) directly followed by `(`. The reading knows what the
/// deparser writes around names: `'…'` strings with `''` (and `E'…'` with backslash escapes), `"…"` names with `""`,
/// casts (`::numeric(10,2)`, `::timestamp(3) with time zone`: a type's words and its digits-only modifiers are no
/// call), `OPERATOR(schema.op)`, and operators. A word followed by `(` after white space is a call too (`AND (`,
/// `ANY (`, `WHEN (`): a keyword, which ``PostgresPlanGuard`` knows, or a refusal; so that nothing followed by `(`
/// escapes the list of calls.
package struct PostgresPlanExpression: Sendable, Equatable {
    /// A name followed by `(`.
    package struct Call: Sendable, Hashable, CustomStringConvertible {
        /// The schema it is qualified by, as written after unquoting; nil when unqualified.
        package var schema: String?
        /// The name: unquoted as written (PostgreSQL's deparser quotes any name not lower-case).
        package var name: String
        /// Whether the name was quoted: a quoted name is never a keyword.
        package var quoted: Bool

        package init(schema: String? = nil, name: String, quoted: Bool = false) {
            self.schema = schema
            self.name = name
            self.quoted = quoted
        }

        /// `name`, or `schema.name`.
        package var description: String { schema.map { "\($0).\(name)" } ?? name }
    }

    /// An operator: its symbol, and the schema of `OPERATOR(schema.op)`.
    package struct Operator: Sendable, Hashable {
        package var schema: String?
        package var symbol: String

        package init(schema: String? = nil, symbol: String) {
            self.schema = schema
            self.symbol = symbol
        }
    }

    /// The calls, in order.
    package var calls: [Call] = []
    /// The operators, in order.
    package var operators: [Operator] = []
    /// Text the reading could not follow (a string or a quoted name that does not end, a `(` after a cast that is
    /// not a type's modifier): the guard refuses such an expression.
    package var unreadable = false

    package init(_ text: String) {
        var reader = ExpressionReader(bytes: Array(text.utf8))
        reader.read()
        calls = reader.calls
        operators = reader.operators
        unreadable = reader.unreadable
    }
}

/// The byte-level reading of ``PostgresPlanExpression``.
private struct ExpressionReader {
    let bytes: [UInt8]
    var index = 0
    var calls: [PostgresPlanExpression.Call] = []
    var operators: [PostgresPlanExpression.Operator] = []
    var unreadable = false

    /// The name just read (with its schema), while nothing but white space followed it.
    var pending: PostgresPlanExpression.Call?

    init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    mutating func read() {
        while index < bytes.count, !unreadable {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "'"):
                skipString(escapes: false)
                pending = nil
            case UInt8(ascii: "("):
                index += 1
                if let call = pending {
                    pending = nil
                    if !call.quoted, call.schema == nil, call.name == "operator" {
                        readOperatorCall()
                    } else {
                        calls.append(call)
                    }
                }
            case UInt8(ascii: ":") where peek(1) == UInt8(ascii: ":"):
                index += 2
                pending = nil
                skipType()
            case _ where PostgresSyntax.isSpace(byte):
                index += 1
            case _ where PostgresSyntax.isNameStart(byte) || byte == UInt8(ascii: "\""):
                if byte == UInt8(ascii: "E") || byte == UInt8(ascii: "e"), peek(1) == UInt8(ascii: "'") {
                    index += 1
                    skipString(escapes: true)
                    pending = nil
                } else {
                    pending = qualifiedName()
                }
            case _ where PostgresPlanExpression.isOperatorByte(byte):
                let from = index
                while index < bytes.count, PostgresPlanExpression.isOperatorByte(bytes[index]) { index += 1 }
                operators.append(.init(symbol: String(decoding: bytes[from..<index], as: UTF8.self)))
                pending = nil
            default:
                // Digits, `$1`, `)`, `,`, `[`, `]`, `.`…
                index += 1
                if PostgresSyntax.isDigit(byte) || byte == UInt8(ascii: "$") {
                    while index < bytes.count, PostgresSyntax.isNamePart(bytes[index]) { index += 1 }
                }
                pending = nil
            }
        }
        if index > bytes.count { unreadable = true }
    }

    private func peek(_ offset: Int) -> UInt8? {
        index + offset < bytes.count ? bytes[index + offset] : nil
    }

    /// `name`, `"name"`, `schema.name`: the last part is the name, the one before it the schema.
    private mutating func qualifiedName() -> PostgresPlanExpression.Call? {
        var parts: [(String, Bool)] = []
        while index < bytes.count, !unreadable {
            if bytes[index] == UInt8(ascii: "\"") {
                guard let name = quotedName() else { return nil }
                parts.append((name, true))
            } else if PostgresSyntax.isNameStart(bytes[index]) {
                let from = index
                while index < bytes.count, PostgresSyntax.isNamePart(bytes[index]) { index += 1 }
                let name = bytes[from..<index].map(PostgresSyntax.lowercased)
                parts.append((String(decoding: name, as: UTF8.self), false))
            } else {
                break
            }
            guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "."),
                bytes[index + 1] == UInt8(ascii: "\"") || PostgresSyntax.isNameStart(bytes[index + 1])
            else { break }
            index += 1
        }
        guard let (name, quoted) = parts.last else { return nil }
        return .init(schema: parts.count > 1 ? parts[parts.count - 2].0 : nil, name: name, quoted: quoted)
    }

    /// `"…"` with `""` for a quote: its content; nil, and unreadable, when it does not end.
    private mutating func quotedName() -> String? {
        guard let content = PostgresSyntax.quotedName(bytes, at: &index) else {
            unreadable = true
            return nil
        }
        return content
    }

    /// `'…'` with `''`, and with `escapes` a backslash before any byte; unreadable when it does not end.
    private mutating func skipString(escapes: Bool) {
        if !PostgresSyntax.skipString(bytes, at: &index, escapes: escapes) { unreadable = true }
    }

    /// After `::`: a type as the deparser writes it (`format_type`): a name (`integer`, `"MyType"`, `public.t`), the
    /// words that continue the SQL standard's types (`character varying`, `double precision`, `timestamp(3) with
    /// time zone`, `interval year to month`), modifiers of digits (`(10,2)`) and `[]`s. Anything else ends it: a `(`
    /// holding more than digits follows a call (read again as one), and no other word belongs to the type.
    private mutating func skipType() {
        while index < bytes.count, PostgresSyntax.isSpace(bytes[index]) { index += 1 }
        var wordStart = index
        guard qualifiedName() != nil else { return }
        while index < bytes.count {
            var end = index
            while end < bytes.count, PostgresSyntax.isSpace(bytes[end]) { end += 1 }
            guard end < bytes.count else { return }
            if bytes[end] == UInt8(ascii: "(") {
                guard let close = modifierEnd(from: end) else {
                    // Not a modifier: the word before it is read again, as a name followed by `(`.
                    index = wordStart
                    return
                }
                index = close
            } else if bytes[end] == UInt8(ascii: "["), end + 1 < bytes.count, bytes[end + 1] == UInt8(ascii: "]") {
                index = end + 2
            } else if let length = typeWordLength(at: end) {
                wordStart = end
                index = end + length
            } else {
                return
            }
        }
    }

    /// The words that continue a type's name in `format_type`'s spelling.
    private static let typeWords: Set<String> = [
        "varying", "precision", "with", "without", "time", "zone", "year", "month", "day", "hour", "minute", "second",
        "to",
    ]

    /// The length of the type word starting at `start`; nil when none does.
    private func typeWordLength(at start: Int) -> Int? {
        var end = start
        while end < bytes.count, PostgresSyntax.isNamePart(bytes[end]) { end += 1 }
        let word = String(decoding: bytes[start..<end].map(PostgresSyntax.lowercased), as: UTF8.self)
        return end > start && Self.typeWords.contains(word) ? end - start : nil
    }

    /// The index past the `)` of a type modifier starting at `open` (`(10)`, `(10,2)`, `( 3 )`); nil when the
    /// parentheses hold anything but digits, commas and white space.
    private func modifierEnd(from open: Int) -> Int? {
        var end = open + 1
        while end < bytes.count {
            let byte = bytes[end]
            if byte == UInt8(ascii: ")") { return end + 1 }
            guard
                PostgresSyntax.isDigit(byte) || byte == UInt8(ascii: ",")
                    || PostgresSyntax.isSpace(byte)
            else { return nil }
            end += 1
        }
        return nil
    }

    /// `OPERATOR(schema.op)` after its `(`: the operator, with its schema.
    private mutating func readOperatorCall() {
        while index < bytes.count, PostgresSyntax.isSpace(bytes[index]) { index += 1 }
        var schema: String?
        if index < bytes.count, bytes[index] == UInt8(ascii: "\"") || PostgresSyntax.isNameStart(bytes[index]) {
            guard let name = qualifiedName() else { return }
            schema = name.schema.map { "\($0).\(name.name)" } ?? name.name
            guard index < bytes.count, bytes[index] == UInt8(ascii: ".") else {
                unreadable = true
                return
            }
            index += 1
        }
        let from = index
        while index < bytes.count, PostgresPlanExpression.isOperatorByte(bytes[index]) { index += 1 }
        guard index > from, index < bytes.count, bytes[index] == UInt8(ascii: ")") else {
            unreadable = true
            return
        }
        operators.append(.init(schema: schema, symbol: String(decoding: bytes[from..<index], as: UTF8.self)))
        index += 1
    }
}

extension PostgresPlanExpression {
    /// The characters of PostgreSQL's operators: `+ - * / < > = ~ ! @ # % ^ & | \` ?`.
    static func isOperatorByte(_ byte: UInt8) -> Bool {
        "+-*/<>=~!@#%^&|`?".utf8.contains(byte)
    }
}
