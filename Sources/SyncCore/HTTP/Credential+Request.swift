internal import Foundation

extension Credential {
    /// Adds the credentials to a request. The secret goes only into the request, never into a message.
    ///
    /// - Throws: ``ConfigurationError`` naming the secret's source when it cannot be read.
    package func apply(to request: inout FetchRequest, environment: [String: String]) throws(ConfigurationError) {
        switch placement {
        case .bearer:
            request.headers.append(
                (name: "Authorization", value: "Bearer \(try secret.source.resolve(environment: environment))"))
        case .basic(let username):
            let password = try secret.source.resolve(environment: environment)
            let encoded = Data("\(username):\(password)".utf8).base64EncodedString()
            request.headers.append((name: "Authorization", value: "Basic \(encoded)"))
        case .header(let name):
            request.headers.append((name: name, value: try secret.source.resolve(environment: environment)))
        case .query(let name):
            // Replaced, not appended: a next page's URL may already carry the parameter.
            request.url = PageURL.setting(
                [(name: name, value: try secret.source.resolve(environment: environment))], in: request.url)
            request.credentialQueryName = name
        }
    }
}
