import Foundation
import SyncTesting
import Testing

@testable import SyncCore
@testable import SyncSQLite
@testable import SyncSupport

@Suite("store: cached reads and entity tags")
struct RecordReaderTests {
    static func fixture() async throws -> SyncFixture {
        let directory = try TemporaryDirectory()
        let path = directory.file("users.json")
        let users = [
            #"{"id": 1, "name": "Ann", "city": "Oslo", "active": true, "region": "eu"}"#,
            #"{"id": 2, "name": "Bob", "city": "Lima", "active": false, "region": "sa"}"#,
            #"{"id": 3, "name": "Cyd", "city": "Oslo", "active": true, "region": "eu"}"#,
            #"{"id": 4, "name": "Dee", "city": null, "active": true, "region": "na"}"#,
        ]
        try "[\(users.joined(separator: ","))]".write(toFile: path, atomically: true, encoding: .utf8)
        let fixture = try SyncFixture(
            toml: """
                [[endpoint]]
                name = "users"
                url = "\(URL(fileURLWithPath: path).absoluteString)"
                records = "$"
                primary_key = ["id"]

                [endpoint.columns]
                id = { path = "id", type = "integer" }
                name = "name"
                city = "city"
                active = { path = "active", type = "boolean" }
                """)
        _ = try await fixture.sync("users")
        _ = directory  // the file was read; the fixture's own directory holds the database
        return fixture
    }

    func ids(_ fixture: SyncFixture, _ query: RecordQuery) throws -> [Int64] {
        try fixture.read { database in
            try RecordReader(database: database, endpoint: try fixture.endpoint("users")).records(query).rows.compactMap
            {
                if case .integer(let id) = $0[0] { return id }
                return nil
            }
        }
    }

    @Test("filters, order, limit and offset")
    func filters() async throws {
        let fixture = try await Self.fixture()
        typealias F = RecordFilter
        #expect(try ids(fixture, RecordQuery(filters: [F(column: "city", op: .eq, values: ["Oslo"])])) == [1, 3])
        #expect(try ids(fixture, RecordQuery(filters: [F(column: "id", op: .gt, values: ["2"])])) == [3, 4])
        #expect(try ids(fixture, RecordQuery(filters: [F(column: "id", op: .in, values: ["1", "4"])])) == [1, 4])
        #expect(try ids(fixture, RecordQuery(filters: [F(column: "city", op: .is, values: ["null"])])) == [4])
        #expect(try ids(fixture, RecordQuery(filters: [F(column: "active", op: .is, values: ["false"])])) == [2])
        #expect(try ids(fixture, RecordQuery(filters: [F(column: "name", op: .like, values: ["*y*"])])) == [3])
        #expect(try ids(fixture, RecordQuery(filters: [F(column: "name", op: .ilike, values: ["b*"])])) == [2])
        #expect(
            try ids(fixture, RecordQuery(filters: [F(column: "city", op: .eq, values: ["Oslo"], negated: true)])) == [2]
        )
        #expect(try ids(fixture, RecordQuery(order: [.init(column: "name", descending: true)], limit: 2)) == [4, 3])
        #expect(try ids(fixture, RecordQuery(limit: 2, offset: 1)) == [2, 3])
    }

    @Test("like and ilike take % or * for a run, _ for one character and \\ before one to match it, as PostgREST")
    func patterns() async throws {
        let fixture = try await Self.fixture()
        func name(_ op: RecordFilter.Operator, _ pattern: String) throws -> [Int64] {
            try ids(fixture, RecordQuery(filters: [.init(column: "name", op: op, values: [pattern])]))
        }
        #expect(try name(.ilike, "%Y%") == [3])
        #expect(try name(.ilike, "*Y*") == [3])
        #expect(try name(.like, "%y%") == [3])
        #expect(try name(.like, "%Y%") == [])
        #expect(try name(.like, "C_d") == [3])
        #expect(try name(.ilike, "_o_") == [2])
        #expect(try name(.like, "C\\_d") == [])
        #expect(try name(.ilike, "b\\%") == [])
        #expect(try name(.like, "[A]nn") == [])
    }

    @Test("NULLs sort last ascending and first descending, as in PostgreSQL, unless the order says otherwise")
    func nullOrder() async throws {
        let fixture = try await Self.fixture()
        func city(descending: Bool = false, nullsFirst: Bool? = nil) throws -> [Int64] {
            try ids(
                fixture, RecordQuery(order: [.init(column: "city", descending: descending, nullsFirst: nullsFirst)]))
        }
        #expect(try city() == [2, 1, 3, 4])
        #expect(try city(descending: true) == [4, 1, 3, 2])
        #expect(try city(nullsFirst: true) == [4, 2, 1, 3])
        #expect(try city(descending: true, nullsFirst: false) == [1, 3, 2, 4])
    }

    @Test("a filter on a column that is not configured is refused, naming the columns")
    func unknownColumn() async throws {
        let fixture = try await Self.fixture()
        let error = try #require(throws: StoreError.self) {
            try ids(fixture, RecordQuery(filters: [.init(column: "region", op: .eq, values: ["eu"])]))
        }
        #expect(
            error.description
                == "\"region\" is not a configured column of \"users\" (its columns: id, name, city, active)")
    }

    @Test("one record comes back as received, with an ETag that moves only when it changes")
    func record() async throws {
        let fixture = try await Self.fixture()
        let record = try #require(
            try fixture.read {
                try RecordReader(database: $0, endpoint: try fixture.endpoint("users")).record(key: ["2"])
            })
        #expect(record.raw == #"{"id": 2, "name": "Bob", "city": "Lima", "active": false, "region": "sa"}"#)
        let instance = try #require(
            try fixture.scalar("SELECT value FROM syncd_meta WHERE key = 'instance'")?.textRepresentation)
        #expect(record.etag == "\"\(instance).1\"")
        #expect(
            try fixture.read {
                try RecordReader(database: $0, endpoint: try fixture.endpoint("users")).record(key: ["9"])
            } == nil)
        #expect(throws: StoreError.self) {
            try fixture.read {
                try RecordReader(database: $0, endpoint: try fixture.endpoint("users")).record(key: ["x"])
            }
        }
    }

    @Test(
        "If-None-Match: lists, weak comparison, * and malformed values",
        arguments: [
            (#""a.1""#, true), (#"W/"a.1""#, true), (#""x", "a.1""#, true), ("*", true), (#""a.2""#, false),
            ("a.1", false), (#""a.1"#, false), ("", false),
        ])
    func ifNoneMatch(header: String, matches: Bool) {
        #expect(EntityTag.ifNoneMatch(header, matches: #""a.1""#) == matches)
    }
}
