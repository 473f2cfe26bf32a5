import SyncSupport

/// Values: strings, arrays, inline tables, and the bare ones (booleans, numbers, dates and times).
extension TOMLReader {
    /// The value at the cursor; `depth` is how deep it would nest.
    mutating func value(depth: Int) throws(ConfigurationError) -> TOMLValue {
        guard depth <= Self.maximumDepth else {
            throw error("values nest more than \(Self.maximumDepth) levels deep")
        }
        switch peek() {
        case UInt8(ascii: "\"")?:
            return .string(
                startsWith(Array(#"""""#.utf8)) ? try multilineString(quote: UInt8(ascii: "\"")) : try basicString())
        case UInt8(ascii: "'")?:
            return .string(
                startsWith(Array("'''".utf8)) ? try multilineString(quote: UInt8(ascii: "'")) : try literalString())
        case UInt8(ascii: "[")?:
            return try array(depth: depth)
        case UInt8(ascii: "{")?:
            return try inlineTable(depth: depth)
        default:
            return try bareValue()
        }
    }

    /// `[ value, value, ]`: over several lines if need be, with comments; a comma may follow the last value.
    private mutating func array(depth: Int) throws(ConfigurationError) -> TOMLValue {
        advance()
        var elements: [TOMLValue] = []
        while true {
            try skipBlankLines()
            if peek() == UInt8(ascii: "]") {
                advance()
                return .array(elements)
            }
            elements.append(try value(depth: depth + 1))
            try skipBlankLines()
            switch peek() {
            case UInt8(ascii: ",")?:
                advance()
            case UInt8(ascii: "]")?:
                advance()
                return .array(elements)
            default:
                throw error("expected ',' or ']' after a value in an array, found \(describeNext())")
            }
        }
    }

    /// `{ key = value, key = value }`: on one line, no comma after the last, and complete (nothing adds to it later).
    private mutating func inlineTable(depth: Int) throws(ConfigurationError) -> TOMLValue {
        let table = TableBuilder(origin: .inline, line: line, depth: depth)
        advance()
        skipSpaces()
        if peek() == UInt8(ascii: "}") {
            advance()
            return .table(table.freeze())
        }
        while true {
            skipSpaces()
            if peek() == UInt8(ascii: "}") {
                throw error("an inline table takes no comma after its last value")
            }
            try keyValue(into: table)
            skipSpaces()
            switch peek() {
            case UInt8(ascii: ",")?:
                advance()
            case UInt8(ascii: "}")?:
                advance()
                return .table(table.freeze())
            case UInt8(ascii: "\n")?, UInt8(ascii: "\r")?:
                throw error("an inline table must close on the line it opens: use a [table] for several lines")
            default:
                throw error("expected ',' or '}' after a value in an inline table, found \(describeNext())")
            }
        }
    }

    // MARK: - Bare values

    /// `true`, `false`, a number or a date and time: a run of the characters they are written with.
    private mutating func bareValue() throws(ConfigurationError) -> TOMLValue {
        let start = mark()
        var token = bareToken()
        guard !token.isEmpty else {
            throw error("expected a value, found \(describeNext())")
        }
        // A date and a time may be separated by a space: `1979-05-27 07:32:00`.
        if TOMLDateTime.isDate(token), peek() == UInt8(ascii: " "), let next = peek(at: 1), ASCIIDigits.isDigit(next),
            let after = peek(at: 2), ASCIIDigits.isDigit(after), peek(at: 3) == UInt8(ascii: ":")
        {
            advance()
            token += [UInt8(ascii: " ")] + bareToken()
        }
        if token.elementsEqual("true".utf8) { return .boolean(true) }
        if token.elementsEqual("false".utf8) { return .boolean(false) }
        do throws(TOMLValueError) {
            if let number = try TOMLNumber.parse(token) { return number }
            if let date = try TOMLDateTime.parse(token) { return date }
        } catch {
            throw self.error(error.message(Self.shown(token)), at: start)
        }
        throw self.error(
            "\(Self.shown(token)) is not a TOML value: text needs quotes, as in \"5m\"; a value is a string, "
                + "a number, true, false, a date, an array or an inline table",
            at: start)
    }

    /// The characters of numbers, booleans, dates and times.
    private mutating func bareToken() -> [UInt8] {
        let start = position
        while let byte = peek(), Self.isBareValueByte(byte) { advance() }
        return Array(bytes[start..<position])
    }

    private static func isBareValueByte(_ byte: UInt8) -> Bool {
        isBareKeyByte(byte) || byte == UInt8(ascii: "+") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: ":")
    }

    /// A bare token for a message, quoted; a long one cut.
    private static func shown(_ token: [UInt8]) -> String {
        let text = String(decoding: token.prefix(40), as: UTF8.self)
        return "\"\(text)\(token.count > 40 ? "…" : "")\""
    }
}

/// Why a bare value that looks like a number or a date is not one.
struct TOMLValueError: Error {
    enum Reason {
        case integerOutOfRange
        case floatOutOfRange
        case invalidDate
    }

    var reason: Reason

    /// The sentence, given the value as written.
    func message(_ shown: String) -> String {
        switch reason {
        case .integerOutOfRange:
            "the integer \(shown) is out of range: integers are 64-bit, from -9223372036854775808 to 9223372036854775807"
        case .floatOutOfRange:
            "the float \(shown) is too large for a 64-bit float"
        case .invalidDate:
            "\(shown) is not a valid date or time"
        }
    }
}
