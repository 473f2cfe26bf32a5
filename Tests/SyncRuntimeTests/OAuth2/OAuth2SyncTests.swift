import Foundation
import SampleUpstream
import SyncTesting
import Testing

@testable import SyncCore
@testable import SyncHTTP
@testable import SyncSupport

/// Syncs with `auth = { type = "oauth2" }` against a real OAuth2 provider on loopback (``OAuth2Upstream``): the token
/// asked for once and sent on every request, renewed before it expires (on the test's clock), shared by many
/// endpoints, renewed once on a 401, and every failure one sentence that keeps the stored data.
@Suite("OAuth2: syncs with tokens that renew themselves")
struct OAuth2SyncTests {
    /// A fixture of `count` endpoints `users`, `users2`… on the provider's API, all with `auth`.
    static func fixture(
        _ upstream: OAuth2Upstream, auth: String, count: Int = 1, timeout: String = "30s", extra: String = ""
    ) throws -> SyncFixture {
        var toml = ""
        for index in 1...count {
            toml += """
                [[endpoint]]
                name = "users\(index == 1 ? "" : String(index))"
                url = "\(upstream.apiURL)"
                records = "$"
                primary_key = ["id"]
                timeout = "\(timeout)"
                retries = 0
                auth = \(auth)
                \(extra)

                [endpoint.columns]
                id = { path = "id", type = "integer" }
                name = "name"


                """
        }
        var fixture = try SyncFixture(toml: toml)
        fixture.environment = ["CLIENT_SECRET": upstream.clientSecret]
        let clock = fixture.clock
        fixture.tokens = OAuth2Tokens(transport: SchemeTransport(http: fixture.http), now: { clock.now })
        return fixture
    }

    static func clientCredentials(_ upstream: OAuth2Upstream, extra: String = "") -> String {
        #"{ type = "oauth2", token_url = "\#(upstream.tokenURL)", client_id = "\#(upstream.clientID)", "#
            + #"client_secret_env = "CLIENT_SECRET", scope = "read:users"\#(extra) }"#
    }

    @Test("the token endpoint is reached as the endpoint is: through its proxy, which tunnels the token request too")
    func throughProxy() async throws {
        let upstream = try await OAuth2Upstream.start()
        let proxy = try await LoopbackConnectProxy.start()
        let fixture = try Self.fixture(
            upstream, auth: Self.clientCredentials(upstream), extra: "proxy = \"\(proxy.url)\"")
        let report = try await fixture.sync("users")
        try await proxy.shutdown()
        try await upstream.shutdown()
        #expect(report.outcome == .changed, "\(report.error ?? "")")
        let tunnelled = proxy.connects.map { String(decoding: $0.tunnelled, as: UTF8.self) }
        #expect(tunnelled.contains { $0.contains("POST /oauth/token") })
        #expect(upstream.ledger.tokenRequests == 1)
    }

    @Test("client credentials: one token request, its token on every request, reused by the next run")
    func clientCredentials() async throws {
        let upstream = try await OAuth2Upstream.start()
        let fixture = try Self.fixture(upstream, auth: Self.clientCredentials(upstream))
        let first = try await fixture.sync("users")
        #expect(first.outcome == .changed, "\(first.error ?? "")")
        let second = try await fixture.sync("users")
        #expect(second.error == nil)
        let ledger = upstream.ledger
        #expect(ledger.tokenRequests == 1)
        #expect(ledger.tokenBodies == ["grant_type=client_credentials&scope=read%3Ausers"])
        #expect(ledger.apiAuthorizations == ["Bearer at-1", "Bearer at-1"])
        #expect(try fixture.rows("SELECT id FROM users").count == 2)
        try await upstream.shutdown()
    }

    @Test("a token is renewed before it expires: at a tenth of its life before, on the engine's clock")
    func renewedBeforeExpiry() async throws {
        let upstream = try await OAuth2Upstream.start()
        upstream.with { behaviour, _ in behaviour.expiresIn = "100" }
        let fixture = try Self.fixture(upstream, auth: Self.clientCredentials(upstream))
        _ = try await fixture.sync("users")
        fixture.clock.advance(by: 89)
        _ = try await fixture.sync("users")
        #expect(upstream.ledger.tokenRequests == 1)
        fixture.clock.advance(by: 1)
        let renewed = try await fixture.sync("users")
        #expect(renewed.error == nil)
        #expect(upstream.ledger.tokenRequests == 2)
        #expect(upstream.ledger.apiAuthorizations == ["Bearer at-1", "Bearer at-1", "Bearer at-2"])
        try await upstream.shutdown()
    }

    @Test("twelve endpoints with the same client, eight synced at once, share one token request")
    func sharedByManyEndpoints() async throws {
        let upstream = try await OAuth2Upstream.start()
        let fixture = try Self.fixture(upstream, auth: Self.clientCredentials(upstream), count: 12)
        // Eight at once, as many as the HTTP client keeps connections to one host: more would queue for a connection,
        // and on a loaded machine a queued request outwaits the pool's connect timeout.
        let reports = await fixture.engine.sync(fixture.configuration.plans, concurrency: 8)
        #expect(reports.count == 12)
        #expect(reports.compactMap(\.error) == [])
        #expect(upstream.ledger.tokenRequests == 1)
        #expect(Set(upstream.ledger.apiAuthorizations) == ["Bearer at-1"])
        try await upstream.shutdown()
    }

    /// A provider, a fixture that synced once with client credentials, and the provider revoking that token.
    static func syncedThenRevoked() async throws -> (OAuth2Upstream, SyncFixture) {
        let upstream = try await OAuth2Upstream.start()
        let fixture = try fixture(upstream, auth: clientCredentials(upstream))
        _ = try await fixture.sync("users")
        upstream.revokeAccessTokens()
        return (upstream, fixture)
    }

    @Test("a 401 renews the token once and sends the request again; the run succeeds")
    func renewedOn401() async throws {
        let (upstream, fixture) = try await Self.syncedThenRevoked()
        #expect(try await fixture.sync("users").error == nil)
        #expect(
            (upstream.ledger.tokenRequests, upstream.ledger.apiAuthorizations)
                == (2, ["Bearer at-1", "Bearer at-1", "Bearer at-2"]))
        try await upstream.shutdown()
    }

    @Test("a second 401, to the renewed token, fails the run with one sentence and keeps the stored data")
    func second401() async throws {
        let (upstream, fixture) = try await Self.syncedThenRevoked()
        // A token the API does not know, as a client whose access to the API was withdrawn gets.
        upstream.with { behaviour, _ in behaviour.tokenAnswer = Self.token("refused-by-the-api") }
        let report = try await fixture.sync("users")
        #expect(
            report.error
                == "users: HTTP 401 Unauthorized: the upstream refused the OAuth2 access token, and the one renewed "
                + "for it too; kept the stored data")
        #expect(upstream.ledger.tokenRequests == 2)
        #expect(upstream.ledger.apiRequests == 3)
        #expect(try fixture.rows("SELECT id FROM users").count == 2)
        try await upstream.shutdown()
    }

    static func token(_ value: String, expiresIn: String = "3600") -> UpstreamResponse {
        .json(Array(#"{"access_token":"\#(value)","token_type":"bearer","expires_in":\#(expiresIn)}"#.utf8))
    }

    @Test(
        "expires_in is clamped: 0 and -5 live 30 s, 10^30 a day, a numeric string counts, none is an hour",
        arguments: [("0", 30.0), ("-5", 30), ("1e30", 86_400), (#""120""#, 120), ("null", 3600)])
    func lifetimes(_ expiresIn: String, _ lifetime: Double) async throws {
        let upstream = try await OAuth2Upstream.start()
        upstream.with { behaviour, _ in behaviour.expiresIn = expiresIn }
        let fixture = try Self.fixture(upstream, auth: Self.clientCredentials(upstream))
        let report = try await fixture.sync("users")
        #expect(report.error == nil)
        let files = OAuth2TokenFiles(
            directory: fixture.directory.path,
            identity: try #require(fixture.endpoint("users").auth?.oauth2).identity)
        let times = try #require(files.times())
        let renewed = try #require(Timestamp.parse(times.renewedAt))
        #expect(renewed == fixture.clock.now)
        #expect(try #require(Timestamp.parse(times.expiresAt)) - renewed == lifetime)
        try await upstream.shutdown()
    }

    /// The token endpoint's failing answers, by name (a gigantic token would fill the test's log as an argument).
    static func failing(_ name: String) -> UpstreamResponse {
        switch name {
        case "redirect": UpstreamResponse(status: 302, headers: [("Location", "https://elsewhere.example/token")])
        case "gigantic token": token(String(repeating: "A", count: 20_000))
        default: .json(Array(#"{"error":"invalid_client"}"#.utf8), status: 401)
        }
    }

    @Test(
        "a token endpoint that fails the renewal after a 401 is one sentence, and the stored data stays",
        arguments: [
            (
                "redirect",
                "the token endpoint answered 302, a redirect: syncd follows no redirect of a token endpoint "
                    + "(set token_url to where it leads)"
            ),
            (
                "gigantic token",
                "the token endpoint's access_token is longer than 16 KiB or holds characters a header cannot carry"
            ),
            (
                "invalid_client",
                "the token endpoint refused the request (401): invalid_client; check client_id and the client secret"
            ),
        ])
    func tokenFailures(_ answer: String, _ sentence: String) async throws {
        let (upstream, fixture) = try await Self.syncedThenRevoked()
        upstream.with { behaviour, _ in behaviour.tokenAnswer = Self.failing(answer) }
        let report = try await fixture.sync("users")
        #expect(report.error == "users: no OAuth2 access token: \(sentence); kept the stored data")
        #expect(upstream.ledger.apiRequests == 2)
        #expect(try fixture.rows("SELECT id FROM users").count == 2)
        try await upstream.shutdown()
    }

    @Test("a token endpoint that never answers fails the run within the endpoint's timeout")
    func hangingTokenEndpoint() async throws {
        let upstream = try await OAuth2Upstream.start()
        upstream.with { behaviour, _ in behaviour.tokenAnswer = UpstreamResponse(delivery: .stalled) }
        let fixture = try Self.fixture(upstream, auth: Self.clientCredentials(upstream), timeout: "1s")
        let report = try await fixture.sync("users")
        let error = try #require(report.error)
        #expect(error.hasPrefix("users: no OAuth2 access token: the token endpoint cannot be reached: "))
        #expect(error.hasSuffix("; kept the stored data"))
        #expect(upstream.ledger.apiRequests == 0)
        try await upstream.shutdown()
    }
}
