// A Jira-like set of projects whose issues are listed per project and filtered by `updatedSince`, for an
// incremental child endpoint (each project's own cursor), with an ETag per project, changeable between walks.

internal import Synchronization

/// Jira-shaped projects and their issues, each issue with an `updated` timestamp and a `deleted` flag:
///
/// - `GET /rest/api/2/project`: `[{"id": "10", "key": "ALPHA", "name": "Project ALPHA"}, …]`;
/// - `GET /rest/api/2/project/KEY/issues?updatedSince=T`: the project's issues updated after `T` (all of them without
///   the parameter), `[{"id": "10001", "key": "ALPHA-1", "summary": "…", "updated": "2023-01-01T00:00:01Z",
///   "deleted": false}, …]`, a 404 for a project that does not exist.
///
/// A project's ETag is its issues' state, whatever the filter: a request carrying it gets a 304 while none of the
/// project's issues changed. Tests change issues between walks (``update(_:_:updated:summary:)``,
/// ``delete(_:_:updated:)``).
package final class JiraProjectIssues: Sendable {
    private struct Issue {
        var summary: String
        var updated: String
        var deleted = false
    }

    /// The projects' keys, in order, and each one's issues by number.
    private let projects: [String]
    private let issues: Mutex<[String: [Int: Issue]]>

    /// Projects named by `keys`, each with the issues `updated` lists: issue N of a project was last updated at the
    /// Nth time listed for it (RFC 3339 in UTC, all of one width, so that they order as text).
    package init(_ updated: [(key: String, issues: [String])]) {
        projects = updated.map(\.key)
        var issues: [String: [Int: Issue]] = [:]
        for (key, times) in updated {
            for (index, time) in times.enumerated() {
                issues[key, default: [:]][index + 1] = Issue(summary: "Issue \(index + 1) of \(key)", updated: time)
            }
        }
        self.issues = Mutex(issues)
    }

    /// Changes issue `number` of project `key` (adding it when new), updated at `updated`.
    package func update(_ key: String, _ number: Int, updated: String, summary: String) {
        issues.withLock { $0[key, default: [:]][number] = Issue(summary: summary, updated: updated) }
    }

    /// Marks issue `number` of project `key` deleted, at `updated`: it is still listed, with `"deleted": true`.
    package func delete(_ key: String, _ number: Int, updated: String) {
        issues.withLock { issues in
            issues[key]?[number]?.deleted = true
            issues[key]?[number]?.updated = updated
        }
    }

    /// The id of issue `number` of the project at `index` (from 0) of the projects.
    package static func issueID(project index: Int, number: Int) -> Int { (index + 1) * 10_000 + number }

    /// Two `[[endpoint]]`s of syncd.toml for this server at `baseURL`: `projects`, and `issues`, a child of it,
    /// incremental by `updated` with its deleted flag (`extra` added inside the `incremental` table).
    package static func endpointsTOML(baseURL: String, incremental extra: String = "") -> String {
        """
        [[endpoint]]
        name = "projects"
        url = "\(baseURL)/rest/api/2/project"
        records = "$"
        primary_key = ["id"]
        columns = { id = "id", key = "key" }

        [[endpoint]]
        name = "issues"
        parent = "projects"                 # one walk per project, with the project's own cursor
        url = "\(baseURL)/rest/api/2/project/{parent.key}/issues"
        records = "$"
        primary_key = ["id"]
        mode = "incremental"
        incremental = { param = "updatedSince", column = "updated", deleted_flag = "deleted"\(extra) }
        columns = { id = "id", key = "key", summary = "summary", updated = { type = "timestamp" } }
        parent_columns = { project = "key" }
        """
    }

    /// The answer to `request`.
    package func answer(_ request: UpstreamRequest) -> UpstreamResponse {
        let parts = request.path.split(separator: "/").map(String.init)
        guard parts.count >= 4, parts[0...3] == ["rest", "api", "2", "project"] else { return Self.notFound }
        if parts.count == 4 {
            let list = projects.enumerated().map { index, key in
                #"{"id": "\#((index + 1) * 10)", "key": "\#(key)", "name": "Project \#(key)"}"#
            }
            return .json(Array("[\(list.joined(separator: ", "))]".utf8))
        }
        guard parts.count == 6, parts[5] == "issues", let index = projects.firstIndex(of: parts[4]) else {
            return Self.notFound
        }
        let all = issues.withLock { $0[parts[4]] ?? [:] }.sorted { $0.key < $1.key }
        let json = all.map { number, issue in
            #"{"id": "\#(Self.issueID(project: index, number: number))", "key": "\#(parts[4])-\#(number)", "#
                + #""summary": "\#(issue.summary)", "updated": "\#(issue.updated)", "deleted": \#(issue.deleted)}"#
        }
        let etag = "\"\(GitHubOrg.hash(json.joined(separator: ",")))\""
        if request.header("If-None-Match") == etag { return UpstreamResponse(status: 304, headers: [("ETag", etag)]) }
        let since = request.query["updatedSince"]
        let listed = zip(all, json).filter { entry, _ in since.map { entry.value.updated > $0 } ?? true }.map(\.1)
        return .json(Array("[\(listed.joined(separator: ", "))]".utf8), headers: [("ETag", etag)])
    }

    private static let notFound = UpstreamResponse.json(
        Array(#"{"errorMessages": ["No project could be found."], "errors": {}}"#.utf8), status: 404)

}
