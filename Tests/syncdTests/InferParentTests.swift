import Foundation
import SampleUpstream
import Testing

/// `syncd infer URL --parent NAME`: a child's URL is matched against the parent's stored rows, and the stanza is a
/// child endpoint whose url takes `{parent.COLUMN}`; the binary is run as a user would, against a loopback upstream.
@Suite("syncd infer --parent")
struct InferParentTests {
    typealias Workspace = CLITests.Workspace

    /// An organisation's repositories and each one's issues, GitHub-shaped.
    static func answer(_ request: UpstreamRequest) -> UpstreamResponse {
        switch request.path {
        case "/orgs/acme/repos":
            return .json(
                Array(
                    (#"[{"id": 1, "name": "gadgets", "full_name": "acme/gadgets"},"#
                        + #" {"id": 17, "name": "widgets", "full_name": "acme/widgets"}]"#).utf8))
        case "/repos/acme/widgets/issues", "/search/issues":
            return .json(
                Array(
                    (#"[{"id": 901, "number": 1, "title": "Broken", "repo_id": 3},"#
                        + #" {"id": 902, "number": 2, "title": "Slow", "repo_id": 3}]"#).utf8))
        case "/repos/acme/gadgets/issues":
            return .json(Array(#"[{"id": 801, "number": 1, "title": "Loose", "repo_id": 3}]"#.utf8))
        default:
            return .json(Array(#"{"message": "Not Found"}"#.utf8), status: 404)
        }
    }

    static func toml(_ baseURL: String) -> String {
        InferTests.header + """
            [[endpoint]]
            name = "repos"
            url = "\(baseURL)/orgs/acme/repos"
            records = "$"
            primary_key = ["id"]
            [endpoint.columns]
            id = { path = "id", type = "integer" }
            full_name = "full_name"
            name = "name"

            """
    }

    @Test("the repositories' full_name fills the URL's two segments; the key goes to parent_id, repo_id being taken")
    func githubIssues() async throws {
        let server = try await LoopbackHTTPServer.start { Self.answer($0) }
        let workspace = try Workspace(toml: Self.toml(server.baseURL))
        defer { workspace.remove() }
        let sync = try await workspace.run(["sync", "repos"])
        #expect(sync.status == 0, "\(sync.standardError)")
        let inferred = try await workspace.run([
            "infer", server.baseURL + "/repos/acme/widgets/issues", "--parent", "repos",
        ])
        #expect(inferred.status == 0, "\(inferred.standardError)")
        #expect(
            inferred.standardError
                == "syncd: 2 records at \"$\", 4 columns; a child of \"repos\", one walk per row, by its column "
                + "\"full_name\"\n")
        #expect(
            inferred.standardOutput.contains(
                """
                [[endpoint]]
                name = "issues"
                # One walk per row of "repos": the URL held "acme/widgets", the value of its column "full_name" in one of the 2 rows
                # read.
                parent = "repos"
                parent_columns = { parent_id = "id" }
                url = "\(server.baseURL)/repos/{parent.full_name:path}/issues"
                records = "$"
                primary_key = ["id"]
                # The key must be unique across every parent's records: when it is unique only within one parent's (a number per
                # repository), add the parent's, e.g. primary_key = ["parent_id", "id"].
                """), "\(inferred.standardOutput)")

        // The proposal syncs as it is: one walk per repository, each issue carrying its repository's id.
        try (Self.toml(server.baseURL) + "\n" + inferred.standardOutput).write(
            toFile: workspace.config, atomically: true, encoding: .utf8)
        let all = try await workspace.run(["sync"])
        try await server.shutdown()
        #expect(all.status == 0, "\(all.standardError)")
        let rows = try await workspace.run([
            "sql", "SELECT id, parent_id FROM issues ORDER BY id", "--format", "csv",
        ])
        #expect(rows.standardOutput == "id,parent_id\r\n801,1\r\n901,17\r\n902,17\r\n", "\(rows.standardOutput)")
    }

    @Test("refusals: a parent not in the configuration, one never synced; no match leaves a TODO")
    func refusalsAndNoMatch() async throws {
        let server = try await LoopbackHTTPServer.start { Self.answer($0) }
        let workspace = try Workspace(toml: Self.toml(server.baseURL))
        defer { workspace.remove() }
        let url = server.baseURL + "/repos/acme/widgets/issues"
        let unknown = try await workspace.run(["infer", url, "--parent", "teams"])
        #expect(unknown.status == 64)
        #expect(unknown.standardError == "syncd: there is no endpoint \"teams\" in the configuration\n")
        let unsynced = try await workspace.run(["infer", url, "--parent", "repos"])
        #expect(unsynced.status == 4)
        #expect(
            unsynced.standardError
                == "syncd: there is no database at \(workspace.path)/cache.db yet: run `syncd sync` first\n")

        _ = try await workspace.run(["sync", "repos"])
        let elsewhere = try await workspace.run(["infer", server.baseURL + "/search/issues?q=bug", "--parent", "repos"])
        try await server.shutdown()
        #expect(elsewhere.status == 0, "\(elsewhere.standardError)")
        #expect(
            elsewhere.standardError.hasSuffix(
                "; no value of \"repos\"'s rows is a whole part of the URL: see the TODO\n"))
        #expect(
            elsewhere.standardOutput.contains(
                """
                name = "issues"
                # TODO: none of the 2 rows of "repos" read has a value that is a whole part of the URL (a path segment, segments, or
                # a query value): write the URL with {parent.COLUMN} where the parent's value goes.
                parent = "repos"
                url = "\(server.baseURL)/search/issues?q=bug"
                """), "\(elsewhere.standardOutput)")
    }
}
