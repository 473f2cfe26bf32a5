import SyncCore
import SyncHTTP

/// What a page shows of its pagination, read while its bytes are at hand: the values ``PageWalker`` looks at (a
/// cursor, a next URL, a has-more flag, a total) and the cursor in its last record.
extension EndpointInference {
    /// A value longer than this is not taken as a cursor or URL, as a sync's pages do not take one.
    static let maximumCapturedBytes = 64 << 10

    /// The page's facts: its records, and the values at the paths `follow` reads, from the page's envelope.
    static func facts(
        records: Int, envelope: [EnvelopeValue], in bytes: UnsafeRawBufferPointer, follow: PaginationConfiguration?
    ) -> PageWalker.Page {
        var page = PageWalker.Page(url: "", records: records)
        for path in follow?.capturedPaths ?? [] {
            guard let value = envelope.first(where: { $0.path == path }) else { continue }
            guard value.range.count <= maximumCapturedBytes else {
                page.overlong.append(path)
                continue
            }
            page.captured[path] = EnvelopeValue.captured(
                UnsafeBufferPointer(rebasing: bytes.assumingMemoryBound(to: UInt8.self)[value.range]))
        }
        return page
    }

    /// The value at `follow`'s last-record path (`from = "last_record"`) in the record at offset `start`; nil when
    /// there is no such path, record or value.
    static func lastRecordCursor(
        _ start: Int?, in bytes: UnsafeRawBufferPointer, follow: PaginationConfiguration?
    ) -> CapturedValue? {
        guard let start, let path = follow?.lastRecordPath else { return nil }
        var scanner = JSONScanner(bytes, position: start)
        var scratch: [UInt8] = []
        do {
            var depth = 0
            for component in path.components {
                guard case .key(let wanted) = component, try scanner.currentByte(inside: .array) == JSONByte.openBrace,
                    let inner = try scanner.open(.object, depth: depth)
                else { return nil }
                depth = inner
                while true {
                    let (range, _) = try scanner.scanKeyAndColon()
                    let key = JSONStringContent.text(
                        UnsafeBufferPointer(rebasing: scanner.buffer[range]), scratch: &scratch)
                    if key.0 == wanted { break }
                    try scanner.skipValue(depth: depth, inside: .object)
                    guard try scanner.skipCommaOrObjectEnd() else { return nil }
                }
            }
            let valueStart = scanner.position
            try scanner.skipValue(depth: depth, inside: .object)
            guard scanner.position - valueStart <= maximumCapturedBytes else { return nil }
            return EnvelopeValue.captured(UnsafeBufferPointer(rebasing: scanner.buffer[valueStart..<scanner.position]))
        } catch {
            return nil
        }
    }
}
