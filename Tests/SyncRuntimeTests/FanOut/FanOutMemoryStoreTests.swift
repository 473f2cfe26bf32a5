import Foundation
import Logging
import SampleUpstream
import SyncTesting
import Testing

@testable import SyncCore
@testable import SyncHTTP
@testable import SyncPersistence

/// The fan-out in the in-memory store: the same algorithm (SyncApply), the store's own reads and writes.
@Suite("fan-out: the in-memory store")
struct FanOutMemoryStoreTests {
    @Test("children stored with their parent columns, 304s keep them, a vanished parent's are deleted")
    func memoryStore() async throws {
        try await withGitHub { upstream in
            let store = try MemoryStore()
            let configuration = try SyncConfiguration.parse(upstream.toml(), sourcePath: "syncd.toml")
            let engine = SyncEngine(
                storage: store, transport: SchemeTransport(http: SharedTransport.http), environment: [:],
                logger: Logger(label: "test"), now: { 1_700_000_000 }, sleep: { _ in })
            let reports = await engine.sync(configuration.plans, concurrency: 2)
            #expect(reports.map(\.outcome) == [.changed, .changed], "\(reports)")
            let table = try #require(store.snapshot.tables["issues"])
            #expect(table.rows.count == 6)
            let repoID = try #require(table.positions(of: ["repo_id"])[0])
            #expect(table.rows[[.integer(2001)]]?.values[repoID] == .integer(2))
            #expect(store.snapshot.children["issues"]?.count == 3)

            let issues = try #require(configuration.plan(named: "issues"))
            let again = try #require(await engine.sync([issues], concurrency: 1).first)
            #expect(again.outcome == .notModified && again.fanOut?.notModified == 3, "\(again)")

            upstream.org.deleteRepository(1)
            let after = await engine.sync(configuration.plans, concurrency: 2)
            #expect(after.last?.deleted == 2 && after.last?.records == 4, "\(after)")
            #expect(store.snapshot.tables["issues"]?.tombstones.count == 2)
            #expect(store.snapshot.children["issues"]?.keys.sorted() == ["2", "3"])
        }
    }
}
