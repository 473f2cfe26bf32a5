// A GitHub-like organization for child endpoints (fan-out): its repositories, each repository's issues, each
// issue's comments, with an ETag on every list, changeable between walks.

internal import Synchronization

/// A GitHub-shaped organization `acme`, answering as GitHub's REST API does, with an ETag on every answer (a request
/// carrying it gets a 304):
///
/// - `GET /orgs/acme/repos`: `[{"id": 1, "name": "repo-1", "full_name": "acme/repo-1", "pushed_at": "…"}, …]`;
/// - `GET /repos/acme/NAME/issues`: `[{"id": 1001, "number": 1, "title": "Issue 1 of repo-1"}, …]`, a 404 for a
///   repository the organization no longer has;
/// - `GET /repos/acme/NAME/issues/N/comments`: `[{"id": 100101, "body": "Comment 1 on acme/repo-1#1"}, …]`.
///
/// Tests change it between walks (``deleteRepository(_:)``, ``addIssue(to:)``, ``removeIssues(from:)``) and may make one path answer 429
/// with `Retry-After` a number of times (``rateLimit(_:times:)``).
package final class GitHubOrg: Sendable {
    private struct State {
        /// Each repository's issue count, by repository number, in order; a removed repository is gone.
        var repositories: [Int: Int] = [:]
        /// Comments per issue.
        var comments = 2
        /// Bumped when a repository's issues change, so that its `pushed_at` and ETags change.
        var pushes: [Int: Int] = [:]
        /// Paths that answer 429 so many more times.
        var limited: [String: Int] = [:]
    }

    private let state: Mutex<State>

    /// An organization of `repositories` repositories with `issues` issues each.
    package init(repositories: Int, issues: Int, comments: Int = 2) {
        var state = State()
        for number in 1...max(1, repositories) { state.repositories[number] = issues }
        state.comments = comments
        self.state = Mutex(state)
    }

    /// Removes repository `number`: the list no longer holds it, and its issues answer 404.
    package func deleteRepository(_ number: Int) {
        state.withLock { _ = $0.repositories.removeValue(forKey: number) }
    }

    /// Adds an issue to repository `number`, which moves its `pushed_at`.
    package func addIssue(to number: Int) {
        state.withLock { state in
            state.repositories[number, default: 0] += 1
            state.pushes[number, default: 0] += 1
        }
    }

    /// Empties repository `number`'s issues, which moves its `pushed_at`.
    package func removeIssues(from number: Int) {
        state.withLock { state in
            guard state.repositories[number] != nil else { return }
            state.repositories[number] = 0
            state.pushes[number, default: 0] += 1
        }
    }

    /// Makes `path` answer 429 with `Retry-After: 1` the next `times` times.
    package func rateLimit(_ path: String, times: Int) {
        state.withLock { $0.limited[path] = times }
    }

    /// The id of issue `number` of repository `repository`.
    package static func issueID(repository: Int, number: Int) -> Int { repository * 1000 + number }

    /// The answer to `request`.
    package func answer(_ request: UpstreamRequest) -> UpstreamResponse {
        let state = self.state.withLock { state in
            let snapshot = state
            if let left = state.limited[request.path], left > 0 { state.limited[request.path] = left - 1 }
            return snapshot
        }
        if let left = state.limited[request.path], left > 0 {
            return .json(
                Array(#"{"message": "API rate limit exceeded"}"#.utf8), status: 429, headers: [("Retry-After", "1")])
        }
        let parts = request.path.split(separator: "/").map(String.init)
        let body: String
        switch parts.count {
        case 3 where parts[0] == "orgs" && parts[2] == "repos":
            body =
                "["
                + state.repositories.keys.sorted().map { number in
                    #"{"id": \#(number), "name": "repo-\#(number)", "full_name": "acme/repo-\#(number)", "#
                        + #""pushed_at": "2026-01-01T00:00:\#(10 + (state.pushes[number] ?? 0))Z"}"#
                }.joined(separator: ", ") + "]"
        case 4 where parts[0] == "repos" && parts[3] == "issues":
            guard let repository = Self.number(parts[2]), let count = state.repositories[repository] else {
                return Self.notFound
            }
            body =
                "["
                + (0..<count).map { index in
                    #"{"id": \#(Self.issueID(repository: repository, number: index + 1)), "number": \#(index + 1), "#
                        + #""title": "Issue \#(index + 1) of repo-\#(repository)"}"#
                }.joined(separator: ", ") + "]"
        case 6 where parts[0] == "repos" && parts[3] == "issues" && parts[5] == "comments":
            guard let repository = Self.number(parts[2]), let count = state.repositories[repository],
                let issue = Int(parts[4]), (1...max(1, count)).contains(issue)
            else { return Self.notFound }
            let id = Self.issueID(repository: repository, number: issue)
            body =
                "["
                + (0..<state.comments).map { index in
                    #"{"id": \#(id * 100 + index + 1), "body": "Comment \#(index + 1) on acme/repo-\#(repository)#\#(issue)"}"#
                }.joined(separator: ", ") + "]"
        default:
            return Self.notFound
        }
        let etag = "\"\(Self.hash(body))\""
        if request.header("If-None-Match") == etag { return UpstreamResponse(status: 304, headers: [("ETag", etag)]) }
        return .json(Array(body.utf8), headers: [("ETag", etag)])
    }

    private static let notFound = UpstreamResponse.json(
        Array(#"{"message": "Not Found", "documentation_url": "https://docs.github.com/rest"}"#.utf8), status: 404)

    /// `repo-N`'s N.
    private static func number(_ name: String) -> Int? {
        name.hasPrefix("repo-") ? Int(name.dropFirst(5)) : nil
    }

    /// FNV-1a of `text`, in hex: an ETag that changes with the body (JiraProjectIssues' too).
    static func hash(_ text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        return String(hash, radix: 16)
    }
}
