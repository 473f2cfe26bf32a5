/// The content of a `U&"…"` name as PostgreSQL decodes it, so that `U&"pg\005fread\005ffile"` is read as the name
/// the server calls.
extension PostgresScript {
    /// `text` with its escapes decoded: `E` followed by four hexadecimal digits or by `+` and six, `EE` for `E`
    /// itself (`E` is `escape`, a backslash unless `UESCAPE` says otherwise), UTF-16 surrogate pairs joined; nil for
    /// a malformed escape or a code point that is not a character, which the server refuses too.
    static func decodeUnicodeEscapes(_ text: String, escape: UInt8) -> String? {
        let bytes = Array(text.utf8)
        var decoded: [UInt8] = []
        var index = 0
        var highSurrogate: UInt32?
        while index < bytes.count {
            guard bytes[index] == escape else {
                guard highSurrogate == nil else { return nil }
                decoded.append(bytes[index])
                index += 1
                continue
            }
            if index + 1 < bytes.count, bytes[index + 1] == escape {
                guard highSurrogate == nil else { return nil }
                decoded.append(escape)
                index += 2
                continue
            }
            let long = index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "+")
            let digits = long ? 6 : 4
            let from = index + (long ? 2 : 1)
            guard from + digits <= bytes.count, var value = hexValue(bytes[from..<(from + digits)]) else { return nil }
            index = from + digits
            if let high = highSurrogate {
                guard (0xDC00...0xDFFF).contains(value) else { return nil }
                value = 0x10000 + ((high - 0xD800) << 10) + (value - 0xDC00)
                highSurrogate = nil
            } else if (0xD800...0xDBFF).contains(value) {
                highSurrogate = value
                continue
            }
            guard value != 0, let scalar = Unicode.Scalar(value) else { return nil }
            decoded.append(contentsOf: Array(String(Character(scalar)).utf8))
        }
        guard highSurrogate == nil else { return nil }
        return String(decoding: decoded, as: UTF8.self)
    }

    private static func hexValue(_ digits: ArraySlice<UInt8>) -> UInt32? {
        var value: UInt32 = 0
        for digit in digits {
            let nibble: UInt8
            switch digit {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): nibble = digit - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): nibble = digit - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): nibble = digit - UInt8(ascii: "A") + 10
            default: return nil
            }
            value = value << 4 | UInt32(nibble)
        }
        return value
    }
}
