import Foundation
import SampleUpstream
import SyncPostgres
import SyncTesting
import Testing

@testable import SyncCore

/// A child endpoint's parent counts, kept with the run they describe in every store and read through SyncCore's
/// public door (``SyncCache/statuses()``): a successful run's, a failed walk's (with `failed = 1`, the data as it
/// was), and none for an endpoint without a parent.
@Suite("fan-out: the last run's parent counts, kept")
struct FanOutCountsTests {
    @Test("SQLite keeps each run's parent counts, a failed walk's with failed = 1 and the data unchanged")
    func sqlite() async throws {
        let directory = try TemporaryDirectory()
        try await Self.checkCounts { configuration in
            try SyncCache(store: .sqlite(path: directory.file("cache.db")), configuration: configuration)
        }
    }

    @Test("the in-memory store keeps each run's parent counts, a failed walk's with failed = 1 and the data unchanged")
    func memory() async throws {
        try await Self.checkCounts { configuration in try SyncCache(store: .memory(), configuration: configuration) }
    }

    /// The status of `name`.
    static func status(_ name: String, _ cache: SyncCache) async throws -> SyncCache.EndpointStatus {
        try #require(try await cache.statuses().first { $0.name == name })
    }

    /// repos → issues, three repositories of two issues, walked one at a time (so that the walks before a failed one
    /// are known): each run's counts replace the last ones, a failed walk's included, and `repos` has none.
    static func checkCounts(_ open: (SyncConfiguration) throws -> SyncCache) async throws {
        try await withGitHub { upstream in
            let configuration = try SyncConfiguration.parse(
                upstream.toml(issues: "parent_concurrency = 1"), sourcePath: "syncd.toml")
            let cache = try open(configuration)
            do {
                try await check(cache, upstream: upstream)
            } catch {
                try? await cache.shutdown()  // best effort: the check's error is the one to report
                throw error
            }
            try await cache.shutdown()
        }
    }

    private static func check(_ cache: SyncCache, upstream: GitHubUpstream) async throws {
        _ = try await cache.sync("repos")
        let first = try await cache.sync("issues")
        #expect(first.outcome == .changed, "\(first)")
        #expect(fanOutCounts(try await status("issues", cache).parents) == [3, 0, 0, 0, 0, 0])
        #expect(try await status("repos", cache).parents == nil)

        _ = try await cache.sync("issues")
        #expect(fanOutCounts(try await status("issues", cache).parents) == [3, 3, 0, 0, 0, 0])

        // Repository 1 gains an issue (a 200), 2 is unchanged (a 304), 3 is gone before the parent knows (a 404):
        // walked one at a time in key order, the third fails the run.
        upstream.org.addIssue(to: 1)
        upstream.org.deleteRepository(3)
        let failed = try await cache.sync("issues")
        #expect(failed.outcome == .failed && failed.fanOut == counts(walked: 2, notModified: 1, failed: 1))
        let kept = try await status("issues", cache)
        #expect(fanOutCounts(kept.parents) == [2, 1, 0, 0, 1, 0], "\(kept)")
        #expect(kept.lastError == "issues: parent 3: HTTP 404 Not Found from the upstream; kept the stored data")
        #expect(kept.recordCount == 6 && kept.version == 1, "\(kept)")
        // Repository 1's new issue was fetched, not stored.
        let stored = try await cache.records(Issue.self, from: "issues").values.map(\.id)
        #expect(stored == [1001, 1002, 2001, 2002, 3001, 3002])

        // The parent drops repository 3: the next run's counts replace the failed one's.
        _ = try await cache.sync("repos")
        _ = try await cache.sync("issues")
        #expect(fanOutCounts(try await status("issues", cache).parents) == [2, 1, 0, 0, 0, 0])
    }

    /// An issue as the upstream sends it.
    private struct Issue: Decodable {
        var id: Int
    }

    /// Counts with these values, the rest 0.
    private static func counts(walked: Int, notModified: Int, failed: Int) -> SyncSummary.FanOut {
        var counts = SyncSummary.FanOut()
        (counts.walked, counts.notModified, counts.failed) = (walked, notModified, failed)
        return counts
    }
}

@Suite("fan-out: the last run's parent counts, kept in PostgreSQL", .enabled(if: PostgresTestCluster.isAvailable))
struct FanOutCountsPostgresTests {
    @Test("PostgreSQL keeps each run's parent counts, a failed walk's with failed = 1 and the data unchanged")
    func postgres() async throws {
        let url = try await PostgresTestCluster.shared().makeDatabase()
        try await FanOutCountsTests.checkCounts { configuration in
            try SyncCache(store: .postgres(url: url), configuration: configuration)
        }
    }
}
