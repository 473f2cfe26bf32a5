internal import FoundationEssentials
package import SyncModel

extension Credential {
    /// Adds the credentials to a request. The secret goes only into the request, never into a message.
    ///
    /// An `oauth2` credential adds nothing here — its access token comes from an ``OAuth2Tokens`` source, which the
    /// engine and the client ask just before each request — but its secrets are read, so that a missing one is said
    /// here as the other kinds' are.
    ///
    /// - Throws: ``ConfigurationError`` naming the secret's source when it cannot be read.
    package func apply(to request: inout FetchRequest, environment: [String: String]) throws(ConfigurationError) {
        switch placement {
        case .bearer(let secret):
            request.headers.append(
                (name: "Authorization", value: "Bearer \(try secret.source.resolve(environment: environment))"))
        case .basic(let username, let secret):
            let password = try secret.source.resolve(environment: environment)
            let encoded = Data("\(username):\(password)".utf8).base64EncodedString()
            request.headers.append((name: "Authorization", value: "Basic \(encoded)"))
        case .header(let name, let secret):
            request.headers.append((name: name, value: try secret.source.resolve(environment: environment)))
        case .query(let name, let secret):
            // Replaced, not appended: a next page's URL may already carry the parameter.
            request.url = PageURL.setting(
                [(name: name, value: try secret.source.resolve(environment: environment))], in: request.url)
            request.credentialQueryName = name
        case .oauth2(let client):
            _ = try client.clientSecret?.resolve(environment: environment)
            _ = try client.refreshToken?.resolve(environment: environment)
        }
    }
}

extension FetchRequest {
    /// The request with `Authorization: Bearer <token>` (an OAuth2 access token), in place of any it had.
    package func bearing(_ token: String) -> FetchRequest {
        var request = self
        request.headers.removeAll { $0.name.lowercased() == "authorization" }
        request.headers.append((name: "Authorization", value: "Bearer \(token)"))
        return request
    }
}
