import Foundation
import SampleUpstream
import SyncTesting
import Synchronization
import Testing

@testable import SyncCore
@testable import SyncSQLite

@Suite("fan-out: child endpoints walked per parent row")
struct FanOutTests {
    static func issues(_ fixture: SyncFixture) throws -> [String] {
        try fixture.rows("SELECT id, repo_id, repo, _parent FROM issues ORDER BY id").map { row in
            "\(row.integer("id") ?? 0) \(row.integer("repo_id") ?? 0) \(row.text("repo") ?? "-") \(row.text("_parent") ?? "-")"
        }
    }

    @Test("org → repos → issues: one walk per repository, child rows carry the parent's columns and key")
    func walksEveryParent() async throws {
        try await withGitHub { upstream in
            let fixture = try SyncFixture(toml: upstream.toml())
            #expect(try await fixture.sync("repos").inserted == 3)
            _ = upstream.paths()
            let report = try await fixture.sync("issues")
            #expect(report.outcome == .changed && report.inserted == 6, "\(report)")
            #expect(report.fanOut?.walked == 3 && report.fanOut?.left == 0)
            // Whether the transaction stored the first walks while later ones ran depends on the machine's load (it
            // gives way after a second of waiting for the network): FanOutRunTests checks the start deterministically.
            #expect(
                Set(upstream.paths()) == Set((1...3).map { "/repos/acme/repo-\($0)/issues" }))
            #expect(
                try Self.issues(fixture) == [
                    "1001 1 repo-1 1", "1002 1 repo-1 1", "2001 2 repo-2 2", "2002 2 repo-2 2", "3001 3 repo-3 3",
                    "3002 3 repo-3 3",
                ])
            // The parent columns are typed as the parent's: repo_id is an integer.
            #expect(try fixture.scalar("SELECT typeof(repo_id) FROM issues LIMIT 1") == .text("integer"))
        }
    }

    @Test("unchanged children cost a 304 each; a vanished repository's issues are deleted with tombstones")
    func notModifiedAndCascade() async throws {
        try await withGitHub { upstream in
            let fixture = try SyncFixture(toml: upstream.toml())
            _ = try await fixture.sync("repos")
            _ = try await fixture.sync("issues")
            let again = try await fixture.sync("issues")
            #expect(again.outcome == .notModified && again.fanOut?.notModified == 3, "\(again)")
            #expect(!again.storedWhileFetching, "no walk brought a body: nothing was stored before the walks ended")
            #expect(try Self.issues(fixture).count == 6)

            upstream.org.deleteRepository(2)
            upstream.org.addIssue(to: 1)
            #expect(try await fixture.sync("repos").deleted == 1)
            _ = upstream.paths()
            let report = try await fixture.sync("issues")
            #expect(report.outcome == .changed && report.inserted == 1 && report.deleted == 2, "\(report)")
            #expect(report.fanOut?.walked == 2 && report.fanOut?.notModified == 1)
            #expect(!upstream.paths().contains("/repos/acme/repo-2/issues"))
            #expect(
                try Self.issues(fixture) == [
                    "1001 1 repo-1 1", "1002 1 repo-1 1", "1003 1 repo-1 1", "3001 3 repo-3 3", "3002 3 repo-3 3",
                ])
            let tombstones = try fixture.rows("SELECT key FROM syncd_tombstones WHERE endpoint = 'issues' ORDER BY key")
            #expect(tombstones.compactMap { $0.text("key") } == ["2001", "2002"])
            #expect(
                try fixture.rows("SELECT parent_key FROM syncd_children WHERE endpoint = 'issues' ORDER BY parent_key")
                    .compactMap { $0.text("parent_key") } == ["1", "3"])
        }
    }

    @Test("every repository's issues emptied at once: the empty-snapshot guard refuses the run, and keeps the data")
    func emptySnapshotGuard() async throws {
        try await withGitHub { upstream in
            var fixture = try SyncFixture(toml: upstream.toml())
            _ = try await fixture.sync("repos")
            _ = try await fixture.sync("issues")
            for number in 1...3 { upstream.org.removeIssues(from: number) }
            // The transaction that stored the walks as they ended meets the guard; so does the one after them.
            let refused = try await fixture.sync("issues")
            #expect(refused.outcome == .refused && refused.error?.contains("allow_empty") == true, "\(refused)")
            #expect(try Self.issues(fixture).count == 6)
            try fixture.reconfigure(upstream.toml(issues: "allow_empty = true"))
            let emptied = try await fixture.sync("issues")
            #expect(emptied.outcome == .changed && emptied.deleted == 6 && emptied.fanOut?.empty == 3, "\(emptied)")
        }
    }

    @Test("on_status per parent: a vanished repository's 404 is its empty child set, and skip keeps its children")
    func onStatusPerParent() async throws {
        try await withGitHub { upstream in
            let fixture = try SyncFixture(toml: upstream.toml(issues: #"on_status = { 404 = "empty", 410 = "skip" }"#))
            _ = try await fixture.sync("repos")
            _ = try await fixture.sync("issues")
            upstream.org.deleteRepository(3)
            let report = try await fixture.sync("issues")
            #expect(report.outcome == .changed && report.deleted == 2, "\(report)")
            #expect(
                report.fanOut?.walked == 3 && report.fanOut?.empty == 1 && report.fanOut?.notModified == 2,
                "\(String(describing: report.fanOut))")
            #expect(try Self.issues(fixture).count == 4)
            let tombstones = try fixture.rows("SELECT key FROM syncd_tombstones WHERE endpoint = 'issues' ORDER BY key")
            #expect(tombstones.compactMap { $0.text("key") } == ["3001", "3002"])
        }
        try await withGitHub { upstream in
            let fixture = try SyncFixture(toml: upstream.toml(issues: #"on_status = { 404 = "skip" }"#))
            _ = try await fixture.sync("repos")
            _ = try await fixture.sync("issues")
            upstream.org.deleteRepository(3)
            let report = try await fixture.sync("issues")
            #expect(report.outcome == .notModified && report.deleted == 0, "\(report)")
            #expect(report.fanOut?.skipped == 1 && report.fanOut?.notModified == 2)
            #expect(try Self.issues(fixture).count == 6)
        }
    }

    @Test("a parent whose row cannot make the request (a null in the URL) is not walked, and its children stay")
    func nullValueSkipsParent() async throws {
        try await withGitHub { upstream in
            var toml = upstream.toml()
            toml = toml.replacingOccurrences(
                of: #"pushed_at = "pushed_at" }"#, with: #"pushed_at = "pushed_at", homepage = "homepage" }"#)
            toml = toml.replacingOccurrences(
                of: "/repos/{parent.full_name:path}/issues", with: "/repos/acme/{parent.homepage}/issues")
            let fixture = try SyncFixture(toml: toml)
            _ = try await fixture.sync("repos")
            _ = upstream.paths()
            let report = try await fixture.sync("issues")
            #expect(report.outcome != .failed, "\(report)")
            #expect(report.fanOut?.walked == 0 && report.fanOut?.skipped == 3)
            #expect(upstream.paths().isEmpty)
        }
    }

    @Test("{parent.COLUMN} in a header value: each parent's request carries its own")
    func headerTemplate() async throws {
        try await withGitHub { upstream in
            let fixture = try SyncFixture(
                toml: upstream.toml(issues: #"headers = { "X-Repo" = "{parent.full_name}" }"#))
            _ = try await fixture.sync("repos")
            _ = try await fixture.sync("issues")
            #expect(Set(upstream.headers) == ["acme/repo-1", "acme/repo-2", "acme/repo-3"])
        }
    }

    @Test("a child that fails (a repository deleted before the parent is synced again) fails the run; data kept")
    func failedChildKeepsData() async throws {
        try await withGitHub { upstream in
            let fixture = try SyncFixture(toml: upstream.toml())
            _ = try await fixture.sync("repos")
            _ = try await fixture.sync("issues")
            upstream.org.deleteRepository(3)
            upstream.org.addIssue(to: 1)
            let report = try await fixture.sync("issues")
            #expect(report.outcome == .failed)
            #expect(report.error == "issues: parent 3: HTTP 404 Not Found from the upstream; kept the stored data")
            #expect(try Self.issues(fixture).count == 6)
        }
    }

    @Test("a rate limit hit mid fan-out: Retry-After honoured, the run completes")
    func rateLimitMidFanOut() async throws {
        try await withGitHub { upstream in
            let fixture = try SyncFixture(toml: upstream.toml(issues: "parent_concurrency = 1"))
            _ = try await fixture.sync("repos")
            upstream.org.rateLimit("/repos/acme/repo-2/issues", times: 1)
            let report = try await fixture.sync("issues")
            #expect(report.outcome == .changed && report.inserted == 6, "\(report)")
            // Retry-After: 1 is the least it waits (a backoff with jitter may ask a little more).
            #expect(fixture.sleeps.durations.count == 1 && fixture.sleeps.durations.allSatisfy { $0 >= .seconds(1) })
        }
    }

    @Test("max_parents: the rest wait for later runs, never walked first, then the least recently walked")
    func maxParents() async throws {
        try await withGitHub { upstream in
            let fixture = try SyncFixture(toml: upstream.toml(issues: "max_parents = 2"))
            _ = try await fixture.sync("repos")
            _ = upstream.paths()
            let first = try await fixture.sync("issues")
            #expect(first.fanOut?.walked == 2 && first.fanOut?.left == 1 && first.inserted == 4, "\(first)")
            #expect(Set(upstream.paths()) == ["/repos/acme/repo-1/issues", "/repos/acme/repo-2/issues"])
            fixture.clock.advance(by: 60)
            let second = try await fixture.sync("issues")
            #expect(second.fanOut?.walked == 2 && second.inserted == 2, "\(second)")
            #expect(Set(upstream.paths()) == ["/repos/acme/repo-3/issues", "/repos/acme/repo-1/issues"])
            #expect(try Self.issues(fixture).count == 6)
        }
    }

    @Test("children = \"changed\": only parents whose row changed since their last walk are walked")
    func changedOnly() async throws {
        try await withGitHub { upstream in
            let fixture = try SyncFixture(toml: upstream.toml(issues: #"children = "changed""#))
            _ = try await fixture.sync("repos")
            #expect(try await fixture.sync("issues").inserted == 6)
            _ = upstream.paths()
            let idle = try await fixture.sync("issues")
            #expect(idle.fanOut?.walked == 0 && idle.fanOut?.skipped == 3 && idle.outcome == .unchanged, "\(idle)")
            #expect(upstream.paths().isEmpty)
            upstream.org.addIssue(to: 3)
            _ = try await fixture.sync("repos")
            _ = upstream.paths()
            let report = try await fixture.sync("issues")
            #expect(report.fanOut?.walked == 1 && report.fanOut?.skipped == 2 && report.inserted == 1, "\(report)")
            #expect(upstream.paths() == ["/repos/acme/repo-3/issues"])
        }
    }

    @Test("nested fan-out: repos → issues → comments, and one sync of all runs each child after its parent")
    func nested() async throws {
        try await withGitHub(repositories: 2, issues: 2) { upstream in
            let fixture = try SyncFixture(toml: upstream.toml(comments: true))
            let reports = await fixture.engine.sync(fixture.configuration.plans.reversed(), concurrency: 4)
            #expect(reports.map(\.endpoint) == ["comments", "issues", "repos"])
            #expect(reports.allSatisfy { $0.outcome == .changed }, "\(reports)")
            let comments = try fixture.rows("SELECT id, issue_id, _parent FROM comments ORDER BY id")
            #expect(comments.count == 8)
            #expect(comments.first.map { "\($0.integer("id") ?? 0) \($0.integer("issue_id") ?? 0)" } == "100101 1001")
        }
    }

    @Test("a primary key may include a parent column: the same number under two parents is two rows")
    func keyWithParentColumn() async throws {
        try await withGitHub { upstream in
            let toml = upstream.toml().replacingOccurrences(
                of: #"primary_key = ["id"]"# + "\ncolumns = { id = { type = \"integer\" }, number",
                with: #"primary_key = ["repo_id", "number"]"# + "\ncolumns = { id = { type = \"integer\" }, number")
            #expect(toml.contains(#"["repo_id", "number"]"#))
            let fixture = try SyncFixture(toml: toml)
            _ = try await fixture.sync("repos")
            let report = try await fixture.sync("issues")
            #expect(report.inserted == 6, "\(report)")
            #expect(try fixture.scalar("SELECT count(DISTINCT number) FROM issues") == .integer(2))
        }
    }

    @Test("Jira-like: project → issues, startAt paging inside each child, the key made with the parent's")
    func jiraProjects() async throws {
        try await withTestUpstream { upstream in
            upstream.setJSON("/rest/api/2/project", #"[{"id": "1", "key": "PRJ"}, {"id": "2", "key": "OPS"}]"#)
            upstream.route("/rest/api/2/search") { request in
                JiraSearch.answer(request, count: request.query["jql"] == "project=PRJ" ? 5 : 2)
            }
            let fixture = try SyncFixture(
                toml: """
                    [[endpoint]]
                    name = "projects"
                    url = "\(upstream.url("/rest/api/2/project"))"
                    records = "$"
                    primary_key = ["key"]
                    columns = { key = "key", id = "id" }

                    [[endpoint]]
                    name = "jira_issues"
                    parent = "projects"
                    url = "\(upstream.url("/rest/api/2/search?jql=project%3D{parent.key}"))"
                    records = "issues"
                    primary_key = ["project", "key"]
                    columns = { key = "key", summary = { path = "fields.summary" } }
                    parent_columns = { project = "key" }
                    pagination = { type = "offset", param = "startAt", limit_param = "maxResults", limit = 2, total_path = "total" }
                    """)
            _ = try await fixture.sync("projects")
            let report = try await fixture.sync("jira_issues")
            #expect(report.outcome == .changed && report.inserted == 7 && report.pages == 4, "\(report)")
            let searches = upstream.requests.map(\.uri).filter { $0.hasPrefix("/rest/api/2/search") }.sorted()
            #expect(
                searches == [
                    "/rest/api/2/search?jql=project%3DOPS&startAt=0&maxResults=2",
                    "/rest/api/2/search?jql=project%3DPRJ&startAt=0&maxResults=2",
                    "/rest/api/2/search?jql=project%3DPRJ&startAt=2&maxResults=2",
                    "/rest/api/2/search?jql=project%3DPRJ&startAt=4&maxResults=2",
                ])
            let rows = try fixture.rows("SELECT project, key FROM jira_issues ORDER BY project, key")
            #expect(
                rows.map { "\($0.text("project") ?? "")/\($0.text("key") ?? "")" }.prefix(3) == [
                    "OPS/PRJ-1", "OPS/PRJ-2", "PRJ/PRJ-1",
                ])
        }
    }
}
