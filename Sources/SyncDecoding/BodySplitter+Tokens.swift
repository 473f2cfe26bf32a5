extension BodySplitter {
    /// Reads string content, which may have begun in an earlier chunk, with the checks of
    /// ``JSONScanner/scanString()``: escapes, control characters and UTF-8.
    mutating func stepString(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) throws -> Int {
        let byte = bytes[index]
        switch phase {
        case .escape:
            collectKey(UnsafeBufferPointer(rebasing: bytes[index..<(index + 1)]))
            switch byte {
            case JSONByte.quote, JSONByte.backslash, JSONByte.slash, 0x62, 0x66, 0x6E, 0x72, 0x74:  // b f n r t
                phase = .string
            case 0x75:  // u
                tokenRemaining = 4
                phase = .unicodeEscape
            default:
                throw JSONSyntaxError(.invalidEscape, at: tokenStart)
            }
            return index + 1
        case .unicodeEscape:
            guard JSONStringContent.hexValue(byte) != nil else { throw JSONSyntaxError(.invalidEscape, at: tokenStart) }
            collectKey(UnsafeBufferPointer(rebasing: bytes[index..<(index + 1)]))
            tokenRemaining -= 1
            if tokenRemaining == 0 { phase = .string }
            return index + 1
        case .continuation:
            guard byte >= continuationLowest, byte <= continuationHighest else {
                throw JSONSyntaxError(.invalidUTF8, at: tokenStart)
            }
            collectKey(UnsafeBufferPointer(rebasing: bytes[index..<(index + 1)]))
            continuationLowest = 0x80
            continuationHighest = 0xBF
            tokenRemaining -= 1
            if tokenRemaining == 0 { phase = .string }
            return index + 1
        default:
            return try stepStringContent(bytes, at: index)
        }
    }

    /// Reads plain string content up to the next byte that needs a look, and that byte.
    private mutating func stepStringContent(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) throws -> Int {
        var scanner = JSONScanner(UnsafeRawBufferPointer(bytes), position: index)
        scanner.skipPlainStringBytes()
        let next = scanner.position
        collectKey(UnsafeBufferPointer(rebasing: bytes[index..<next]))
        guard next < bytes.count else { return next }
        let byte = bytes[next]
        switch byte {
        case JSONByte.quote:
            if isKey {
                keyEnded()
                return next + 1
            }
            return valueEnded(at: next + 1)
        case JSONByte.backslash:
            collectKey(UnsafeBufferPointer(rebasing: bytes[next..<(next + 1)]))
            keyHasEscapes = true
            tokenStart = consumed + next
            phase = .escape
        case ..<0x20:
            throw JSONSyntaxError(.controlCharacter, at: consumed + next)
        default:  // 0x80 and above: the plain bytes are all below
            guard let (continuations, lowest, highest) = JSONScanner.utf8Sequence(lead: byte) else {
                throw JSONSyntaxError(.invalidUTF8, at: consumed + next)
            }
            collectKey(UnsafeBufferPointer(rebasing: bytes[next..<(next + 1)]))
            tokenStart = consumed + next
            tokenRemaining = continuations
            continuationLowest = lowest
            continuationHighest = highest
            phase = .continuation
        }
        return next + 1
    }

    /// Reads a number's next byte with the checks of ``JSONScanner/scanNumber()``. A byte that cannot continue
    /// the number ends it, and is read again in the phase of the number's container.
    mutating func stepNumber(_ byte: UInt8, at index: Int) throws -> Int {
        let isDigit = JSONByte.isDigit(byte)
        switch phase {
        case .minus:
            guard isDigit else { throw unexpected(.digit, at: index) }
            phase = byte == JSONByte.zero ? .zero : .integer
        case .zero, .integer, .fraction:
            if isDigit {
                guard phase != .zero else { throw JSONSyntaxError(.leadingZero, at: consumed + index - 1) }
            } else if byte == JSONByte.period, phase != .fraction {
                phase = .point
            } else if byte | 0x20 == JSONByte.lowerE {
                phase = .exponent
            } else {
                return valueEnded(at: index)
            }
        case .point:
            guard isDigit else { throw unexpected(.digit, at: index) }
            phase = .fraction
        case .exponent:
            if byte == JSONByte.plus || byte == JSONByte.minus {
                phase = .exponentSign
            } else {
                guard isDigit else { throw unexpected(.digit, at: index) }
                phase = .exponentDigits
            }
        case .exponentSign:
            guard isDigit else { throw unexpected(.digit, at: index) }
            phase = .exponentDigits
        default:  // .exponentDigits
            guard isDigit else { return valueEnded(at: index) }
        }
        return index + 1
    }

    /// Reads the next byte of `true`, `false` or `null`, as ``JSONScanner/scanLiteral(_:)`` does.
    mutating func stepLiteral(_ byte: UInt8, at index: Int) throws -> Int {
        guard byte == literal.utf8Start[literalOffset] else { throw unexpected(.literal(literal), at: index) }
        literalOffset += 1
        guard literalOffset == literal.utf8CodeUnitCount else { return index + 1 }
        return valueEnded(at: index + 1)
    }
}
