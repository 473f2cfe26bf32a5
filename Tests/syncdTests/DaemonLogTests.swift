import Foundation
import Testing

/// What `syncd run` and `syncd sync` log: one line per failed sync, and one warning for a log level they do not
/// know.
@Suite("syncd logs")
struct DaemonLogTests {
    static func config(_ workspace: CLITests.Workspace) -> String {
        """
        database = "cache.db"

        [server]
        listen = "off"

        [[endpoint]]
        name = "users"
        url = "file://\(workspace.path)/missing.json"
        records = "$"
        primary_key = ["id"]

        [endpoint.columns]
        id = { path = "id", type = "integer" }
        """
    }

    @Test("a failed sync under syncd run logs one line, a warning")
    func oneLinePerFailure() async throws {
        let workspace = try CLITests.Workspace(toml: "")
        defer { workspace.remove() }
        try Self.config(workspace).write(toFile: workspace.config, atomically: true, encoding: .utf8)
        let result = try await DaemonProcess.run(workspace) { notify, signal in
            _ = await notify.waitFor("STATUS=users: failed")
            signal(SIGTERM)
            _ = await notify.waitFor("STOPPING=1")
        }
        #expect(result.status == 0, "\(result.standardError)")
        let lines = result.standardError.split(separator: "\n").filter { $0.contains("Sync failed") }
        #expect(lines.count == 1, "\(result.standardError)")
        #expect(lines.first?.contains("warning") == true, "\(result.standardError)")
    }

    @Test(
        "an unknown SYNCD_LOG_LEVEL is one warning naming the accepted levels, its control characters escaped, in run and sync",
        arguments: ["run", "sync"])
    func unknownLevel(_ command: String) async throws {
        let workspace = try CLITests.Workspace(toml: "")
        defer { workspace.remove() }
        // run stops at once on an unreadable token; sync on the missing file: both after logging is set up.
        let toml = Self.config(workspace).replacingOccurrences(
            of: "listen = \"off\"", with: "listen = \"off\"\ntoken_file = \"missing-token\"")
        try toml.write(toFile: workspace.config, atomically: true, encoding: .utf8)
        let result = try await SyncdProcess.run(
            [command, "--config", workspace.config], environment: ["SYNCD_LOG_LEVEL": "bogus\u{1B}[31m\nred"])
        #expect(result.status != 0)
        #expect(!result.standardError.contains("\u{1B}"), "an escape sequence reached the terminal")
        #expect(result.standardError.contains(#"bogus\x1b[31m\nred"#), "\(result.standardError)")
        let lines = result.standardError.split(separator: "\n").filter { $0.contains("SYNCD_LOG_LEVEL") }
        #expect(lines.count == 1, "\(result.standardError)")
        #expect(lines.first?.contains("trace, debug, info, notice, warning, error, critical") == true)
        #expect(lines.first?.contains("warning") == true)
    }
}
