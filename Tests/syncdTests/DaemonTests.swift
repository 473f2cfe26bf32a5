import Foundation
import SampleUpstream
import Synchronization
import Testing

/// `syncd run` as systemd runs it: events come through a NOTIFY_SOCKET the test listens on.
@Suite("syncd run")
struct DaemonTests {
    @Test("the daemon syncs, survives a SIGHUP with a broken config, applies a good one, and exits 0 on SIGTERM")
    func lifecycle() async throws {
        let upstream = DemoUpstream(userCount: 8)
        let server = try await LoopbackHTTPServer.start { upstream.handle($0) }
        let toml = CLITests.toml(server.baseURL)
        let workspace = try CLITests.Workspace(toml: toml)
        defer { workspace.remove() }
        let notify = try NotifyListener(directory: workspace.path)
        let pid = Mutex<Int32>(0)
        async let daemon = SyncdProcess.run(
            ["run", "--config", workspace.config], environment: ["NOTIFY_SOCKET": notify.path]
        ) { started in pid.withLock { $0 = started } }

        let startup = await notify.waitFor("READY=1")
        #expect(startup.last == "READY=1\nSTATUS=syncing 2 endpoints")
        let synced = await notify.waitFor("STATUS=users: 200", "STATUS=flags: 200")
        #expect(synced.contains { $0.hasPrefix("STATUS=users: 200") && $0.hasSuffix("→ version 1") })

        try (toml + "\nnot_a_key = 1\n").write(toFile: workspace.config, atomically: true, encoding: .utf8)
        kill(pid.withLock { $0 }, SIGHUP)
        let refused = await notify.waitFor("READY=1")
        #expect(refused.first?.hasPrefix("RELOADING=1\nMONOTONIC_USEC=") == true)
        #expect(refused.last?.contains("STATUS=configuration not reloaded: \(workspace.config):") == true)
        #expect(refused.last?.contains("unknown key \"not_a_key\"") == true)

        let more = toml + """

            [[endpoint]]
            name = "more"
            url = "\(server.baseURL)/users"
            records = "$"
            primary_key = ["id"]

            [endpoint.columns]
            id = { path = "id", type = "integer" }
            """
        try more.write(toFile: workspace.config, atomically: true, encoding: .utf8)
        kill(pid.withLock { $0 }, SIGHUP)
        let reloaded = await notify.waitFor("STATUS=more: 200", "STATUS=reloaded")
        #expect(reloaded.contains("READY=1\nSTATUS=reloaded: syncing 3 endpoints"))

        kill(pid.withLock { $0 }, SIGTERM)
        let stopping = await notify.waitFor("STOPPING=1")
        #expect(stopping.last == "STOPPING=1")
        let result = try await daemon
        try await server.shutdown()
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardError.contains("info syncd: Stopped"))
        let count = try await workspace.run(["sql", "SELECT count(*) AS n FROM more", "--format", "csv"])
        #expect(count.standardOutput == "n\r\n8\r\n")
    }
}
