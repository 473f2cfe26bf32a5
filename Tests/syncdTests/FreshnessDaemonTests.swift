import Foundation
import SampleUpstream
import Testing

/// `freshness = "upstream"` in a running daemon: `syncd status` and the read API say when each endpoint is polled
/// next and why.
@Suite("syncd run: the upstream's freshness, in status and the read API")
struct FreshnessDaemonTests {
    static func toml(_ baseURL: String) -> String {
        """
        database = "cache.db"

        [defaults]
        freshness = "upstream"
        min_interval = "1m"
        jitter = 0

        [server]
        listen = "127.0.0.1:0"

        [[endpoint]]
        name = "users"
        url = "\(baseURL)/users"
        records = "$"
        primary_key = ["id"]

        [endpoint.columns]
        id = { path = "id", type = "integer" }

        [[endpoint]]
        name = "plain"
        url = "\(baseURL)/plain"
        records = "$"
        primary_key = ["id"]
        freshness = "interval"

        [endpoint.columns]
        id = { path = "id", type = "integer" }
        """
    }

    @Test("status shows next_poll and schedule; /v1/endpoints says schedule_reason")
    func statusAndReadAPI() async throws {
        let server = try await LoopbackHTTPServer.start { request in
            let body = Array(#"[{"id": 1}]"#.utf8)
            return request.path == "/users"
                ? .json(body, headers: [(name: "Cache-Control", value: "public, max-age=7200")]) : .json(body)
        }
        let workspace = try CLITests.Workspace(toml: Self.toml(server.baseURL))
        defer { workspace.remove() }
        let result = try await DaemonProcess.run(workspace) { notify, signal in
            let address = try #require(ReadAPIDaemonTests.address(in: await notify.waitFor("READY=1")))
            // A run's report goes out once its next due time is stored.
            _ = await notify.waitFor("STATUS=users: 200", "STATUS=plain: 200")
            let status = try await workspace.run(["status", "--format", "json"])
            #expect(status.status == 0)
            let rows = try #require(
                try JSONSerialization.jsonObject(with: Data(status.standardOutput.utf8)) as? [[String: Any]])
            let users = try #require(rows.first { $0["endpoint"] as? String == "users" })
            let plain = try #require(rows.first { $0["endpoint"] as? String == "plain" })
            #expect((users["schedule"] as? String)?.hasPrefix("max-age: fresh for ") == true, "\(users)")
            #expect(plain["schedule"] as? String == "interval", "\(plain)")
            let timestamps = ISO8601DateFormatter()
            timestamps.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
            let next = try #require((users["next_poll"] as? String).flatMap(timestamps.date(from:)))
            #expect(next.timeIntervalSinceNow > 7000 && next.timeIntervalSinceNow <= 7201)
            let endpoints = try await SyncdProcess.shell("curl -sS http://\(address)/v1/endpoints")
            #expect(endpoints.standardOutput.contains(#""schedule_reason":"max-age: fresh for "#), "\(endpoints)")
            signal(SIGTERM)
        }
        #expect(result.status == 0)
        try await server.shutdown()
    }
}
