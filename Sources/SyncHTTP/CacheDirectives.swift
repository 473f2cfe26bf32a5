import SyncSupport

/// The directives of `Cache-Control` fields (RFC 9111 §5.2), as a recipient reads them: every field of a response,
/// each a comma-separated list of `name` or `name=value`, the value a token or a quoted-string.
///
/// Names match in any case. A value in quotes is unquoted (`max-age="60"` is `max-age=60`, which §5.2 asks
/// recipients to accept). A directive that is not well formed — a name that is not a token, a quoted-string left
/// open, text after the value before the next comma — is skipped up to that comma, and the rest are read. When a
/// directive appears more than once, the first is kept (§4.2.1).
///
/// ```swift
/// let directives = CacheDirectives(fields: ["public, max-age=3600", "s-maxage=\"60\""])
/// directives["max-age"]     // "3600"
/// directives["s-maxage"]    // "60"
/// directives.has("public")  // true
/// ```
package struct CacheDirectives: Sendable, Hashable {
    /// The directives in the order they came, their names lowercased; a directive without a value has `nil`.
    package private(set) var all: [(name: String, value: String?)] = []

    /// Directives kept, at most: a response with more is read as far as this many.
    package static let limit = 64

    /// Reads every directive of `fields`, the values of a response's `Cache-Control` fields in order.
    package init(fields: [String]) {
        for field in fields {
            var scanner = Scanner(bytes: Array(field.utf8)[...])
            while all.count < Self.limit, let directive = scanner.next() {
                all.append(directive)
            }
        }
    }

    /// The first value of the directive `name` (lowercase): `nil` when it is absent or came without a value.
    package subscript(name: String) -> String? {
        all.first { $0.name == name }?.value ?? nil
    }

    /// Whether the directive `name` (lowercase) is present, with a value or without.
    package func has(_ name: String) -> Bool {
        all.contains { $0.name == name }
    }

    package static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.all.elementsEqual(rhs.all) { $0.name == $1.name && $0.value == $1.value }
    }

    package func hash(into hasher: inout Hasher) {
        for directive in all {
            hasher.combine(directive.name)
            hasher.combine(directive.value)
        }
    }

    /// A delta-seconds value (RFC 9111 §1.2.2): digits only, any larger than 2^31 read as 2^31, as the RFC asks of a
    /// cache that cannot represent it; `nil` for anything else (a sign, a fraction, an empty value).
    package static func deltaSeconds(_ text: String) -> Double? {
        let bytes = Array(text.utf8)
        guard !bytes.isEmpty, bytes.allSatisfy(ASCIIDigits.isDigit) else { return nil }
        var value = 0.0
        for byte in bytes {
            value = min(value * 10 + Double(byte - UInt8(ascii: "0")), Self.greatestDelta)
        }
        return value
    }

    /// 2^31 seconds, about 68 years: the largest delta-seconds a cache need keep (RFC 9111 §1.2.2).
    package static let greatestDelta = 2_147_483_648.0

    /// Reads one field's directives.
    private struct Scanner {
        var bytes: ArraySlice<UInt8>

        /// The next well-formed directive, skipping malformed ones; `nil` at the field's end.
        mutating func next() -> (name: String, value: String?)? {
            while true {
                skip { $0 == UInt8(ascii: ",") || Self.isSpace($0) }
                guard !bytes.isEmpty else { return nil }
                if let directive = directive() { return directive }
                skipToComma()
            }
        }

        /// One directive at the scanner's position, with the OWS and comma after it; `nil` when it is malformed.
        private mutating func directive() -> (name: String, value: String?)? {
            let name = bytes.prefix(while: HTTPHeaderSyntax.isTokenCharacter)
            guard !name.isEmpty else { return nil }
            bytes = bytes.dropFirst(name.count)
            var value: String?
            skip(while: Self.isSpace)
            if bytes.first == UInt8(ascii: "=") {
                bytes = bytes.dropFirst()
                skip(while: Self.isSpace)
                if bytes.first == UInt8(ascii: "\"") {
                    guard let quoted = quotedString() else { return nil }
                    value = quoted
                } else {
                    let token = bytes.prefix(while: HTTPHeaderSyntax.isTokenCharacter)
                    bytes = bytes.dropFirst(token.count)
                    value = String(decoding: token, as: UTF8.self)
                }
                skip(while: Self.isSpace)
            }
            guard bytes.isEmpty || bytes.first == UInt8(ascii: ",") else { return nil }
            return (String(decoding: name, as: UTF8.self).lowercased(), value)
        }

        /// A quoted-string's content, its quoted-pairs unescaped; `nil` when it is not closed.
        private mutating func quotedString() -> String? {
            var content: [UInt8] = []
            var rest = bytes.dropFirst()
            while let byte = rest.first {
                rest = rest.dropFirst()
                switch byte {
                case UInt8(ascii: "\""):
                    bytes = rest
                    return String(decoding: content, as: UTF8.self)
                case UInt8(ascii: "\\"):
                    guard let escaped = rest.first else { return nil }
                    content.append(escaped)
                    rest = rest.dropFirst()
                default:
                    content.append(byte)
                }
            }
            return nil
        }

        /// Skips past the next comma outside a quoted-string, or to the end.
        private mutating func skipToComma() {
            var quoted = false
            while let byte = bytes.first {
                bytes = bytes.dropFirst()
                if quoted, byte == UInt8(ascii: "\\") {
                    bytes = bytes.dropFirst()
                } else if byte == UInt8(ascii: "\"") {
                    quoted.toggle()
                } else if !quoted, byte == UInt8(ascii: ",") {
                    return
                }
            }
        }

        private mutating func skip(while predicate: (UInt8) -> Bool) {
            bytes = bytes.drop(while: predicate)
        }

        private static func isSpace(_ byte: UInt8) -> Bool {
            byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t")
        }
    }
}
