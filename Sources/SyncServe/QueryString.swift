/// A URL's query string as name–value pairs, in order, percent-decoded (`+` is a space, as HTML forms and
/// PostgREST read it). Repeated names are kept: `id=gt.1&id=lt.5` is two filters.
struct QueryString: Sendable {
    var pairs: [(name: String, value: String)]

    init(_ query: Substring) {
        pairs = query.split(separator: "&", omittingEmptySubsequences: true).map { field in
            guard let equals = field.firstIndex(of: "=") else { return (Self.decode(field), "") }
            return (Self.decode(field[..<equals]), Self.decode(field[field.index(after: equals)...]))
        }
    }

    /// The value of the first pair with that name.
    func first(_ name: String) -> String? {
        pairs.first { $0.name == name }?.value
    }

    /// Percent-decoding; a malformed escape is kept as written, and bytes that are not UTF-8 become U+FFFD.
    static func decode(_ text: Substring, plusIsSpace: Bool = true) -> String {
        guard text.utf8.contains(where: { $0 == UInt8(ascii: "%") || (plusIsSpace && $0 == UInt8(ascii: "+")) }) else {
            return String(text)
        }
        let input = Array(text.utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(input.count)
        var index = 0
        while index < input.count {
            let byte = input[index]
            if plusIsSpace, byte == UInt8(ascii: "+") {
                bytes.append(UInt8(ascii: " "))
            } else if byte == UInt8(ascii: "%"), index + 2 < input.count,
                let high = hexValue(input[index + 1]), let low = hexValue(input[index + 2])
            {
                bytes.append(high << 4 | low)
                index += 2
            } else {
                bytes.append(byte)
            }
            index += 1
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
