import Foundation
import Logging
import NIOCore
import PostgresNIO
import SyncTesting
import Testing

@testable import SyncCore
@testable import SyncIngest
@testable import SyncPostgres
@testable import SyncSQLite

/// What PostgresSyncStorage stores, read back with SQL: the rows and their `_raw`, tombstones, problems, and the
/// table's shape as the configuration changes. (What every storage does is StorageConformanceTests'.)
@Suite("PostgresSyncStorage: what lands in the tables", .enabled(if: PostgresTestCluster.isAvailable))
struct PostgresWriterTests {
    let directory: TemporaryDirectory
    let store: PostgresStore
    let storage: PostgresSyncStorage

    init() async throws {
        directory = try TemporaryDirectory()
        let url = try await PostgresTestCluster.shared().makeDatabase()
        store = try await PostgresStore.open(
            try PostgresLocation(parsing: url), password: nil, logger: Logger(label: "syncd.tests"))
        storage = PostgresSyncStorage(store: store, spoolDirectory: directory.path)
    }

    static func run(_ toml: String, in directory: TemporaryDirectory) throws -> SyncRun {
        let configuration = try SyncConfiguration.parse(
            """
            [[endpoint]]
            name = "users"
            url = "https://example.com/users"
            records = "$"
            \(toml)
            """, sourcePath: directory.file("syncd.toml"))
        return SyncRun(endpoint: try #require(configuration.plan(named: "users")))
    }

    static let plain = """
        primary_key = "id"
        [endpoint.columns]
        id = { path = "id", type = "integer" }
        name = "name"
        """

    func apply(_ json: String, _ run: SyncRun) async throws -> SyncSummary {
        let spool = BodySpool(directory: storage.spoolDirectory)
        try spool.append(ByteBuffer(string: json))
        return try await storage.applyCollection(DecodedBody(spool: spool), run: run, facts: Self.facts)
    }

    static let facts: @Sendable () -> RunFacts = {
        RunFacts(startedAt: 1_700_000_000, finishedAt: 1_700_000_001, httpStatus: 200, bytes: 10)
    }

    func rows(_ sql: String) async throws -> [[PostgresValue]] {
        try await store.withSession { session in
            try session.query(sql).rows.map { row in (0..<row.count).map { PostgresValue(cell: row[$0]) } }
        }
    }

    @Test("1,201 records go in several statements; a key repeated across them keeps its last record and is reported")
    func manyRecordsAndADuplicate() async throws {
        let run = try Self.run(Self.plain, in: directory)
        var records = (1...1200).map { #"{"id": \#($0), "name": "user \#($0)"}"# }
        records.append(#"{"id": 5, "name": "five again"}"#)
        let report = try await apply("[" + records.joined(separator: ",") + "]", run)
        #expect((report.inserted, report.records, report.receivedRecords) == (1200, 1200, 1201))
        #expect(try await rows(#"SELECT name FROM "users" WHERE id = 5"#) == [[.text("five again")]])
        let problems = try await rows("SELECT record_key, expected, action FROM syncd_errors")
        #expect(problems == [[.text("5"), .text("a unique key"), .text("replaced")]])
        await store.close()
    }

    @Test("a record's _raw is its exact text; a changed record is rewritten, an unchanged one is not")
    func rawAndUpdates() async throws {
        let run = try Self.run(Self.plain, in: directory)
        _ = try await apply(#"[{"id":1,  "name" : "Zoë ☃"}, {"id": 2, "name": "b"}]"#, run)
        #expect(
            try await rows(#"SELECT "_raw" FROM "users" WHERE id = 1"#) == [[.text(#"{"id":1,  "name" : "Zoë ☃"}"#)]])
        let second = try await apply(#"[{"id":1,  "name" : "Zoë ☃"}, {"id": 2, "name": "c"}]"#, run)
        #expect((second.inserted, second.updated, second.version) == (0, 1, 2))
        #expect(
            try await rows(#"SELECT id, "_version", "_created_version" FROM "users" ORDER BY id"#) == [
                [.integer(1), .integer(1), .integer(1)], [.integer(2), .integer(2), .integer(1)],
            ])
        await store.close()
    }

    @Test("a deleted key leaves a tombstone, which goes when the key comes back")
    func tombstones() async throws {
        let run = try Self.run(Self.plain, in: directory)
        _ = try await apply(#"[{"id": 1}, {"id": 2}, {"id": 3}]"#, run)
        _ = try await apply(#"[{"id": 1}, {"id": 2}]"#, run)
        #expect(try await rows("SELECT key, version FROM syncd_tombstones") == [[.text("3"), .integer(2)]])
        let back = try await apply(#"[{"id": 1}, {"id": 2}, {"id": 3}]"#, run)
        #expect((back.inserted, back.deleted) == (1, 0))
        #expect(try await rows("SELECT key FROM syncd_tombstones").isEmpty)
        await store.close()
    }

    @Test("composite keys: rows deleted by their whole key, tombstones keyed by a JSON array")
    func compositeKeys() async throws {
        let run = try Self.run(
            """
            primary_key = ["org", "id"]
            [endpoint.columns]
            org = "org"
            id = { path = "id", type = "integer" }
            """, in: directory)
        _ = try await apply(#"[{"org": "a", "id": 1}, {"org": "b", "id": 1}, {"org": "a", "id": 2}]"#, run)
        let report = try await apply(#"[{"org": "a", "id": 1}, {"org": "a", "id": 2}]"#, run)
        #expect(report.deleted == 1)
        #expect(try await rows("SELECT key FROM syncd_tombstones") == [[.text(#"["b",1]"#)]])
        #expect(try await rows(#"SELECT org, id FROM "users" ORDER BY org, id"#).count == 2)
        await store.close()
    }

    @Test("a column added to the configuration is filled from _raw on the next run, even a 304")
    func addedColumn() async throws {
        _ = try await apply(
            #"[{"id": 1, "name": "a", "email": "a@example.com"}]"#, try Self.run(Self.plain, in: directory))
        let wider = try Self.run(Self.plain + "\nemail = \"email\"", in: directory)
        let report = try await storage.applyNotModified(run: wider, facts: Self.facts)
        #expect((report.outcome, report.version) == (.notModified, 2))
        #expect(try await rows(#"SELECT email FROM "users""#) == [[.text("a@example.com")]])
        await store.close()
    }

    @Test("a primary key of another type is refused, and the stored rows stay")
    func keyTypeChange() async throws {
        _ = try await apply(#"[{"id": 1}]"#, try Self.run(Self.plain, in: directory))
        let retyped = try Self.run(
            """
            primary_key = "id"
            [endpoint.columns]
            id = "id"
            """, in: directory)
        await #expect(throws: StoreError.primaryKeyTypeChanged) { try await apply(#"[{"id": "x"}]"#, retyped) }
        #expect(try await rows(#"SELECT id FROM "users""#) == [[.integer(1)]])
        await store.close()
    }

    @Test("types follow the columns: booleans as 1/0, reals from whole numbers, timestamps as UTC text")
    func types() async throws {
        let run = try Self.run(
            """
            primary_key = "id"
            [endpoint.columns]
            id = { path = "id", type = "integer" }
            active = { path = "active", type = "boolean" }
            score = { path = "score", type = "real" }
            seen = { path = "seen", type = "timestamp" }
            meta = { path = "meta", type = "json" }
            """, in: directory)
        _ = try await apply(
            #"[{"id": 1, "active": true, "score": 3, "seen": "2024-05-01T12:00:00+02:00", "meta": {"a": [1]}}]"#, run)
        #expect(
            try await rows(#"SELECT active, score, seen, meta FROM "users""#) == [
                [.integer(1), .real(3), .text("2024-05-01T10:00:00.000Z"), .text(#"{"a": [1]}"#)]
            ])
        await store.close()
    }
    @Test("incremental: the cursor is stored, a deleted flag deletes with a tombstone, a future time is kept and said")
    func incremental() async throws {
        let toml = """
            mode = "incremental"
            primary_key = "id"
            incremental = { param = "since", column = "updated", deleted_flag = "deleted" }
            [endpoint.columns]
            id = { path = "id", type = "integer" }
            updated = { path = "updated", type = "timestamp" }
            """
        let run = try Self.run(toml, in: directory)
        // The same runs into SQLite, the reference.
        let database = try DatabaseQueue(path: directory.file("cache.db"))
        _ = try database.performBlocking { try Migrator.embedded.migrate($0) }
        let sqlite = SQLiteSyncStorage(database: database)
        let bodies = [
            #"[{"id": 1, "updated": "2023-11-14T10:00:00Z"}, {"id": 2, "updated": "2023-11-14T11:00:00Z"}]"#,
            #"[{"id": 2, "updated": "2023-11-14T12:00:00Z", "deleted": true}, {"id": 3, "updated": "9999-01-01T00:00:00Z"}]"#,
        ]
        for json in bodies {
            let report = try await apply(json, run)
            let spool = BodySpool(directory: directory.path)
            try spool.append(ByteBuffer(string: json))
            let reference = try await sqlite.applyCollection(DecodedBody(spool: spool), run: run, facts: Self.facts)
            #expect(
                (report.inserted, report.updated, report.deleted, report.version)
                    == (reference.inserted, reference.updated, reference.deleted, reference.version))
            #expect(report.recordProblems.map(\.found) == reference.recordProblems.map(\.found))
        }
        let state = try #require(try await storage.state(of: "users"))
        let referenceState = try #require(try await sqlite.state(of: "users"))
        #expect((state.cursor, state.cursorColumn) == (referenceState.cursor, referenceState.cursorColumn))
        #expect(state.cursor == "2023-11-14T12:00:00.000Z")
        #expect(try await rows(#"SELECT id FROM "users" ORDER BY id"#) == [[.integer(1)], [.integer(3)]])
        #expect(try await rows("SELECT key, version FROM syncd_tombstones") == [[.text("2"), .integer(2)]])
        await store.close()
    }
}
