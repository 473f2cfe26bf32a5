internal import Foundation
internal import NIOCore

/// Reads `file://` URLs from disk: a 200 with the file's bytes, or a 304 when its modification time
/// still matches the stored Last-Modified.
package struct FileTransport: Transport {
    package init() {}

    package func fetch(_ request: FetchRequest) async throws(FetchError) -> FetchResponse {
        guard let url = URL(string: request.url), url.isFileURL else {
            throw .invalidURL("\(request.url) is not a file:// URL")
        }
        let path = url.path
        let attributes: [FileAttributeKey: Any]
        do {
            attributes = try FileManager.default.attributesOfItem(atPath: path)
        } catch {
            throw .file("\(path) cannot be read: no such file or no permission")
        }
        let modified = (attributes[.modificationDate] as? Date).map(HTTPDate.format)
        let size = (attributes[.size] as? NSNumber)?.intValue ?? 0
        if size > request.maxBody { throw .bodyTooLarge(limit: request.maxBody) }
        if let modified, modified == request.lastModified {
            return FetchResponse(status: 304, lastModified: modified, body: ByteBuffer())
        }
        // Read straight into the buffer: going through Data would hold the body twice.
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .file("\(path) cannot be opened") }
        defer { close(descriptor) }
        var body = ByteBufferAllocator().buffer(capacity: size)
        while true {
            if body.writableBytes == 0 { body.reserveCapacity(minimumWritableBytes: 64 << 10) }
            var failure: Int32 = 0
            let count = body.writeWithUnsafeMutableBytes(minimumWritableBytes: 0) { buffer in
                let count = read(descriptor, buffer.baseAddress, buffer.count)
                if count < 0 { failure = errno }
                return max(0, count)
            }
            if failure == EINTR { continue }
            if failure != 0 { throw .file("\(path) cannot be read") }
            if count == 0 { break }
            if body.readableBytes > request.maxBody { throw .bodyTooLarge(limit: request.maxBody) }
        }
        return FetchResponse(status: 200, lastModified: modified, contentType: "application/json", body: body)
    }
}
