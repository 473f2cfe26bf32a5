extension BodySplitter {
    /// Tries to skip the value at `index` with ``JSONScanner`` inside the chunk.
    ///
    /// - Returns: the index after the value, or nil when the value may go on past the chunk.
    mutating func skipWhole(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) throws -> Int? {
        guard consumed + index != failedWholeValue else { return nil }
        var scanner = JSONScanner(UnsafeRawBufferPointer(bytes), position: index)
        return try skipWhole(&scanner)
    }

    /// Inside an array or object that is skipped, skips whole members with ``JSONScanner`` for as long as they end
    /// inside the chunk, as ``JSONScanner/skipArray(depth:)`` and ``JSONScanner/skipObject(depth:)`` would.
    ///
    /// - Returns: where the byte machine takes over: at the chunk's end, at the container's closing bracket, at a
    ///   byte the machine will refuse, or at a member that may go on past the chunk.
    mutating func skipMembers(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) throws -> Int {
        var scanner = JSONScanner(UnsafeRawBufferPointer(bytes), position: index)
        let isObject = containers[containers.count - 1]
        while wholeValueTries > 0 {
            scanner.skipWhitespace()
            guard scanner.position < bytes.count else { break }
            let byte = bytes[scanner.position]
            switch phase {
            case .commaOrObjectEnd, .commaOrArrayEnd:
                guard byte == JSONByte.comma else { return scanner.position }
                scanner.position += 1
                phase = isObject ? .key : .value
            case .firstKeyOrObjectEnd, .key:
                guard byte == JSONByte.quote else { return scanner.position }
                let start = scanner.position
                do {
                    _ = try scanner.scanKeyAndColon()
                } catch {
                    guard case .unexpectedEnd = error.problem else { throw offset(error) }
                    return start
                }
                phase = .value
            case .value, .firstValueOrArrayEnd:
                guard byte != JSONByte.closeBracket || phase != .firstValueOrArrayEnd else { return scanner.position }
                let start = scanner.position
                guard consumed + start != failedWholeValue, try skipWhole(&scanner) != nil else { return start }
                phase = isObject ? .commaOrObjectEnd : .commaOrArrayEnd
            default:
                return scanner.position
            }
        }
        return scanner.position
    }

    /// Skips the value at the scanner's cursor if it ends inside the chunk, else leaves the cursor and notes the
    /// failed try.
    private mutating func skipWhole(_ scanner: inout JSONScanner) throws -> Int? {
        let start = scanner.position
        do {
            try scanner.skipValue(depth: containers.count, inside: containers.last == true ? .object : .array)
        } catch {
            guard case .unexpectedEnd = error.problem else { throw offset(error) }
            wholeValueTries -= 1
            failedWholeValue = consumed + start
            scanner.position = start
            return nil
        }
        // A number that reaches the chunk's end may have more digits in the next one.
        guard scanner.position < scanner.count || !Self.startsNumber(scanner.buffer[start]) else {
            scanner.position = start
            return nil
        }
        return scanner.position
    }

    /// A scanner's error, which has an offset in the chunk, with its offset in the body.
    private func offset(_ error: JSONSyntaxError) -> JSONSyntaxError {
        JSONSyntaxError(error.problem, at: consumed + error.offset)
    }
}
