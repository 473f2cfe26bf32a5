import Foundation
import Prometheus
import SyncTesting
import Testing

@testable import SyncCore
@testable import SyncSQLite
@testable import SyncServe

/// Freshness headers on an injected clock, the bearer token, /metrics, /v1/endpoints and a Unix socket.
@Suite("read API: freshness, token, metrics and sockets")
struct ReadAPIServiceTests {
    @Test("Cache-Control, Age and Cache-Status follow the poll schedule; overdue or failed polls still serve, stale")
    func freshness() async throws {
        let (fixture, files) = try await ReadAPIFixture.fixture()
        defer { _ = files }
        try await ReadAPIHarness.with(fixture) { api in
            let fresh = try await api.get("/v1/endpoints/users/records/1")
            #expect(fresh.header("Cache-Control") == "max-age=60, stale-while-revalidate=10, stale-if-error=1920")
            #expect(fresh.header("Age") == "0")
            #expect(fresh.header("Cache-Status") == "syncd; hit; ttl=60")

            fixture.clock.advance(by: 45)
            let older = try await api.get("/v1/endpoints/users/records/1")
            #expect(
                older.header("Cache-Control") == "max-age=60, stale-while-revalidate=10, stale-if-error=1920",
                "max-age - Age is what is left: 15 s")
            #expect(older.header("Age") == "45")

            // Due at +60, its 10 s timeout spent at +70: overdue.
            fixture.clock.advance(by: 30)
            let overdue = try await api.get("/v1/endpoints/users/records/1")
            #expect(overdue.status == 200)
            #expect(overdue.body == fresh.body)
            #expect(overdue.header("Cache-Control") == "max-age=0, stale-while-revalidate=10, stale-if-error=1920")
            #expect(overdue.header("Cache-Status") == #"syncd; hit; ttl=-15; detail="poll overdue""#)

            try "not json".write(toFile: files.file("users.json"), atomically: true, encoding: .utf8)
            try ReadAPIFixture.touch(files.file("users.json"), generation: 1)
            let failed = try await fixture.sync("users")
            #expect(failed.outcome == .failed)
            let served = try await api.get("/v1/endpoints/users/records?select=id")
            #expect(served.status == 200)
            #expect(served.body == #"[{"id":1},{"id":2},{"id":3},{"id":4}]"#)
            #expect(served.header("Cache-Status")?.hasSuffix(#"detail="last poll failed""#) == true)

            let list = try await api.get("/v1/endpoints")
            let endpoints = try #require(
                try JSONSerialization.jsonObject(with: Data(list.body.utf8)) as? [[String: Any]])
            #expect(endpoints.compactMap { $0["name"] as? String } == ["users", "regions", "flags"])
            #expect(endpoints.first?["fresh"] as? Bool == false)
            #expect(endpoints.first?["stale_reason"] as? String == "last poll failed")
            #expect(endpoints.first?["consecutive_failures"] as? Int == 1)
            #expect(endpoints.first?["records"] as? Int == 4)
            let health = try await api.get("/healthz")
            #expect(health.status == 200)
            #expect(health.body == #"{"status":"ok","endpoints":3,"stale":1}"#)  // the others poll every 5m
        }
    }

    @Test("with a token, a missing or wrong one is 401 on every route; the right one reads")
    func token() async throws {
        let (fixture, files) = try await ReadAPIFixture.fixture()
        defer { _ = files }
        let token = "s3cret-read-token"
        try await ReadAPIHarness.with(fixture, token: token) { api in
            for path in ["/v1/endpoints/users/records", "/healthz", "/metrics", "/rest/users", "/nowhere"] {
                for header in [nil, "Bearer wrong", "Bearer \(token)x", "Basic \(token)", "Bearer "] {
                    let answer = try await api.get(path, headers: header.map { [("Authorization", $0)] } ?? [])
                    #expect(answer.status == 401, "\(path) with \(header ?? "no header")")
                    #expect(answer.header("WWW-Authenticate") == #"Bearer realm="syncd""#)
                    #expect(answer.header("Content-Type") == "application/problem+json")
                    #expect(!answer.body.contains(token))
                }
            }
            let allowed = try await api.get(
                "/rest/users?select=id&limit=1", headers: [("Authorization", "bearer \(token)")])
            #expect(allowed.status == 200)
            #expect(allowed.body == #"[{"id":1}]"#)
        }
        #expect(ConstantTime.equals(Array("abc".utf8), Array("abc".utf8)))
        #expect(!ConstantTime.equals(Array("abc".utf8), Array("abcd".utf8)))
        #expect(!ConstantTime.equals(Array("".utf8), Array("a".utf8)))
        #expect(!ConstantTime.equals(Array("abd".utf8), Array("abc".utf8)))
    }

    @Test("/metrics counts requests by route and status, and the syncs the scheduler reports")
    func metrics() async throws {
        let (fixture, files) = try await ReadAPIFixture.fixture()
        defer { _ = files }
        try await ReadAPIHarness.with(fixture) { api in
            let metrics = api.syncMetrics
            var report = SyncSummary(endpoint: "users", outcome: .changed)
            report.inserted = 3
            report.updated = 1
            report.rejected = 2
            report.bytes = 512
            report.duration = .milliseconds(250)
            metrics.record(report)
            _ = try await api.get("/v1/endpoints/users/records")
            _ = try await api.get("/v1/endpoints/users/records")
            _ = try await api.get("/v1/endpoints/users/records/99")
            let text = try await api.get("/metrics")
            #expect(text.status == 200)
            #expect(text.header("Content-Type")?.hasPrefix("text/plain; version=0.0.4") == true)
            let lines = Set(text.body.split(separator: "\n").map(String.init))
            #expect(lines.contains(#"syncd_http_requests_total{route="/v1/endpoints/{name}/records",status="200"} 2"#))
            #expect(
                lines.contains(#"syncd_http_requests_total{route="/v1/endpoints/{name}/records/{id}",status="404"} 1"#))
            #expect(lines.contains(#"syncd_syncs_total{endpoint="users",outcome="changed"} 1"#))
            #expect(lines.contains(#"syncd_records_written_total{endpoint="users"} 4"#))
            #expect(lines.contains(#"syncd_records_rejected_total{endpoint="users"} 2"#))
            #expect(lines.contains(#"syncd_response_bytes_total{endpoint="users"} 512"#))
            #expect(lines.contains(#"syncd_sync_duration_seconds_count{endpoint="users"} 1"#))
            #expect(lines.contains(#"syncd_consecutive_failures{endpoint="users"} 0.0"#))
        }
    }

    @Test("listen = unix:PATH serves the same routes on a Unix socket, replacing a stale socket file")
    func unixSocket() async throws {
        let (fixture, files) = try await ReadAPIFixture.fixture()
        defer { _ = files }
        let socket = files.file("read.sock")
        try leaveStaleSocket(at: socket)
        #expect(FileManager.default.fileExists(atPath: socket))
        try await ReadAPIHarness.with(fixture, listen: .unix(path: socket)) { api in
            let answer = try await api.get("/v1/endpoints/users/records/4")
            #expect(answer.status == 200)
            #expect(answer.body.contains("Gwenborough"))
        }
    }
}
