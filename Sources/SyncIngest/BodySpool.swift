internal import FoundationEssentials
package import NIOCore
package import SyncHTTP
import SyncSupport
internal import Synchronization

#if canImport(Glibc)
    internal import Glibc
#elseif canImport(Darwin)
    internal import Darwin
#endif

/// A response body kept between its download and the transaction that applies it, so that a sync's memory is
/// bounded by a chunk and a record instead of the whole body.
///
/// A body of up to ``memoryLimit`` bytes stays in memory: most API responses are that small, and a file for each
/// (created, written, read back and unlinked) was a twentieth of a cold start of 10,000 endpoints. A larger one moves
/// to a file as it outgrows the limit, in the database's folder (the same disk; a folder syncd may write), unlinked at
/// once, so that it disappears with its descriptor, after a crash too.
///
/// The file is written in whole blocks of ``memoryLimit`` bytes at offsets that are multiples of it; the bytes after
/// the last whole block wait in memory, where readers find them. The kernel then caches the file in large pages: a
/// write for each page of a paged body as it arrived (tens of KiB, at any offset) made it take a 4 KiB page at a
/// time, and the spool's writes took twice the event loop's time they take for one body of the same bytes.
package final class BodySpool: Sendable {
    private struct State {
        /// The bytes from ``flushed`` on: the whole body while ``descriptor`` is nil, else fewer than
        /// ``BodySpool/memoryLimit`` after each append.
        var memory: [UInt8] = []
        /// The file, once the body outgrew ``BodySpool/memoryLimit``; never closed before the spool goes.
        var descriptor: Int32?
        /// The bytes in the file, which are the body's first: those before it never change (but by a truncation).
        var flushed = 0

        /// The bytes written so far: those in the file, then those in memory.
        var count: Int { flushed + memory.count }
    }

    private let state = Mutex(State())
    private let directory: String

    /// The most bytes the spool of one run holds: `max_body` bounds each page, this bounds all of them together,
    /// so that `max_pages` pages of `max_body` never fill the disk. 8 GiB.
    package static let runLimit = 8 << 30

    /// The most bytes kept in memory, and the size of each block written to the file: with `concurrency` at its
    /// limit (64) the spools of the runs hold at most 16 MiB, and a chunk each.
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

    /// The bytes written to the file so far: whole blocks of ``memoryLimit``, unless a truncation cut into them.
    package var fileByteCount: Int { state.withLock { $0.flushed } }

    /// Whether the body is still in memory (it never outgrew ``memoryLimit``).
    package var isInMemory: Bool { state.withLock { $0.descriptor == nil } }

    /// Appends a chunk of the body.
    ///
    /// - Throws: ``FetchError`` (`.file`) when the body outgrows memory and no file can be created or written.
    package func append(_ chunk: ByteBuffer) throws(FetchError) {
        try chunk.withUnsafeReadableBytes { bytes throws(FetchError) in try append(bytes) }
    }

    /// Appends bytes of the body.
    ///
    /// - Throws: ``FetchError`` (`.file`) when the body outgrows memory and no file can be created or written.
    package func append(_ bytes: UnsafeRawBufferPointer) throws(FetchError) {
        let failure = state.withLock { state -> FetchError? in
            if state.descriptor == nil, bytes.count > Self.memoryLimit - state.memory.count {
                guard let descriptor = Self.makeFile(in: directory) else {
                    return .file("cannot create a temporary file in \(directory) for the body")
                }
                state.descriptor = descriptor
            }
            state.memory.append(contentsOf: bytes)
            return Self.writeBlocks(&state)
        }
        if let failure { throw failure }
    }

    /// Writes the whole blocks that memory holds to the file.
    private static func writeBlocks(_ state: inout State) -> FetchError? {
        guard let descriptor = state.descriptor else { return nil }
        let end = state.count / memoryLimit * memoryLimit
        guard end > state.flushed else { return nil }
        let length = end - state.flushed
        guard
            state.memory.withUnsafeBytes({
                write(UnsafeRawBufferPointer(rebasing: $0[..<length]), to: descriptor, at: state.flushed)
            })
        else {
            // What the file does not hold is lost: the body is cut back to it, and the fetch fails.
            state.memory = []
            return writeFailure
        }
        state.memory.removeFirst(length)
        state.flushed = end
        return nil
    }

    /// Drops what was written from `offset` on: a page fetched again after a failed attempt starts there.
    package func truncate(to offset: Int) {
        state.withLock { state in
            let count = min(state.count, max(0, offset))
            if count >= state.flushed {
                state.memory.removeSubrange((count - state.flushed)...)
            } else {
                // The file's bytes from here on are stale; the next block written realigns the blocks.
                state.flushed = count
                state.memory = []
            }
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
        var offset = range.lowerBound
        while offset < range.upperBound {
            // The bytes from memory are copied under the lock (the fetch may append meanwhile, and write them to the
            // file); those in the file before `flushed` do not change, and are read without it.
            let (length, file) = try state.withLock { state throws(FetchError) -> (Int, Int32?) in
                guard range.upperBound <= state.count else {
                    throw FetchError.file("cannot read the body back: it holds fewer bytes than asked for")
                }
                guard offset < state.flushed, let descriptor = state.descriptor else {
                    let start = offset - state.flushed
                    let length = min(range.upperBound - offset, buffer.count)
                    buffer.withUnsafeMutableBytes { target in
                        state.memory.withUnsafeBytes {
                            target.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0[start..<(start + length)]))
                        }
                    }
                    return (length, nil)
                }
                return (min(range.upperBound, state.flushed) - offset, descriptor)
            }
            var count = length
            if let file {
                count = buffer.withUnsafeMutableBytes { bytes in
                    pread(file, bytes.baseAddress, min(bytes.count, length), off_t(offset))
                }
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { throw FetchError.file("cannot read the body back from its temporary file") }
            }
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
        var template = Array(FilePathText.appending(".syncd-body-XXXXXX", to: directory).utf8CString)
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
