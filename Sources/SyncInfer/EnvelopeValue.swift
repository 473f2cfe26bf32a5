import SyncCore

/// A scalar of the envelope around the records: a value outside every array, such as `has_more`, `next` or
/// `pageInfo.endCursor`, from which a `pagination` line can be proposed.
struct EnvelopeValue: Equatable {
    /// What the value is; strings are kept, cut to ``maximumText`` characters, and numbers as their literal.
    enum Value: Equatable {
        case string(String)
        case number(String)
        case boolean(Bool)
        case null
    }

    /// Strings longer than this are cut: a proposal only looks at their start.
    static let maximumText = 256
    /// At most this many values are kept from one body.
    static let maximumCount = 256

    var path: JSONPath
    var value: Value
    /// Where the value's literal lies in the body, to read it whole (a cursor longer than ``maximumText``).
    var range: Range<Int>

    /// The last key of the path, lowercased, without `_` and `-`: `next_cursor`, `nextCursor` and `next-cursor` all
    /// read `nextcursor`.
    var normalizedKey: String { key.lowercased().filter { $0 != "_" && $0 != "-" } }

    /// The last key of the path as written; empty for an array element.
    var key: String {
        guard case .key(let key) = path.components.last else { return "" }
        return key
    }

    /// The path of the object holding the value.
    var parent: JSONPath { JSONPath(components: Array(path.components.dropLast())) }

    /// Whether the value is `true` or `false`.
    var isBoolean: Bool {
        if case .boolean = value { return true }
        return false
    }

    /// Whether the value is a number.
    var isNumber: Bool {
        if case .number = value { return true }
        return false
    }

    /// The value as a whole number written without fraction or exponent (`25`), if it is one.
    var integer: Int? {
        guard case .number(let literal) = value else { return nil }
        return Int(literal)
    }

    /// The value read from a scalar's bytes as written.
    static func value(of literal: UnsafeBufferPointer<UInt8>) -> Value {
        switch captured(literal) {
        case .string(let text): .string(String(text.prefix(maximumText)))
        case .number(let text): .number(String(text.prefix(maximumText)))
        case .bool(let value): .boolean(value)
        case .null, .other: .null
        }
    }

    /// A value, whole, read from its literal, whose grammar was checked: a cursor or URL as ``PageWalker`` takes it.
    static func captured(_ literal: UnsafeBufferPointer<UInt8>) -> CapturedValue {
        switch literal.first {
        case JSONByte.quote:
            var scratch: [UInt8] = []
            let content = UnsafeBufferPointer(rebasing: literal[1..<max(1, literal.count - 1)])
            return .string(JSONStringContent.text(content, scratch: &scratch).0)
        case JSONByte.lowerT: return .bool(true)
        case JSONByte.lowerF: return .bool(false)
        case JSONByte.lowerN: return .null
        case JSONByte.openBrace, JSONByte.openBracket: return .other(String(decoding: literal, as: UTF8.self))
        default: return .number(String(decoding: literal, as: UTF8.self))
        }
    }
}
