internal import Foundation

extension AuthConfiguration {
    /// Adds the credentials to a request. The secret goes only into the request, never into a message.
    ///
    /// - Throws: ``SecretError`` naming the secret's source when it cannot be read.
    package func apply(to request: inout FetchRequest, environment: [String: String]) throws(SecretError) {
        switch kind {
        case .bearer(let token):
            request.headers.append(
                (name: "Authorization", value: "Bearer \(try token.resolve(environment: environment))"))
        case .basic(let username, let password):
            let secret = try password.resolve(environment: environment)
            let encoded = Data("\(username):\(secret)".utf8).base64EncodedString()
            request.headers.append((name: "Authorization", value: "Basic \(encoded)"))
        case .header(let name, let value):
            request.headers.append((name: name, value: try value.resolve(environment: environment)))
        case .query(let name, let value):
            // Replaced, not appended: a next page's URL may already carry the parameter.
            request.url = PageURL.setting(
                [(name: name, value: try value.resolve(environment: environment))], in: request.url)
            request.credentialQueryName = name
        }
    }
}
