import SyncSupport

/// Turning a JSON string's content (the bytes between its quotes, already checked by ``JSONScanner``)
/// into the text it stands for.
package enum JSONStringContent {
    @inline(__always)
    package static func hexValue(_ byte: UInt8) -> UInt32? {
        ASCIIDigits.hexValue(byte).map(UInt32.init)
    }

    /// Whether the content holds a backslash.
    package static func hasEscapes(_ content: UnsafeBufferPointer<UInt8>) -> Bool {
        content.contains(JSONByte.backslash)
    }

    /// Writes the unescaped UTF-8 of `content` into `output` (emptied first, its capacity kept).
    ///
    /// A `\u` escape of a lone surrogate cannot be UTF-8; it becomes U+FFFD.
    ///
    /// - Returns: whether a lone surrogate was replaced.
    package static func unescape(_ content: UnsafeBufferPointer<UInt8>, into output: inout [UInt8]) -> Bool {
        output.removeAll(keepingCapacity: true)
        var replaced = false
        var index = 0
        while index < content.count {
            let byte = content[index]
            guard byte == JSONByte.backslash, index + 1 < content.count else {
                output.append(byte)
                index += 1
                continue
            }
            let escaped = content[index + 1]
            index += 2
            switch escaped {
            case 0x62: output.append(0x08)  // \b
            case 0x66: output.append(0x0C)  // \f
            case 0x6E: output.append(JSONByte.newline)  // \n
            case 0x72: output.append(JSONByte.carriageReturn)  // \r
            case 0x74: output.append(JSONByte.tab)  // \t
            case 0x75:  // \uXXXX, perhaps a surrogate pair \uD83D\uDE00
                guard let unit = hexUnit(content, at: index) else { return replaced }
                index += 4
                var scalar = unit
                if (0xD800...0xDBFF).contains(unit), index + 5 < content.count, content[index] == JSONByte.backslash,
                    content[index + 1] == 0x75, let low = hexUnit(content, at: index + 2),
                    (0xDC00...0xDFFF).contains(low)
                {
                    scalar = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
                    index += 6
                } else if (0xD800...0xDFFF).contains(unit) {
                    scalar = 0xFFFD
                    replaced = true
                }
                appendUTF8(scalar, to: &output)
            default: output.append(escaped)  // \" \\ \/
            }
        }
        return replaced
    }

    /// The text of a string's content, unescaped when needed.
    ///
    /// - Returns: the text, and whether a lone surrogate was replaced by U+FFFD.
    package static func text(_ content: UnsafeBufferPointer<UInt8>, scratch: inout [UInt8]) -> (String, replaced: Bool)
    {
        guard hasEscapes(content) else { return (String(decoding: content, as: UTF8.self), false) }
        let replaced = unescape(content, into: &scratch)
        return (String(decoding: scratch, as: UTF8.self), replaced)
    }

    /// Calls `body` with the unescaped bytes of a string's content, from the body itself when it holds no escapes.
    package static func withUnescaped<Result>(
        _ content: UnsafeBufferPointer<UInt8>,
        scratch: inout [UInt8],
        _ body: (UnsafeBufferPointer<UInt8>) -> Result
    ) -> Result {
        guard hasEscapes(content) else { return body(content) }
        _ = unescape(content, into: &scratch)
        return scratch.withUnsafeBufferPointer(body)
    }

    private static func hexUnit(_ content: UnsafeBufferPointer<UInt8>, at index: Int) -> UInt32? {
        guard index + 4 <= content.count else { return nil }
        var value: UInt32 = 0
        for offset in 0..<4 {
            guard let digit = hexValue(content[index + offset]) else { return nil }
            value = value << 4 | digit
        }
        return value
    }

    private static func appendUTF8(_ scalar: UInt32, to output: inout [UInt8]) {
        switch scalar {
        case 0..<0x80:
            output.append(UInt8(truncatingIfNeeded: scalar))
        case 0x80..<0x800:
            output.append(UInt8(truncatingIfNeeded: 0xC0 | scalar >> 6))
            output.append(UInt8(truncatingIfNeeded: 0x80 | scalar & 0x3F))
        case 0x800..<0x10000:
            output.append(UInt8(truncatingIfNeeded: 0xE0 | scalar >> 12))
            output.append(UInt8(truncatingIfNeeded: 0x80 | scalar >> 6 & 0x3F))
            output.append(UInt8(truncatingIfNeeded: 0x80 | scalar & 0x3F))
        default:
            output.append(UInt8(truncatingIfNeeded: 0xF0 | scalar >> 18))
            output.append(UInt8(truncatingIfNeeded: 0x80 | scalar >> 12 & 0x3F))
            output.append(UInt8(truncatingIfNeeded: 0x80 | scalar >> 6 & 0x3F))
            output.append(UInt8(truncatingIfNeeded: 0x80 | scalar & 0x3F))
        }
    }
}
