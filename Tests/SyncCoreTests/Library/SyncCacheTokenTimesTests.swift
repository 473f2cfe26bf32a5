import Foundation
import SyncTesting
import Testing

@testable import SyncCore
@testable import SyncHTTP

/// When an OAuth2 token was renewed and when it expires, as `syncd status` and the read API show them: read from
/// the syncing process's state folder through SyncCache, never the token.
@Suite("library: SyncCache reads OAuth2 token times from the state folder")
struct SyncCacheTokenTimesTests {
    @Test("the state folder is $STATE_DIRECTORY's first, else the database's folder, else the current one")
    func stateDirectory() {
        let store = SyncStore.sqlite(path: "/var/lib/syncd/cache.db")
        #expect(SyncCache.stateDirectory(of: store, environment: [:]) == "/var/lib/syncd")
        #expect(SyncCache.stateDirectory(of: store, environment: ["STATE_DIRECTORY": "/state:/other"]) == "/state")
        #expect(SyncCache.stateDirectory(of: .sqlite(path: "cache.db"), environment: [:]) == ".")
        #expect(SyncCache.stateDirectory(of: .memory(), environment: [:]) == ".")
    }

    @Test("an OAuth2 client's times as the syncing process recorded them; none before, none for other credentials")
    func times() throws {
        let files = try TemporaryDirectory()
        let credential = Credential.oauth2(
            tokenURL: "https://auth.example/token", clientID: "syncd", clientSecret: .literal("s3cret"))
        #expect(credential.isOAuth2 && !Credential.bearer(.literal("t")).isOAuth2)
        #expect(SyncCache.tokenTimes(of: credential, stateDirectory: files.path) == nil)
        let client = try #require(credential.oauth2)
        try OAuth2TokenFiles(directory: files.path, identity: client.identity)
            .record(renewedAt: 1_700_000_000, expiresAt: 1_700_003_600)
        let times = try #require(SyncCache.tokenTimes(of: credential, stateDirectory: files.path))
        #expect(times.renewedAt == "2023-11-14T22:13:20.000Z" && times.expiresAt == "2023-11-14T23:13:20.000Z")
        #expect(SyncCache.tokenTimes(of: .bearer(.literal("t")), stateDirectory: files.path) == nil)
        let other = Credential.oauth2(
            tokenURL: "https://auth.example/token", clientID: "another", clientSecret: .literal("s3cret"))
        #expect(SyncCache.tokenTimes(of: other, stateDirectory: files.path) == nil, "another client's times")
    }
}
