import Crypto
import Foundation
import SampleUpstream
import SyncTesting
import Synchronization
import Testing

/// `POST /v1/hooks/{name}` on a running daemon, sent by curl: a signed hook syncs its endpoint at once, a hook that
/// is not signed with the secret over the exact body is refused, a storm of hooks is one run and one more, and the
/// body is neither kept nor logged.
@Suite("syncd run: webhooks sync an endpoint at once")
struct WebhookDaemonTests {
    /// An upstream whose `/users` and `/charges` count their requests, and can be held: a held request waits until
    /// ``release()``, so that a test knows a run is under way while it sends hooks.
    final class Upstream: Sendable {
        private struct State {
            var requests: [String: Int] = [:]
            var failing = false
        }

        private let state = Mutex(State())
        private let gate = RequestGate()
        let arrivals = AsyncStream<String>.makeStream()

        func handle(_ request: UpstreamRequest) async -> UpstreamResponse {
            let (failing, count) = state.withLock { state in
                state.requests[request.path, default: 0] += 1
                return (state.failing, state.requests[request.path, default: 0])
            }
            arrivals.continuation.yield(request.path)
            await gate.pass()
            if failing { return UpstreamResponse(status: 503, headers: [], body: []) }
            // Each answer differs: a record carries the request's number.
            return .json(Array(#"[{"id": 1, "n": \#(count)}, {"id": 2}]"#.utf8))
        }

        /// Makes the upstream answer 503 (true) or its records again.
        func fail(_ failing: Bool) { state.withLock { $0.failing = failing } }

        func requests(_ path: String) -> Int { state.withLock { $0.requests[path, default: 0] } }

        /// Holds every request from now on until ``release()``.
        func hold() { gate.hold() }

        func release() { gate.release() }
    }

    static let secret = "It's a Secret to Everybody"
    static let stripeSecret = "whsec_test_secret"
    /// Words in every hook body, which must appear in no log line and nowhere in the database file.
    static let marker = "payload-marker-7f3a"

    static func toml(_ baseURL: String, directory: String) -> String {
        """
        database = "cache.db"

        [defaults]
        interval = "1h"
        jitter = 0
        # A run held at the upstream while 10,000 hooks come is not cut short, nor tried again: each request counts.
        timeout = "10m"
        retries = 0

        [server]
        listen = "127.0.0.1:0"

        [[endpoint]]
        name = "users"
        url = "\(baseURL)/users"
        records = "$"
        primary_key = ["id"]
        columns = { id = { path = "id", type = "integer" } }
        webhook = { secret_file = "\(directory)/github.secret", signature = "github" }

        [[endpoint]]
        name = "charges"
        url = "\(baseURL)/charges"
        records = "$"
        primary_key = ["id"]
        columns = { id = { path = "id", type = "integer" } }
        webhook = { secret_file = "\(directory)/stripe.secret", signature = "stripe", tolerance = "5m" }
        """
    }

    static func hex(_ bytes: some Sequence<UInt8>) -> String {
        bytes.map { String($0 >> 4, radix: 16) + String($0 & 0xF, radix: 16) }.joined()
    }

    static func hmac(_ text: String, key: String) -> String {
        hex(HMAC<SHA256>.authenticationCode(for: Data(text.utf8), using: SymmetricKey(data: Data(key.utf8))))
    }

    /// Starts the daemon on a workspace for `upstream`, waits for its first syncs of both endpoints, and gives
    /// `body` the read API's address; the daemon is stopped after.
    /// `posts`, a child endpoint of `users`: one walk per user, its hook naming the user in `user.id`.
    static let posts = """

        [[endpoint]]
        name = "posts"
        parent = "users"
        parent_columns = { user_id = "id" }
        url = "{parent_url}/users/{parent.id}/posts"
        records = "$"
        primary_key = ["user_id", "id"]
        columns = { id = { path = "id", type = "integer" } }
        webhook = { secret_file = "{directory}/github.secret", signature = "github", parent_key = "user.id" }
        """

    static func withDaemon(
        _ upstream: Upstream, child: Bool = false,
        _ body: (String, NotifyListener, CLITests.Workspace) async throws -> Void
    ) async throws -> SyncdProcess.Result {
        let server = try await LoopbackHTTPServer.start { await upstream.handle($0) }
        let workspace = try CLITests.Workspace(toml: "")
        defer { workspace.remove() }
        try Self.secret.write(toFile: workspace.path + "/github.secret", atomically: true, encoding: .utf8)
        try Self.stripeSecret.write(toFile: workspace.path + "/stripe.secret", atomically: true, encoding: .utf8)
        var text = toml(server.baseURL, directory: workspace.path)
        if child {
            text += posts.replacingOccurrences(of: "{parent_url}", with: server.baseURL)
                .replacingOccurrences(of: "{directory}", with: workspace.path)
        }
        try text.write(toFile: workspace.config, atomically: true, encoding: .utf8)
        let result = try await DaemonProcess.run(
            ["run", "--config", workspace.config], directory: workspace.path,
            launcher: ["/usr/bin/env", "SYNCD_LOG_LEVEL=debug"]
        ) { notify, signal in
            let address = try #require(ReadAPIDaemonTests.address(in: await notify.waitFor("READY=1")))
            if child {
                _ = await notify.waitFor("STATUS=users: 200", "STATUS=charges: 200", "STATUS=posts:")
            } else {
                _ = await notify.waitFor("STATUS=users: 200", "STATUS=charges: 200")
            }
            try await body(address, notify, workspace)
            signal(SIGTERM)
        }
        upstream.release()
        try await server.shutdown()
        let database = try Data(contentsOf: URL(fileURLWithPath: workspace.path + "/cache.db"))
        #expect(database.range(of: Data(marker.utf8)) == nil, "the database holds a hook's body")
        return result
    }

    /// curl posting `body` to the hook of `endpoint` with `headers`: the status, then the answer's body.
    static func post(
        _ address: String, _ endpoint: String, body: String, headers: [String] = [], extra: String = ""
    ) async throws -> (status: Int, body: String) {
        let headerArguments = headers.map { "-H '\($0)'" }.joined(separator: " ")
        let result = try await SyncdProcess.shell(
            "printf '%s' '\(body)' | curl -sS -X POST \(headerArguments) \(extra) --data-binary @- "
                + "-w '\\n%{http_code}' http://\(address)/v1/hooks/\(endpoint)")
        let lines = result.standardOutput.split(separator: "\n", omittingEmptySubsequences: false)
        return (Int(lines.last ?? "") ?? 0, lines.dropLast().joined(separator: "\n"))
    }

    @Test("a GitHub-signed hook syncs at once; a wrong signature, a changed body, a missing header are refused")
    func github() async throws {
        let upstream = Upstream()
        let body = #"{"action":"edited","note":"\#(Self.marker)"}"#
        let signature = "X-Hub-Signature-256: sha256=" + Self.hmac(body, key: Self.secret)
        let result = try await Self.withDaemon(upstream) { address, notify, _ in
            let changed = try await Self.post(address, "users", body: body + " ", headers: [signature])
            #expect(changed.status == 403)
            #expect(changed.body.contains("The signature does not match the body."), "\(changed.body)")
            let wrong = try await Self.post(
                address, "users", body: body,
                headers: ["X-Hub-Signature-256: sha256=" + Self.hmac(body, key: "another secret")])
            #expect(wrong.status == 403)
            let missing = try await Self.post(address, "users", body: body)
            #expect(missing.status == 403)
            #expect(missing.body.contains("The hook has no X-Hub-Signature-256 header."), "\(missing.body)")
            let unknown = try await Self.post(address, "nope", body: body, headers: [signature])
            #expect(unknown.status == 404)
            #expect(upstream.requests("/users") == 1)

            let accepted = try await Self.post(address, "users", body: body, headers: [signature])
            #expect(accepted.status == 202)
            #expect(accepted.body.trimmingCharacters(in: .whitespacesAndNewlines) == #"{"endpoint":"users"}"#)
            _ = await notify.waitFor("STATUS=users: 200")
            #expect(upstream.requests("/users") == 2)
            #expect(upstream.requests("/charges") == 1)
        }
        #expect(result.status == 0)
        #expect(!result.standardError.contains(Self.marker) && !result.standardOutput.contains(Self.marker))
        #expect(!result.standardError.contains(Self.secret))
        #expect(result.standardError.contains("A webhook asked for a run"), "the debug log says what came")
    }

    @Test("a Stripe hook signed now syncs; one signed an hour ago is refused as a replay")
    func stripe() async throws {
        let upstream = Upstream()
        let body = #"{"id":"evt_1","note":"\#(Self.marker)"}"#
        func header(_ time: Int) -> String {
            "Stripe-Signature: t=\(time),v1=" + Self.hmac("\(time).\(body)", key: Self.stripeSecret)
        }
        let result = try await Self.withDaemon(upstream) { address, notify, _ in
            let now = Int(Date().timeIntervalSince1970)
            let replay = try await Self.post(address, "charges", body: body, headers: [header(now - 3600)])
            #expect(replay.status == 403)
            #expect(replay.body.contains("outside the tolerance of 300 s: a replay is refused."), "\(replay.body)")
            let fresh = try await Self.post(address, "charges", body: body, headers: [header(now)])
            #expect(fresh.status == 202)
            _ = await notify.waitFor("STATUS=charges: 200")
            #expect(upstream.requests("/charges") == 2)
        }
        #expect(result.status == 0)
    }

    @Test("10,000 hooks while a run is under way are one more run, not 10,000; the schedule then waits its interval")
    func storm() async throws {
        let upstream = Upstream()
        let body = #"{"ref":"refs/heads/main","note":"\#(Self.marker)"}"#
        let signature = "X-Hub-Signature-256: sha256=" + Self.hmac(body, key: Self.secret)
        let result = try await Self.withDaemon(upstream) { address, notify, workspace in
            upstream.hold()
            var arrivals = upstream.arrivals.stream.makeAsyncIterator()
            while upstream.requests("/users") < 2 {
                #expect(try await Self.post(address, "users", body: body, headers: [signature]).status == 202)
                _ = await arrivals.next()
            }
            // The run is held at the upstream: 10,000 more hooks, on one connection curl keeps open.
            let urls = workspace.path + "/urls"
            let hook = "url = \"http://\(address)/v1/hooks/users\"\noutput = \"/dev/null\"\n"
            try String(repeating: hook, count: 10_000).write(
                toFile: urls, atomically: true, encoding: .utf8)
            try body.write(toFile: workspace.path + "/body.json", atomically: true, encoding: .utf8)
            let storm = try await SyncdProcess.shell(
                "curl -sS -X POST -H '\(signature)' --data-binary @\(workspace.path)/body.json -K \(urls) "
                    + "-w '%{http_code}\\n' | sort | uniq -c")
            #expect(storm.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines) == "10000 202")
            upstream.release()
            // The held run, then exactly one more.
            _ = await notify.waitFor("STATUS=users: 200")
            _ = await notify.waitFor("STATUS=users: 200")
            #expect(upstream.requests("/users") == 3)
            // Its next poll is an interval away: no other run waits behind it.
            let status = try await workspace.run(["status", "--format", "json"])
            let rows = try #require(
                try JSONSerialization.jsonObject(with: Data(status.standardOutput.utf8)) as? [[String: Any]])
            let users = try #require(rows.first { $0["endpoint"] as? String == "users" })
            #expect(users["schedule"] as? String == "interval", "\(users)")
        }
        #expect(result.status == 0)
    }

    @Test("a 100 MB hook is refused at its Content-Length, and a chunked one once 25 MiB have come; neither is kept")
    func largeBodies() async throws {
        let upstream = Upstream()
        let result = try await Self.withDaemon(upstream) { address, _, workspace in
            let signature = "X-Hub-Signature-256: sha256=" + String(repeating: "0", count: 64)
            for chunked in [false, true] {
                let extra = chunked ? "-H 'Transfer-Encoding: chunked'" : ""
                let answer = try await SyncdProcess.shell(
                    "head -c 100000000 /dev/zero | curl -sS -X POST -H '\(signature)' \(extra) --data-binary @- "
                        + "-o \(workspace.path)/answer -w '%{http_code}' http://\(address)/v1/hooks/users")
                #expect(answer.standardOutput == "413", "chunked: \(chunked), \(answer)")
                let text = (try? String(contentsOfFile: workspace.path + "/answer", encoding: .utf8)) ?? ""
                #expect(text.contains("larger than 25 MiB"), "\(text)")
            }
            #expect(upstream.requests("/users") == 1)
        }
        #expect(result.status == 0)
    }

    @Test("a child endpoint's hook naming its parent row re-walks that parent only; the full walk keeps its time")
    func childParent() async throws {
        let upstream = Upstream()
        let result = try await Self.withDaemon(upstream, child: true) { address, notify, workspace in
            func sign(_ body: String) -> String { "X-Hub-Signature-256: sha256=" + Self.hmac(body, key: Self.secret) }
            // A hook that names no user walks them all (the first run may have found no users yet).
            let whole = #"{"action":"opened","note":"\#(Self.marker)"}"#
            #expect(try await Self.post(address, "posts", body: whole, headers: [sign(whole)]).status == 202)
            _ = await notify.waitFor("STATUS=posts:")
            let (one, two) = (upstream.requests("/users/1/posts"), upstream.requests("/users/2/posts"))
            #expect(one >= 1 && two >= 1)

            let named = #"{"action":"opened","user":{"id":2,"login":"b"},"note":"\#(Self.marker)"}"#
            #expect(try await Self.post(address, "posts", body: named, headers: [sign(named)]).status == 202)
            _ = await notify.waitFor("STATUS=posts:")
            #expect(upstream.requests("/users/2/posts") == two + 1)
            #expect(upstream.requests("/users/1/posts") == one, "user 1 is not walked again")
            // The full walk stays an interval after the last one.
            let status = try await workspace.run(["status", "--format", "json"])
            let rows = try #require(
                try JSONSerialization.jsonObject(with: Data(status.standardOutput.utf8)) as? [[String: Any]])
            let posts = try #require(rows.first { $0["endpoint"] as? String == "posts" })
            #expect(posts["schedule"] as? String == "interval", "\(posts)")
        }
        #expect(result.status == 0)
    }
}
