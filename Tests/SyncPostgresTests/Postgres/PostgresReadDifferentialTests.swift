import Foundation
import Logging
import NIOCore
import SyncTesting
import Testing

@testable import SyncCore
@testable import SyncIngest
@testable import SyncPostgres
@testable import SyncSQLite

/// The same records stored in SQLite and in PostgreSQL answer every read the same: filters of each operator on each
/// column type, orders with NULLs, pages capped by bytes, one record, and the change feed in capped parts. SQLite's
/// answers are the reference (its reads have their own tests); PostgreSQL must match them record for record.
@Suite("PostgreSQL reads answer as SQLite's do", .enabled(if: PostgresTestCluster.isAvailable))
struct PostgresReadDifferentialTests {
    /// 600 people (more than one cursor fetch), with NULLs, mixed case, accents and pattern characters in names.
    static func body(dropping dropped: Set<Int> = [], renaming renamed: Set<Int> = []) -> String {
        let cities = ["Berlin", "berlin", "Zürich", "Åre", "New York", "50%_off"]
        let records = (1...600).filter { !dropped.contains($0) }.map { id -> String in
            let name = renamed.contains(id) ? "Renamed \(id)" : (id % 7 == 0 ? "a*b \(id)" : "Person \(id)")
            let city = id % 11 == 0 ? "null" : "\"\(cities[id % cities.count])\""
            let score = id % 13 == 0 ? "null" : "\(Double(id % 50) / 4)"
            let active = id % 3 == 0 ? "true" : "false"
            let day = String(format: "%02d", id % 28 + 1)
            return
                #"{"id": \#(id), "name": "\#(name)", "city": \#(city), "score": \#(score), "active": \#(active), "joined": "2024-03-\#(day)T10:00:00+01:00"}"#
        }
        return "[" + records.joined(separator: ",\n") + "]"
    }

    let directory: TemporaryDirectory
    let run: SyncRun
    let sqlite: (writes: any SyncStorage, reads: any ReadStorage)
    let store: PostgresStore
    let postgres: (writes: any SyncStorage, reads: any ReadStorage)

    init() async throws {
        directory = try TemporaryDirectory()
        let configuration = try SyncConfiguration.parse(
            ReadDifferentialFixture.toml, sourcePath: directory.file("syncd.toml"))
        run = SyncRun(endpoint: try #require(configuration.plan(named: "people")))
        let database = try DatabaseQueue(path: directory.file("cache.db"))
        _ = try database.performBlocking { try Migrator.embedded.migrate($0) }
        sqlite = (SQLiteSyncStorage(database: database), try SQLiteReadStorage(path: directory.file("cache.db")))
        store = try await PostgresStore.open(
            try PostgresLocation(parsing: try await PostgresTestCluster.shared().makeDatabase()), password: nil,
            logger: Logger(label: "syncd.tests"))
        postgres = (
            PostgresSyncStorage(store: store, spoolDirectory: directory.path), PostgresReadStorage(store: store)
        )
    }

    /// Applies `json` to both storages.
    func apply(_ json: String) async throws {
        for storage in [sqlite.writes, postgres.writes] {
            let spool = BodySpool(directory: storage.spoolDirectory)
            try spool.append(ByteBuffer(string: json))
            _ = try await storage.applyCollection(
                DecodedBody(spool: spool), run: run,
                facts: { RunFacts(startedAt: 1_700_000_000, finishedAt: 1_700_000_001, httpStatus: 200, bytes: 1) })
        }
    }

    static let queries: [(String, RecordQuery)] = {
        func filter(_ column: String, _ op: RecordFilter.Operator, _ values: String..., negated: Bool = false)
            -> RecordQuery
        {
            RecordQuery(filters: [RecordFilter(column: column, op: op, values: values, negated: negated)])
        }
        return [
            ("everything", RecordQuery()),
            ("a page", RecordQuery(limit: 25, offset: 40)),
            ("id > 590", filter("id", .gt, "590")),
            ("name eq", filter("name", .eq, "Person 10")),
            ("city neq", filter("city", .neq, "Berlin")),
            ("city like B*", filter("city", .like, "B*")),
            ("city ilike b*", filter("city", .ilike, "b*")),
            ("name like a\\*b*", filter("name", .like, "a\\*b*")),
            ("city like 50\\%*", filter("city", .like, "50\\%*")),
            ("city in", filter("city", .in, "Zürich", "Åre")),
            ("city is null", filter("city", .is, "null")),
            ("not city is null", filter("city", .is, "null", negated: true)),
            ("active is true", filter("active", .is, "true")),
            ("active eq false", filter("active", .eq, "false")),
            ("score gte 10.5", filter("score", .gte, "10.5")),
            ("joined lt", filter("joined", .lt, "2024-03-05T09:00:00Z")),
            ("city gt b (bytes, not collation)", filter("city", .gt, "b")),
            ("order city desc", RecordQuery(order: [RecordOrder(column: "city", descending: true)], limit: 50)),
            ("order score nulls first", RecordQuery(order: [RecordOrder(column: "score", nullsFirst: true)])),
            (
                "order city, score desc",
                RecordQuery(order: [RecordOrder(column: "city"), RecordOrder(column: "score", descending: true)])
            ),
        ]
    }()

    @Test("every query: the same records in the same order, the same count, the same columns' values")
    func queries() async throws {
        try await apply(Self.body())
        let endpoint = run.endpoint
        for (label, query) in Self.queries {
            let expected = try await sqlite.reads.read {
                try $0.records(of: endpoint, query, countingAll: true, maxBytes: .max)
            }
            let got = try await postgres.reads.read {
                try $0.records(of: endpoint, query, countingAll: true, maxBytes: .max)
            }
            #expect(!expected.raws.isEmpty && (query.filters.isEmpty || expected.total ?? 0 < 600), "\(label) selects")
            #expect(got.raws == expected.raws, "\(label)")
            #expect(got.rows == expected.rows, "\(label)")
            #expect((got.total, got.version) == (expected.total, expected.version), "\(label)")
        }
        await store.close()
    }

    @Test("a byte budget ends a page at the same record; one record and a bad key read the same")
    func budgetsAndKeys() async throws {
        try await apply(Self.body())
        let endpoint = run.endpoint
        for budget in [1, 5_000, 40_000] {
            let expected = try await sqlite.reads.read {
                try $0.records(of: endpoint, RecordQuery(), countingAll: false, maxBytes: budget)
            }
            let got = try await postgres.reads.read {
                try $0.records(of: endpoint, RecordQuery(), countingAll: false, maxBytes: budget)
            }
            #expect(got.raws == expected.raws, "budget \(budget)")
        }
        let one = try await postgres.reads.read { try $0.record(of: endpoint, key: ["42"]) }
        let reference = try await sqlite.reads.read { try $0.record(of: endpoint, key: ["42"]) }
        #expect(one?.raw == reference?.raw)
        #expect(one?.version == reference?.version)
        await #expect(throws: StoreError.badKey) {
            try await postgres.reads.read { try $0.record(of: endpoint, key: ["forty-two"]) }
        }
        await store.close()
    }

    @Test("the change feed, whole and in capped parts, lists the same changes and deletions")
    func changeFeed() async throws {
        try await apply(Self.body())
        try await apply(Self.body(dropping: Set(stride(from: 5, through: 100, by: 5)), renaming: [1, 2, 300]))
        let endpoint = run.endpoint
        for since in [Int64(0), 1] {
            let expected = try await sqlite.reads.read { try $0.changes(of: endpoint, since: since) }
            let got = try await postgres.reads.read { try $0.changes(of: endpoint, since: since) }
            #expect(got.changed == expected.changed, "since \(since)")
            #expect(got.changedKeys == expected.changedKeys, "since \(since)")
            #expect(got.inserted == expected.inserted, "since \(since)")
            #expect(got.deleted == expected.deleted, "since \(since)")
            #expect(got.version == expected.version, "since \(since)")
        }
        // Walked in parts of 7 from version 1: the same changes in all, and each walk ends at the version.
        func walk(_ reads: any ReadStorage) async throws -> (changed: [String], deleted: [String], version: Int64) {
            var changed: [String] = []
            var deleted: [String] = []
            var after: ChangePosition?
            var since: Int64 = 1
            while true {
                let part = try await reads.read { [after, since] in
                    try $0.changes(of: endpoint, since: since, after: after, limit: 7, maxBytes: .max)
                }
                changed += part.changedKeys
                deleted += part.deleted
                guard let next = part.next else { return (changed, deleted, part.version) }
                after = next
                since = part.version
            }
        }
        let expected = try await walk(sqlite.reads)
        let got = try await walk(postgres.reads)
        #expect(got.changed == expected.changed)
        #expect(got.deleted == expected.deleted)
        #expect(got.version == expected.version)
        #expect(got.deleted.count == 20)
        await store.close()
    }
}
