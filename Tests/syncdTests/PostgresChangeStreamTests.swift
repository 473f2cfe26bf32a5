import Foundation
import SampleUpstream
import SyncTesting
import Testing

/// The change feed live on PostgreSQL: `syncd run`'s event stream gets a commit another process made (another node),
/// which the daemon notices by PostgreSQL's commit counter, not by a sync of its own.
@Suite("syncd run on PostgreSQL: the change feed as an event stream", .enabled(if: PostgresTestCluster.isAvailable))
struct PostgresChangeStreamTests {
    @Test("a stream read with curl -N gets, as an event, the sync another syncd process committed")
    func streamSeesAnotherProcess() async throws {
        let database = try await PostgresTestCluster.shared().makeDatabase()
        let upstream = DemoUpstream(userCount: 8)
        let server = try await LoopbackHTTPServer.start { upstream.handle($0) }
        // Polled every 5 minutes (the default): the daemon itself does not sync again during the test.
        let workspace = try CLITests.Workspace(toml: PostgresCLITests.toml(database: database, baseURL: server.baseURL))
        defer { workspace.remove() }
        let output = workspace.path + "/stream.out"
        func events() -> Int {
            ((try? String(contentsOfFile: output, encoding: .utf8)) ?? "").components(separatedBy: "event: changes")
                .count - 1
        }
        func until(_ count: Int) async {
            let deadline = ContinuousClock.now.advanced(by: .seconds(60))
            while events() < count, ContinuousClock.now < deadline { try? await Task.sleep(for: .milliseconds(20)) }
        }
        let result = try await DaemonProcess.run(workspace) { notify, signal in
            let messages = await notify.waitFor("READY=1", "STATUS=users: 200", "STATUS=flags: 200")
            let address = try #require(ReadAPIDaemonTests.address(in: messages), "\(messages)")
            let curl = try ChildProcess.spawn(
                "/usr/bin/curl",
                [
                    "-sS", "-N", "-H", "Accept: text/event-stream",
                    "http://\(address)/v1/endpoints/users/changes?since=0",
                ],
                standardOutput: .file(output), standardError: .standardOutput)
            await until(1)
            #expect(events() == 1, "the first sync's changes")
            upstream.advance()
            let sync = try await workspace.run(["sync", "users"])
            #expect(sync.status == 0, "\(sync.standardError)")
            await until(2)
            #expect(
                events() == 2,
                "the other process's commit: \(String(describing: try? String(contentsOfFile: output, encoding: .utf8)))"
            )
            curl.send(SIGTERM)
            _ = await curl.wait()
            signal(SIGTERM)
        }
        try await server.shutdown()
        #expect(result.status == 0, "\(result.standardError)")
    }
}
