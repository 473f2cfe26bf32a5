/// Follows a body that arrives in chunks, so that an error can name its line and column and the byte found there
/// after the bytes before the error were dropped.
///
/// It counts lines and columns exactly as ``JSONTextPosition`` does, in loops the compiler vectorises (this touches
/// every byte of every body, so it must cost next to nothing), and keeps the last few bytes of the earlier chunks: an error's offset can lie a few bytes before the chunk that reveals it (at the
/// backslash of a bad `\u` escape, the lead byte of a bad UTF-8 sequence, a byte order mark's first byte).
struct BodyPositionTracker {
    /// How many of the earlier chunks' last bytes are kept.
    static let keptByteCount = 8

    /// The offset in the body of the current chunk's first byte.
    private(set) var consumed = 0
    /// The line and column of the current chunk's first byte.
    private var line = 1
    private var column = 1
    /// The last bytes before the current chunk, at most ``keptByteCount``, oldest first.
    private var kept: [UInt8] = []

    /// Moves past a chunk whose bytes are all consumed.
    mutating func advance(over chunk: UnsafeBufferPointer<UInt8>) {
        Self.count(chunk, line: &line, column: &column)
        consumed += chunk.count
        let keep = min(chunk.count, Self.keptByteCount)
        kept.append(contentsOf: UnsafeBufferPointer(rebasing: chunk[(chunk.count - keep)...]))
        if kept.count > Self.keptByteCount { kept.removeFirst(kept.count - Self.keptByteCount) }
    }

    /// Where `offset` is, for an offset in the current chunk, at its end, or among the kept bytes before it.
    func position(at offset: Int, in chunk: UnsafeBufferPointer<UInt8>) -> JSONTextPosition {
        var line = line
        var column = column
        if offset >= consumed {
            Self.count(
                UnsafeBufferPointer(rebasing: chunk[..<min(offset - consumed, chunk.count)]), line: &line,
                column: &column)
        } else {
            // Errors point back only inside one token, which holds no newline: step back over its characters.
            for byte in kept.suffix(consumed - offset) where byte & 0xC0 != 0x80 { column -= 1 }
        }
        return JSONTextPosition(offset: offset, line: line, column: max(column, 1))
    }

    /// The body's bytes from `offset` on, up to 4 (what an error message needs to show one character), taken from
    /// the kept bytes and the current chunk.
    func bytes(from offset: Int, in chunk: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        var result: [UInt8] = []
        if offset < consumed { result.append(contentsOf: kept.suffix(consumed - offset).prefix(4)) }
        let start = max(offset - consumed, 0)
        if start < chunk.count, result.count < 4 {
            result.append(
                contentsOf: UnsafeBufferPointer(rebasing: chunk[start..<min(start + 4 - result.count, chunk.count)]))
        }
        return result
    }

    /// Counts as ``JSONTextPosition`` does: a newline starts a line at column 1; any other byte that does not
    /// continue a UTF-8 sequence moves one column on.
    ///
    /// Two passes at most, both plain loops that the compiler vectorises: newlines over the chunk, then characters
    /// after the last newline (over the whole chunk when it has none).
    private static func count(_ bytes: UnsafeBufferPointer<UInt8>, line: inout Int, column: inout Int) {
        let newlines = count(in: bytes) { $0 == JSONByte.newline }
        guard newlines > 0 else {
            column += bytes.count - count(in: bytes) { $0 & 0xC0 == 0x80 }
            return
        }
        line += newlines
        var lineStart = bytes.count
        while bytes[lineStart - 1] != JSONByte.newline { lineStart -= 1 }
        let lastLine = UnsafeBufferPointer(rebasing: bytes[lineStart...])
        column = 1 + lastLine.count - count(in: lastLine) { $0 & 0xC0 == 0x80 }
    }

    /// How many bytes pass `test`, counted in blocks small enough for a byte-sized tally.
    @inline(__always)
    private static func count(in bytes: UnsafeBufferPointer<UInt8>, where test: (UInt8) -> Bool) -> Int {
        var total = 0
        var start = 0
        while start < bytes.count {
            let end = min(start &+ 128, bytes.count)
            var tally: UInt8 = 0
            var index = start
            while index < end {
                tally &+= test(bytes[index]) ? 1 : 0
                index &+= 1
            }
            total &+= Int(tally)
            start = end
        }
        return total
    }
}
