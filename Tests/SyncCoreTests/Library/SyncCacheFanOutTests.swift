import Foundation
import SampleUpstream
import SyncCore
import SyncTesting
import Testing

/// Child endpoints from one's own program, through the public API alone: endpoints built in Swift, a child synced
/// after its parent, its records read back typed by their parent column, and the run's count of parents.
@Suite("library: child endpoints through SyncCache")
struct SyncCacheFanOutTests {
    struct Issue: Decodable, Sendable, Equatable {
        var id: Int
        var title: String
    }

    @Test("a child endpoint built in Swift syncs per parent row; its rows filter by parent column; counts per parent")
    func childFromCode() async throws {
        try await withGitHub { upstream in
            let files = try TemporaryDirectory()
            let repos = SyncEndpoint(
                name: "repos", url: upstream.url("/orgs/acme/repos"), records: "$", primaryKey: ["id"],
                columns: [.init("id", type: .integer), .init("full_name")])
            var issues = SyncEndpoint(
                name: "issues", url: upstream.url("/repos/{parent.full_name:path}/issues"), records: "$",
                primaryKey: ["id"], columns: [.init("id", type: .integer), .init("title")])
            issues.parent = "repos"
            issues.parentColumns = ["repo_id": "id"]
            issues.parentConcurrency = 2
            let cache = try SyncCache(
                path: files.file("cache.db"), configuration: try SyncConfiguration(endpoints: [repos, issues]))
            #expect(try await cache.sync("repos").inserted == 3)
            let first = try await cache.sync("issues")
            #expect(first.inserted == 6 && first.fanOut?.walked == 3 && first.fanOut?.notModified == 0, "\(first)")
            let second = try await cache.records(Issue.self, from: "issues", where: [.equal("repo_id", "2")])
            #expect(
                second.values == [
                    Issue(id: 2001, title: "Issue 1 of repo-2"), Issue(id: 2002, title: "Issue 2 of repo-2"),
                ])
            let again = try await cache.sync("issues")
            #expect(again.outcome == .notModified && again.fanOut?.notModified == 3, "\(again)")
            try await cache.shutdown()
        }
    }
}
