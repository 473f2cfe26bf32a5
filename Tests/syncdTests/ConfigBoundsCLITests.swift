import Foundation
import Testing

/// The built binary refuses a number out of its range in every command, naming the line, the key and the range,
/// before anything is fetched (these values once passed `check-config` and then trapped the daemon).
@Suite("CLI: numbers out of range")
struct ConfigBoundsCLITests {
    @Test(
        "check-config and sync refuse an out-of-range value with its line, key and range, exit 78",
        arguments: [
            (#"interval = "200000d""#, "interval must be between 100ms and 30d"),
            (#"timeout = "106752d""#, "timeout must be between 100ms and 1d"),
            (
                #"pagination = { type = "page", param = "page", start = 9223372036854775807 }"#,
                "pagination: start must be a whole number from 0 to 1000000000"
            ),
        ])
    func refused(line: String, message: String) async throws {
        let workspace = try CLITests.Workspace(
            toml: CLITests.toml("http://127.0.0.1:9").replacingOccurrences(
                of: "records = \"$\"", with: "records = \"$\"\n\(line)"))
        defer { workspace.remove() }
        for command in [["check-config"], ["sync"]] {
            let result = try await workspace.run(command)
            #expect(result.status == 78, "\(command)")
            #expect(
                result.standardError == "syncd: \(workspace.config):10: [[endpoint]] \"users\": \(message)\n",
                "\(command)")
        }
    }

    @Test("several problems print one a line; a line break inside a key stays escaped on its line")
    func severalProblems() async throws {
        let workspace = try CLITests.Workspace(
            toml: CLITests.toml("http://127.0.0.1:9").replacingOccurrences(
                of: "records = \"$\"", with: "records = \"$\"\ninterval = \"200000d\"\n\"x\\nsyncd: fake\" = 1"))
        defer { workspace.remove() }
        let result = try await workspace.run(["check-config"])
        #expect(result.status == 78)
        #expect(
            result.standardError
                == "syncd: \(workspace.config):10: [[endpoint]] \"users\": interval must be between 100ms and 30d\n"
                + "\(workspace.config):11: [[endpoint]] \"users\": unknown key \"x\\u000asyncd: fake\"\n")
    }
}
