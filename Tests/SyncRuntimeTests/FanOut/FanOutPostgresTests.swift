import Foundation
import SampleUpstream
import SyncPostgres
import SyncTesting
import Testing

@testable import SyncCore

/// The fan-out in PostgreSQL: the same algorithm (SyncApply) over the store's own SQL — the parent's rows read, the
/// per-parent state in syncd_children, the child rows with their parent columns and `_parent`.
@Suite("fan-out: the PostgreSQL store", .enabled(if: PostgresTestCluster.isAvailable))
struct FanOutPostgresTests {
    @Test("children with their parent columns; 304s keep them; a vanished parent's are deleted; on_status per parent")
    func postgres() async throws {
        try await withGitHub { upstream in
            let url = try await PostgresTestCluster.shared().makeDatabase()
            let configuration = try SyncConfiguration.parse(
                upstream.toml(issues: #"on_status = { 404 = "empty" }"#), sourcePath: "syncd.toml")
            let cache = try SyncCache(store: .postgres(url: url), configuration: configuration)
            do {
                #expect(try await cache.sync("repos").records == 3)
                let first = try await cache.sync("issues")
                #expect(first.outcome == .changed && first.records == 6, "\(first)")
                let rows = try await cache.sql(
                    "SELECT id, repo_id, repo, _parent FROM issues WHERE repo_id = 2 ORDER BY id")
                #expect(
                    rows.first?.rows.map { $0.map { $0.text ?? "null" } } == [
                        ["2001", "2", "repo-2", "2"], ["2002", "2", "repo-2", "2"],
                    ])

                let again = try await cache.sync("issues")
                #expect(again.outcome == .notModified && again.fanOut?.notModified == 3, "\(again)")

                // Repository 3's issues now answer 404, an empty set by on_status, before the parent knows.
                upstream.org.deleteRepository(3)
                let emptied = try await cache.sync("issues")
                #expect(emptied.outcome == .changed && emptied.deleted == 2 && emptied.records == 4, "\(emptied)")
                // Repository 1 vanishes from the parent: its children go with it, in the child's next run.
                upstream.org.deleteRepository(1)
                #expect(try await cache.sync("repos").records == 1)
                let cascaded = try await cache.sync("issues")
                #expect(cascaded.deleted == 2 && cascaded.records == 2, "\(cascaded)")
                let states = try await cache.sql(
                    "SELECT parent_key FROM syncd_children WHERE endpoint = 'issues' ORDER BY parent_key")
                #expect(states.first?.rows.map { $0.first?.text } == ["2"])
                let tombstones = try await cache.sql(
                    "SELECT count(*) FROM syncd_tombstones WHERE endpoint = 'issues'")
                #expect(tombstones.first?.rows.first?.first?.text == "4")
            } catch {
                try? await cache.shutdown()
                throw error
            }
            try await cache.shutdown()
        }
    }
}
