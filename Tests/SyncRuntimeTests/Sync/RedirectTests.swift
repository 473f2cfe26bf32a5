import Foundation
import SampleUpstream
import SyncTesting
import Testing

@testable import SyncCore
@testable import SyncSupport

/// Redirects are followed by syncd itself: at most 5, no cycle, http and https only, and credentials and configured
/// headers stay with the configured origin.
@Suite("sync: redirects")
struct RedirectTests {
    static let secret = "r3d1r+s3cr3t"

    /// Every kind of credential, as configured.
    static let auths = [
        #"{ type = "bearer", token_env = "KEY" }"#,
        #"{ type = "basic", username = "ann", password_env = "KEY" }"#,
        #"{ type = "header", name = "X-Api-Key", value_env = "KEY" }"#,
        #"{ type = "query", name = "api_key", value_env = "KEY" }"#,
    ]

    static func fixture(_ url: String, auth: String) throws -> SyncFixture {
        var fixture = try SyncFixture(
            toml: HTTPBehaviourFixture.toml(
                url,
                extra: """
                    auth = \(auth)
                    headers = { X-Client = "syncd-test", X-Tenant = "acme" }
                    """))
        fixture.environment = ["KEY": secret]
        return fixture
    }

    /// Whether a request carries the secret, a configured header or a credential header anywhere.
    static func carriesSecrets(_ request: UpstreamRequest) -> Bool {
        let encoded = "r3d1r%2Bs3cr3t"
        let base64 = Data("ann:\(secret)".utf8).base64EncodedString()
        return request.uri.contains("r3d1r") || request.uri.contains(encoded) || request.query["api_key"] != nil
            || request.headers.contains { $0.value.contains("r3d1r") || $0.value.contains(base64) }
            || request.header("Authorization") != nil || request.header("X-Api-Key") != nil
            || request.header("X-Client") != nil || request.header("X-Tenant") != nil
    }

    @Test("a redirect to another origin gets no credential of any kind and no configured header", arguments: auths)
    func crossOrigin(auth: String) async throws {
        try await withTestUpstream { upstream in
            try await withTestUpstream { other in
                // With a query credential, the upstream echoes it into Location, as some do: it is removed.
                let echo = auth.contains("query") ? "api_key=\(Self.secret)&" : ""
                let target = other.url("/moved?\(echo)page=1")
                upstream.set("/users", UpstreamResponse(status: 302, headers: [(name: "Location", value: target)]))
                other.setJSON("/moved", HTTPBehaviourFixture.body)
                let fixture = try Self.fixture(upstream.url("/users"), auth: auth)
                let report = try await fixture.sync("users")
                #expect(report.outcome == .changed && report.inserted == 1)
                let first = try #require(upstream.requests.first)
                #expect(Self.carriesSecrets(first), "the configured origin gets everything")
                let foreign = try #require(other.requests.first)
                // Every attempt alike: on a loaded machine a timed-out attempt is retried, redirect and all.
                #expect(other.requests.allSatisfy { $0.path == "/moved" && !Self.carriesSecrets($0) })
                #expect(!Self.carriesSecrets(foreign), "\(foreign.uri) \(foreign.headers)")
                #expect(foreign.query["page"] == "1")
                #expect(foreign.header("User-Agent") == "syncd/\(SyncdVersion.current)")
            }
        }
    }

    @Test("a redirect within the origin keeps the credentials and headers", arguments: auths)
    func sameOrigin(auth: String) async throws {
        try await withTestUpstream { upstream in
            upstream.set("/old", UpstreamResponse(status: 307, headers: [(name: "Location", value: "/users")]))
            upstream.setJSON("/users", HTTPBehaviourFixture.body)
            let fixture = try Self.fixture(upstream.url("/old"), auth: auth)
            let report = try await fixture.sync("users")
            #expect(report.outcome == .changed)
            let requests = upstream.requests
            // One attempt, or (a timed-out attempt retried on a loaded machine) several, each redirected alike.
            let paths = requests.map(\.path)
            #expect(!paths.isEmpty && paths.count.isMultiple(of: 2))
            #expect(paths == Array([[String]](repeating: ["/old", "/users"], count: paths.count / 2).joined()))
            #expect(requests.allSatisfy { $0.header("X-Client") == "syncd-test" })
            #expect(requests.filter { $0.path == "/users" }.allSatisfy(Self.carriesSecrets))
        }
    }

    @Test("once a redirect left the origin, coming back to it brings no credential back")
    func leaveAndReturn() async throws {
        try await withTestUpstream { upstream in
            try await withTestUpstream { other in
                upstream.set(
                    "/users", UpstreamResponse(status: 301, headers: [(name: "Location", value: other.url("/hop"))]))
                other.set(
                    "/hop", UpstreamResponse(status: 308, headers: [(name: "Location", value: upstream.url("/back"))]))
                upstream.setJSON("/back", HTTPBehaviourFixture.body)
                let fixture = try Self.fixture(upstream.url("/users"), auth: Self.auths[0])
                let report = try await fixture.sync("users")
                #expect(report.outcome == .changed)
                let back = try #require(upstream.requests.last)
                #expect(back.path == "/back" && !Self.carriesSecrets(back))
            }
        }
    }

    @Test(
        "a redirect loop, more than 5 redirects or a Location that is not http fail the run with one sentence",
        arguments: [
            ("loop", "users: the redirects go round in a cycle"),
            ("chain", "users: more than 5 redirects"),
            ("file", "users: a redirect leads to a URL that is not http or https"),
        ])
    func refused(kind: String, message: String) async throws {
        try await withTestUpstream { upstream in
            upstream.route("/users") { request in
                let hop = Int(request.query["hop"] ?? "0") ?? 0
                let location =
                    switch kind {
                    case "loop": hop == 2 ? "/users?hop=1" : "/users?hop=\(hop + 1)"
                    case "chain": "/users?hop=\(hop + 1)"
                    default: "file:///etc/passwd"
                    }
                return UpstreamResponse(status: 302, headers: [(name: "Location", value: location)])
            }
            // The failure comes from the redirects, never the clock: under the whole suite on two cores a hop once took
            // longer than the default 30 s (the requests that reached the upstream are in the message below).
            let fixture = try SyncFixture(
                toml: HTTPBehaviourFixture.toml(upstream.url("/users"), extra: "retries = 0\ntimeout = \"5m\""))
            let report = try await fixture.sync("users")
            #expect(report.outcome == .failed)
            #expect(
                report.error?.hasPrefix(message) == true,
                "\(report.error ?? "") (requests: \(upstream.requests.map(\.uri)))")
            #expect(upstream.requests.count <= 6)
        }
    }
}
