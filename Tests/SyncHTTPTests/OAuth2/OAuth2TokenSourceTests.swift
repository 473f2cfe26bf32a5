import Foundation
import SampleUpstream
import SyncTesting
import Synchronization
import Testing

@testable import SyncCore
@testable import SyncHTTP

/// One OAuth2 token kept and renewed: the request a token endpoint on loopback receives, reuse until the renewal
/// margin, one request for many callers, one renewal after a 401, a rotated refresh token kept before use, and no
/// redirect followed.
@Suite("OAuth2: a token kept, renewed and shared")
struct OAuth2TokenSourceTests {
    /// A token endpoint on loopback: it records each request and answers with `answer`.
    final class TokenServer: Sendable {
        final class Log: Sendable {
            let requests = Mutex<[UpstreamRequest]>([])
        }

        let log = Log()
        let server: LoopbackHTTPServer

        init(answer: @escaping @Sendable (UpstreamRequest, Int) -> UpstreamResponse) async throws {
            let log = self.log
            server = try await LoopbackHTTPServer.start { request in
                let count = log.requests.withLock { requests in
                    requests.append(request)
                    return requests.count
                }
                return answer(request, count)
            }
        }

        var tokenURL: String { server.baseURL + "/oauth/token" }
        var requests: [UpstreamRequest] { log.requests.withLock { $0 } }
        var count: Int { requests.count }
        func body(_ index: Int) -> String { String(decoding: requests[index].body, as: UTF8.self) }
    }

    static func token(_ number: Int, expiresIn: Int = 100, refresh: String? = nil) -> UpstreamResponse {
        var json = #"{"access_token":"t\#(number)","token_type":"bearer","expires_in":\#(expiresIn)"#
        if let refresh { json += #","refresh_token":"\#(refresh)""# }
        return .json(Array((json + "}").utf8))
    }

    static let transport = HTTPTransport()

    static func source(
        _ request: OAuth2TokenRequest, clock: TestClock = TestClock(),
        keep: @escaping @Sendable (String) async throws -> Void = { _ in }
    ) -> OAuth2TokenSource {
        OAuth2TokenSource(
            request: request, fetch: { try await transport.fetch($0, successBody: nil) }, keep: keep,
            now: { clock.now })
    }

    @Test("client_secret_basic: a form POST with the form-encoded id and secret in Authorization")
    func basic() async throws {
        let server = try await TokenServer { _, count in Self.token(count) }
        let source = Self.source(
            OAuth2TokenRequest(
                tokenURL: server.tokenURL, clientID: "app id", clientSecret: "s3cr:et/+", scope: "read users",
                audience: "https://api.example.com"))
        #expect(try await source.accessToken() == "t1")
        let request = try #require(server.requests.first)
        #expect(request.method == "POST" && request.path == "/oauth/token")
        #expect(request.header("content-type") == "application/x-www-form-urlencoded")
        let expected = Data("app+id:s3cr%3Aet%2F%2B".utf8).base64EncodedString()
        #expect(request.header("authorization") == "Basic \(expected)")
        #expect(
            server.body(0)
                == "grant_type=client_credentials&scope=read+users&audience=https%3A%2F%2Fapi.example.com")
        try await server.server.shutdown()
    }

    @Test("client_secret_post: the id and secret in the form, no Authorization")
    func post() async throws {
        let server = try await TokenServer { _, count in Self.token(count) }
        let source = Self.source(
            OAuth2TokenRequest(
                tokenURL: server.tokenURL, clientID: "app", clientSecret: "s&=", authentication: .post))
        #expect(try await source.accessToken() == "t1")
        #expect(server.requests.first?.header("authorization") == nil)
        #expect(server.body(0) == "grant_type=client_credentials&client_id=app&client_secret=s%26%3D")
        try await server.server.shutdown()
    }

    @Test("a token is reused until a tenth of its life before it expires, then renewed")
    func renewal() async throws {
        let server = try await TokenServer { _, count in Self.token(count, expiresIn: 100) }
        let clock = TestClock()
        let start = clock.now
        let source = Self.source(
            OAuth2TokenRequest(tokenURL: server.tokenURL, clientID: "app", clientSecret: "s"), clock: clock)
        #expect(try await source.accessToken() == "t1")
        clock.advance(by: 89)
        #expect(try await source.accessToken() == "t1")
        #expect(server.count == 1)
        clock.advance(by: 1)
        #expect(try await source.accessToken() == "t2")
        #expect(await source.expiresAt == start + 190)
        #expect(server.count == 2)
        try await server.server.shutdown()
    }

    @Test("many callers at once send one request")
    func singleFlight() async throws {
        let server = try await TokenServer { _, count in Self.token(count) }
        let source = Self.source(OAuth2TokenRequest(tokenURL: server.tokenURL, clientID: "app", clientSecret: "s"))
        let tokens = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<20 { group.addTask { try await source.accessToken() } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(tokens == Array(repeating: "t1", count: 20))
        #expect(server.count == 1)
        try await server.server.shutdown()
    }

    @Test("a token the upstream refused is renewed once, however many callers saw it refused")
    func rejected() async throws {
        let server = try await TokenServer { _, count in Self.token(count) }
        let source = Self.source(OAuth2TokenRequest(tokenURL: server.tokenURL, clientID: "app", clientSecret: "s"))
        #expect(try await source.accessToken() == "t1")
        #expect(try await source.accessToken(replacing: "t1") == "t2")
        #expect(try await source.accessToken(replacing: "t1") == "t2")
        #expect(server.count == 2)
        try await server.server.shutdown()
    }

    @Test("a rotated refresh token is kept before the token that came with it is used, and asked with next")
    func rotation() async throws {
        let server = try await TokenServer { _, count in Self.token(count, expiresIn: 100, refresh: "r\(count + 1)") }
        let clock = TestClock()
        let kept = Mutex<[String]>([])
        let source = Self.source(
            OAuth2TokenRequest(
                tokenURL: server.tokenURL, clientID: "app", clientSecret: nil, grant: .refreshToken("r1")),
            clock: clock, keep: { token in kept.withLock { $0.append(token) } })
        #expect(try await source.accessToken() == "t1")
        #expect(kept.withLock { $0 } == ["r2"])
        clock.advance(by: 95)
        #expect(try await source.accessToken() == "t2")
        #expect(server.body(0) == "grant_type=refresh_token&refresh_token=r1")
        #expect(server.body(1) == "grant_type=refresh_token&refresh_token=r2")
        #expect(kept.withLock { $0 } == ["r2", "r3"])
        try await server.server.shutdown()
    }

    @Test("a rotated refresh token that cannot be kept is not used, and neither is its access token")
    func rotationNotKept() async throws {
        struct DiskFull: Error {}
        let server = try await TokenServer { _, count in Self.token(count, refresh: "r2") }
        let source = Self.source(
            OAuth2TokenRequest(
                tokenURL: server.tokenURL, clientID: "app", clientSecret: nil, grant: .refreshToken("r1")),
            keep: { _ in throw DiskFull() })
        let error = await #expect(throws: OAuth2TokenError.self) { try await source.accessToken() }
        #expect(error?.description.hasPrefix("the rotated refresh token cannot be stored, so it is not used") == true)
        #expect(error?.description.contains("r2") == false)
        try await server.server.shutdown()
    }

    @Test("a redirect is not followed: the secret stays with the token endpoint")
    func redirect() async throws {
        let server = try await TokenServer { request, count in
            request.path == "/oauth/token"
                ? UpstreamResponse(status: 307, headers: [("Location", "/elsewhere")]) : Self.token(count)
        }
        let source = Self.source(OAuth2TokenRequest(tokenURL: server.tokenURL, clientID: "app", clientSecret: "s"))
        let error = await #expect(throws: OAuth2TokenError.self) { try await source.accessToken() }
        #expect(
            error?.description
                == "the token endpoint answered 307, a redirect: syncd follows no redirect of a token endpoint "
                + "(set token_url to where it leads)")
        #expect(server.requests.map(\.path) == ["/oauth/token"])
        try await server.server.shutdown()
    }

    @Test("a refused grant is the server's error in one sentence, and the next call asks again")
    func invalidGrant() async throws {
        let server = try await TokenServer { _, count in
            count == 1
                ? .json(
                    Array(#"{"error":"invalid_grant","error_description":"Refresh token revoked"}"#.utf8), status: 400)
                : Self.token(count)
        }
        let source = Self.source(
            OAuth2TokenRequest(
                tokenURL: server.tokenURL, clientID: "app", clientSecret: nil, grant: .refreshToken("r1")))
        let error = await #expect(throws: OAuth2TokenError.self) { try await source.accessToken() }
        #expect(
            error?.description
                == #"the token endpoint refused the request (400): invalid_grant ("Refresh token revoked")"#)
        #expect(error?.code == "invalid_grant")
        #expect(try await source.accessToken() == "t2")
        try await server.server.shutdown()
    }
}
