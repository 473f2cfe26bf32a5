/// How an endpoint's requests authenticate, and where the secret comes from (`auth = { type = … }`).
///
/// The configuration holds only where a secret is; ``SecretSource/resolve(environment:)`` reads it when a
/// request is built, so secrets are never part of the configuration, its errors or its logs.
package struct AuthConfiguration: Sendable, Hashable {
    package enum Kind: Sendable, Hashable {
        /// `Authorization: Bearer <token>`.
        case bearer(token: SecretSource)
        /// `Authorization: Basic <base64(username:password)>`.
        case basic(username: String, password: SecretSource)
        /// A header of this name carrying the secret.
        case header(name: String, value: SecretSource)
        /// A query parameter of this name carrying the secret.
        case query(name: String, value: SecretSource)
    }

    package var kind: Kind

    package init(kind: Kind) {
        self.kind = kind
    }

    /// `bearer`, `basic`, `header` or `query`: the `type` as written, for messages (never the secret).
    package var kindName: String {
        switch kind {
        case .bearer: "bearer"
        case .basic: "basic"
        case .header: "header"
        case .query: "query"
        }
    }

    /// Where the secret comes from.
    package var secret: SecretSource {
        switch kind {
        case .bearer(let token): token
        case .basic(_, let password): password
        case .header(_, let value), .query(_, let value): value
        }
    }
}
