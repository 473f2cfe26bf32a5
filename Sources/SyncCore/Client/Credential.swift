/// How an ``Endpoint``'s requests authenticate: syncd's four kinds of `auth`, each with a ``Secret``.
///
/// ```swift
/// let endpoint = Endpoint(
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
public struct Credential: Sendable, Hashable {
    enum Placement: Sendable, Hashable {
        case bearer
        case basic(username: String)
        case header(name: String)
        case query(name: String)
    }

    let placement: Placement
    let secret: Secret

    /// `Authorization: Bearer <secret>`.
    ///
    /// - Parameter token: The token.
    public static func bearer(_ token: Secret) -> Credential { Credential(placement: .bearer, secret: token) }

    /// `Authorization: Basic <base64(username:password)>`.
    ///
    /// - Parameters:
    ///   - username: The user name, sent as is.
    ///   - password: The password.
    public static func basic(username: String, password: Secret) -> Credential {
        Credential(placement: .basic(username: username), secret: password)
    }

    /// A header of this name carrying the secret, e.g. `X-API-Key`.
    ///
    /// - Parameters:
    ///   - name: The header's name.
    ///   - value: The secret sent as its value.
    public static func header(name: String, value: Secret) -> Credential {
        Credential(placement: .header(name: name), secret: value)
    }

    /// A query parameter of this name carrying the secret, e.g. `api_key`.
    ///
    /// - Parameters:
    ///   - name: The parameter's name.
    ///   - value: The secret sent as its value.
    public static func query(name: String, value: Secret) -> Credential {
        Credential(placement: .query(name: name), secret: value)
    }

    /// Adds the credential to a request through syncd's own ``AuthConfiguration``.
    ///
    /// A literal secret reaches `AuthConfiguration` as a variable of a private environment, so it gets the same
    /// checks (not empty, no line break) as a secret from the process environment.
    func apply(to request: inout FetchRequest, environment: [String: String]) throws(APIError) {
        let source: SecretSource
        var environment = environment
        switch secret.source {
        case .source(let configured):
            source = configured
        case .literal(let value):
            source = .environment(Self.literalVariable)
            environment = [Self.literalVariable: value]
        }
        let kind: AuthConfiguration.Kind =
            switch placement {
            case .bearer: .bearer(token: source)
            case .basic(let username): .basic(username: username, password: source)
            case .header(let name): .header(name: name, value: source)
            case .query(let name): .query(name: name, value: source)
            }
        do {
            try AuthConfiguration(kind: kind).apply(to: &request, environment: environment)
        } catch {
            if case .literal = secret.source {
                throw .credential(
                    error.code == .empty ? "the literal secret is empty" : "the literal secret is invalid")
            }
            throw .credential(error.description)
        }
    }

    private static let literalVariable = "SYNCD_LITERAL_SECRET"
}
