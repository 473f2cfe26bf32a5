internal import FoundationEssentials
internal import NIOCore
import SyncModel
import SyncSupport

#if canImport(Glibc)
    internal import Glibc
#elseif canImport(Darwin)
    internal import Darwin
#endif

/// Reads `file://` URLs from disk: a 200 with the file's bytes, or a 304 when its validator still matches the
/// stored one. The validator, kept as the ETag, is the file's inode, modification time to the nanosecond and size:
/// a file rewritten within the second of the last sync is still seen to change (a Last-Modified, whole seconds, is
/// sent along for the record but not compared).
///
/// Only a regular file is read: a FIFO would block the read forever (and with it the daemon's shutdown), and a
/// device such as `/dev/zero` never ends.
package struct FileTransport: Transport {
    package init() {}

    package func fetch(_ request: FetchRequest, successBody: BodyChunkHandler?) async throws -> FetchResponse {
        guard let url = URL(string: request.url), url.isFileURL else {
            throw FetchError.invalidURL("\(URLRedaction.redact(request.url)) is not a file:// URL")
        }
        let path = url.path
        // Non-blocking, so that opening a FIFO with no writer returns at once; fstat then refuses it. Checking the
        // descriptor, not the path, leaves no moment for the file to be swapped in between.
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
        guard descriptor >= 0 else { throw FetchError.file("\(path) cannot be read: no such file or no permission") }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw FetchError.file("\(path) cannot be read") }
        guard status.st_mode & S_IFMT == S_IFREG else {
            throw FetchError.file("\(path) is not a regular file (a FIFO, device or directory is never read)")
        }
        let size = Int(status.st_size)
        // A collected body is one ByteBuffer, whose capacity is a UInt32: never more than max_body's upper bound.
        let limit = successBody == nil ? min(request.maxBody, ConfigurationBounds.maxBody.upperBound) : request.maxBody
        if size > limit { throw FetchError.bodyTooLarge(limit: limit) }
        let modified = HTTPDate.format(seconds: Double(status.st_mtim.tv_sec))
        let validator = Self.validator(status)
        if validator == request.etag {
            return FetchResponse(status: 304, etag: validator, lastModified: modified, body: ByteBuffer())
        }
        // Streamed: 1 MiB at a time through one buffer. Collected: read straight into the body's buffer,
        // never through Data, which would hold the body twice.
        var body = ByteBufferAllocator().buffer(
            capacity: successBody == nil ? max(0, size) : min(max(0, size), 1 << 20))
        var total = 0
        while true {
            if body.writableBytes == 0 { body.reserveCapacity(minimumWritableBytes: 1 << 20) }
            var failure: Int32 = 0
            let count = body.writeWithUnsafeMutableBytes(minimumWritableBytes: 0) { buffer in
                let count = read(descriptor, buffer.baseAddress, buffer.count)
                if count < 0 { failure = errno }
                return max(0, count)
            }
            if failure == EINTR { continue }
            if failure != 0 { throw FetchError.file("\(path) cannot be read") }
            if count == 0 { break }
            total += count
            if total > limit { throw FetchError.bodyTooLarge(limit: limit) }
            if let successBody {
                try successBody(body)
                body.clear()
            }
        }
        return FetchResponse(
            status: 200, etag: validator, lastModified: modified, contentType: "application/json", body: body)
    }

    /// `"INODE-SECONDS.NANOSECONDS-SIZE"`, a strong entity tag of the file as `fstat` saw it before the read.
    static func validator(_ status: stat) -> String {
        let nanoseconds = String(status.st_mtim.tv_nsec)
        let padded = String(repeating: "0", count: max(0, 9 - nanoseconds.count)) + nanoseconds
        return "\"\(status.st_ino)-\(status.st_mtim.tv_sec).\(padded)-\(status.st_size)\""
    }
}
