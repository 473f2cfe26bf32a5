/// Where in the JSON grammar the reader was when the input broke off or went wrong.
package enum JSONContext: Sendable {
    case object
    case array
    case string
    case number
    case literal
    case topLevel

    /// "an object", as in "it ends inside an object".
    package var phrase: String {
        switch self {
        case .object: "an object"
        case .array: "an array"
        case .string: "a string"
        case .number: "a number"
        case .literal: "a literal (true, false or null)"
        case .topLevel: "the top-level value"
        }
    }
}

/// What the reader expected where it found something else.
package enum JSONExpectation: Sendable {
    case value
    case key
    case colon
    case commaOrObjectEnd
    case commaOrArrayEnd
    case digit
    case literal(StaticString)

    package var phrase: String {
        switch self {
        case .value: "a value"
        case .key: "a string key"
        case .colon: "\":\""
        case .commaOrObjectEnd: "\",\" or \"}\""
        case .commaOrArrayEnd: "\",\" or \"]\""
        case .digit: "a digit"
        case .literal(let word): "the literal \(word)"
        }
    }
}

/// A violation of JSON's grammar (RFC 8259) at a byte offset. Internal: callers see ``BodyDecodingError``.
package struct JSONSyntaxError: Error {
    package enum Problem: Sendable {
        /// Nothing but whitespace (or a byte order mark).
        case empty
        /// The input ends where more is needed.
        case unexpectedEnd(inside: JSONContext)
        /// A byte that cannot appear here.
        case unexpectedByte(expected: JSONExpectation)
        /// A backslash not followed by one of `"\/bfnrt` or by `u` and four hex digits.
        case invalidEscape
        /// A raw byte below 0x20 inside a string.
        case controlCharacter
        /// A string's bytes that are not UTF-8.
        case invalidUTF8
        /// A number such as `01`.
        case leadingZero
        /// Arrays and objects nested deeper than ``JSONScanner/maximumDepth``.
        case tooDeep
        /// Anything but whitespace after the top-level value.
        case trailingData
    }

    package var problem: Problem
    /// The offset of the offending byte, or of the end of the input.
    package var offset: Int

    package init(_ problem: Problem, at offset: Int) {
        self.problem = problem
        self.offset = offset
    }
}

/// A byte offset as a person finds it in an editor.
package struct JSONTextPosition: Hashable, Sendable, CustomStringConvertible {
    package var offset: Int
    /// 1-based.
    package var line: Int
    /// 1-based, counting Unicode scalars from the start of the line.
    package var column: Int

    package init(offset: Int, line: Int, column: Int) {
        self.offset = offset
        self.line = line
        self.column = column
    }

    /// Counts lines and columns up to `offset`; only used when reporting an error, so a plain scan is fine.
    package init(offset: Int, in bytes: UnsafeBufferPointer<UInt8>) {
        self.offset = offset
        var line = 1
        var column = 1
        var index = 0
        let end = min(offset, bytes.count)
        while index < end {
            let byte = bytes[index]
            if byte == JSONByte.newline {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
            index += 1
        }
        self.line = line
        self.column = column
    }

    package var description: String { "at byte \(offset) (line \(line), column \(column))" }
}
