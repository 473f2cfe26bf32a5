import Foundation
import SampleUpstream
import SyncTesting
import Synchronization
import Testing

/// Three `syncd run` processes on one PostgreSQL database (issue 12's cluster test): every endpoint is polled, never
/// by two nodes at once; a SIGKILLed node's endpoints go on at the others once its leases run out; a SIGTERMed
/// node hands its leases back as it exits. The interval (3 s for 300 endpoints: 100 polls a second) keeps the
/// three debug daemons from taking the machine from the suites that run beside them.
@Suite("syncd run nodes sharing PostgreSQL", .enabled(if: PostgresTestCluster.isAvailable))
struct PostgresClusterTests {
    static let endpoints = 300

    /// The upstream: `/e/N` answers one record after a little latency (so that two nodes fetching at once would
    /// overlap), and counts, per endpoint, the requests and the most answered at once.
    final class Tally: Sendable {
        struct State {
            var polls: [Int]
            var inFlight: [Int]
            var overlaps: [Int] = []
            var waiters: [(check: @Sendable ([Int]) -> Bool, resume: CheckedContinuation<Void, Never>)] = []
        }
        let state = Mutex(
            State(polls: Array(repeating: 0, count: endpoints), inFlight: Array(repeating: 0, count: endpoints)))

        func handle(_ request: UpstreamRequest) async -> UpstreamResponse {
            guard request.path.hasPrefix("/e/"), let index = Int(request.path.dropFirst(3)),
                (0..<endpoints).contains(index)
            else { return UpstreamResponse(status: 404) }
            state.withLock { state in
                state.inFlight[index] += 1
                if state.inFlight[index] > 1 { state.overlaps.append(index) }
            }
            try? await Task.sleep(for: .milliseconds(20))
            let ready = state.withLock { state in
                state.inFlight[index] -= 1
                state.polls[index] += 1
                let polls = state.polls
                let (ready, waiting) = (
                    state.waiters.filter { $0.check(polls) }, state.waiters.filter { !$0.check(polls) }
                )
                state.waiters = waiting
                return ready
            }
            for waiter in ready { waiter.resume.resume() }
            // The same record each time, with its ETag: after the first poll, a 304 (the lightest run there is).
            if request.header("If-None-Match") == "\"v1\"" {
                return UpstreamResponse(status: 304, headers: [(name: "ETag", value: "\"v1\"")])
            }
            return .json(Array(#"[{"id":\#(index)}]"#.utf8), headers: [(name: "ETag", value: "\"v1\"")])
        }

        /// Returns once `check` holds for the poll counts (checked at each answer), or throws after `seconds`.
        func wait(_ what: String, seconds: Int = 120, _ check: @escaping @Sendable ([Int]) -> Bool) async throws {
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    await withCheckedContinuation { continuation in
                        let now = self.state.withLock { state in
                            if check(state.polls) { return true }
                            state.waiters.append((check, continuation))
                            return false
                        }
                        if now { continuation.resume() }
                    }
                }
                group.addTask {
                    try await Task.sleep(for: .seconds(seconds))
                    throw TallyTimeout(what: what)
                }
                try await group.next()
                group.cancelAll()
            }
        }

        var polls: [Int] { state.withLock { $0.polls } }
        var overlaps: [Int] { state.withLock { $0.overlaps } }
    }

    struct TallyTimeout: Error, CustomStringConvertible {
        var what: String
        var description: String { "timed out waiting until \(what)" }
    }

    static func toml(database: String, baseURL: String, node: String, listen: String) -> String {
        var text = """
            database = "\(database)"

            [server]
            listen = "\(listen)"

            [cluster]
            node = "\(node)"
            lease = "3s"

            [defaults]
            concurrency = 4
            interval = "3s"

            """
        for index in 0..<endpoints {
            text += """

                [[endpoint]]
                name = "e\(index)"
                url = "\(baseURL)/e/\(index)"
                records = "$"
                primary_key = ["id"]
                columns = { id = { path = "id", type = "integer" } }

                """
        }
        return text
    }

    @Test(
        "three nodes poll 300 endpoints, none twice at once; a killed node's go on elsewhere, a stopped one's at once")
    func threeNodes() async throws {
        let database = try await PostgresTestCluster.shared().makeDatabase()
        let cluster = try await PostgresTestCluster.shared()
        let tally = Tally()
        let server = try await LoopbackHTTPServer.start { await tally.handle($0) }
        let workspaces = try ["n1", "n2", "n3"].map { node in
            try CLITests.Workspace(
                toml: Self.toml(
                    database: database, baseURL: server.baseURL, node: node,
                    listen: node == "n1" ? "127.0.0.1:0" : "off"))
        }
        defer { for workspace in workspaces { workspace.remove() } }
        let second = Mutex<SyncdProcess.Result?>(nil)
        let first = try await DaemonProcess.run(workspaces[0]) { notify1, signal1 in
            let address = try #require(ReadAPIDaemonTests.address(in: await notify1.waitFor("READY=1")))
            let result2 = try await DaemonProcess.run(workspaces[1]) { _, signal2 in
                let result3 = try await DaemonProcess.run(workspaces[2]) { _, signal3 in
                    try await tally.wait("every endpoint is polled twice") { $0.allSatisfy { $0 >= 2 } }
                    // A run's node is stored when it hands its lease back, after its request: on a loaded machine a
                    // lease can run out mid-run and its endpoint's next request come from another node first.
                    let recorded = try await cluster.waitFor(
                        database, "SELECT count(*) FROM syncd_endpoints WHERE last_node IS NULL", toBe: "0",
                        until: .now + .seconds(120))
                    #expect(recorded, "an endpoint's node was never recorded")
                    // The nodes shared the work.
                    let nodes = try await cluster.query(
                        database, "SELECT DISTINCT last_node FROM syncd_endpoints ORDER BY 1")
                    #expect(nodes == [["n1"], ["n2"], ["n3"]])
                    signal3(SIGKILL)
                }
                #expect(result3.status == SIGKILL)
                // What the killed node held: no other node takes it before its lease runs out, then they do.
                let held = try await cluster.query(
                    database, "SELECT endpoint FROM syncd_leases WHERE node = 'n3' AND expires_at > now()")
                let before = tally.polls
                // Twice: a poll's request reaches the upstream before its run commits, and an endpoint is polled
                // again only after its run before ended, so the second request says the first one's row is written.
                try await tally.wait("every endpoint is polled twice again without n3") { polls in
                    zip(polls, before).allSatisfy { $0 >= $1 + 2 }
                }
                for row in held {
                    let last = try await cluster.query(
                        database, "SELECT last_node FROM syncd_endpoints WHERE name = '\(row[0] ?? "")'")
                    #expect(last != [["n3"]], "\(row[0] ?? ""): still last polled by the killed node")
                }
                signal2(SIGTERM)
            }
            second.withLock { $0 = result2 }
            // A stopped node's claims are back the moment it has exited.
            let kept = try await cluster.query(
                database, "SELECT count(*) FROM syncd_leases WHERE node = 'n2' AND expires_at > now()")
            #expect(kept == [["0"]])
            let before = tally.polls
            try await tally.wait("every endpoint is polled again by n1 alone") { polls in
                zip(polls, before).allSatisfy { $0 >= $1 + 1 }
            }
            // /v1/endpoints and status say which node polled each endpoint last.
            let listing = try await SyncdProcess.shell("curl -sS http://\(address)/v1/endpoints")
            #expect(listing.standardOutput.contains(#""node":"n1""#))
            // (n1 still polls: the running columns may follow while a sync of this node runs.)
            let status = try await workspaces[0].run(["status", "--format", "csv"])
            #expect(
                status.standardOutput.split(whereSeparator: \.isNewline).first?.hasPrefix(
                    "endpoint,kind,records,version,last_success,last_status,failures,last_error,node") == true)
            signal1(SIGTERM)
        }
        try await server.shutdown()
        #expect(first.status == 0, "\(first.standardError)")
        #expect(second.withLock { $0?.status } == 0)
        #expect(tally.overlaps.isEmpty, "fetched by two nodes at once: \(Set(tally.overlaps).sorted())")
    }
}
