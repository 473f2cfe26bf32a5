import Foundation
import SampleUpstream
import Testing

/// The CLI's sentences say each thing once and say the right thing.
@Suite("syncd messages")
struct MessagesCLITests {
    @Test("a bad --limit, --order or filter value gets its own sentence; a null order is taken; sql \"\" is refused")
    func readMessages() async throws {
        try await CLITests.withSyncedWorkspace { workspace, _ in
            let limit = try await workspace.run(["query", "users", "--limit", "-1"])
            #expect(limit.status == 64)
            #expect(limit.standardError.contains("--limit must be 0 or more."), "\(limit.standardError)")

            let nulls = try await workspace.run(["query", "users", "--order", "name.desc.nullsfirst", "--limit", "1"])
            #expect(nulls.status == 0, "\(nulls.standardError)")
            let badOrder = try await workspace.run(["query", "users", "--order", "name.sideways"])
            #expect(badOrder.status == 64)
            #expect(
                badOrder.standardError.contains(
                    #"--order takes column[.asc|.desc][.nullsfirst|.nullslast], not "name.sideways"."#),
                "\(badOrder.standardError)")

            let value = try await workspace.run(["query", "users", "--where", "lat=abc"])
            #expect(value.status == 64)
            #expect(
                value.standardError
                    == "syncd: \"abc\" is not a value of column \"lat\" of \"users\": expected a number\n")

            let sql = try await workspace.run(["sql", ""])
            #expect(sql.status == 64)
            #expect(sql.standardError.contains("Give at least one SQL statement."), "\(sql.standardError)")
        }
    }

    @Test("check-config says \"1 column\"")
    func oneColumn() async throws {
        let toml = """
            [[endpoint]]
            name = "users"
            url = "http://127.0.0.1:9/users"
            records = "$"
            primary_key = ["id"]
            interval = "2d3h4m5s6ms"
            columns = { id = { path = "id", type = "integer" } }
            """
        let workspace = try CLITests.Workspace(toml: toml)
        defer { workspace.remove() }
        let result = try await workspace.run(["check-config"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(
            result.standardOutput == """
                \(workspace.config) is valid: 1 endpoint
                  users: snapshot, 1 column, every 2d3h4m5s6ms, http://127.0.0.1:9/users

                """)
    }

    @Test("on a terminal, a failed endpoint's line names it once")
    func failedOnce() async throws {
        let server = try await LoopbackHTTPServer.start { _ in .json(Array("{}".utf8), status: 500) }
        let workspace = try CLITests.Workspace(toml: CLITests.toml(server.baseURL))
        defer { workspace.remove() }
        let command = "\(SyncdProcess.binary.path) sync users --config \(workspace.config)"
        let result = try await SyncdProcess.shell("script -qec '\(command)' /dev/null")
        try await server.shutdown()
        #expect(result.status == 1)
        let lines = result.standardOutput.split(whereSeparator: \.isNewline)
        let line = try #require(lines.first { $0.hasPrefix("users: failed: ") }, "\(result.standardOutput)")
        #expect(!line.contains("users: failed: users:"), "\(line)")
    }
}
