/// Percent-decoding of URL components: query strings (`application/x-www-form-urlencoded`, where `+` is a space)
/// and path segments. The read API and the sample upstream both read requests with it.
package enum PercentDecoding {
    /// Turns `%XX` into its byte, and `+` into a space unless `plusIsSpace` is false (a path segment); a `%` not
    /// followed by two hex digits stays as it is, and bytes that are not UTF-8 become U+FFFD.
    package static func decode(_ component: Substring, plusIsSpace: Bool = true) -> String {
        guard
            component.utf8.contains(where: { $0 == UInt8(ascii: "%") || (plusIsSpace && $0 == UInt8(ascii: "+")) })
        else { return String(component) }
        let utf8 = Array(component.utf8)
        var decoded: [UInt8] = []
        decoded.reserveCapacity(utf8.count)
        var index = 0
        while index < utf8.count {
            let byte = utf8[index]
            if plusIsSpace, byte == UInt8(ascii: "+") {
                decoded.append(UInt8(ascii: " "))
            } else if byte == UInt8(ascii: "%"), index + 2 < utf8.count,
                let high = ASCIIDigits.hexValue(utf8[index + 1]), let low = ASCIIDigits.hexValue(utf8[index + 2])
            {
                decoded.append(high << 4 | low)
                index += 2
            } else {
                decoded.append(byte)
            }
            index += 1
        }
        return String(decoding: decoded, as: UTF8.self)
    }
}
