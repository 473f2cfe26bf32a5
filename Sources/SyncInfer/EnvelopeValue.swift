import SyncCore

/// A scalar of the envelope around the records: a value outside every array, such as `has_more`, `next` or
/// `pageInfo.endCursor`, from which a `pagination` line can be proposed.
struct EnvelopeValue: Equatable {
    /// What the value is; strings are kept, cut to ``maximumText`` characters.
    enum Value: Equatable {
        case string(String)
        case number
        case boolean(Bool)
        case null
    }

    /// Strings longer than this are cut: a proposal only looks at their start.
    static let maximumText = 256
    /// At most this many values are kept from one body.
    static let maximumCount = 256

    var path: JSONPath
    var value: Value

    /// The last key of the path, lowercased, without `_`: `next_cursor` and `nextCursor` both read `nextcursor`.
    var normalizedKey: String {
        guard case .key(let key) = path.components.last else { return "" }
        return key.lowercased().filter { $0 != "_" }
    }

    /// Whether the value is `true` or `false`.
    var isBoolean: Bool {
        if case .boolean = value { return true }
        return false
    }

    /// The value read from a scalar's bytes as written.
    static func value(of literal: UnsafeBufferPointer<UInt8>) -> Value {
        switch literal.first {
        case JSONByte.quote:
            var scratch: [UInt8] = []
            let content = UnsafeBufferPointer(rebasing: literal[1..<max(1, literal.count - 1)])
            return .string(String(JSONStringContent.text(content, scratch: &scratch).0.prefix(maximumText)))
        case JSONByte.lowerT: return .boolean(true)
        case JSONByte.lowerF: return .boolean(false)
        case JSONByte.lowerN: return .null
        default: return .number
        }
    }
}
