import Foundation
import Testing

/// The commands `syncd demo` prints name a user and a city that are in the cache after its passes, whatever
/// `--users` is; a second demo into the same folder does not call its first pass the first load.
@Suite("syncd demo: the printed examples")
struct DemoExampleCLITests {
    @Test("with --users 5, the printed get and city query find records; a re-run says it reuses the database")
    func smallDemo() async throws {
        let workspace = try CLITests.Workspace(toml: "")
        defer { workspace.remove() }
        let folder = workspace.path + "/demo"
        let arguments = ["demo", "--directory", folder, "--users", "5", "--once"]

        let first = try await SyncdProcess.run(arguments)
        #expect(first.status == 0, "\(first.standardError)")
        #expect(first.standardOutput.contains("Pass 1, the first load:"))
        let lines = first.standardOutput.split(separator: "\n").map(String.init)
        let get = try #require(lines.first { $0.contains(" get users ") && !$0.contains("--if-none-match") })
        let record = try await SyncdProcess.shell(get)
        #expect(record.status == 0, "\(get): \(record.standardError)")
        let query = try #require(lines.first { $0.contains(" query users --where city=") })
        let rows = try await SyncdProcess.shell(query)
        #expect(rows.status == 0)
        #expect(rows.standardOutput.split(separator: "\n").count >= 3, "\(query): \(rows.standardOutput)")

        let second = try await SyncdProcess.run(arguments)
        #expect(second.status == 0, "\(second.standardError)")
        #expect(!second.standardOutput.contains("first load"))
        #expect(second.standardOutput.contains("Pass 1, into the database an earlier demo left there:"))
    }
}
