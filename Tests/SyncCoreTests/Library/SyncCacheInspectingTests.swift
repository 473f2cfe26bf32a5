import Foundation
import SyncCore
import SyncTesting
import Testing

/// What `syncd status` and `syncd sql` read, through the public API any program has: each endpoint's health, and SQL
/// that only reads.
@Suite("library: SyncCache says how its endpoints are, and runs read-only SQL")
struct SyncCacheInspectingTests {
    /// A cache with the three users synced, and one that reads the same file.
    private static func synced(_ files: TemporaryDirectory) async throws -> SyncCache {
        let configuration = try SyncConfiguration(endpoints: [try SyncCacheSyncingTests.users(files)])
        let writer = try SyncCache(path: files.file("cache.db"), configuration: configuration)
        _ = try await writer.sync("users")
        try await writer.shutdown()
        return try SyncCache(readingFrom: files.file("cache.db"), configuration: configuration)
    }

    @Test("each endpoint's status is what its last run left")
    func statuses() async throws {
        let files = try TemporaryDirectory()
        let cache = try await Self.synced(files)
        let statuses = try await cache.statuses()
        #expect(statuses.map(\.name) == ["users"])
        let users = try #require(statuses.first)
        #expect(users.kind == "collection" && users.recordCount == 3 && users.version == 1)
        #expect(users.lastStatus == 200 && users.consecutiveFailures == 0 && users.lastError == nil)
        #expect(users.lastSuccessAt != nil && users.lastNode == nil)
    }

    @Test("SQL that reads returns each statement's rows; a statement with none returns nothing")
    func reads() async throws {
        let files = try TemporaryDirectory()
        let cache = try await Self.synced(files)
        let results = try await cache.sql(
            "SELECT count(*) AS n, max(name) AS last FROM users; SELECT id FROM users WHERE id > 99; SELECT x'6869' AS b"
        )
        #expect(
            results == [
                SyncCache.SQLRows(columns: ["n", "last"], rows: [[.integer(3), .text("Cyd")]]),
                SyncCache.SQLRows(columns: ["b"], rows: [[.blob(Array("hi".utf8))]]),
            ])
        #expect(results.last?.rows.first?.first?.json == #""hi""#)
        #expect(SyncCache.SQLValue.real(.infinity).json == "null" && SyncCache.SQLValue.null.text == nil)
    }

    @Test("SQL that would write is refused, and nothing of it runs; SQL that fails says why")
    func refusals() async throws {
        let files = try TemporaryDirectory()
        let cache = try await Self.synced(files)
        let refused = await #expect(throws: SyncError.refused) { try await cache.sql("DELETE FROM users") }
        #expect(refused?.description.hasPrefix("syncd sql only reads: \"DELETE FROM users\"") == true)
        await #expect(throws: SyncError.refused) { try await cache.sql("SELECT load_extension('x')") }
        let failed = await #expect(throws: SyncError.readFailed) { try await cache.sql("SELECT * FROM nope") }
        #expect(failed?.description == "the SQL failed: no such table: nope")
        #expect(try await cache.sql("SELECT count(*) FROM users").first?.rows == [[.integer(3)]])
        try SyncStore.sqlite(path: files.file("cache.db")).checkSQL("DELETE FROM users")
    }

    @Test(
        "records read as stored: each one's JSON as received, its columns' values, and the tags readers revalidate with"
    )
    func stored() async throws {
        let files = try TemporaryDirectory()
        let cache = try await Self.synced(files)
        let table = try await cache.table(from: "users", where: [.equal("active", "true")], order: [.descending("id")])
        #expect(table.columns == ["id", "name", "active"])
        #expect(table.rows == [[.integer(3), .text("Cyd"), .integer(1)], [.integer(1), .text("Ann"), .integer(1)]])
        #expect(table.json.first?.hasPrefix(#"{"id": 3, "name": "Cyd""#) == true)
        #expect(table.version == 1 && table.changedAt != nil)
        let record = try #require(try await cache.recordJSON(from: "users", key: ["2"]))
        #expect(record.value.hasPrefix(#"{"id": 2, "#) && record.version == 1)
        #expect(try await cache.recordJSON(from: "users", key: ["9"]) == nil)
        #expect(SyncCache.etag(record.etag, isMatchedBy: "\"other\", \(record.etag)"))
        #expect(
            SyncCache.etag(record.etag, isMatchedBy: "W/\(record.etag)")
                && SyncCache.etag(record.etag, isMatchedBy: "*"))
        #expect(!SyncCache.etag(record.etag, isMatchedBy: "\"ae7b89eefee77c3e.2\""))
        let notDocument = await #expect(throws: SyncError.badQuery) { try await cache.documentBody(from: "users") }
        #expect(notDocument?.description == #""users" is a collection endpoint: give the record's key"#)
        await #expect(throws: SyncError.unknownEndpoint) { try await cache.table(from: "nope") }
    }
}
