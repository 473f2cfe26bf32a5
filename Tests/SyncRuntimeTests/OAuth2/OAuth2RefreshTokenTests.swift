import Foundation
import SampleUpstream
import SyncTesting
import Testing

@testable import SyncCore
@testable import SyncHTTP

/// `grant = "refresh_token"` against a provider that rotates refresh tokens and refuses a used one: the rotated token
/// kept in the state folder (mode 0600, under a name that holds no secret) and used by the next process, a refused
/// grant that says what to do, a new refresh token put in the file taken, and no secret anywhere syncd writes but the
/// kept token's own file.
@Suite("OAuth2: refresh tokens, rotated and kept")
struct OAuth2RefreshTokenTests {
    static let initial = "rt-initial-0"

    static func fixture(_ upstream: OAuth2Upstream, state: String? = nil) throws -> SyncFixture {
        // A relative path: the configuration's folder, the fixture's.
        var fixture = try OAuth2SyncTests.fixture(
            upstream,
            auth: #"{ type = "oauth2", token_url = "\#(upstream.tokenURL)", client_id = "\#(upstream.clientID)", "#
                + #"client_secret_env = "CLIENT_SECRET", grant = "refresh_token", "#
                + #"refresh_token_file = "refresh-token" }"#)
        try (initial + "\n").write(toFile: refreshFile(fixture), atomically: true, encoding: .utf8)
        if let state { fixture.environment["STATE_DIRECTORY"] = state }
        return fixture
    }

    static func refreshFile(_ fixture: SyncFixture) -> String { fixture.directory.file("refresh-token") }

    static func files(_ fixture: SyncFixture, directory: String? = nil) throws -> OAuth2TokenFiles {
        OAuth2TokenFiles(
            directory: directory ?? fixture.directory.path,
            identity: try #require(fixture.endpoint("users").auth?.oauth2).identity)
    }

    @Test("a rotated refresh token is kept, mode 0600, and a new process asks with it, not the used one")
    func rotationKept() async throws {
        let upstream = try await OAuth2Upstream.start(refreshToken: Self.initial)
        let fixture = try Self.fixture(upstream)
        let first = try await fixture.sync("users")
        #expect(first.error == nil)
        let files = try Self.files(fixture)
        #expect(files.stem.count == "oauth2-".count + 32)
        let attributes = try FileManager.default.attributesOfItem(atPath: files.refreshTokenPath)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        #expect(try String(contentsOfFile: files.refreshTokenPath, encoding: .utf8).contains("\nrt-1\n"))

        // Another process: a registry of its own, which reads the kept token (the initial one is refused now).
        var next = fixture
        let clock = fixture.clock
        next.tokens = OAuth2Tokens(transport: SchemeTransport(http: fixture.http), now: { clock.now })
        let second = try await next.sync("users")
        #expect(second.error == nil)
        #expect(
            upstream.ledger.tokenBodies == [
                "grant_type=refresh_token&refresh_token=\(Self.initial)", "grant_type=refresh_token&refresh_token=rt-1",
            ])
        #expect(try String(contentsOfFile: files.refreshTokenPath, encoding: .utf8).contains("\nrt-2\n"))
        try await upstream.shutdown()
    }

    @Test("$STATE_DIRECTORY is the state folder when set")
    func stateDirectory() async throws {
        let upstream = try await OAuth2Upstream.start(refreshToken: Self.initial)
        let state = try TemporaryDirectory()
        let fixture = try Self.fixture(upstream, state: state.path)
        #expect(try await fixture.sync("users").error == nil)
        #expect(FileManager.default.fileExists(atPath: try Self.files(fixture, directory: state.path).refreshTokenPath))
        #expect(!FileManager.default.fileExists(atPath: try Self.files(fixture).refreshTokenPath))
        try await upstream.shutdown()
    }

    /// A sync, then the provider revoking the grant (the API refusing the token it had issued), then a sync.
    static func revokedGrant() async throws -> (OAuth2Upstream, SyncFixture, SyncSummary) {
        let upstream = try await OAuth2Upstream.start(refreshToken: initial)
        let fixture = try fixture(upstream)
        #expect(try await fixture.sync("users").error == nil)
        upstream.with { _, ledger in ledger.refreshTokens.removeAll() }
        upstream.revokeAccessTokens()
        return (upstream, fixture, try await fixture.sync("users"))
    }

    @Test("invalid_grant fails the run saying where to put a new refresh token; a new one put there is taken")
    func invalidGrant() async throws {
        let (upstream, fixture, refused) = try await Self.revokedGrant()
        let file = Self.refreshFile(fixture)
        #expect(
            refused.error
                == "users: no OAuth2 access token: the token endpoint refused the request (400): invalid_grant "
                + #"("the refresh token was used or revoked"); put a new refresh token in secret file \#(file); "#
                + "kept the stored data")
        #expect(try fixture.rows("SELECT id FROM users").count == 2)

        // The operator authorizes again and puts the new refresh token in the file.
        upstream.with { _, ledger in _ = ledger.refreshTokens.insert("rt-reauthorized") }
        try "rt-reauthorized\n".write(toFile: file, atomically: true, encoding: .utf8)
        let again = try await fixture.sync("users")
        #expect(again.error == nil)
        #expect(upstream.ledger.tokenBodies.last == "grant_type=refresh_token&refresh_token=rt-reauthorized")
        try await upstream.shutdown()
    }

    @Test("no secret — client secret, refresh token, access token — is in the database, its state or its log")
    func noSecretStored() async throws {
        let (upstream, fixture, _) = try await Self.revokedGrant()
        let secrets = [upstream.clientSecret, Self.initial, "rt-1", "at-1"]
        let files = try Self.files(fixture)
        for name in try FileManager.default.contentsOfDirectory(atPath: fixture.directory.path)
        where ![files.refreshTokenPath, Self.refreshFile(fixture)].contains(fixture.directory.file(name)) {
            let bytes = try Data(contentsOf: URL(fileURLWithPath: fixture.directory.file(name)))
            for secret in secrets { #expect(bytes.range(of: Data(secret.utf8)) == nil, "\(name) holds \(secret)") }
        }
        #expect(try String(contentsOfFile: files.timesPath, encoding: .utf8).hasPrefix("renewed_at "))
        try await upstream.shutdown()
    }
}
