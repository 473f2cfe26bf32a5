import Foundation
import SampleUpstream
import SyncTesting
import Testing

@testable import SyncCore

/// Requests through a forward proxy on loopback (``LoopbackConnectProxy``, which records what it saw): `proxy` and
/// `proxy_auth` from syncd.toml, the environment's variables for the library's client, and what each side is told.
@Suite("sync: proxies")
struct ProxyTests {
    static let body = #"{"data": [{"id": 1, "name": "Ann"}]}"#
    static let proxyAuthorization = "Basic " + Data("syncd:proxy-secret".utf8).base64EncodedString()

    static func toml(_ url: String, extra: String) -> String {
        PrivateTLSTests.toml(url, extra: "auth = { type = \"bearer\", token_env = \"USERS_TOKEN\" }\n" + extra)
    }

    /// Runs `body` with a proxy requiring ``proxyAuthorization`` and a folder holding its password in `proxy.pass`.
    static func withProxy(_ body: (LoopbackConnectProxy, TemporaryDirectory) async throws -> Void) async throws {
        let proxy = try await LoopbackConnectProxy.start(requiring: proxyAuthorization)
        let directory = try TemporaryDirectory()
        try Data("proxy-secret\n".utf8).write(to: URL(fileURLWithPath: directory.file("proxy.pass")))
        try await running({ try await body(proxy, directory) }, thenStopping: proxy.shutdown)
    }

    @Test(
        "an http:// upstream is reached through CONNECT; proxy_auth goes to the proxy only, the bearer token to the upstream only"
    )
    func plainUpstream() async throws {
        try await Self.withProxy { proxy, directory in
            try await withTestUpstream { upstream in
                upstream.setJSON("/users", Self.body)
                let extra = """
                    proxy = "\(proxy.url)"
                    proxy_auth = { type = "basic", username = "syncd", password_file = "\(directory.file("proxy.pass"))" }
                    """
                var fixture = try SyncFixture(toml: Self.toml(upstream.url("/users"), extra: extra))
                fixture.environment = ["USERS_TOKEN": "upstream-token"]
                let report = try await fixture.sync("users")
                #expect(report.outcome == .changed, "\(report.error ?? "")")
                // The tunnel the answer came through: on a loaded machine an earlier attempt may have timed out.
                let connect = try #require(proxy.connects.last)
                #expect(connect.target == "127.0.0.1:\(upstream.server.port)")
                #expect(connect.accepted)
                #expect(connect.header("Proxy-Authorization") == Self.proxyAuthorization)
                #expect(connect.header("Authorization") == nil)
                let request = try #require(upstream.requests.last)
                #expect(request.header("Authorization") == "Bearer upstream-token")
                #expect(request.header("Proxy-Authorization") == nil)
                // Plain HTTP: the request crosses the tunnel as it is, and the proxy could read it (documented).
                let tunnelled = String(decoding: connect.tunnelled, as: UTF8.self)
                #expect(tunnelled.contains("Bearer upstream-token"))
                #expect(!tunnelled.contains("Proxy-Authorization"))
            }
        }
    }

    @Test("an https:// upstream is reached through CONNECT, and the proxy sees only TLS: no token, no path")
    func tlsUpstream() async throws {
        try await Self.withProxy { proxy, directory in
            let ca = try await PrivateCA.make(in: directory.path)
            let server = try await LoopbackHTTPServer.start(tls: try ca.serverContext()) { _ in
                .json(Array(Self.body.utf8))
            }
            let extra = """
                proxy = "\(proxy.url)"
                proxy_auth = { type = "basic", username = "syncd", password_file = "\(directory.file("proxy.pass"))" }
                ca_file = "\(ca.caFile)"
                ca_only = true
                """
            var fixture = try SyncFixture(toml: Self.toml(server.baseURL + "/users", extra: extra))
            fixture.environment = ["USERS_TOKEN": "upstream-token"]
            let report = try await fixture.sync("users")
            try await server.shutdown()
            #expect(report.outcome == .changed, "\(report.error ?? "")")
            let connect = try #require(proxy.connects.last)
            #expect(connect.target == "127.0.0.1:\(server.port)")
            #expect(connect.header("Proxy-Authorization") == Self.proxyAuthorization)
            let tunnelled = String(decoding: connect.tunnelled, as: UTF8.self)
            #expect(!connect.tunnelled.isEmpty)
            #expect(!tunnelled.contains("upstream-token"))
            #expect(!tunnelled.contains("/users"))
        }
    }

    @Test("a proxy that refuses the credentials fails the run in one sentence, without the password")
    func refusedCredentials() async throws {
        try await Self.withProxy { proxy, directory in
            try Data("wrong".utf8).write(to: URL(fileURLWithPath: directory.file("proxy.pass")))
            try await withTestUpstream { upstream in
                upstream.setJSON("/users", Self.body)
                let extra = """
                    proxy = "\(proxy.url)"
                    proxy_auth = { type = "basic", username = "syncd", password_file = "\(directory.file("proxy.pass"))" }
                    retries = 0
                    """
                var fixture = try SyncFixture(toml: Self.toml(upstream.url("/users"), extra: extra))
                fixture.environment = ["USERS_TOKEN": "upstream-token"]
                let report = try await fixture.sync("users")
                #expect(report.outcome == .failed)
                #expect(
                    report.error
                        == "users: the proxy refused its credentials (407 Proxy Authentication Required): see "
                        + "proxy_auth; kept the stored data")
                #expect(upstream.requests.isEmpty)
                #expect(proxy.connects.first?.accepted == false)
            }
        }
    }

    @Test("HTTPS_PROXY carries the library's requests unless NO_PROXY names the host, or the request says direct")
    func environmentProxy() async throws {
        try await Self.withProxy { proxy, directory in
            let ca = try await PrivateCA.make(in: directory.path)
            let server = try await LoopbackHTTPServer.start(tls: try ca.serverContext()) { _ in .json(Array("[1]".utf8))
            }
            let userinfo = "http://syncd:proxy-secret@127.0.0.1:\(proxy.port)"
            var request = APIRequest(baseURL: server.baseURL, path: "/items")
            request.tls = TLSSettings(caFile: ca.caFile)
            let environments: [(environment: [String: String], proxied: Bool)] = [
                (["HTTPS_PROXY": userinfo], true),
                (["https_proxy": userinfo, "HTTPS_PROXY": "http://127.0.0.1:1"], true),
                (["ALL_PROXY": userinfo], true),
                (["HTTP_PROXY": userinfo], false),
                (["HTTPS_PROXY": userinfo, "NO_PROXY": "example.com, 127.0.0.0/8"], false),
                (["HTTPS_PROXY": userinfo, "no_proxy": "*"], false),
            ]
            for (environment, proxied) in environments {
                let before = proxy.connects.count
                let items = try await APIClient.withClient(configuration: .init(environment: environment)) { client in
                    try await client.fetch(request, as: [Int].self)
                }
                #expect(items == [1])
                #expect(proxy.connects.count == before + (proxied ? 1 : 0), "\(environment.keys.sorted())")
            }
            var direct = request
            direct.proxy = .direct
            let before = proxy.connects.count
            _ = try await APIClient.withClient(configuration: .init(environment: ["HTTPS_PROXY": userinfo])) { client in
                try await client.fetch(direct, as: [Int].self)
            }
            #expect(proxy.connects.count == before)
            #expect(proxy.connects.allSatisfy { $0.header("Proxy-Authorization") == Self.proxyAuthorization })
            try await server.shutdown()
        }
    }

    @Test("a proxy variable that is not a proxy URL fails the request in a sentence naming the variable, not its value")
    func malformedVariable() async throws {
        let request = APIRequest(baseURL: "https://127.0.0.1:9", path: "/items")
        let environment = ["HTTPS_PROXY": "socks5://u:pw@h:1"]
        do {
            _ = try await APIClient.withClient(configuration: .init(environment: environment)) {
                try await $0.response(for: request)
            }
            Issue.record("the request went out")
        } catch let error as APIError {
            #expect(
                "\(error)".contains(
                    "the proxy in HTTPS_PROXY must be an http:// URL such as \"http://proxy.corp:3128\""))
            #expect(!"\(error)".contains("pw"))
        }
    }
}
