import SyncHTTP
import SyncModel
internal import SyncSQLite

extension SyncEngine {
    /// A request for `url` with, when `url` has the endpoint's origin (scheme, host, port), the endpoint's headers and
    /// credentials: a next page on another origin receives neither, nor the query credential's parameter. The
    /// endpoint's method and `body` (the endpoint's own by default) go to any origin; a POST is never conditional.
    func request(
        _ url: String, endpoint: EndpointConfiguration, validators: (etag: String?, lastModified: String?)?,
        body: [UInt8]? = nil
    ) throws -> FetchRequest {
        // Every request: options read as stored properties, not through key paths applied at run time.
        let validators = endpoint.declared.method == .get ? validators : nil
        var request = FetchRequest(
            url: url, etag: validators?.etag, lastModified: validators?.lastModified,
            timeout: endpoint.declared.timeout,
            maxBody: endpoint.declared.maxBody)
        request.method = endpoint.declared.method.rawValue
        request.body = body ?? endpoint.body?.bytes
        (request.proxy, request.tls) = (endpoint.declared.proxy, endpoint.declared.tls)
        if request.body != nil,
            !endpoint.declared.headerFields.contains(where: { $0.name.lowercased() == "content-type" })
        {
            request.headers.append((name: "Content-Type", value: "application/json"))
        }
        guard PageURL.isSameOrigin(url, endpoint.url) else {
            if let name = endpoint.auth?.queryName { request.url = PageURL.removing([name], from: url) }
            return request
        }
        request.headers += endpoint.headers
        // An OAuth2 token is added as each request is sent (authorized(_:endpoint:_:response:)).
        if let auth = endpoint.auth, auth.oauth2 == nil {
            do {
                try auth.apply(to: &request, environment: environment)
            } catch {
                throw SyncFailure(message: "\(endpoint.name.name): \(error)", status: nil, bytes: 0)
            }
        }
        return request
    }
}
