/// Percent-encoding of URL components (RFC 3986 §2.1), the inverse of ``PercentDecoding``: every byte of the text's
/// UTF-8 that a component may not carry as is becomes `%XX`, with upper-case hex digits.
package enum PercentEncoding {
    /// Whether `byte` is unreserved (RFC 3986 §2.3): a letter, a digit, `-`, `.`, `_` or `~`.
    package static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
            UInt8(ascii: "~"):
            true
        default:
            false
        }
    }

    /// Whether `byte` may stand as is in a path segment: a `pchar` (RFC 3986 §3.3) that is not `%` — unreserved, a
    /// sub-delimiter (`!$&'()*+,;=`), `:` or `@`. `/` is not one: it ends the segment.
    package static func isSegmentCharacter(_ byte: UInt8) -> Bool {
        isUnreserved(byte) || "!$&'()*+,;=:@".utf8.contains(byte)
    }

    /// `text` with every UTF-8 byte that `keeps` refuses written `%XX`: `encode("a b/c", keeping: isUnreserved)` is
    /// `a%20b%2Fc`.
    package static func encode(_ text: some StringProtocol, keeping keeps: (UInt8) -> Bool) -> String {
        guard !text.utf8.allSatisfy(keeps) else { return String(text) }
        let hex = Array("0123456789ABCDEF".utf8)
        var encoded: [UInt8] = []
        encoded.reserveCapacity(text.utf8.count * 3)
        for byte in text.utf8 {
            if keeps(byte) {
                encoded.append(byte)
            } else {
                encoded += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
            }
        }
        return String(decoding: encoded, as: UTF8.self)
    }
}
