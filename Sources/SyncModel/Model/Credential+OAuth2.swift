internal import FoundationEssentials

/// OAuth2 credentials: an access token that syncd asks a token endpoint for (RFC 6749 §4.4 client credentials, or §6
/// with a refresh token), keeps in memory and renews, shared by every endpoint and request with the same token
/// endpoint, client, scope, audience and grant.
extension Credential {
    /// An OAuth2 client as configured: where tokens come from and with what; its secrets are sources, read when a
    /// token is first asked for.
    package struct OAuth2: Sendable, Hashable {
        /// The token endpoint: https, or http to a loopback host.
        package var tokenURL: String
        package var clientID: String
        /// The client secret; nil for a public client of the refresh-token grant, which sends only its id.
        package var clientSecret: SecretSource?
        package var scope: String?
        package var audience: String?
        /// How the client authenticates; one without a secret (a public client) sends its id in the form whatever
        /// this says.
        package var authentication: OAuth2ClientAuthenticationMethod
        /// The initial refresh token of the refresh-token grant; nil for client credentials.
        package var refreshToken: SecretSource?

        /// What makes two clients one token source: the token endpoint, client, scope, audience and grant (with where
        /// its refresh token comes from) — never a secret.
        package var identity: String {
            let grant = refreshToken.map { "refresh_token " + $0.sourceDescription } ?? "client_credentials"
            return [tokenURL, clientID, scope ?? "", audience ?? "", grant].map { "\($0.utf8.count):\($0)" }
                .joined(separator: "\n")
        }

        /// What is wrong, in the TOML file's words; the one set of rules for syncd.toml and Swift.
        package var problems: [OptionProblem] {
            var problems: [OptionProblem] = []
            if !Self.isTokenURL(tokenURL) {
                problems.append(
                    OptionProblem(
                        key: "token_url",
                        "auth: token_url must be an absolute https:// URL (http:// only to a loopback host such as "
                            + "127.0.0.1)"))
            }
            if clientID.isEmpty || clientID.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F }) {
                problems.append(OptionProblem(key: "client_id", "auth: client_id must be a non-empty string"))
            }
            for (key, value) in [("scope", scope), ("audience", audience)] {
                if let value, value.isEmpty || value.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F }) {
                    problems.append(
                        OptionProblem(key: key, "auth: \(key) must be a non-empty string without control characters"))
                }
            }
            if refreshToken == nil, clientSecret == nil {
                problems.append(
                    OptionProblem(key: nil, "auth: the client_credentials grant needs a client secret"))
            }
            return problems
        }

        /// Whether `text` is a token endpoint syncd sends secrets to: https, or http to this machine only.
        static func isTokenURL(_ text: String) -> Bool {
            guard URLRules.isValid(text), let url = URL(string: text), let scheme = url.scheme?.lowercased() else {
                return false
            }
            if scheme == "https" { return true }
            guard scheme == "http", var host = url.host else { return false }
            if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
            return SyncConfiguration.Server.Listen.tcp(host: host, port: 0).isLoopback
        }
    }

    /// OAuth2 credentials: `Authorization: Bearer` with an access token asked of `tokenURL` and renewed before it
    /// expires and once when the upstream answers 401. Every endpoint and request with the same token endpoint,
    /// client, scope, audience and grant shares one token, with at most one request for it in flight.
    ///
    /// ```swift
    /// let credential = Credential.oauth2(
    ///     tokenURL: "https://auth.example.com/oauth/token", clientID: "syncd",
    ///     clientSecret: .environment("CLIENT_SECRET"), scope: "read:users")
    /// ```
    ///
    /// A server that rotates refresh tokens (``OAuth2Grant/refreshToken(_:)``) answers each renewal with a new one:
    /// syncd keeps it — atomically, mode 0600, in its state folder (`$STATE_DIRECTORY`, else the database's folder;
    /// ``APIClient/Configuration/stateDirectory`` for a client of its own) — before it uses the access token that came
    /// with it, and uses it from then on, across restarts, until the initial one given here changes.
    ///
    /// - Parameters:
    ///   - tokenURL: The token endpoint: `https://`, or `http://` to a loopback host.
    ///   - clientID: The client's id.
    ///   - clientSecret: The client's secret; nil for a public client of the refresh-token grant, which then sends
    ///     its id in the form.
    ///   - scope: The scope asked for, as the server spells it (space-separated).
    ///   - audience: The API the token is for, which Auth0, Okta and others ask for.
    ///   - clientAuthentication: How the client authenticates; HTTP Basic by default.
    ///   - grant: Client credentials by default, or a refresh token.
    /// - Returns: The credential.
    public static func oauth2(
        tokenURL: String, clientID: String, clientSecret: Secret?, scope: String? = nil, audience: String? = nil,
        clientAuthentication: OAuth2ClientAuthentication = .basic, grant: OAuth2Grant = .clientCredentials
    ) -> Credential {
        Credential(
            placement: .oauth2(
                OAuth2(
                    tokenURL: tokenURL, clientID: clientID, clientSecret: clientSecret?.source, scope: scope,
                    audience: audience, authentication: clientAuthentication.method,
                    refreshToken: grant.refreshToken?.source)))
    }

    /// What an OAuth2 token is asked for with: ``clientCredentials``, or ``refreshToken(_:)``.
    public struct OAuth2Grant: Sendable, Hashable {
        let refreshToken: Secret?

        /// The client's own credentials (RFC 6749 §4.4), the default.
        public static let clientCredentials = OAuth2Grant(refreshToken: nil)

        /// A refresh token (RFC 6749 §6): `initial` until the server rotates it, then the one it sent, kept in the
        /// state folder. Put a new one in `initial`'s file when the server refuses the grant (`invalid_grant`).
        ///
        /// - Parameter initial: The refresh token the provider issued.
        /// - Returns: The grant.
        public static func refreshToken(_ initial: Secret) -> OAuth2Grant { OAuth2Grant(refreshToken: initial) }
    }

    /// How an OAuth2 client proves who it is to the token endpoint (RFC 6749 §2.3.1).
    public struct OAuth2ClientAuthentication: Sendable, Hashable {
        let method: OAuth2ClientAuthenticationMethod

        /// `Authorization: Basic` with the form-encoded id and secret (`client_secret_basic`), the default.
        public static let basic = OAuth2ClientAuthentication(method: .basic)
        /// `client_id` and `client_secret` in the form (`client_secret_post`).
        public static let post = OAuth2ClientAuthentication(method: .post)
    }
}

/// How an OAuth2 client authenticates at the token endpoint: the TOML file's `client_auth`.
package enum OAuth2ClientAuthenticationMethod: String, Sendable, Hashable {
    /// `Authorization: Basic` with the form-encoded id and secret (§2.3.1, the default every server must support).
    case basic
    /// `client_id` and `client_secret` in the form.
    case post
}
