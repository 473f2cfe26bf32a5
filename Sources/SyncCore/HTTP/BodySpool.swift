internal import Foundation
package import NIOCore
internal import Synchronization

/// A response body kept on disk between its download and the transaction that applies it, so that a sync's
/// memory is bounded by a chunk and a record instead of the whole body.
///
/// The file is made in the database's folder (the same disk; a folder syncd may write) and unlinked at once,
/// so that it disappears with its descriptor, after a crash too.
package final class BodySpool: Sendable {
    private let descriptor: Int32
    private let written = Mutex<Int>(0)

    /// The most bytes the spool of one run holds: `max_body` bounds each page, this bounds all of them together,
    /// so that `max_pages` pages of `max_body` never fill the disk. 8 GiB.
    package static let runLimit = 8 << 30

    /// The size of a chunk read back by ``forEachChunk(_:)``.
    package static let readSize = 1 << 20

    /// Creates an empty spool in `directory`.
    ///
    /// - Throws: ``FetchError`` (`.file`) when no file can be created there.
    package init(directory: String) throws(FetchError) {
        var template = Array((directory as NSString).appendingPathComponent(".syncd-body-XXXXXX").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { buffer -> Int32 in
            guard let base = buffer.baseAddress else { return -1 }
            let made = mkstemp(base)
            if made >= 0 { unlink(base) }
            return made
        }
        guard descriptor >= 0 else {
            throw FetchError.file("cannot create a temporary file in \(directory) for the body")
        }
        self.descriptor = descriptor
    }

    deinit {
        close(descriptor)
    }

    /// The bytes written so far.
    package var count: Int { written.withLock { $0 } }

    /// Appends a chunk of the body.
    package func append(_ chunk: ByteBuffer) throws(FetchError) {
        var failed = false
        chunk.withUnsafeReadableBytes { bytes in
            written.withLock { offset in
                var done = 0
                while done < bytes.count {
                    let count = pwrite(
                        descriptor, bytes.baseAddress.map { $0 + done }, bytes.count - done, off_t(offset + done))
                    if count < 0, errno == EINTR { continue }
                    guard count > 0 else {
                        failed = true
                        return
                    }
                    done += count
                }
                offset += done
            }
        }
        if failed { throw FetchError.file("cannot write the body to a temporary file (is the disk full?)") }
    }

    /// Drops what was written from `offset` on: a page fetched again after a failed attempt starts there.
    package func truncate(to offset: Int) {
        written.withLock { $0 = min($0, max(0, offset)) }
    }

    /// Reads the body back in order, one chunk at a time; each chunk is valid only during its call.
    package func forEachChunk(_ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        try forEachChunk(in: 0..<count, body)
    }

    /// Reads part of the spool back in order (one page of several), one chunk at a time; each chunk is valid only
    /// during its call.
    package func forEachChunk(in range: Range<Int>, _ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        var buffer = [UInt8](repeating: 0, count: min(Self.readSize, max(1, range.count)))
        var offset = range.lowerBound
        while offset < range.upperBound {
            let count = buffer.withUnsafeMutableBytes { bytes in
                pread(descriptor, bytes.baseAddress, min(bytes.count, range.upperBound - offset), off_t(offset))
            }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { throw FetchError.file("cannot read the body back from its temporary file") }
            try buffer.withUnsafeBytes { bytes in try body(UnsafeRawBufferPointer(rebasing: bytes[..<count])) }
            offset += count
        }
    }

    /// Whether two parts of the spool hold the same bytes: a page byte-identical to the one before.
    package func holdsSameBytes(_ first: Range<Int>, _ second: Range<Int>) throws -> Bool {
        guard first.count == second.count else { return false }
        var other: [UInt8] = []
        try forEachChunk(in: second) { other.append(contentsOf: $0) }
        var offset = 0
        var same = true
        try forEachChunk(in: first) { chunk in
            guard same else { return }
            same = other[offset..<(offset + chunk.count)].elementsEqual(chunk)
            offset += chunk.count
        }
        return same
    }
}
