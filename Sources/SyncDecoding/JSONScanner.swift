import SyncSupport

/// The bytes of JSON's grammar that the reader looks for.
package enum JSONByte {
    package static let tab: UInt8 = 0x09
    package static let newline: UInt8 = 0x0A
    package static let carriageReturn: UInt8 = 0x0D
    package static let space: UInt8 = 0x20
    package static let quote: UInt8 = 0x22
    package static let plus: UInt8 = 0x2B
    package static let comma: UInt8 = 0x2C
    package static let minus: UInt8 = 0x2D
    package static let period: UInt8 = 0x2E
    package static let slash: UInt8 = 0x2F
    package static let zero: UInt8 = 0x30
    package static let nine: UInt8 = 0x39
    package static let colon: UInt8 = 0x3A
    package static let upperE: UInt8 = 0x45
    package static let openBracket: UInt8 = 0x5B
    package static let backslash: UInt8 = 0x5C
    package static let closeBracket: UInt8 = 0x5D
    package static let lowerE: UInt8 = 0x65
    package static let lowerF: UInt8 = 0x66
    package static let lowerN: UInt8 = 0x6E
    package static let lowerT: UInt8 = 0x74
    package static let openBrace: UInt8 = 0x7B
    package static let closeBrace: UInt8 = 0x7D

    @inline(__always)
    package static func isDigit(_ byte: UInt8) -> Bool { ASCIIDigits.isDigit(byte) }
}

/// A cursor over a JSON text that checks its grammar (RFC 8259) while moving over it.
///
/// Every read is bounds-checked against `buffer.count` first, so malformed input can only produce a
/// ``JSONSyntaxError``, never a trap. Nothing is allocated: values are skipped, and callers that need
/// one read its bytes between the offsets before and after the skip.
package struct JSONScanner {
    /// Arrays and objects nested deeper than this are refused instead of overflowing the stack.
    package static let maximumDepth = 512

    package let buffer: UnsafeBufferPointer<UInt8>
    package var position: Int

    package init(_ bytes: UnsafeRawBufferPointer, position: Int = 0) {
        self.buffer = bytes.assumingMemoryBound(to: UInt8.self)
        self.position = position
    }

    package var count: Int { buffer.count }
    package var isAtEnd: Bool { position >= buffer.count }

    /// Moves past a UTF-8 byte order mark, which RFC 8259 §8.1 lets a parser ignore.
    package mutating func skipByteOrderMark() {
        if buffer.count >= 3, buffer[0] == 0xEF, buffer[1] == 0xBB, buffer[2] == 0xBF, position == 0 {
            position = 3
        }
    }

    @inline(__always)
    package mutating func skipWhitespace() {
        while position < buffer.count {
            switch buffer[position] {
            case JSONByte.space, JSONByte.newline, JSONByte.carriageReturn, JSONByte.tab: position += 1
            default: return
            }
        }
    }

    /// The byte at the cursor; at the end of the input, an error saying what it ended inside.
    @inline(__always)
    package func currentByte(inside context: JSONContext) throws(JSONSyntaxError) -> UInt8 {
        guard position < buffer.count else { throw JSONSyntaxError(.unexpectedEnd(inside: context), at: position) }
        return buffer[position]
    }

    package func unexpected(_ expected: JSONExpectation) -> JSONSyntaxError {
        JSONSyntaxError(.unexpectedByte(expected: expected), at: position)
    }

    /// Skips one value of any kind, checking its grammar.
    ///
    /// - Parameters:
    ///   - depth: the number of arrays and objects around the value.
    ///   - context: what the input ends inside if there is no value.
    package mutating func skipValue(depth: Int, inside context: JSONContext) throws(JSONSyntaxError) {
        switch try currentByte(inside: context) {
        case JSONByte.quote: _ = try scanString()
        case JSONByte.openBrace: try skipObject(depth: depth)
        case JSONByte.openBracket: try skipArray(depth: depth)
        case JSONByte.lowerT: try scanLiteral("true")
        case JSONByte.lowerF: try scanLiteral("false")
        case JSONByte.lowerN: try scanLiteral("null")
        case JSONByte.minus, JSONByte.zero...JSONByte.nine: try scanNumber()
        default: throw unexpected(.value)
        }
    }

    /// Checks that one more level of nesting is allowed, returning the depth inside the container.
    @inline(__always)
    package func enter(depth: Int) throws(JSONSyntaxError) -> Int {
        guard depth < Self.maximumDepth else { throw JSONSyntaxError(.tooDeep, at: position) }
        return depth + 1
    }

    /// Steps into the object or array whose `{` or `[` is at the cursor, checking the nesting: nil when it is empty
    /// (the cursor is then after it), else the depth of its members (the cursor is on the first).
    @inline(__always)
    package mutating func open(_ context: JSONContext, depth: Int) throws(JSONSyntaxError) -> Int? {
        let inner = try enter(depth: depth)
        position += 1
        skipWhitespace()
        let close = context == .object ? JSONByte.closeBrace : JSONByte.closeBracket
        if try currentByte(inside: context) == close {
            position += 1
            return nil
        }
        return inner
    }

    /// Skips the object whose `{` is at the cursor.
    package mutating func skipObject(depth: Int) throws(JSONSyntaxError) {
        guard let inner = try open(.object, depth: depth) else { return }
        while true {
            try skipKeyAndColon()
            try skipValue(depth: inner, inside: .object)
            guard try skipCommaOrObjectEnd() else { return }
        }
    }

    /// Skips the array whose `[` is at the cursor.
    package mutating func skipArray(depth: Int) throws(JSONSyntaxError) {
        guard let inner = try open(.array, depth: depth) else { return }
        while true {
            try skipValue(depth: inner, inside: .array)
            guard try skipCommaOrArrayEnd() else { return }
        }
    }

    /// Reads a key, the colon after it and the whitespace before the value; returns the key's bytes.
    ///
    /// - Returns: the range of the key's content (without quotes) and whether it holds escapes.
    @inline(__always)
    package mutating func scanKeyAndColon() throws(JSONSyntaxError) -> (content: Range<Int>, hasEscapes: Bool) {
        guard try currentByte(inside: .object) == JSONByte.quote else { throw unexpected(.key) }
        let start = position + 1
        let hasEscapes = try scanString()
        let content = start..<(position - 1)
        skipWhitespace()
        guard try currentByte(inside: .object) == JSONByte.colon else { throw unexpected(.colon) }
        position += 1
        skipWhitespace()
        return (content, hasEscapes)
    }

    @inline(__always)
    package mutating func skipKeyAndColon() throws(JSONSyntaxError) {
        _ = try scanKeyAndColon()
    }

    /// After a member: moves past `,` and the whitespace after it (true), or past `}` (false).
    @inline(__always)
    package mutating func skipCommaOrObjectEnd() throws(JSONSyntaxError) -> Bool {
        skipWhitespace()
        switch try currentByte(inside: .object) {
        case JSONByte.comma:
            position += 1
            skipWhitespace()
            return true
        case JSONByte.closeBrace:
            position += 1
            return false
        default:
            throw unexpected(.commaOrObjectEnd)
        }
    }

    /// After an element: moves past `,` and the whitespace after it (true), or past `]` (false).
    @inline(__always)
    package mutating func skipCommaOrArrayEnd() throws(JSONSyntaxError) -> Bool {
        skipWhitespace()
        switch try currentByte(inside: .array) {
        case JSONByte.comma:
            position += 1
            skipWhitespace()
            return true
        case JSONByte.closeBracket:
            position += 1
            return false
        default:
            throw unexpected(.commaOrArrayEnd)
        }
    }

    /// Skips `true`, `false` or `null`, whose first byte is at the cursor.
    package mutating func scanLiteral(_ word: StaticString) throws(JSONSyntaxError) {
        let length = word.utf8CodeUnitCount
        for offset in 0..<length {
            guard position < buffer.count else { throw JSONSyntaxError(.unexpectedEnd(inside: .literal), at: position) }
            guard buffer[position] == word.utf8Start[offset] else {
                throw offset == 0 ? unexpected(.value) : unexpected(.literal(word))
            }
            position += 1
        }
    }

    /// Skips a number, checking it against RFC 8259's grammar: `-? (0 | [1-9][0-9]*) (.[0-9]+)? ([eE][+-]?[0-9]+)?`.
    package mutating func scanNumber() throws(JSONSyntaxError) {
        if buffer[position] == JSONByte.minus { position += 1 }
        let first = try currentByte(inside: .number)
        if first == JSONByte.zero {
            position += 1
            if position < buffer.count, JSONByte.isDigit(buffer[position]) {
                throw JSONSyntaxError(.leadingZero, at: position - 1)
            }
        } else if JSONByte.isDigit(first) {
            position += 1
            skipDigits()
        } else {
            throw unexpected(.digit)
        }
        if position < buffer.count, buffer[position] == JSONByte.period {
            position += 1
            try scanRequiredDigits()
        }
        if position < buffer.count, buffer[position] | 0x20 == JSONByte.lowerE {
            position += 1
            if position < buffer.count, buffer[position] == JSONByte.plus || buffer[position] == JSONByte.minus {
                position += 1
            }
            try scanRequiredDigits()
        }
    }

    @inline(__always)
    private mutating func skipDigits() {
        while position < buffer.count, JSONByte.isDigit(buffer[position]) { position += 1 }
    }

    private mutating func scanRequiredDigits() throws(JSONSyntaxError) {
        guard JSONByte.isDigit(try currentByte(inside: .number)) else { throw unexpected(.digit) }
        skipDigits()
    }
}
