internal import Foundation
internal import NIOCore

/// Reads `file://` URLs from disk: a 200 with the file's bytes, or a 304 when its modification time
/// still matches the stored Last-Modified.
package struct FileTransport: Transport {
    package init() {}

    package func fetch(_ request: FetchRequest, successBody: BodyChunkHandler?) async throws -> FetchResponse {
        guard let url = URL(string: request.url), url.isFileURL else {
            throw FetchError.invalidURL("\(URLRedaction.redact(request.url)) is not a file:// URL")
        }
        let path = url.path
        let attributes: [FileAttributeKey: Any]
        do {
            attributes = try FileManager.default.attributesOfItem(atPath: path)
        } catch {
            throw FetchError.file("\(path) cannot be read: no such file or no permission")
        }
        let modified = (attributes[.modificationDate] as? Date).map(HTTPDate.format)
        let size = (attributes[.size] as? NSNumber)?.intValue ?? 0
        if size > request.maxBody { throw FetchError.bodyTooLarge(limit: request.maxBody) }
        if let modified, modified == request.lastModified {
            return FetchResponse(status: 304, lastModified: modified, body: ByteBuffer())
        }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw FetchError.file("\(path) cannot be opened") }
        defer { close(descriptor) }
        // Streamed: 1 MiB at a time through one buffer. Collected: read straight into the body's buffer,
        // never through Data, which would hold the body twice.
        var body = ByteBufferAllocator().buffer(capacity: successBody == nil ? size : min(size, 1 << 20))
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
            if total > request.maxBody { throw FetchError.bodyTooLarge(limit: request.maxBody) }
            if let successBody {
                try successBody(body)
                body.clear()
            }
        }
        return FetchResponse(status: 200, lastModified: modified, contentType: "application/json", body: body)
    }
}
