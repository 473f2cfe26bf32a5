internal import HTTPTypes
internal import Hummingbird
internal import NIOCore
internal import SyncCore

extension ReadModel {
    /// `GET /openapi.json`: the read API as configured now (a reload changes it), with the bearer scheme when the
    /// server has a token.
    func openAPI(bearer: Bool) -> Response {
        let document = OpenAPIDocument.make(endpoints: allEndpoints(), bearer: bearer)
        var headers = HTTPFields()
        headers[.contentType] = Self.json
        headers[.cacheControl] = "no-cache"
        return Response(
            status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: document.compactText)))
    }
}
