import Foundation
import SyncTesting
import Testing

@testable import SyncCore
@testable import SyncSQLite

/// Migration 9 gives syncd_endpoints its `parents` column: the last run's parent counts as a small JSON object,
/// which a reader takes as input — a database made before it reads with no counts, and a value syncd would not have
/// written reads as none.
@Suite("SQLite: migration 9, parent counts")
struct ParentCountsMigrationTests {
    @Test("an endpoint stored before migration 9 reads with no parent counts after it, its other state kept")
    func oldDatabase() throws {
        let directory = try TemporaryDirectory()
        let database = try Database(path: directory.file("a.db"))
        try Migrator(migrations: Array(Migrator.embedded.migrations.prefix(8))).migrate(database)
        try database.execute(
            """
            INSERT INTO syncd_endpoints (name, kind, url, version, record_count, last_status)
            VALUES ('issues', 'collection', 'https://x', 4, 6, 200)
            """)

        #expect(try Migrator.embedded.migrate(database).map(\.version) == [9, 10, 11])
        let state = try #require(try EndpointState.named("issues", database))
        #expect(state.parents == nil && state.version == 4 && state.recordCount == 6 && state.lastStatus == 200)
        try database.execute(
            #"UPDATE syncd_endpoints SET parents = '{"walked":3,"not_modified":2,"empty":1,"skipped":4,"failed":1,"left":5}'"#
        )
        let counts = try #require(try EndpointState.named("issues", database)?.parents)
        #expect(fanOutCounts(counts) == [3, 2, 1, 4, 1, 5])
    }

    @Test(
        "a stored value syncd would not write reads as no counts",
        arguments: [
            "", "null", "3", "[]", "{}", "not json", #"{"walked":3}"#,
            #"{"walked":-1,"not_modified":0,"empty":0,"skipped":0,"failed":0,"left":0}"#,
            #"{"walked":1.5,"not_modified":0,"empty":0,"skipped":0,"failed":0,"left":0}"#,
            #"{"walked":1e3,"not_modified":0,"empty":0,"skipped":0,"failed":0,"left":0}"#,
            #"{"walked":"3","not_modified":0,"empty":0,"skipped":0,"failed":0,"left":0}"#,
            #"{"walked":null,"not_modified":0,"empty":0,"skipped":0,"failed":0,"left":0}"#,
            #"{"walked":99999999999999999999,"not_modified":0,"empty":0,"skipped":0,"failed":0,"left":0}"#,
            #"{"walked":1000000000001,"not_modified":0,"empty":0,"skipped":0,"failed":0,"left":0}"#,
            #"{"walked":3,"not_modified":0,"empty":0,"skipped":0,"failed":0,"left":0"#,
            #"{"walked":3,"not_modified":0,"empty":0,"skipped":0,"failed":0,"left":0} x"#,
            #"{"walked":3,"not_modified":0,"empty":0,"skipped":0,"failed":0,"left":0,"pad":""#
                + String(repeating: "x", count: 600) + #""}"#,
        ])
    func malformed(_ stored: String) throws {
        let directory = try TemporaryDirectory()
        let database = try Database(path: directory.file("a.db"))
        try Migrator.embedded.migrate(database)
        try database.execute(
            "INSERT INTO syncd_endpoints (name, kind, url, parents) VALUES ('issues', 'collection', 'https://x', ?)",
            [.text(stored)])
        let state = try #require(try EndpointState.named("issues", database))
        #expect(state.parents == nil)
        #expect(state.name == "issues" && state.kind == "collection")
    }

    @Test("a value of another storage class (an integer, a blob) reads as no counts")
    func otherStorageClass() throws {
        let directory = try TemporaryDirectory()
        let database = try Database(path: directory.file("a.db"))
        try Migrator.embedded.migrate(database)
        try database.execute(
            """
            INSERT INTO syncd_endpoints (name, kind, url, parents) VALUES ('a', 'collection', 'https://x', 7),
            ('b', 'collection', 'https://x', x'7b7d')
            """)
        #expect(try EndpointState.all(database).map(\.parents) == [nil, nil])
    }

    @Test("the stored form reads back as the counts it was written from, whitespace and other fields allowed")
    func roundTrip() throws {
        var counts = SyncSummary.FanOut()
        (counts.walked, counts.notModified, counts.empty) = (12, 10, 1)
        (counts.skipped, counts.failed, counts.left) = (3, 1, 1_000_000)
        #expect(
            counts.storedJSON == #"{"walked":12,"not_modified":10,"empty":1,"skipped":3,"failed":1,"left":1000000}"#)
        #expect(SyncSummary.FanOut(storedJSON: counts.storedJSON) == counts)
        let spaced =
            #" { "left": 1000000, "failed": 1, "skipped": 3, "empty": 1, "not_modified": 10, "walked": 12, "x": [1] } "#
        #expect(SyncSummary.FanOut(storedJSON: spaced) == counts)
    }
}
