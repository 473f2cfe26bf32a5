import Foundation
package import SampleUpstream
import SyncCore
import Synchronization

/// A loopback GitHub-like organization (``GitHubOrg``) that records the paths it was asked.
package final class GitHubUpstream: Sendable {
    package let org: GitHubOrg
    package let server: LoopbackHTTPServer
    private let asked = Mutex<[String]>([])
    private let repoHeaders = Mutex<[String]>([])

    private init(org: GitHubOrg, server: LoopbackHTTPServer) {
        self.org = org
        self.server = server
    }

    package static func start(repositories: Int, issues: Int) async throws -> GitHubUpstream {
        let org = GitHubOrg(repositories: repositories, issues: issues)
        let box = Mutex<GitHubUpstream?>(nil)
        let server = try await LoopbackHTTPServer.start { request in
            box.withLock { $0 }?.asked.withLock { $0.append(request.path) }
            if let header = request.header("X-Repo") { box.withLock { $0 }?.repoHeaders.withLock { $0.append(header) } }
            return org.answer(request)
        }
        let upstream = GitHubUpstream(org: org, server: server)
        box.withLock { $0 = upstream }
        return upstream
    }

    /// The paths asked, in order; `clear` forgets them.
    package func paths(clear: Bool = true) -> [String] {
        asked.withLock { paths in
            defer { if clear { paths.removeAll() } }
            return paths
        }
    }

    /// The `X-Repo` header values received, in order.
    package var headers: [String] { repoHeaders.withLock { $0 } }

    package func url(_ path: String) -> String { server.baseURL + path }

    /// The organization's syncd.toml: repos, their issues (`extra` added to the issues' stanza), and with `comments`
    /// each issue's comments.
    package func toml(issues extra: String = "", comments: Bool = false) -> String {
        var toml = """
            [[endpoint]]
            name = "repos"
            url = "\(url("/orgs/acme/repos"))"
            records = "$"
            primary_key = ["id"]
            columns = { id = { type = "integer" }, name = "name", full_name = "full_name", pushed_at = "pushed_at" }

            [[endpoint]]
            name = "issues"
            parent = "repos"
            url = "\(url("/repos/{parent.full_name:path}/issues?state=all"))"
            records = "$"
            primary_key = ["id"]
            columns = { id = { type = "integer" }, number = { type = "integer" }, title = "title" }
            parent_columns = { repo_id = "id", repo = "name" }
            \(extra)
            """
        if comments {
            toml += """

                [[endpoint]]
                name = "comments"
                parent = "issues"
                url = "\(url("/repos/acme/{parent.repo}/issues/{parent.number}/comments"))"
                records = "$"
                primary_key = ["id"]
                columns = { id = { type = "integer" }, body = "body" }
                parent_columns = { issue_id = "id" }
                """
        }
        return toml
    }

    package func stop() async throws { try await server.shutdown() }
}

/// Runs `body` with an upstream of `repositories` × `issues`, stopped after.
package func withGitHub(
    repositories: Int = 3, issues: Int = 2, _ body: (GitHubUpstream) async throws -> Void
) async throws {
    let upstream = try await GitHubUpstream.start(repositories: repositories, issues: issues)
    do {
        try await body(upstream)
    } catch {
        try await upstream.stop()
        throw error
    }
    try await upstream.stop()
}
