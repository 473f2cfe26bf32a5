package import SyncIngest

/// Every byte of `range` of `spool`, as `forEachChunk(in:)` hands them over.
package func readSpool(_ spool: BodySpool, _ range: Range<Int>) throws -> [UInt8] {
    var bytes: [UInt8] = []
    try spool.forEachChunk(in: range) { bytes.append(contentsOf: $0) }
    return bytes
}

/// `count` bytes that differ from one offset to the next, so that a misplaced chunk shows.
package func bytePattern(_ count: Int, from start: Int = 0) -> [UInt8] {
    (start..<(start + count)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 8) }
}
