import Foundation
import SyncCore
import SyncTesting
import Testing

/// `SyncCache.readOnce`: one read of an SQLite store on the calling thread, as `syncd get` and `syncd query` read.
@Suite("library: SyncCache.readOnce, one read on the calling thread")
struct SyncCacheReadOnceTests {
    @Test("it reads what a pooled cache reads: the same records, tags and documents")
    func sameAsPooled() async throws {
        let (cache, fixture, files) = try await SyncCacheReadingTests.store()
        defer { _ = (fixture, files) }
        let store = SyncStore.sqlite(path: fixture.directory.file("cache.db"))
        let pooled = try await cache.read { reader in
            (try reader.records(from: "users").json, try reader.record(from: "regions", key: ["pe", "15"])?.etag)
        }
        let once = try #require(
            try SyncCache.readOnce(store) { reader in
                (
                    try reader.records(from: "users").json,
                    try reader.record(from: "regions", key: ["pe", "15"])?.etag,
                    try reader.document(from: "flags")?.etag, try reader.record(from: "users", key: ["99"])
                )
            })
        #expect(once.0 == pooled.0 && once.0.count == 4)
        #expect(once.1 == pooled.1 && once.1 != nil)
        #expect(once.2 != nil && once.3 == nil)
        let table = try #require(try SyncCache.readOnce(store) { reader in try reader.records(from: "users").table })
        #expect(table.json == pooled.0 && table.columns.contains("name") && table.rows.count == 4)
    }

    @Test("a store's errors come as the reader's: an unknown endpoint, a bad query")
    func errors() async throws {
        let (_, fixture, files) = try await SyncCacheReadingTests.store()
        defer { _ = (fixture, files) }
        let store = SyncStore.sqlite(path: fixture.directory.file("cache.db"))
        #expect(throws: SyncError.unknownEndpoint) { try SyncCache.readOnce(store) { try $0.records(from: "nope") } }
        #expect(throws: SyncError.badQuery) {
            try SyncCache.readOnce(store) { try $0.records(from: "users", .init(filters: [.equal("x", "1")])) }
        }
    }

    @Test("a file that is not a database, or one of an older version, cannot be opened; a store not SQLite gives nil")
    func refusals() throws {
        let files = try TemporaryDirectory()
        let garbage = files.file("garbage.db")
        try Data("not a database, not at all: sixteen bytes and more".utf8).write(to: URL(fileURLWithPath: garbage))
        let notDatabase = #expect(throws: SyncError.cannotOpen) {
            try SyncCache.readOnce(.sqlite(path: garbage)) { try $0.statuses() }
        }
        #expect(notDatabase?.description.contains("garbage.db") == true)
        // An empty database: SQLite opens it, and it holds none of syncd's migrations.
        let empty = files.file("empty.db")
        try Data().write(to: URL(fileURLWithPath: empty))
        let unmigrated = #expect(throws: SyncError.cannotOpen) {
            try SyncCache.readOnce(.sqlite(path: empty)) { try $0.statuses() }
        }
        #expect(unmigrated?.description.contains("not migrated to this version of syncd") == true)
        #expect(try SyncCache.readOnce(.memory()) { try $0.statuses() } == nil)
    }
}
