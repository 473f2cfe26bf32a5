import Foundation
import SampleUpstream
import SyncTesting
import Testing

@testable import SyncCore

/// A child endpoint's table through the read API, as a reader sees it: its rows filtered by a parent column, and its
/// change feed, which carries the deletions of a vanished parent's children as any other.
@Suite("fan-out: child tables through the read API")
struct FanOutReadAPITests {
    static func json(_ answer: ReadAPIHarness.Answer) throws -> Any {
        try JSONSerialization.jsonObject(with: Data(answer.body.utf8))
    }

    @Test("the parent's key is a filterable column; the change feed holds a vanished repository's issues as deleted")
    func readChildren() async throws {
        try await withGitHub { upstream in
            let fixture = try SyncFixture(toml: upstream.toml())
            _ = try await fixture.sync("repos")
            #expect(try await fixture.sync("issues").inserted == 6)
            try await ReadAPIHarness.with(fixture) { api in
                let filtered = try await api.get("/v1/endpoints/issues/records?repo_id=eq.2&select=id,repo_id,repo")
                #expect(filtered.status == 200, "\(filtered.body)")
                let rows = try #require(try Self.json(filtered) as? [[String: Any]])
                #expect(rows.compactMap { $0["id"] as? Int } == [2001, 2002])
                #expect(rows.allSatisfy { $0["repo_id"] as? Int == 2 && $0["repo"] as? String == "repo-2" })
                let start = try #require(
                    try Self.json(try await api.get("/v1/endpoints/issues/changes?since=0")) as? [String: Any])
                #expect((start["changed"] as? [Any])?.count == 6)
                let version = try #require(start["version"] as? Int)

                upstream.org.deleteRepository(2)
                upstream.org.addIssue(to: 3)
                _ = try await fixture.sync("repos")
                let report = try await fixture.sync("issues")
                #expect(report.inserted == 1 && report.deleted == 2, "\(report)")

                let delta = try #require(
                    try Self.json(try await api.get("/v1/endpoints/issues/changes?since=\(version)")) as? [String: Any])
                #expect((delta["changed"] as? [[String: Any]])?.compactMap { $0["id"] as? Int } == [3003])
                #expect(delta["deleted"] as? [Int] == [2001, 2002])
                let gone = try await api.get("/v1/endpoints/issues/records?repo_id=eq.2")
                #expect(gone.status == 200 && gone.body == "[]", "\(gone.body)")
            }
        }
    }
}
