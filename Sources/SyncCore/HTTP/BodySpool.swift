internal import Foundation
package import NIOCore
internal import Synchronization

/// A response body kept between its download and the transaction that applies it, so that a sync's memory is
/// bounded by a chunk and a record instead of the whole body.
///
/// A body of up to ``memoryLimit`` bytes stays in memory: most API responses are that small, and a file for each
/// (created, written, read back and unlinked) was a twentieth of a cold start of 10,000 endpoints. A larger one moves
/// to a file as it outgrows the limit, in the database's folder (the same disk; a folder syncd may write), unlinked at
/// once, so that it disappears with its descriptor, after a crash too.
package final class BodySpool: Sendable {
    private struct State {
        /// The bytes, while ``descriptor`` is nil.
        var memory: [UInt8] = []
        /// The file, once the body outgrew ``BodySpool/memoryLimit``; never closed before the spool goes.
        var descriptor: Int32?
        var count = 0
    }

    private let state = Mutex(State())
    private let directory: String

    /// The most bytes the spool of one run holds: `max_body` bounds each page, this bounds all of them together,
    /// so that `max_pages` pages of `max_body` never fill the disk. 8 GiB.
    package static let runLimit = 8 << 30

    /// The most bytes kept in memory: with `concurrency` at its limit (64) the spools of the runs hold at most 16 MiB.
    package static let memoryLimit = 256 << 10

    /// The size of a chunk read back by ``forEachChunk(_:)``.
    package static let readSize = 1 << 20

    /// Creates an empty spool; if the body outgrows memory, its file is made in `directory`.
    package init(directory: String) {
        self.directory = directory
    }

    deinit {
        if let descriptor = state.withLock({ $0.descriptor }) { close(descriptor) }
    }

    /// The bytes written so far.
    package var count: Int { state.withLock { $0.count } }

    /// Whether the body is still in memory (it never outgrew ``memoryLimit``).
    package var isInMemory: Bool { state.withLock { $0.descriptor == nil } }

    /// Appends a chunk of the body.
    ///
    /// - Throws: ``FetchError`` (`.file`) when the body outgrows memory and no file can be created or written.
    package func append(_ chunk: ByteBuffer) throws(FetchError) {
        let failure = chunk.withUnsafeReadableBytes { bytes in
            state.withLock { state -> FetchError? in
                if state.descriptor == nil {
                    if bytes.count <= Self.memoryLimit - state.count {
                        state.memory.append(contentsOf: bytes)
                        state.count += bytes.count
                        return nil
                    }
                    guard let descriptor = Self.makeFile(in: directory) else {
                        return .file("cannot create a temporary file in \(directory) for the body")
                    }
                    state.descriptor = descriptor
                    let held = state.memory
                    state.memory = []
                    guard held.withUnsafeBytes({ Self.write($0, to: descriptor, at: 0) }) else {
                        state.count = 0
                        return Self.writeFailure
                    }
                }
                guard let descriptor = state.descriptor, Self.write(bytes, to: descriptor, at: state.count) else {
                    return Self.writeFailure
                }
                state.count += bytes.count
                return nil
            }
        }
        if let failure { throw failure }
    }

    /// Drops what was written from `offset` on: a page fetched again after a failed attempt starts there.
    package func truncate(to offset: Int) {
        state.withLock { state in
            state.count = min(state.count, max(0, offset))
            if state.descriptor == nil { state.memory.removeSubrange(state.count...) }
        }
    }

    /// Reads the body back in order, one chunk at a time; each chunk is valid only during its call.
    package func forEachChunk(_ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        try forEachChunk(in: 0..<count, body)
    }

    /// Reads part of the spool back in order (one page of several), one chunk at a time; each chunk is valid only
    /// during its call.
    package func forEachChunk(in range: Range<Int>, _ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        var buffer: [UInt8] = []
        try forEachChunk(in: range, reusing: &buffer, body)
    }

    /// Reads part of the spool back in order, one chunk at a time, into `buffer`, which a reader that reads many
    /// parts keeps between calls: a buffer made for each page (zeroed, and often new pages of memory) was a
    /// twentieth of the decoding thread's time in a sync of 1,000 pages. Each chunk is valid only during its call.
    package func forEachChunk(
        in range: Range<Int>, reusing buffer: inout [UInt8], _ body: (UnsafeRawBufferPointer) throws -> Void
    ) throws {
        guard !range.isEmpty else { return }
        let size = min(Self.readSize, range.count)
        if buffer.count < size { buffer = [UInt8](repeating: 0, count: size) }
        // Copied from memory under the lock: the fetch may append meanwhile (and move the bytes to a file).
        let descriptor = try state.withLock { state throws(FetchError) -> Int32? in
            if let descriptor = state.descriptor { return descriptor }
            guard range.upperBound <= state.count else {
                throw FetchError.file("cannot read the body back: it holds fewer bytes than asked for")
            }
            buffer.withUnsafeMutableBytes { target in
                state.memory.withUnsafeBytes { target.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0[range])) }
            }
            return nil
        }
        guard let descriptor else {
            // In memory, so at most memoryLimit bytes: one chunk.
            try buffer.withUnsafeBytes { try body(UnsafeRawBufferPointer(rebasing: $0[..<range.count])) }
            return
        }
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

    private static let writeFailure = FetchError.file("cannot write the body to a temporary file (is the disk full?)")

    /// A new file in `directory`, already unlinked; nil when none can be made.
    private static func makeFile(in directory: String) -> Int32? {
        var template = Array((directory as NSString).appendingPathComponent(".syncd-body-XXXXXX").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { buffer -> Int32 in
            guard let base = buffer.baseAddress else { return -1 }
            let made = mkstemp(base)
            if made >= 0 { unlink(base) }
            return made
        }
        return descriptor >= 0 ? descriptor : nil
    }

    /// Writes all of `bytes` at `offset`; false when the file takes no more.
    private static func write(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32, at offset: Int) -> Bool {
        var done = 0
        while done < bytes.count {
            let count = pwrite(
                descriptor, bytes.baseAddress.map { $0 + done }, bytes.count - done, off_t(offset + done))
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return false }
            done += count
        }
        return true
    }
}
