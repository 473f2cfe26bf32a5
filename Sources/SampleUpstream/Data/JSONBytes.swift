/// Writes JSON text straight into a byte array, for sample documents of tens of megabytes.
///
/// Strings can be written in pieces (`openString()`, `stringPiece(_:)`, `closeString()`) so a value such as an email
/// address is assembled from word-list entries without building an intermediate `String`.
struct JSONBytes {
    private(set) var bytes: [UInt8]

    init(reservingCapacity capacity: Int) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    /// Appends JSON syntax or other text known to need no escaping.
    mutating func raw(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    mutating func newline(indent: Int) {
        bytes.append(UInt8(ascii: "\n"))
        bytes.append(contentsOf: repeatElement(UInt8(ascii: " "), count: indent))
    }

    /// Appends `"key": ` after a newline and `indent` spaces.
    mutating func key(_ name: StaticString, indent: Int) {
        newline(indent: indent)
        bytes.append(UInt8(ascii: "\""))
        raw(name)
        raw("\": ")
    }

    mutating func string(_ value: String) {
        openString()
        stringPiece(value)
        closeString()
    }

    mutating func openString() {
        bytes.append(UInt8(ascii: "\""))
    }

    mutating func closeString() {
        bytes.append(UInt8(ascii: "\""))
    }

    /// Appends part of a string value, escaped; `lowercased` folds ASCII letters.
    mutating func stringPiece(_ value: String, lowercased: Bool = false) {
        var value = value
        value.withUTF8 { utf8 in
            for byte in utf8 {
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"):
                    bytes.append(UInt8(ascii: "\\"))
                    bytes.append(byte)
                case 0..<0x20:
                    appendControlEscape(byte)
                case UInt8(ascii: "A")...UInt8(ascii: "Z") where lowercased:
                    bytes.append(byte | 0x20)
                default:
                    bytes.append(byte)
                }
            }
        }
    }

    /// Appends a non-negative number inside a string value, left-padded with zeros to `width` digits.
    mutating func digits(_ value: Int, width: Int = 1) {
        var scratch: (UInt64, UInt64, UInt64) = (0, 0, 0)  // room for 24 digits
        withUnsafeMutableBytes(of: &scratch) { buffer in
            var remaining = UInt64(value.magnitude)
            var start = buffer.count
            repeat {
                start -= 1
                buffer[start] = UInt8(ascii: "0") + UInt8(remaining % 10)
                remaining /= 10
            } while remaining > 0 && start > 0
            while buffer.count - start < width && start > 0 {
                start -= 1
                buffer[start] = UInt8(ascii: "0")
            }
            bytes.append(contentsOf: buffer[start...])
        }
    }

    /// Appends a JSON number.
    mutating func integer(_ value: Int) {
        if value < 0 {
            bytes.append(UInt8(ascii: "-"))
        }
        digits(value)
    }

    private mutating func appendControlEscape(_ byte: UInt8) {
        let hex: [UInt8] = Array("0123456789abcdef".utf8)
        raw("\\u00")
        bytes.append(hex[Int(byte >> 4)])
        bytes.append(hex[Int(byte & 0x0F)])
    }
}
