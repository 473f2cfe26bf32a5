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
        let body = openAPIDocument.withLock { kept in
            if let kept, kept.bearer == bearer { return kept.body }
            let built = ByteBuffer(string: OpenAPIDocument.make(endpoints: allEndpoints(), bearer: bearer).compactText)
            // About 10 KiB a collection: kept up to 4 MiB (some 400 endpoints); a larger one is built again for each
            // request rather than held for the daemon's life.
            if built.readableBytes <= 4 << 20 { kept = (bearer, built) }
            return built
        }
        var headers = HTTPFields()
        headers[.contentType] = Self.json
        headers[.cacheControl] = "no-cache"
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: body))
    }
}
