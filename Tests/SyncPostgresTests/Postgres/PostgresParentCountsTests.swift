import Logging
import PostgresNIO
import SyncTesting
import Testing

@testable import SyncCore
@testable import SyncPostgres

/// PostgreSQL's migration 5 gives syncd_endpoints its `parents` column, read back as input as SQLite's is.
@Suite("PostgresStore: migration 5, parent counts", .enabled(if: PostgresTestCluster.isAvailable))
struct PostgresParentCountsTests {
    @Test("an endpoint stored before migration 5 reads with no counts after it; a malformed value reads as none")
    func oldDatabase() async throws {
        let url = try await PostgresTestCluster.shared().makeDatabase()
        let location = try PostgresLocation(parsing: url)
        // A database at migration 4: the column and its record taken back out, an endpoint stored.
        let made = try await PostgresStore.open(location, password: nil, logger: PostgresStoreTests.logger)
        try await made.withSession { session in
            _ = try session.query("ALTER TABLE syncd_endpoints DROP COLUMN parents")
            _ = try session.query("DELETE FROM syncd_migrations WHERE version = 5")
            _ = try session.query(
                "INSERT INTO syncd_endpoints (name, kind, url, version, record_count) "
                    + "VALUES ('issues', 'collection', 'https://x', 4, 6)")
        }
        await made.close()

        let store = try await PostgresStore.open(location, password: nil, logger: PostgresStoreTests.logger)
        defer { Task { await store.close() } }
        func state() async throws -> EndpointState? {
            try await store.withSession { try PostgresSyncStorage.state(of: "issues", $0) }
        }
        let migrated = try #require(try await state())
        #expect(migrated.parents == nil && migrated.version == 4 && migrated.recordCount == 6)
        for (stored, expected) in [
            (#"{"walked":3,"not_modified":2,"empty":1,"skipped":4,"failed":1,"left":5}"#, [3, 2, 1, 4, 1, 5]),
            (#"{"walked":-3,"not_modified":2,"empty":1,"skipped":4,"failed":1,"left":5}"#, nil),
            ("not json", nil),
        ] {
            try await store.withSession { session in
                _ = try session.query("UPDATE syncd_endpoints SET parents = $1", [.text(stored)])
            }
            #expect(fanOutCounts(try await state()?.parents) == expected, "\(stored)")
        }
    }
}
