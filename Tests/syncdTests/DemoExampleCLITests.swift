import Foundation
import SampleUpstream
import Testing

/// The commands `syncd demo` prints name a user and a city that are in the cache after its passes, whatever
/// `--users` is; a second demo into the same folder does not call its first pass the first load; and more users than a
/// page holds are synced page by page, still answered 304 on the third pass. (The largest size, 1,000,000 users, takes
/// minutes in a debug build: `.ci/demo-largest` runs it on the release binary.)
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

    @Test("with more users than a page holds, the passes walk the Link pages, load every user, and pass 3 is a 304")
    func pagedDemo() async throws {
        let workspace = try CLITests.Workspace(toml: "")
        defer { workspace.remove() }
        let folder = workspace.path + "/demo"
        let users = DemoUpstream.defaultPageSize * 2 + 500
        let result = try await SyncdProcess.run(["demo", "--directory", folder, "--users", "\(users)", "--once"])
        #expect(result.status == 0, "\(result.standardError)")
        let output = result.standardOutput
        #expect(output.contains("serving \(users) users at http://127.0.0.1:"), "\(output)")
        #expect(
            output.contains(
                "/users, 3 pages of \(DemoUpstream.defaultPageSize) (each page's Link header names the next)\n"),
            "\(output)")
        #expect(
            output.contains("\(users) records (\(users) inserted, 0 updated, 0 deleted, 0 rejected) → version 1\n"),
            "\(output)")
        #expect(
            output.contains(
                "\(users) records (1 inserted, \(users / 50) updated, 1 deleted, 0 rejected) → version 2\n"),
            "\(output)")
        let pass3 = "Pass 3, nothing changed upstream, so it answers 304:\n"
        #expect(output.contains(pass3 + "  users: 304 not modified, \(users) records, version 2\n"), "\(output)")

        let config = ["--config", folder + "/syncd.toml", "--format", "csv"]
        let stored = try await SyncdProcess.run(["sql", "SELECT count(*) AS users FROM users"] + config)
        #expect(stored.standardOutput == "users\r\n\(users)\r\n", "\(stored.standardError)")
        // Each full pass fetched the three pages; the 304 to the first page ended the third.
        let runs = try await SyncdProcess.run(
            ["sql", "SELECT http_status, pages FROM syncd_runs WHERE endpoint = 'users' ORDER BY id"] + config)
        #expect(runs.standardOutput == "http_status,pages\r\n200,3\r\n200,3\r\n304,1\r\n", "\(runs.standardError)")
    }
}
