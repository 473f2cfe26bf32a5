import Foundation
import SampleUpstream
import Synchronization
import Testing

/// Child endpoints from the command line: the built binary syncs a GitHub-like organization's repositories and
/// each repository's issues, and reads one repository's issues back by its parent column.
@Suite("syncd: child endpoints (fan-out) from the CLI")
struct FanOutCLITests {
    static func toml(_ base: String) -> String {
        """
        database = "cache.db"

        [[endpoint]]
        name = "repos"
        url = "\(base)/orgs/acme/repos"
        records = "$"
        primary_key = ["id"]
        columns = { id = { type = "integer" }, full_name = "full_name" }

        [[endpoint]]
        name = "issues"
        parent = "repos"
        url = "\(base)/repos/{parent.full_name:path}/issues?state=all"
        records = "$"
        primary_key = ["id"]
        columns = { id = { type = "integer" }, number = { type = "integer" }, title = "title" }
        parent_columns = { repo_id = "id" }
        """
    }

    @Test("check-config, sync (the child after its parent), then query --where on the parent column")
    func sync() async throws {
        let org = GitHubOrg(repositories: 3, issues: 2)
        let server = try await LoopbackHTTPServer.start { org.answer($0) }
        let workspace = try CLITests.Workspace(toml: Self.toml(server.baseURL))
        defer { workspace.remove() }
        let check = try await workspace.run(["check-config"])
        #expect(check.status == 0, "\(check.standardError)")
        #expect(
            check.standardOutput.contains(", for each row of repos (at most 10000 a run, 4 at once)\n"),
            "\(check.standardOutput)")
        // On a terminal (where `syncd sync` prints a line per endpoint; TERM=dumb: no live progress lines), the
        // child's line counts its parents. Named child first: the parent still runs before it.
        let binary = SyncdProcess.binary.path
        func onTerminal(_ arguments: String) async throws -> SyncdProcess.Result {
            try await SyncdProcess.shell(
                "script -qec 'TERM=dumb \(binary) \(arguments) --config \(workspace.config)' /dev/null")
        }
        let sync = try await onTerminal("sync issues repos")
        #expect(sync.status == 0, "\(sync.standardOutput)")
        #expect(
            sync.standardOutput.contains(
                "; parents: 3 walked (0 not modified, 0 empty), 0 skipped, 0 failed, 0 left for later runs"),
            "\(sync.standardOutput)")
        let order = try await workspace.run(["sql", "SELECT endpoint FROM syncd_runs ORDER BY id", "--format", "csv"])
        #expect(order.standardOutput == "endpoint\r\nrepos\r\nissues\r\n", "\(order.standardOutput)")
        let again = try await onTerminal("sync")
        #expect(again.standardOutput.contains("issues: 304 not modified, 6 records"), "\(again.standardOutput)")
        #expect(again.standardOutput.contains("parents: 3 walked (3 not modified, 0 empty)"))
        try await server.shutdown()
        let query = try await workspace.run(["query", "issues", "--where", "repo_id=2", "--format", "csv"])
        #expect(query.status == 0, "\(query.standardError)")
        let lines = query.standardOutput.split(separator: "\r\n")
        #expect(lines.count == 3, "\(query.standardOutput)")
        #expect(lines.dropFirst().allSatisfy { $0.hasPrefix("200") }, "\(query.standardOutput)")
    }

    @Test("status shows the last run's parent counts, a failed walk's with parents_failed 1; the data stays")
    func statusCounts() async throws {
        let org = GitHubOrg(repositories: 3, issues: 2)
        let server = try await LoopbackHTTPServer.start { org.answer($0) }
        // One walk at a time, in key order: the walks before the one that fails are known.
        let workspace = try CLITests.Workspace(toml: Self.toml(server.baseURL) + "\nparent_concurrency = 1\n")
        defer { workspace.remove() }
        #expect(try await workspace.run(["sync"]).status == 0)
        let names = "parents_walked,parents_not_modified,parents_empty,parents_skipped,parents_failed,parents_left"
        let synced = try await workspace.run(["status", "--format", "csv"])
        let lines = synced.standardOutput.components(separatedBy: "\r\n")
        #expect(lines.first?.hasSuffix(",last_error," + names) == true, "\(synced.standardOutput)")
        #expect(lines.dropFirst().first?.hasPrefix("repos,") == true, "\(synced.standardOutput)")
        #expect(lines.dropFirst().first?.hasSuffix(",,,,,,") == true, "repos has no parent: \(synced.standardOutput)")
        #expect(lines.dropFirst(2).first?.hasSuffix(",3,0,0,0,0,0") == true, "\(synced.standardOutput)")

        // Repository 1 gains an issue (a 200), 2 is unchanged (a 304), 3 vanished before the parent knows (a 404).
        org.addIssue(to: 1)
        org.deleteRepository(3)
        let failed = try await workspace.run(["sync", "issues"])
        #expect(failed.status == 1, "\(failed.standardError)")
        let status = try await workspace.run(["status", "--format", "json"])
        let rows = try #require(
            try JSONSerialization.jsonObject(with: Data(status.standardOutput.utf8)) as? [[String: Any]])
        let issues = try #require(rows.first { $0["endpoint"] as? String == "issues" }, "\(status.standardOutput)")
        let counts = names.split(separator: ",").map { issues[String($0)] as? Int }
        #expect(counts == [2, 1, 0, 0, 1, 0], "\(status.standardOutput)")
        #expect((issues["last_error"] as? String)?.hasPrefix("issues: parent 3: HTTP 404") == true)
        #expect(rows.first { $0["endpoint"] as? String == "repos" }?["parents_walked"] is NSNull)
        let table = try await workspace.run(["status"])
        #expect(table.standardOutput.contains("parents_failed"), "\(table.standardOutput)")
        try await server.shutdown()
        let count = try await workspace.run(["sql", "SELECT count(*) AS n FROM issues", "--format", "csv"])
        #expect(count.standardOutput == "n\r\n6\r\n", "the failed run stored nothing")
    }

    @Test("an incremental child: check-config accepts it, and each `syncd sync` sends each parent its own cursor")
    func incremental() async throws {
        let projects = JiraProjectIssues([
            ("ALPHA", ["2023-01-01T00:00:01.000Z", "2023-01-01T00:00:02.000Z"]), ("BETA", ["2023-01-01T00:00:05.000Z"]),
        ])
        // The `updatedSince` of each request of a project's issues ("-" for none), in order.
        let asked = Mutex<[String]>([])
        let server = try await LoopbackHTTPServer.start { request in
            let parts = request.path.split(separator: "/")
            if parts.count == 6 { asked.withLock { $0.append("\(parts[4]) \(request.query["updatedSince"] ?? "-")") } }
            return projects.answer(request)
        }
        let toml = "database = \"cache.db\"\n\n" + JiraProjectIssues.endpointsTOML(baseURL: server.baseURL)
        let workspace = try CLITests.Workspace(toml: toml)
        defer { workspace.remove() }
        let check = try await workspace.run(["check-config"])
        #expect(check.status == 0, "\(check.standardError)")
        let first = try await workspace.run(["sync"])
        #expect(first.status == 0, "\(first.standardError)")
        projects.update("BETA", 2, updated: "2023-01-01T00:00:07.000Z", summary: "New")
        let second = try await workspace.run(["sync"])
        #expect(second.status == 0, "\(second.standardError)")
        try await server.shutdown()
        #expect(
            asked.withLock { $0 }.sorted() == [
                "ALPHA -", "ALPHA 2023-01-01T00:00:02.000Z", "BETA -", "BETA 2023-01-01T00:00:05.000Z",
            ])
        let rows = try await workspace.run(["query", "issues", "--where", "project=BETA", "--format", "csv"])
        #expect(rows.standardOutput.split(separator: "\r\n").count == 3, "\(rows.standardOutput)")
    }

    @Test("check-config names the line and key of a child endpoint's problem")
    func refused() async throws {
        let toml = Self.toml("http://127.0.0.1:9").replacingOccurrences(
            of: #"parent_columns = { repo_id = "id" }"#, with: #"parent_columns = { repo_id = "owner" }"#)
        let workspace = try CLITests.Workspace(toml: toml)
        defer { workspace.remove() }
        let check = try await workspace.run(["check-config"])
        #expect(check.status == 78)
        #expect(
            check.standardError.contains(
                #"syncd.toml:17: [[endpoint]] "issues": parent_columns: repo_id = "owner": the endpoint "repos" has no column "owner""#
            ), "\(check.standardError)")
    }
}
