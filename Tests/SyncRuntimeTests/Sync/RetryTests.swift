import Foundation
import SampleUpstream
import SyncTesting
import Synchronization
import Testing

@testable import SyncCore
@testable import SyncRuntime

/// Within one run: connection failures, timeouts, cut-off bodies, 5xx and 429 are retried with backoff,
/// honouring Retry-After; other answers are not. The engine's waits are recorded, never waited.
@Suite("sync: retries within a run")
struct RetryTests {
    static func toml(_ url: String, extra: String = "") -> String {
        """
        [[endpoint]]
        name = "users"
        url = "\(url)"
        records = "$"
        primary_key = ["id"]
        \(extra)

        [endpoint.columns]
        id = { path = "id", type = "integer" }
        """
    }

    @Test("5xx twice, then a 200: three attempts, backoff 1 s then 2 s (±20%)")
    func serverErrors() async throws {
        let answers = Mutex([500, 503, 200])
        let server = try await LoopbackHTTPServer.start { _ in
            let status = answers.withLock { $0.count > 1 ? $0.removeFirst() : $0[0] }
            return status == 200 ? .json(Array(#"[{"id": 1}]"#.utf8)) : .json(Array("{}".utf8), status: status)
        }
        let fixture = try SyncFixture(toml: Self.toml(server.baseURL + "/users"))
        let report = try await fixture.sync("users")
        try await server.shutdown()
        #expect(report.outcome == .changed)
        #expect(server.requestCount == 3)
        let waits = fixture.sleeps.durations.map(SyncEngine.seconds)
        #expect(waits.count == 2)
        #expect((0.8...1.2).contains(waits.first ?? 0) && (1.6...2.4).contains(waits.last ?? 0), "\(waits)")
    }

    @Test("a 429's Retry-After is waited when it is within retry_max_delay")
    func retryAfterWithinLimit() async throws {
        let answers = Mutex([429, 200])
        let server = try await LoopbackHTTPServer.start { _ in
            let status = answers.withLock { $0.count > 1 ? $0.removeFirst() : $0[0] }
            return status == 200
                ? .json(Array(#"[{"id": 1}]"#.utf8))
                : .json(Array("{}".utf8), status: 429, headers: [(name: "Retry-After", value: "7")])
        }
        let fixture = try SyncFixture(toml: Self.toml(server.baseURL + "/users"))
        let report = try await fixture.sync("users")
        try await server.shutdown()
        #expect(report.outcome == .changed)
        #expect(fixture.sleeps.durations == [.seconds(7)])
    }

    @Test("a Retry-After beyond retry_max_delay ends the run at once, for the scheduler to honour")
    func retryAfterBeyondLimit() async throws {
        let server = try await LoopbackHTTPServer.start { _ in
            .json(Array("{}".utf8), status: 429, headers: [(name: "Retry-After", value: "600")])
        }
        let fixture = try SyncFixture(toml: Self.toml(server.baseURL + "/users", extra: #"retry_max_delay = "5m""#))
        let report = try await fixture.sync("users")
        try await server.shutdown()
        #expect(report.outcome == .failed && report.retryAfter == 600)
        #expect(server.requestCount == 1)
        #expect(fixture.sleeps.durations.isEmpty)
    }

    @Test("other 4xx answers are not retried", arguments: [400, 401, 404, 410])
    func clientErrors(status: Int) async throws {
        let server = try await LoopbackHTTPServer.start { _ in .json(Array("{}".utf8), status: status) }
        let fixture = try SyncFixture(toml: Self.toml(server.baseURL + "/users"))
        let report = try await fixture.sync("users")
        try await server.shutdown()
        #expect(report.outcome == .failed)
        #expect(server.requestCount == 1)
    }

    @Test("a body cut off once is fetched again; `retries` bounds the attempts")
    func truncatedThenWhole() async throws {
        let body = Array(#"[{"id": 1}, {"id": 2}]"#.utf8)
        let cuts = Mutex(1)
        let server = try await LoopbackHTTPServer.start { _ in
            let cut = cuts.withLock { count -> Bool in
                defer { count -= 1 }
                return count > 0
            }
            return UpstreamResponse(status: 200, body: body, delivery: cut ? .truncated(afterBytes: 5) : .complete)
        }
        let fixture = try SyncFixture(toml: Self.toml(server.baseURL + "/users"))
        let report = try await fixture.sync("users")
        #expect(report.outcome == .changed && report.inserted == 2)
        #expect(server.requestCount == 2)

        cuts.withLock { $0 = 100 }
        let limited = try SyncFixture(toml: Self.toml(server.baseURL + "/users", extra: "retries = 2"))
        let failed = try await limited.sync("users")
        try await server.shutdown()
        #expect(failed.outcome == .failed)
        #expect(server.requestCount == 2 + 3)
        #expect(limited.sleeps.durations.count == 2)
    }
}
