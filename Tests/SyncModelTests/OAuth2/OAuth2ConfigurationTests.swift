import Testing

@testable import SyncCore
@testable import SyncModel

/// `auth = { type = "oauth2", … }` read into ``Credential/oauth2(tokenURL:clientID:clientSecret:scope:audience:clientAuthentication:grant:)``,
/// and every mistake one sentence at its line naming its key; the same rules for an endpoint built in Swift.
@Suite("OAuth2: the configuration")
struct OAuth2ConfigurationTests {
    static let base = #"type = "oauth2", token_url = "https://auth.example.com/oauth/token", client_id = "syncd""#

    @Test(
        "each shape reads into the same credential as its Swift spelling",
        arguments: [
            (
                #"{ \#(base), client_secret_env = "S", scope = "read:users", audience = "https://api" }"#,
                Credential.oauth2(
                    tokenURL: "https://auth.example.com/oauth/token", clientID: "syncd",
                    clientSecret: .environment("S"), scope: "read:users", audience: "https://api")
            ),
            (
                #"{ \#(base), client_secret_file = "secret", client_auth = "post" }"#,
                .oauth2(
                    tokenURL: "https://auth.example.com/oauth/token", clientID: "syncd",
                    clientSecret: .file(path: "/etc/secret"), clientAuthentication: .post)
            ),
            (
                #"{ \#(base), client_secret_credential = "s", grant = "refresh_token", refresh_token_file = "rt" }"#,
                .oauth2(
                    tokenURL: "https://auth.example.com/oauth/token", clientID: "syncd",
                    clientSecret: .systemdCredential("s"), grant: .refreshToken(.file(path: "/etc/rt")))
            ),
            (
                #"{ type = "oauth2", token_url = "http://127.0.0.1:8080/token", client_id = "app", "#
                    + #"grant = "refresh_token", refresh_token_credential = "rt" }"#,
                .oauth2(
                    tokenURL: "http://127.0.0.1:8080/token", clientID: "app", clientSecret: nil,
                    grant: .refreshToken(.systemdCredential("rt")))
            ),
        ])
    func shapes(_ inline: String, _ credential: Credential) throws {
        let text = "[[endpoint]]\nname = \"a\"\nurl = \"https://example.com\"\nauth = \(inline)"
        let configuration = try SyncConfiguration.parse(text, sourcePath: "/etc/syncd.toml")
        #expect(configuration.plans.first?.auth == credential)
    }

    @Test(
        "each mistake is one sentence at the line, naming the key",
        arguments: [
            (
                #"{ type = "oauth2", token_url = "http://auth.example.com/token", client_id = "a", "#
                    + #"client_secret_env = "S" }"#,
                "auth: token_url must be an absolute https:// URL (http:// only to a loopback host such as 127.0.0.1)"
            ),
            (
                #"{ type = "oauth2", token_url = "https://a.example/t", client_secret_env = "S" }"#,
                #"auth: type "oauth2" needs "client_id""#
            ),
            (
                #"{ \#(base) }"#,
                #"auth: type "oauth2" needs exactly one of client_secret_env, client_secret_file or "#
                    + "client_secret_credential"
            ),
            (
                #"{ \#(base), client_secret_env = "S", client_auth = "jwt" }"#,
                #"auth: client_auth must be "basic" or "post""#
            ),
            (
                #"{ \#(base), client_secret_env = "S", grant = "password" }"#,
                #"auth: grant must be "client_credentials" or "refresh_token""#
            ),
            (
                #"{ \#(base), grant = "refresh_token" }"#,
                #"auth: grant = "refresh_token" needs exactly one of refresh_token_file or refresh_token_credential"#
            ),
            (
                #"{ \#(base), client_secret_env = "S", refresh_token_file = "/rt" }"#,
                #"auth: a refresh token is for grant = "refresh_token" only"#
            ),
            (
                #"{ \#(base), client_secret_env = "S", token_env = "T" }"#,
                #"auth: unknown key "token_env" for type "oauth2""#
            ),
            (#"{ \#(base), client_secret_env = "S", scope = "" }"#, "auth: scope must be a non-empty string"),
            (
                #"{ \#(base), client_secret_credential = "../s" }"#,
                "auth: client_secret_credential must be a file name in $CREDENTIALS_DIRECTORY (LoadCredential=)"
            ),
        ])
    func mistakes(_ inline: String, _ message: String) {
        #expect(
            ConfigurationValueTests.endpointProblems("auth = \(inline)") == [
                #"syncd.toml:4: [[endpoint]] "users": \#(message)"#
            ])
    }

    @Test(
        "token_url may be http only to this machine",
        arguments: [
            ("https://auth.example.com/t", true), ("http://127.0.0.1:9/t", true), ("http://localhost/t", true),
            ("http://[::1]:9/t", true), ("http://10.0.0.1/t", false), ("http://auth.example.com/t", false),
            ("ftp://auth.example.com/t", false), ("https://auth.example.com/t x", false),
        ])
    func tokenURL(_ url: String, _ accepted: Bool) {
        #expect(Credential.OAuth2.isTokenURL(url) == accepted)
    }

    @Test("an endpoint built in Swift is checked by the same rules")
    func swiftEndpoint() {
        var endpoint = SyncEndpoint(name: "users", url: "https://api.example.com/users")
        endpoint.credential = .oauth2(
            tokenURL: "http://auth.example.com/token", clientID: "", clientSecret: .environment("S"))
        var problems: [String] = []
        _ = endpoint.compile(into: &problems)
        #expect(
            problems == [
                "auth: token_url must be an absolute https:// URL (http:// only to a loopback host such as 127.0.0.1)",
                "auth: client_id must be a non-empty string",
            ])
    }

    @Test("the identity of a token source holds no secret, and tells grants and scopes apart")
    func identity() throws {
        func client(_ credential: Credential) throws -> Credential.OAuth2 { try #require(credential.oauth2) }
        let plain = try client(
            .oauth2(tokenURL: "https://a/t", clientID: "c", clientSecret: .literal("s3cret"), scope: "read"))
        let other = try client(
            .oauth2(tokenURL: "https://a/t", clientID: "c", clientSecret: .literal("s3cret"), scope: "write"))
        let refresh = try client(
            .oauth2(
                tokenURL: "https://a/t", clientID: "c", clientSecret: nil, scope: "read",
                grant: .refreshToken(.literal("rt-s3cret"))))
        #expect(Set([plain.identity, other.identity, refresh.identity]).count == 3)
        #expect(![plain, refresh].contains { $0.identity.contains("s3cret") })
    }
}
