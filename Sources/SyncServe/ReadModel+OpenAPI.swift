internal import HTTPTypes
internal import Hummingbird
internal import NIOCore
internal import SyncCore
internal import Synchronization

extension ReadModel {
    /// `GET /openapi.json`: the read API as configured now (a reload changes it), with the bearer scheme when the
    /// server has a token.
    func openAPI(bearer: Bool) -> Response {
        // Built under the lock: a reload that changes the endpoints meanwhile drops it after, never before, it is kept.
        // Kept whatever its size (about 10 KiB a collection, 10 MiB for 1,000 endpoints): building it again for
        // each request took 0.7 s of CPU at 1,000 endpoints, so a few clients could keep the daemon busy.
        let body = openAPIDocuments.withLock { documents in
            if let kept = documents.bodies[bearer] { return kept }
            let built = ByteBuffer(string: OpenAPIDocument.make(endpoints: allEndpoints(), bearer: bearer).compactText)
            documents.bodies[bearer] = built
            documents.builds += 1
            return built
        }
        var headers = HTTPFields()
        headers[.contentType] = Self.json
        headers[.cacheControl] = "no-cache"
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: body))
    }
}
