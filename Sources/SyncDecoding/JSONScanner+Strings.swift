extension JSONScanner {
    /// Skips the string whose opening quote is at the cursor, checking its escapes, that it holds no raw
    /// control characters and that its bytes are UTF-8.
    ///
    /// Most of a typical body is string content, so plain bytes are passed over eight at a time.
    ///
    /// - Returns: whether the string holds escapes (its content then needs unescaping before use).
    @inline(__always)
    package mutating func scanString() throws(JSONSyntaxError) -> Bool {
        position += 1
        var hasEscapes = false
        while true {
            skipPlainStringBytes()
            guard position < buffer.count else { throw JSONSyntaxError(.unexpectedEnd(inside: .string), at: position) }
            let byte = buffer[position]
            if byte == JSONByte.quote {
                position += 1
                return hasEscapes
            } else if byte == JSONByte.backslash {
                hasEscapes = true
                try scanEscape()
            } else if byte < 0x20 {
                throw JSONSyntaxError(.controlCharacter, at: position)
            } else if byte >= 0x80 {
                try scanMultibyteScalar(lead: byte)
            } else {
                position += 1
            }
        }
    }

    /// Moves past bytes that need no attention: ASCII other than `"`, `\` and control characters.
    @inline(__always)
    package mutating func skipPlainStringBytes() {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        let raw = UnsafeRawBufferPointer(buffer)
        while position &+ 8 <= buffer.count {
            let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: position, as: UInt64.self))
            let quotes = word ^ (ones &* UInt64(JSONByte.quote))
            let backslashes = word ^ (ones &* UInt64(JSONByte.backslash))
            // A byte is flagged when it is zero (after the xor), below 0x20, or has its high bit set. Borrows can
            // flag bytes above a flagged one too, but the lowest flag is always right, and that is the one used.
            var special = (quotes &- ones) & ~quotes
            special |= (backslashes &- ones) & ~backslashes
            special |= (word &- ones &* 0x20) & ~word
            special |= word
            special &= highs
            if special == 0 {
                position &+= 8
            } else {
                position &+= special.trailingZeroBitCount &>> 3
                return
            }
        }
        while position < buffer.count {
            let byte = buffer[position]
            guard byte >= 0x20, byte < 0x80, byte != JSONByte.quote, byte != JSONByte.backslash else { return }
            position += 1
        }
    }

    /// Skips the escape whose backslash is at the cursor.
    private mutating func scanEscape() throws(JSONSyntaxError) {
        let start = position
        guard position + 1 < buffer.count else {
            throw JSONSyntaxError(.unexpectedEnd(inside: .string), at: buffer.count)
        }
        switch buffer[position + 1] {
        case JSONByte.quote, JSONByte.backslash, JSONByte.slash, 0x62, 0x66, 0x6E, 0x72, 0x74:  // b f n r t
            position += 2
        case 0x75:  // u
            for offset in 2...5 {
                guard start + offset < buffer.count else {
                    throw JSONSyntaxError(.unexpectedEnd(inside: .string), at: buffer.count)
                }
                guard JSONStringContent.hexValue(buffer[start + offset]) != nil else {
                    throw JSONSyntaxError(.invalidEscape, at: start)
                }
            }
            position += 6
        default:
            throw JSONSyntaxError(.invalidEscape, at: start)
        }
    }

    /// Skips one multi-byte UTF-8 scalar whose lead byte is at the cursor, refusing overlong forms,
    /// surrogates and values above U+10FFFF (the Unicode standard's table 3-7).
    private mutating func scanMultibyteScalar(lead: UInt8) throws(JSONSyntaxError) {
        guard let (continuations, lowest, highest) = Self.utf8Sequence(lead: lead) else {
            throw JSONSyntaxError(.invalidUTF8, at: position)
        }
        for offset in 1...continuations {
            guard position + offset < buffer.count else {
                throw JSONSyntaxError(.unexpectedEnd(inside: .string), at: buffer.count)
            }
            let byte = buffer[position + offset]
            let range = offset == 1 ? lowest...highest : 0x80...0xBF
            guard range.contains(byte) else { throw JSONSyntaxError(.invalidUTF8, at: position) }
        }
        position += continuations + 1
    }

    /// What may follow a multi-byte UTF-8 lead byte: how many continuation bytes, and the range of the first one
    /// (the Unicode standard's table 3-7); nil for a byte that cannot lead.
    @inline(__always)
    package static func utf8Sequence(lead: UInt8) -> (continuations: Int, lowest: UInt8, highest: UInt8)? {
        switch lead {
        case 0xC2...0xDF: (1, 0x80, 0xBF)
        case 0xE0: (2, 0xA0, 0xBF)
        case 0xE1...0xEC, 0xEE...0xEF: (2, 0x80, 0xBF)
        case 0xED: (2, 0x80, 0x9F)
        case 0xF0: (3, 0x90, 0xBF)
        case 0xF1...0xF3: (3, 0x80, 0xBF)
        case 0xF4: (3, 0x80, 0x8F)
        default: nil
        }
    }
}
