import Foundation
import SampleUpstream
import SyncTesting
import Testing

@testable import SyncCore
@testable import SyncSQLite

/// Every way an upstream can fail: the stored data stays exactly as it was and readable, the failure is
/// recorded in syncd_runs and the endpoint's state, and the other endpoints of the same pass still sync.
@Suite("sync: upstream failures keep the stored data")
struct SyncFailureTests {
    enum Breakage: String, CaseIterable, CustomTestStringConvertible {
        case notJSON, truncatedJSON, recordsPathAbsent, recordsNotArray, http500, truncatedBody, stalled, overMaxBody,
            deadPort

        var testDescription: String { rawValue }
    }

    /// Only the stalled upstream needs a short timeout; the others get one no loaded machine can hit.
    static func configuration(users: String, other: String, timeout: String = "30s") -> String {
        """
        [[endpoint]]
        name = "users"
        url = "\(users)"
        records = "data"
        primary_key = ["id"]
        timeout = "\(timeout)"
        max_body = "2KiB"

        [endpoint.columns]
        id = { path = "id", type = "integer" }
        name = "name"

        [[endpoint]]
        name = "others"
        url = "\(other)"
        records = "$"
        primary_key = ["id"]

        [endpoint.columns]
        id = { path = "id", type = "integer" }
        """
    }

    static let good = #"{"data": [{"id": 1, "name": "Ann"}, {"id": 2, "name": "Bob"}]}"#

    static func expectedError(_ breakage: Breakage) -> String {
        switch breakage {
        case .notJSON: "users: the response is not valid JSON"
        case .truncatedJSON: "users: the response is truncated"
        case .recordsPathAbsent: "users: the response has no \"data\""
        case .recordsNotArray: "users: \"data\" in the response is"
        case .http500: "users: HTTP 500 Internal Server Error from the upstream; kept the stored data"
        case .truncatedBody: "users: the connection closed before the whole body arrived; kept the stored data"
        case .stalled: "users: no complete response within 500ms; kept the stored data"
        case .overMaxBody: "users: the body is larger than max_body (2 KiB); kept the stored data"
        case .deadPort: "users: the connection failed"
        }
    }

    @Test("a broken upstream keeps the previous data and records the failure", arguments: Breakage.allCases)
    func breakage(_ breakage: Breakage) async throws {
        try await withTestUpstream { upstream in
            upstream.setJSON("/users", Self.good)
            upstream.setJSON("/others", #"[{"id": 7}]"#)
            var usersURL = upstream.url("/users")
            // A port nothing listens on, held until the test ends so that no other test's server can take it.
            let closed = try ClosedPort()
            defer { withExtendedLifetime(closed) {} }
            if breakage == .deadPort { usersURL = "http://127.0.0.1:\(closed.port)/users" }
            var fixture = try SyncFixture(
                toml: Self.configuration(users: upstream.url("/users"), other: upstream.url("/others")))
            _ = try await fixture.sync("users")
            let before = try fixture.rows("SELECT id, name, _raw, _version FROM users ORDER BY id")
            #expect(before.count == 2)
            let timeout = breakage == .stalled ? "500ms" : "30s"
            try fixture.reconfigure(
                Self.configuration(users: usersURL, other: upstream.url("/others"), timeout: timeout))
            switch breakage {
            case .notJSON: upstream.set("/users", .json(Array("<html>oops</html>".utf8)))
            case .truncatedJSON: upstream.set("/users", .json(Array(Self.good.utf8.prefix(30))))
            case .recordsPathAbsent: upstream.setJSON("/users", #"{"items": []}"#)
            case .recordsNotArray: upstream.setJSON("/users", #"{"data": {"id": 1}}"#)
            case .http500: upstream.set("/users", .json(Array(#"{"error": "down"}"#.utf8), status: 500))
            case .truncatedBody:
                upstream.set(
                    "/users",
                    UpstreamResponse(status: 200, body: Array(Self.good.utf8), delivery: .truncated(afterBytes: 20)))
            case .stalled:
                upstream.set("/users", UpstreamResponse(status: 200, body: Array(Self.good.utf8), delivery: .stalled))
            case .overMaxBody:
                let many = (1...100).map { #"{"id": \#($0), "name": "someone with a long name \#($0)"}"# }
                upstream.setJSON("/users", #"{"data": [\#(many.joined(separator: ","))]}"#)
            case .deadPort: break
            }

            let reports = await fixture.engine.sync(fixture.configuration.plans, concurrency: 2)

            let users = try #require(reports.first { $0.endpoint == "users" })
            #expect(users.outcome == .failed)
            let error = try #require(users.error)
            #expect(error.hasPrefix(Self.expectedError(breakage)), "\(error)")
            #expect(try fixture.rows("SELECT id, name, _raw, _version FROM users ORDER BY id") == before)
            let run = try #require(
                try fixture.rows("SELECT outcome, error FROM syncd_runs WHERE endpoint = 'users' ORDER BY id DESC")
                    .first)
            #expect(run.text("outcome") == "failed")
            #expect(run.text("error") == error)
            let state = try #require(try fixture.read { try EndpointState.named("users", $0) })
            #expect(state.consecutiveFailures == 1)
            #expect(state.lastError == error)
            #expect(state.version == 1)
            #expect(reports.first { $0.endpoint == "others" }?.outcome == .changed)
        }
    }

    @Test("an empty snapshot is refused while rows are stored, unless allow_empty says it is legitimate")
    func emptySnapshot() async throws {
        try await withTestUpstream { upstream in
            upstream.setJSON("/users", Self.good)
            let toml = Self.configuration(users: upstream.url("/users"), other: upstream.url("/others"))
            var fixture = try SyncFixture(toml: toml)
            _ = try await fixture.sync("users")
            upstream.setJSON("/users", #"{"data": []}"#)

            let refused = try await fixture.sync("users")

            #expect(refused.outcome == .refused)
            #expect(
                refused.error
                    == "users: the response holds no records while 2 are stored; kept them (set allow_empty = true if an empty answer is legitimate)"
            )
            #expect(try fixture.scalar("SELECT count(*) FROM users") == .integer(2))

            try fixture.reconfigure(
                toml.replacingOccurrences(of: "max_body = \"2KiB\"", with: "max_body = \"2KiB\"\nallow_empty = true"))
            let allowed = try await fixture.sync("users")
            #expect(allowed.outcome == .changed && allowed.deleted == 2)
            #expect(try fixture.scalar("SELECT count(*) FROM users") == .integer(0))
        }
    }

    @Test("an upstream 401 names the kind of credentials, never the secret")
    func unauthorized() async throws {
        try await withTestUpstream { upstream in
            upstream.set("/users", .json(Array("{}".utf8), status: 401))
            var fixture = try SyncFixture(
                toml: Self.configuration(users: upstream.url("/users"), other: upstream.url("/others"))
                    .replacingOccurrences(
                        of: "max_body = \"2KiB\"", with: "auth = { type = \"bearer\", token_env = \"USERS_TOKEN\" }"))
            fixture.environment = ["USERS_TOKEN": "s3cr3t-t0ken"]

            let report = try await fixture.sync("users")

            #expect(
                report.error
                    == "users: HTTP 401 Unauthorized: the upstream refused the bearer credentials; kept the stored data"
            )
            #expect(upstream.requests.last?.header("Authorization") == "Bearer s3cr3t-t0ken")
            let stored =
                try fixture.rows("SELECT * FROM syncd_runs").map { "\($0.values)" }.joined()
                + (try fixture.rows("SELECT * FROM syncd_endpoints").map { "\($0.values)" }.joined())
            #expect(!stored.contains("s3cr3t"))
        }
    }
}
