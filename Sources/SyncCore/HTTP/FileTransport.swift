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
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw .file("\(path) cannot be opened")
        }
        defer { try? handle.close() }  // best effort: the bytes are already read
        let data: Data
        do {
            data = try handle.read(upToCount: request.maxBody + 1) ?? Data()
        } catch {
            throw .file("\(path) cannot be read")
        }
        if data.count > request.maxBody { throw .bodyTooLarge(limit: request.maxBody) }
        var body = ByteBufferAllocator().buffer(capacity: data.count)
        body.writeBytes(data)
        return FetchResponse(status: 200, lastModified: modified, contentType: "application/json", body: body)
    }
}
