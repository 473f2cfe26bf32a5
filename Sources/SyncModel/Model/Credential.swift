import SyncSupport

/// How requests authenticate: syncd's kinds of `auth` — four with a fixed ``Secret``, and OAuth2, whose access tokens
/// syncd obtains and renews. The same value serves an ``APIRequest`` of ``APIClient`` and a ``SyncEndpoint`` (the
/// TOML file's `auth = { type = … }` reads into it).
///
/// ```swift
/// let request = APIRequest(
///     baseURL: "https://api.example.com", path: "/users",
///     credential: .bearer(.environment("USERS_TOKEN")))
/// ```
///
/// ## Topics
///
/// - ``bearer(_:)``
/// - ``basic(username:password:)``
/// - ``header(name:value:)``
/// - ``query(name:value:)``
/// - ``oauth2(tokenURL:clientID:clientSecret:scope:audience:clientAuthentication:grant:)``
public struct Credential: Sendable, Hashable {
    package enum Placement: Sendable, Hashable {
        case bearer(Secret)
        case basic(username: String, Secret)
        case header(name: String, Secret)
        case query(name: String, Secret)
        case oauth2(OAuth2)
    }

    package let placement: Placement

    /// `Authorization: Bearer <secret>`.
    ///
    /// - Parameter token: The token.
    public static func bearer(_ token: Secret) -> Credential { Credential(placement: .bearer(token)) }

    /// `Authorization: Basic <base64(username:password)>`.
    ///
    /// - Parameters:
    ///   - username: The user name, sent as is.
    ///   - password: The password.
    public static func basic(username: String, password: Secret) -> Credential {
        Credential(placement: .basic(username: username, password))
    }

    /// A header of this name carrying the secret, e.g. `X-API-Key`.
    ///
    /// - Parameters:
    ///   - name: The header's name.
    ///   - value: The secret sent as its value.
    public static func header(name: String, value: Secret) -> Credential {
        Credential(placement: .header(name: name, value))
    }

    /// A query parameter of this name carrying the secret, e.g. `api_key`.
    ///
    /// - Parameters:
    ///   - name: The parameter's name.
    ///   - value: The secret sent as its value.
    public static func query(name: String, value: Secret) -> Credential {
        Credential(placement: .query(name: name, value))
    }

    /// `bearer`, `basic`, `header`, `query` or `oauth2`: the TOML file's `type`, for messages (never the secret).
    package var kindName: String {
        switch placement {
        case .bearer: "bearer"
        case .basic: "basic"
        case .header: "header"
        case .query: "query"
        case .oauth2: "oauth2"
        }
    }

    /// The secret of a bearer, basic, header or query credential; nil for OAuth2, whose secrets are its client's.
    var secret: Secret? {
        switch placement {
        case .bearer(let secret), .basic(_, let secret), .header(_, let secret), .query(_, let secret): secret
        case .oauth2: nil
        }
    }

    /// The OAuth2 client of an `oauth2` credential; nil for the other kinds.
    package var oauth2: OAuth2? {
        if case .oauth2(let client) = placement { client } else { nil }
    }

    /// The query parameter that carries the secret, for a `query` credential: it is redacted wherever the URL is
    /// shown.
    package var queryName: String? {
        if case .query(let name, _) = placement { name } else { nil }
    }

    /// What is wrong with the names the credential carries, in the TOML file's words (`username` of basic, `name` of
    /// header and query). The one set of rules for syncd.toml and Swift.
    package var problems: [OptionProblem] {
        let key: String
        let name: String
        switch placement {
        case .bearer: return []
        case .basic(let username, _): (key, name) = ("username", username)
        case .header(let header, _): (key, name) = ("name", header)
        case .query(let parameter, _): (key, name) = ("name", parameter)
        case .oauth2(let client): return client.problems
        }
        guard !name.isEmpty, !HTTPHeaderSyntax.hasForbiddenByte(name) else {
            return [OptionProblem(key: key, "auth: \(key) must be a non-empty string")]
        }
        if case .header = placement, !HTTPHeaderSyntax.isToken(name) {
            return [OptionProblem(key: key, "auth: \"\(name)\" is not a valid header name")]
        }
        if case .basic = placement, name.contains(":") {
            return [OptionProblem(key: key, "auth: username must not contain \":\"")]
        }
        return []
    }
}
