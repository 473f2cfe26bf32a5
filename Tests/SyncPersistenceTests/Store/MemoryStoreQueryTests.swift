import Foundation
import NIOCore
import SyncTesting
import Testing

@testable import SyncCore
@testable import SyncIngest
@testable import SyncSQLite

/// The in-memory store evaluates queries in Swift: every query here is run against it and against an SQLite file
/// holding the same records, and the two must answer alike — the same records in the same order, the same counts,
/// the same refusals — over NULLs, accents, case, pattern characters, numbers read as text, and timestamps.
@Suite("MemoryStore: queries mean what they mean in SQLite")
struct MemoryStoreQueryTests {
    static let people = [
        #"{"id": 7, "name": "Zoë", "score": 1e20, "active": true, "joined": "1999-12-31T23:59:59Z"}"#,
        #"{"id": 1, "name": "Ann", "city": "Oslo", "score": 1.5, "active": true, "joined": "2024-05-01T12:00:00Z"}"#,
        #"{"id": 2, "name": "ann", "city": "oslo", "score": 2, "active": false, "joined": null}"#,
        #"{"id": 3, "name": "Émile", "score": null, "joined": "2023-01-01"}"#,
        #"{"id": 4, "name": "émile", "score": -3.25, "active": true}"#,
        #"{"id": 5, "name": null, "score": 10, "active": false, "joined": "2024-05-01T12:00:00.5Z"}"#,
        #"{"id": 6, "name": "a_b%c*d", "score": 2.0}"#,
        #"{"id": 8, "name": "zoe", "city": "Åre", "score": 0}"#,
        #"{"id": 9, "name": "", "score": 100}"#,
        #"{"id": 10, "name": "a\\b", "score": 0.1}"#,
        #"{"id": -1, "name": "ANN", "score": -0.5}"#,
    ]

    static func filter(_ column: String, _ op: RecordFilter.Operator, _ values: String..., not: Bool = false)
        -> RecordFilter
    {
        RecordFilter(column: column, op: op, values: values, negated: not)
    }

    static let queries: [RecordQuery] = {
        var filters: [[RecordFilter]] = [
            [filter("name", .eq, "Ann")], [filter("name", .neq, "Ann")], [filter("name", .eq, "Ann", not: true)],
            [filter("name", .gt, "Z")], [filter("name", .lte, "a")], [filter("score", .gte, "2")],
            [filter("score", .lt, "2")], [filter("score", .eq, "0")], [filter("joined", .lte, "2024-01-01")],
            [filter("joined", .gt, "1714564800")], [filter("id", .gt, "3"), filter("active", .is, "true")],
            [filter("name", .like, "*nn")], [filter("name", .like, "_nn")], [filter("name", .like, "a\\_b*")],
            [filter("name", .like, "a_b%")], [filter("name", .like, "*")], [filter("name", .like, "a\\\\b")],
            [filter("name", .like, "a\\")], [filter("name", .like, "*[*")], [filter("name", .ilike, "ANN")],
            [filter("name", .ilike, "é*")], [filter("name", .ilike, "*E")], [filter("name", .ilike, "zo_")],
            [filter("name", .ilike, "%", not: true)], [filter("score", .like, "2*")],
            [filter("score", .like, "1.0e+20")], [filter("score", .like, "-3*")], [filter("id", .like, "1*")],
            [filter("active", .ilike, "1")], [filter("id", .in, "1", "3", "5", "99")], [filter("name", .in)],
            [filter("name", .in, not: true)], [filter("name", .in, "Ann", "zoe", not: true)],
            [filter("name", .is, "null")], [filter("name", .is, "NULL", not: true)], [filter("active", .is, "true")],
            [filter("active", .is, "false")], [filter("active", .is, "true", not: true)],
            [filter("name", .is, "true")], [filter("active", .eq, "false")], [filter("city", .gt, "P")],
            [filter("city", .ilike, "OSLO")], [filter("city", .in, "Åre", "oslo")],
        ]
        filters.append([])
        var queries = filters.map { RecordQuery(filters: $0) }
        for column in ["name", "score", "active", "joined", "id"] {
            for descending in [false, true] {
                for nullsFirst in [nil, true, false] as [Bool?] {
                    queries.append(
                        RecordQuery(order: [RecordOrder(column: column, descending: descending, nullsFirst: nullsFirst)]
                        )
                    )
                }
            }
        }
        queries.append(RecordQuery(order: [RecordOrder(column: "active"), RecordOrder(column: "name")]))
        queries.append(RecordQuery(order: [RecordOrder(column: "score")], limit: 3, offset: 2))
        queries.append(RecordQuery(filters: [filter("score", .gt, "0")], limit: 2, offset: 1))
        queries.append(RecordQuery(limit: 0))
        queries.append(RecordQuery(offset: 50))
        queries.append(RecordQuery(limit: -1, offset: -3))
        return queries
    }()

    /// Both stores, with each body (the people by default) synced into each in turn.
    static func stores(in directory: TemporaryDirectory, syncing bodies: [[String]] = [people]) async throws -> (
        endpoint: EndpointConfiguration, sqlite: any ReadStorage, memory: any ReadStorage
    ) {
        // The columns of PostgreSQL's differential tests: id, name, city, score, active, joined (a timestamp).
        let configuration = try SyncConfiguration.parse(
            ReadDifferentialFixture.toml, sourcePath: directory.file("syncd.toml"))
        let run = SyncRun(endpoint: try #require(configuration.plan(named: "people")))
        let database = try DatabaseQueue(path: directory.file("cache.db"))
        _ = try database.performBlocking { try Migrator.embedded.migrate($0) }
        let sqlite = SQLiteSyncStorage(database: database)
        let memory = try MemoryStore(spoolDirectory: directory.path)
        for body in bodies {
            for storage in [sqlite, memory] as [any SyncStorage] {
                let spool = BodySpool(directory: storage.spoolDirectory)
                try spool.append(ByteBuffer(string: "[" + body.joined(separator: ",") + "]"))
                _ = try await storage.applyCollection(
                    DecodedBody(spool: spool), run: run,
                    facts: { RunFacts(startedAt: 1_700_000_000, finishedAt: 1_700_000_001, httpStatus: 200, bytes: 10) }
                )
            }
        }
        return (run.endpoint, try SQLiteReadStorage(path: directory.file("cache.db")), memory)
    }

    /// What a store answers to a query, or the error it throws, comparable across stores.
    static func answer(
        _ query: RecordQuery, maxBytes: Int, of endpoint: EndpointConfiguration, in store: any ReadStorage
    )
        async -> String
    {
        do {
            let page = try await store.read {
                try $0.records(of: endpoint, query, countingAll: true, maxBytes: maxBytes)
            }
            return "\(page.total ?? -1) \(page.raws) \(page.rows)"
        } catch let error as StoreError {
            return "refused: \(error.description)"
        } catch {
            return "failed: \(error)"
        }
    }

    @Test("every operator, negation, order, NULL placement, limit and offset: the same records as SQLite")
    func sameAnswers() async throws {
        let directory = try TemporaryDirectory()
        let (endpoint, sqlite, memory) = try await Self.stores(in: directory)
        for query in Self.queries {
            for maxBytes in [Int.max, 150] {
                let expected = await Self.answer(query, maxBytes: maxBytes, of: endpoint, in: sqlite)
                let answered = await Self.answer(query, maxBytes: maxBytes, of: endpoint, in: memory)
                #expect(answered == expected, "\(query) (maxBytes \(maxBytes))")
            }
        }
    }

    @Test("refusals: an unknown column, a value that does not fit, an is that is not null/true/false, a bad key")
    func sameRefusals() async throws {
        let directory = try TemporaryDirectory()
        let (endpoint, sqlite, memory) = try await Self.stores(in: directory)
        let refused = [
            RecordQuery(filters: [Self.filter("nope", .eq, "1")]), RecordQuery(filters: [Self.filter("id", .eq, "x")]),
            RecordQuery(filters: [Self.filter("active", .is, "maybe")]),
            RecordQuery(filters: [Self.filter("joined", .lt, "yesterday")]),
            RecordQuery(order: [RecordOrder(column: "x")]),
        ]
        for query in refused {
            let expected = await Self.answer(query, maxBytes: .max, of: endpoint, in: sqlite)
            #expect(expected.hasPrefix("refused: "))
            #expect(await Self.answer(query, maxBytes: .max, of: endpoint, in: memory) == expected)
        }
        func lookup(_ key: [String], in store: any ReadStorage) async -> String {
            do {
                return try await store.read { try $0.record(of: endpoint, key: key) }.map { "\($0.raw) \($0.version)" }
                    ?? "none"
            } catch {
                return "refused: \(error)"
            }
        }
        for key in [["1"], ["x"], ["1", "2"], ["99"], ["-1"]] {
            #expect(await lookup(key, in: memory) == lookup(key, in: sqlite), "\(key)")
        }
    }

    @Test("the change feed walked one change at a time gives SQLite's changes, in SQLite's order")
    func sameFeed() async throws {
        let directory = try TemporaryDirectory()
        // The second sync changes Ann, deletes Émile and émile, and adds two people.
        var second = Self.people.filter { !$0.contains("mile") }.map {
            $0.replacingOccurrences(of: "1.5", with: "1.75")
        }
        second.insert(#"{"id": 12, "name": "Lu"}"#, at: 0)
        second.append(#"{"id": 11, "name": "Mo"}"#)
        let (endpoint, sqlite, memory) = try await Self.stores(in: directory, syncing: [Self.people, second])
        func walk(_ store: any ReadStorage, since: Int64) async throws -> [String] {
            var after: ChangePosition?
            var seen: [String] = []
            repeat {
                let part = try await store.read { [after] in
                    try $0.changes(of: endpoint, since: since, after: after, limit: 1, maxBytes: .max)
                }
                seen += part.changedKeys.map { "changed \($0)" } + part.deleted.map { "deleted \($0)" }
                seen.append("version \(part.version)")
                after = part.next
            } while after != nil
            return seen
        }
        #expect(try await walk(memory, since: 0) == walk(sqlite, since: 0))
        #expect(try await walk(memory, since: 1) == walk(sqlite, since: 1))
    }
}

/// A configuration that changes under stored records: the in-memory store adds, retypes and refills columns, and
/// refuses another key, as SQLite does.
@Suite("MemoryStore: a changed configuration is applied as SQLite applies it")
struct MemoryStoreSchemaTests {
    static func endpoint(_ columns: String, key: String = "id") throws -> EndpointConfiguration {
        let toml = """
            [[endpoint]]
            name = "people"
            url = "https://example.com/people"
            records = "$"
            primary_key = "\(key)"
            [endpoint.columns]
            \(columns)
            """
        return try #require(try SyncConfiguration.parse(toml, sourcePath: "syncd.toml").plan(named: "people"))
    }

    @Test("added and retyped columns are refilled from _raw by a 304; another key type is refused; both stores alike")
    func changedColumns() async throws {
        let directory = try TemporaryDirectory()
        let first = try Self.endpoint(#"id = { path = "id", type = "integer" }"# + "\nscore = \"score\"")
        let second = try Self.endpoint(
            #"id = { path = "id", type = "integer" }"# + "\n" + #"score = { path = "score", type = "real" }"#
                + "\ncity = \"city\"")
        let textKey = try Self.endpoint(#"id = { path = "id", type = "text" }"#)
        let database = try DatabaseQueue(path: directory.file("cache.db"))
        _ = try database.performBlocking { try Migrator.embedded.migrate($0) }
        let memory = try MemoryStore(spoolDirectory: directory.path)
        let stores: [(writes: any SyncStorage, reads: any ReadStorage)] = [
            (SQLiteSyncStorage(database: database), try SQLiteReadStorage(path: directory.file("cache.db"))),
            (memory, memory),
        ]
        let facts = { @Sendable in
            RunFacts(startedAt: 1_700_000_000, finishedAt: 1_700_000_001, httpStatus: 304, bytes: 0)
        }
        var answers: [String] = []
        for (writes, reads) in stores {
            let spool = BodySpool(directory: writes.spoolDirectory)
            try spool.append(ByteBuffer(string: "[" + MemoryStoreQueryTests.people.joined(separator: ",") + "]"))
            _ = try await writes.applyCollection(
                DecodedBody(spool: spool), run: SyncRun(endpoint: first), facts: facts)
            let report = try await writes.applyNotModified(run: SyncRun(endpoint: second), facts: facts)
            let page = try await reads.read { reader in
                try reader.records(
                    of: second,
                    RecordQuery(
                        filters: [RecordFilter(column: "score", op: .gt, values: ["1"])],
                        order: [RecordOrder(column: "city", nullsFirst: true)]), countingAll: true, maxBytes: .max)
            }
            let refusal = try await reads.read { try $0.incompatibility(with: textKey) }
            let unconfigured = try await reads.read { try $0.unconfiguredColumns(of: textKey) }
            let stored = try await reads.read { try $0.storedEndpoint(named: "people") }
            await #expect(throws: StoreError.primaryKeyTypeChanged) {
                try await writes.applyNotModified(run: SyncRun(endpoint: textKey), facts: facts)
            }
            answers.append(
                "\(report.outcome) \(report.version) \(page.total ?? -1) \(page.rows) \(String(describing: refusal)) "
                    + "\(unconfigured) \(stored?.columns.map(\.name) ?? []) \(stored?.primaryKey ?? [])")
        }
        #expect(answers.count == 2 && answers[0] == answers[1], "\(answers)")
        #expect(answers.first?.contains(#".text("Oslo")"#) == true, "the new column is filled")
    }

    @Test("a store that makes its folder for fetched bodies removes it when it goes")
    func spoolFolder() throws {
        var store: MemoryStore? = try MemoryStore()
        let folder = try #require(store?.spoolDirectory)
        #expect(FileManager.default.fileExists(atPath: folder))
        store = nil
        #expect(!FileManager.default.fileExists(atPath: folder))
    }
}
