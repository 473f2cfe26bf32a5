import Foundation
import SampleUpstream
import Synchronization
import Testing

/// `on_status` from the command line: check-config shows it, and `syncd sync` takes a skipped 403 and an empty 404
/// as the successes they are (exit 0, nothing printed off a terminal), which `syncd status` and the run history
/// show with their status; the built binary against a loopback upstream.
@Suite("syncd: on_status")
struct OnStatusCLITests {
    @Test("check-config shows on_status; a 403 is skipped keeping the rows, a 404 empties the table, both exit 0")
    func sync() async throws {
        let status = Mutex(200)
        let server = try await LoopbackHTTPServer.start { _ in
            let current = status.withLock { $0 }
            return current == 200
                ? .json(Array(#"[{"id": 1}, {"id": 2}]"#.utf8)) : .json(Array("{}".utf8), status: current)
        }
        let workspace = try CLITests.Workspace(
            toml: """
                database = "cache.db"

                [[endpoint]]
                name = "repos"
                allow_empty = true
                on_status = { 404 = "empty", 403 = "skip" }
                url = "\(server.baseURL)/repos"
                records = "$"
                primary_key = ["id"]
                columns = { id = { path = "id", type = "integer" } }
                """)
        defer { workspace.remove() }
        let check = try await workspace.run(["check-config"])
        #expect(check.status == 0, "\(check.standardError)")
        #expect(
            check.standardOutput.contains(
                "  repos: snapshot, 1 column, every 5m, \(server.baseURL)/repos, on status 403 skip, 404 empty\n"))

        #expect(try await workspace.run(["sync"]).status == 0)
        status.withLock { $0 = 403 }
        let skipped = try await workspace.run(["sync"])
        #expect(skipped.status == 0 && skipped.standardError.isEmpty, "\(skipped.standardError)")
        // On a terminal the line says what happened.
        let command = "\(SyncdProcess.binary.path) sync --config \(workspace.config)"
        let onTerminal = try await SyncdProcess.shell("script -qec '\(command)' /dev/null")
        #expect(onTerminal.status == 0)
        #expect(
            onTerminal.standardOutput.contains("repos: 403 skipped (on_status), kept 2 records, version 1"),
            "\(onTerminal.standardOutput)")
        let health = try await workspace.run(["status", "--format", "csv"])
        // records 2, version 1, last status 403, no failure, no error.
        #expect(health.standardOutput.contains("repos,collection,2,1,"), "\(health.standardOutput)")
        #expect(health.standardOutput.contains(",403,0,"), "\(health.standardOutput)")
        status.withLock { $0 = 404 }
        let emptied = try await workspace.run(["sync"])
        try await server.shutdown()
        #expect(emptied.status == 0 && emptied.standardError.isEmpty, "\(emptied.standardError)")
        let runs = try await workspace.run([
            "sql", "SELECT outcome, http_status, records FROM syncd_runs ORDER BY id", "--format", "csv",
        ])
        #expect(
            runs.standardOutput
                == "outcome,http_status,records\r\nchanged,200,2\r\nnot_modified,403,0\r\nnot_modified,403,0\r\n"
                + "changed,404,0\r\n")
    }
}
