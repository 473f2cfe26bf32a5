/// A value found at a path outside the records (a next cursor, a next URL, a has-more flag), as
/// ``EnvelopeCapture`` kept it.
package enum CapturedValue: Sendable, Hashable {
    case string(String)
    case bool(Bool)
    case null
    /// A number, as its literal text.
    case number(String)
    /// An array or object, its bytes as received.
    case other(String)

    /// Reads a value from its exact bytes: the splitter has already checked their grammar.
    init(bytes: [UInt8]) {
        guard let first = bytes.first else {
            self = .null
            return
        }
        switch first {
        case JSONByte.quote:
            let content = bytes.dropFirst().dropLast()
            var text: [UInt8] = []
            content.withUnsafeBufferPointer { _ = JSONStringContent.unescape($0, into: &text) }
            self = .string(String(decoding: text, as: UTF8.self))
        case JSONByte.lowerT: self = .bool(true)
        case JSONByte.lowerF: self = .bool(false)
        case JSONByte.lowerN: self = .null
        case JSONByte.openBrace, JSONByte.openBracket: self = .other(String(decoding: bytes, as: UTF8.self))
        default: self = .number(String(decoding: bytes, as: UTF8.self))
        }
    }

    /// The JSON a cursor is written as into a request body: a string as a JSON string, a number's literal; nil where
    /// ``text`` is nil.
    package var json: String? {
        switch self {
        case .string(let text): text.isEmpty ? nil : ColumnValue.jsonString(text)
        case .number(let literal): literal
        case .bool, .null, .other: nil
        }
    }

    /// The text a cursor or URL is sent as: a string's content or a number's literal; nil for null, an empty
    /// string, booleans, arrays and objects.
    package var text: String? {
        switch self {
        case .string(let text): text.isEmpty ? nil : text
        case .number(let literal): literal
        case .bool, .null, .other: nil
        }
    }
}
