/// Digits in text read as bytes, one place for the JSON scanner, percent-decoding, HTTP dates and the TOML reader.
package enum ASCIIDigits {
    /// `0`…`9`.
    @inline(__always)
    package static func isDigit(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "0") < 10 }

    /// The value of a hexadecimal digit (`0`…`9`, `a`…`f`, `A`…`F`); nil for any other byte.
    @inline(__always)
    package static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
