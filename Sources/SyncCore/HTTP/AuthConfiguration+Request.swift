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
            let secret = try value.resolve(environment: environment)
            guard var components = URLComponents(string: request.url) else { return }
            var items = components.queryItems ?? []
            items.append(URLQueryItem(name: name, value: secret))
            components.queryItems = items
            // `+` is a space to many servers: encode it, which URLComponents leaves alone.
            components.percentEncodedQuery = components.percentEncodedQuery?.replacingOccurrences(of: "+", with: "%2B")
            if let url = components.string { request.url = url }
        }
    }
}
