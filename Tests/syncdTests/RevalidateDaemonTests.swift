import Foundation
import SampleUpstream
import Testing

/// `[server] allow_revalidate = true` on a running daemon, asked by curl: a request's `Cache-Control: max-age=N`
/// syncs an endpoint whose copy is older first; an upstream that fails leaves the stored copy answered, stale, with
/// the reason in `Cache-Status`. (Readers asking at once share one run: SyncCacheRefreshTests, where the test can wait
/// until every reader waits on the held run; over the network a late reader could come after it ends.)
@Suite("syncd run: read-through freshness (Cache-Control: max-age on a request)")
struct RevalidateDaemonTests {
    typealias Upstream = WebhookDaemonTests.Upstream

    static func toml(_ baseURL: String, allow: Bool) -> String {
        """
        database = "cache.db"

        [defaults]
        interval = "1h"
        jitter = 0
        retries = 0
        timeout = "10m"

        [server]
        listen = "127.0.0.1:0"
        allow_revalidate = \(allow)

        [[endpoint]]
        name = "users"
        url = "\(baseURL)/users"
        records = "$"
        primary_key = ["id"]
        columns = { id = { path = "id", type = "integer" } }
        """
    }

    static func withDaemon(
        allow: Bool, _ upstream: Upstream, _ body: (String) async throws -> Void
    ) async throws -> SyncdProcess.Result {
        let server = try await LoopbackHTTPServer.start { await upstream.handle($0) }
        let workspace = try CLITests.Workspace(toml: toml(server.baseURL, allow: allow))
        defer { workspace.remove() }
        let result = try await DaemonProcess.run(workspace) { notify, signal in
            let address = try #require(ReadAPIDaemonTests.address(in: await notify.waitFor("READY=1")))
            _ = await notify.waitFor("STATUS=users: 200")
            try await body(address)
            signal(SIGTERM)
        }
        upstream.release()
        try await server.shutdown()
        return result
    }

    /// curl's answer to `GET path` with `headers`: the status, the `Cache-Status` and the body.
    static func get(_ address: String, _ path: String, _ headers: [String] = []) async throws -> (
        status: Int, cacheStatus: String, body: String
    ) {
        let arguments = headers.map { "-H '\($0)'" }.joined(separator: " ")
        let result = try await SyncdProcess.shell(
            "curl -sS -D - \(arguments) http://\(address)\(path)")
        let text = result.standardOutput.replacingOccurrences(of: "\r\n", with: "\n")
        let parts = text.components(separatedBy: "\n\n")
        let head = parts.first ?? ""
        let status = Int(head.split(separator: " ").dropFirst().first ?? "") ?? 0
        let cacheStatus =
            head.split(separator: "\n").first { $0.lowercased().hasPrefix("cache-status:") }
            .map { String($0.dropFirst("cache-status:".count)).trimmingCharacters(in: .whitespaces) } ?? ""
        return (status, cacheStatus, parts.dropFirst().joined(separator: "\n\n"))
    }

    @Test("max-age older than the copy syncs first; younger asks nothing; a failing upstream leaves the copy, stale")
    func revalidates() async throws {
        let upstream = Upstream()
        let result = try await Self.withDaemon(allow: true, upstream) { address in
            let young = try await Self.get(address, "/v1/endpoints/users/records/1", ["Cache-Control: max-age=3600"])
            #expect(young.status == 200)
            #expect(young.cacheStatus.hasPrefix("syncd; hit; ttl="), "\(young.cacheStatus)")
            #expect(young.body.contains(#""n": 1"#) || young.body.contains(#""n":1"#), "\(young.body)")
            #expect(upstream.requests("/users") == 1)

            let old = try await Self.get(address, "/v1/endpoints/users/records/1", ["Cache-Control: max-age=0"])
            #expect(old.status == 200)
            #expect(old.cacheStatus == "syncd; fwd=request; stored")
            #expect(old.body.contains(#""n": 2"#) || old.body.contains(#""n":2"#), "the new copy: \(old.body)")
            #expect(upstream.requests("/users") == 2)

            upstream.fail(true)
            let offline = try await Self.get(address, "/rest/users", ["Cache-Control: no-cache"])
            #expect(offline.status == 200)
            #expect(offline.cacheStatus.hasPrefix(#"syncd; hit; fwd=request; detail="stale-if-error: the sync failed"#))
            #expect(offline.body.contains(#""n": 2"#) || offline.body.contains(#""n":2"#), "\(offline.body)")
            #expect(upstream.requests("/users") == 3)
            // Backing off now: asked again, the upstream is not, and the answer says why.
            let backingOff = try await Self.get(address, "/rest/users", ["Cache-Control: max-age=0"])
            #expect(backingOff.cacheStatus.contains("backing off"), "\(backingOff.cacheStatus)")
            #expect(upstream.requests("/users") == 3)
        }
        #expect(result.status == 0)
    }

    @Test("without allow_revalidate a request's Cache-Control asks for nothing")
    func offByDefault() async throws {
        let upstream = Upstream()
        let result = try await Self.withDaemon(allow: false, upstream) { address in
            let answer = try await Self.get(address, "/v1/endpoints/users/records/1", ["Cache-Control: max-age=0"])
            #expect(answer.status == 200)
            #expect(answer.cacheStatus.hasPrefix("syncd; hit; ttl="), "\(answer.cacheStatus)")
            #expect(upstream.requests("/users") == 1)
        }
        #expect(result.status == 0)
    }

    @Test("syncd get --max-age syncs first when the copy is older, prints the stored copy when the upstream fails")
    func getMaxAge() async throws {
        let upstream = Upstream()
        let server = try await LoopbackHTTPServer.start { await upstream.handle($0) }
        let workspace = try CLITests.Workspace(toml: Self.toml(server.baseURL, allow: false))
        defer { workspace.remove() }
        #expect(try await workspace.run(["sync"]).status == 0)
        let young = try await workspace.run(["get", "users", "1", "--max-age", "1h"])
        #expect(young.status == 0)
        #expect(!young.standardError.contains("Cache-Status"), "\(young.standardError)")
        #expect(upstream.requests("/users") == 1)

        let old = try await workspace.run(["get", "users", "1", "--max-age", "0"])
        #expect(old.status == 0)
        #expect(old.standardError.contains("Cache-Status: syncd; fwd=request; stored"), "\(old.standardError)")
        #expect(old.standardOutput.contains(#""n": 2"#), "\(old.standardOutput)")
        #expect(upstream.requests("/users") == 2)

        upstream.fail(true)
        let offline = try await workspace.run(["get", "users", "1", "--max-age", "0s"])
        #expect(offline.status == 0, "\(offline.standardError)")
        #expect(offline.standardOutput.contains(#""n": 2"#), "the stored copy: \(offline.standardOutput)")
        #expect(
            offline.standardError.contains(
                #"Cache-Status: syncd; hit; fwd=request; detail="stale-if-error: the sync failed"#),
            "\(offline.standardError)")

        let bad = try await workspace.run(["get", "users", "1", "--max-age", "5x"])
        #expect(bad.status != 0)
        #expect(bad.standardError.contains("max-age"), "\(bad.standardError)")
        try await server.shutdown()
    }
}
