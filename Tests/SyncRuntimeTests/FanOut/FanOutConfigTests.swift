import SyncTesting
import Testing

@testable import SyncCore
@testable import SyncSQLite

/// A child endpoint's keys in syncd.toml: each problem refused with its line and key, and a good stanza linked to
/// its parent.
@Suite("config: child endpoints (parent, parent_columns, children, max_parents, parent_concurrency)")
struct FanOutConfigTests {
    /// `repos` (lines 1–6), then `issues` (line 8) whose stanza ends with `extra` from line 14.
    static func toml(url: String = "https://api.github.com/repos/{parent.full_name:path}/issues", _ extra: String)
        -> String
    {
        """
        [[endpoint]]
        name = "repos"
        url = "https://api.github.com/orgs/acme/repos"
        records = "$"
        primary_key = ["id"]
        columns = { id = { type = "integer" }, full_name = "full_name" }

        [[endpoint]]
        name = "issues"
        url = "\(url)"
        records = "$"
        primary_key = ["id"]
        columns = { id = { type = "integer" }, title = "title" }
        \(extra)
        """
    }

    @Test("a good child endpoint is linked: its parent columns typed as the parent's, its plan read")
    func linked() throws {
        let configuration = try SyncConfiguration.parse(
            Self.toml(
                """
                parent = "repos"
                parent_columns = { repo_id = "id" }
                children = "changed"
                max_parents = 50
                parent_concurrency = 8
                """), sourcePath: "syncd.toml")
        let issues = try #require(configuration.plan(named: "issues"))
        #expect(issues.columns.map(\.name) == ["id", "title", "repo_id"])
        #expect(issues.columns.last?.type == .integer)
        #expect(issues.ownColumnCount == 2)
        let plan = try #require(issues.fanOut)
        #expect(plan.parent.name == "repos" && plan.parentKey == ["id"])
        #expect(plan.parentColumns == ["full_name", "id"] && plan.sources == [1])
        #expect(plan.selection == .changed && plan.maxParents == 50 && plan.concurrency == 8)
        #expect(issues.declared.parent == "repos" && issues.declared.parentColumns == ["repo_id": "id"])
        #expect(TableShape(issues).columns.last?.name == "_parent")
    }

    @Test("an incremental cursor with a parent is accepted: each parent has its own")
    func incremental() throws {
        let configuration = try SyncConfiguration.parse(
            Self.toml(
                """
                parent = "repos"
                mode = "incremental"
                incremental = { param = "since", column = "title", initial = "a" }
                """), sourcePath: "syncd.toml")
        let issues = try #require(configuration.plan(named: "issues"))
        #expect(issues.fanOut != nil)
        #expect(issues.incremental == IncrementalConfiguration(param: "since", column: 1, initial: "a"))
    }

    @Test(
        "each problem is refused at its line and key",
        arguments: [
            (
                #"parent = "teams""#,
                #"syncd.toml:14: [[endpoint]] "issues": parent "teams" is not an endpoint of this file"#
            ),
            (
                "parent = \"repos\"\nparent_columns = { repo_id = \"owner\" }",
                #"syncd.toml:15: [[endpoint]] "issues": parent_columns: repo_id = "owner": the endpoint "repos" has no column "owner""#
            ),
            (#"children = "some""#, #"syncd.toml:14: [[endpoint]] "issues": children must be "all" or "changed""#),
            (
                "parent = \"repos\"\nmax_parents = 0",
                #"syncd.toml:15: [[endpoint]] "issues": max_parents must be a whole number from 1 to 1000000"#
            ),
            (
                "parent = \"repos\"\nparent_concurrency = 65",
                #"syncd.toml:15: [[endpoint]] "issues": parent_concurrency must be a whole number from 1 to 64"#
            ),
            (
                "parent = \"repos\"\nconcurrency = 2",
                #"syncd.toml:15: [[endpoint]] "issues": "concurrency" is only valid in [defaults]: a child endpoint's is "parent_concurrency""#
            ),
        ])
    func refused(extra: String, message: String) {
        #expect(configurationProblems(Self.toml(extra)) == [message])
    }

    @Test("an unknown {parent.NAME} in the URL is refused at url")
    func unknownTemplateColumn() {
        let toml = Self.toml(url: "https://api.github.com/repos/{parent.login}/issues", #"parent = "repos""#)
        #expect(
            configurationProblems(toml) == [
                #"syncd.toml:10: [[endpoint]] "issues": {parent.login}: the endpoint "repos" has no column "login""#
            ])
    }

    @Test("a cycle is refused")
    func cycle() {
        let toml = """
            [[endpoint]]
            name = "a"
            url = "https://example.com/a/{parent.id}"
            records = "$"
            primary_key = "id"
            columns = { id = { type = "integer" } }
            parent = "b"

            [[endpoint]]
            name = "b"
            url = "https://example.com/b/{parent.id}"
            records = "$"
            primary_key = "id"
            columns = { id = { type = "integer" } }
            parent = "a"
            """
        let problems = configurationProblems(toml)
        #expect(
            problems.contains(#"syncd.toml:15: [[endpoint]] "b": parent "a" makes a cycle: a → b → a"#), "\(problems)")
    }
}
