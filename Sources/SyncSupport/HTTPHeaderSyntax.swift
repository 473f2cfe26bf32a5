/// The syntax of header names and values (RFC 9110 §5.1, §5.5), for headers taken from the configuration and the
/// read API's requests.
package enum HTTPHeaderSyntax {
    /// Whether `name` is a token: one or more of `!#$%&'*+-.^_`|~`, digits and letters.
    package static func isToken(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.allSatisfy(isTokenCharacter)
    }

    /// Whether `byte` is one of a token's characters.
    package static func isTokenCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        default:
            "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }

    /// Whether a value holds CR, LF or NUL, which would end or split the header.
    package static func hasForbiddenByte(_ value: String) -> Bool {
        value.utf8.contains { $0 == 0x0D || $0 == 0x0A || $0 == 0x00 }
    }
}
